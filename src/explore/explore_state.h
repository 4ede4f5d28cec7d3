/* explore_state.h: the explorer's private state, shared by the loop (explorer.c), errors (errors.c) and the report (report.c); private to src/explore. */
#ifndef SYMPATH_EXPLORE_STATE_H
#define SYMPATH_EXPLORE_STATE_H

#include "util/util.h"
#include <stdio.h>
#include "../instrument/instrument.h"
#include "../emit/emit.h"
#include "../solver/solver.h"
#include "executor.h"
#include "explorer.h"
#include "strategy.h"
#include "tree.h"

/* One distinct error (kind + location); the first run that reached it is its reproducer. */
typedef struct error_rec {
    char *key; /* kind|signal|location: what makes two errors the same */
    error_kind kind;
    int signo;
    char *where; /* "file:line" */
    char *function;
    int number;    /* errors/error-NNN.xml, -1 if it could not be written */
    uint64_t hits; /* runs that reached it */
    double found_seconds;
    uint64_t found_exec;
    int unconfirmed; /* a time-out that could not be run again with a longer limit */
} error_rec;

/* The run an executor is busy with: the candidate it was solved for (for the divergence check). */
typedef struct pending_run {
    int has_cand;
    candidate cand;
    uint64_t *inputs; /* the inputs it was given (to confirm a time-out) */
    size_t ninputs;
} pending_run;

typedef struct explore_state {
    const explore_opts *o;
    expr_ctx *cx;
    tree *tree;
    strategy *st;
    solver *solver;
    suite_writer *suite;
    site_table sites;
    executor **ex;
    pending_run *pending;
    unsigned nex, running;

    uint8_t *covered;   /* per slot: covered by some run */
    uint8_t *slot_user; /* per slot: belongs to a user (not model) site */
    uint32_t nslots, user_slots, user_covered;

    error_rec *errors;
    uint32_t nerrors, errors_cap, errors_property, errors_other;

    uint8_t *taken; /* scratch for strategy feedback */
    uint32_t taken_cap;

    uint64_t execs, tests, divergences, timeouts, assume_failed, forks, dropped;
    uint64_t inputs_done; /* runs ended by the per-run input limit */
    /* Continuations: runs cut by the input limit, to be run again with their own inputs as
     * the given vector (which doubles their limit) when no candidate is left. */
    input_vec **cont;
    uint32_t ncont, cont_cap;
    uint64_t cont_dropped;               /* cut runs that will not be continued (queue full, or at the cap) */
    uint64_t slow_runs;                  /* runs over the time limit that ended under the longer confirmation limit */
    uint64_t optimistic, optimistic_sat; /* queries retried with the negated branch alone */
    uint64_t events_total, events_max, inputs_total;
    uint64_t conc[CONC_KIND_COUNT];
    uint64_t conc_fn[TRACE_CONC_FN_SLOTS]; /* external-call concretizations by callee id, all runs */
    double t0, exec_seconds, solve_seconds, last_cov_time, last_progress, total_seconds;
    const char *stop_reason;
    int exhausted, complete;
    int timeout_unconfirmed;               /* the run being processed timed out and could not be confirmed */
    int write_failed;                      /* a file of the suite could not be written: the exploration stops */
    int report_failed;                     /* report.json could not be written (there is none) */
    uint64_t db_fixtures, db_fixture_rows; /* fixtures written with kept tests, and their rows */
    unsigned cur_exec;                     /* executor of the run being processed */
    struct report_progress *progress;      /* OUT/stats and the progress display (src/report) */
    struct report_reasons *reasons;        /* at the end: why directions stay uncovered (src/report) */
} explore_state;

/* A new time-out is run again with this many times the limit before it counts as a hang. */
#define CONFIRM_FACTOR 5

/* ---- test files (explorer.c) ---- */

/* A file of the suite could not be written (most often: the disk is full): the exploration
 * stops (stop reason "write-error", exit code 1), the files already written stay complete.
 * Said once: msg (it names the path) or else what; e is the errno of the failure. */
void explore_output_failed(explore_state *s, const char *what, const char *msg, int e);
/* --db: the fixture of test case number num (file name pattern under out_dir) beside its XML.
 * When it cannot be written, every file of that stem goes (no test without its database)
 * and the exploration stops (explore_output_failed); returns -1 then, else 0. */
int explore_write_fixture(explore_state *s, const run_result *r, const char *pattern, int num);
/* The test case of run r (borrows r's arrays). */
void explore_fill_test_case(const run_result *r, test_case *tc);

/* ---- errors (errors.c) ---- */

/* The error key of a run (kind + location), what makes two errors the same; malloc'ed.
 * *where and *func receive the location (malloc'ed). */
char *explore_error_key(explore_state *s, const run_result *r, char **where, char **func);
/* 1 when an error with this key was recorded already. */
int explore_error_known(const explore_state *s, const char *key);
/* Record the run's error if it is new (writes its reproducer errors/error-NNN.xml and says
 * so on stderr); a known one counts a hit. Returns 1 when a reproducer was written (a
 * reproducer that cannot be written stops the exploration: explore_output_failed). */
int explore_handle_error(explore_state *s, const run_result *r);

/* ---- report (report.c, db_report.c) ---- */

/* Write <out_dir>/report.json (atomically). 0, or -1 with *err. */
int explore_write_report(const explore_state *s, char **err);
struct json_writer;
/* --db: write the fixture of run r beside test case `xml_path` (same name, .sql), atomically,
 * when the run read a fixture; counts it in s. 0, or -1 with *err (malloc'ed). */
int explore_db_write_fixture(explore_state *s, const run_result *r, const char *xml_path, char **err);
/* --db: the "database" object of report.json (per query site: SQL, understood, rows,
 * unsupported constructs by kind, time in SQLite), from the executors' log. */
void explore_db_report(struct json_writer *j, const explore_state *s);
/* --db: one or two summary lines (fixtures, rows, failed statements, fixture errors). */
void explore_db_print_summary(const explore_state *s, FILE *f);
/* Print the end-of-run summary (a few lines) to f. */
void explore_print_summary(const explore_state *s, FILE *f);

/* The branch site with this id (1-based, as in the trace and the tree), or NULL. */
static inline const site_info *explore_site(const explore_state *s, uint32_t id)
{
    return id >= 1 && id <= s->sites.nsites ? &s->sites.sites[id - 1] : NULL;
}

#endif
