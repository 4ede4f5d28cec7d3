/* explorer.h: the concolic exploration loop (LCT's test selector): runs, execution tree, solver, test suite. */
#ifndef SYMPATH_EXPLORER_H
#define SYMPATH_EXPLORER_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../emit/emit.h"
#include "../instrument/instrument.h"
/* Part of this interface: one run as the explorer sees it (run.h) and the executor that
 * produces it (executor.h); `sympath data` (src/data) runs its own executor with them. */
#include "executor.h"
#include "run.h"
#include "../util/util.h"

#define SYMPATH_VERSION "0.1"

struct par_link; /* proto.h: the link of a parallel exploration */
struct db_limits;

/* A kept test's inputs carried into an exploration with a larger database layout (db_layout.c):
 * values[0..n) as its run read them (malloc'ed), the fixture's first input (the first table's row
 * count) at db_start, UINT32_MAX when the run never opened the database. */
typedef struct explore_seed {
    uint64_t *values;
    uint32_t n, db_start;
} explore_seed;

/* One database layout an exploration ran with before the last (report.json "database.layouts_before"):
 * row slots per table, bytes per TEXT cell, its seconds, the branch directions covered and the
 * tests kept when it stopped, its executions. */
typedef struct explore_db_round {
    unsigned rows, text;
    double seconds;
    uint32_t covered;
    uint64_t tests, execs;
} explore_db_round;

typedef struct explore_opts {
    const char *out_dir;        /* existing output directory (tests/, errors/, report.json go here) */
    const char *exe_path;       /* instrumented executor (from build_executor) */
    const char *sites_path;     /* its site table */
    const char *work_dir;       /* scratch directory (executor output files) */
    const char *const *sources; /* the user's sources, for the report */
    size_t nsources;
    const char *strategy;               /* one of strategy_names; NULL = "cov" */
    double budget_seconds;              /* wall-time budget of the exploration, seconds (0 = none) */
    uint64_t max_execs;                 /* 0 = no limit */
    unsigned max_memory_mb;             /* sympath's own heap in use (util_heap_in_use: the execution tree, path
                                           conditions, Z3) at which the exploration stops, MiB, reason "memory"
                                           (KLEE's --max-memory); 0 = no limit */
    uint64_t max_tests;                 /* kept tests; 0 = no limit */
    uint64_t seed;                      /* for the random strategy */
    unsigned jobs;                      /* parallel executors (>= 1) */
    unsigned run_timeout_ms;            /* per-run wall-time limit, ms */
    unsigned mem_mb;                    /* per-run address-space limit, MiB (0 = none) */
    unsigned out_kb;                    /* per-run output cap, KiB */
    unsigned solver_timeout_ms;         /* per-query Z3 timeout, ms */
    uint32_t loop_bound;                /* see tree_new; 0 = unbounded */
    uint32_t max_depth;                 /* see tree_new; 0 = unbounded */
    uint32_t inputs_limit;              /* see executor_opts; 0 = no limit */
    int progress;                       /* nonzero: live progress line on stderr */
    double build_seconds;               /* time spent building, reported */
    const struct build_stats *build;    /* what the instrumenter did, reported (may be NULL) */
    volatile sig_atomic_t *interrupted; /* set asynchronously (Ctrl-C): stop cleanly; may be NULL */
    /* database applications (--db): NULL schema = none. The executors read the same schema,
     * limits and log path from the environment (SYMPATH_DB_*, set by the CLI). */
    const struct db_schema *db_schema; /* for writing fixtures (tests/test-NNNNN.sql) */
    unsigned db_rows, db_text;         /* row slots per table, bytes per TEXT cell (db_limits) */
    int no_db_minimize;                /* keep each test's fixture as solved (no db_minimize.c pass) */
    const char *db_log;                /* per-statement log the executors append to (report.json "database") */
    int db_pg;                         /* PostgreSQL fixture mode: fixtures as PostgreSQL INSERTs */
    const char *db_results_dir;        /* PostgreSQL: executor i's runs record their SELECTs' results in
                                           DIR/results-i.txt (env SYMPATH_DB_RESULTS), kept beside each test */
    /* Growing the layout (db_layout.c; one process, a time budget): nonzero db_grow stops the
     * exploration with stop reason "db-layout" when it stalls (no new branch direction for a fifth of
     * the budget, a quarter left, a branch site with a direction never taken) or is exhausted with
     * such a site and 2 s left; it then writes no report, and explore_summary.seeds holds every kept
     * test's inputs for the caller to run again with a larger layout. */
    int db_grow;
    const explore_seed *seeds; /* run first, after the all-zero run, even after Ctrl-C (each is one run) */
    size_t nseeds;
    const explore_db_round *db_rounds; /* the layouts before this one, for report.json */
    size_t ndb_rounds;
    /* Parallel exploration over a link made by the caller (--mpi: src/parallel): NULL = none
     * (then jobs > 1 makes explore_program fork `jobs` local workers itself). With a link,
     * endpoint 0 coordinates (owns the suite, report.json, the progress display; runs no
     * program) and endpoints 1..n are workers (docs/parallel.md). */
    struct par_link *link;
    /* Input diversification (diversify.c; `sympath unit`): NULL = off. After the exploration each
     * kept test (no error, one process) is solved again on its own path condition with input i
     * preferring, in order, the values prefs(name, type, width, value, i, v, max) puts in v
     * (returns how many, at most max; 0 leaves the input as the path's model has it); the new
     * inputs replace the test's only when their run has the same events, ending and coverage.
     * At most diversify_share of the budget (0.5 s at least). */
    unsigned (*diversify_prefs)(const char *name, unsigned type, unsigned width, uint64_t value, uint32_t i,
                                uint64_t *v, unsigned max);
    double diversify_share;
    /* nonzero: each kept test gets tests/test-NNNNN.cov, the user coverage slots its run covered
     * (decimal numbers, one line; not with jobs > 1): `sympath unit` minimizes its suite with them */
    int test_coverage;
    /* `sympath unit`'s mutation analysis: at most this many runs that covered nothing new, but a new
     * combination of user branch directions, written as tests/cand-NNNNN.xml and .cov (candidates.c);
     * only runs that reached the target's call (a mark), ended without an error and did not diverge; 0: none */
    unsigned candidates;
    /* `sympath unit`: the function under test (NULL outside it). Its own branch directions (the
     * slots of its sites) are kept in every test's coverage list whatever the phase
     * (explore_cov_list), and, with stop_when_saturated, all of them covered let the exploration
     * stop early, with reason "saturated", once the search strategy has no promising direction left
     * (strategy.h) and no run covered a new direction for as long as it took to cover the last one
     * (explorer.c, saturated); not with jobs > 1. A function with no branch of its own (a wrapper)
     * explores its whole share. */
    const char *unit_target;
    int stop_when_saturated;
} explore_opts;

/* The search strategies explore_opts.strategy may name, NULL-terminated: "cov" (default),
 * "dfs", "bfs", "random", "generational" (strategy.c). */
extern const char *const strategy_names[];

/* What the exploration found, for the caller's summary and exit code. */
typedef struct explore_summary {
    uint32_t slots_total, slots_covered; /* branch directions in user code */
    uint64_t tests, execs;
    uint32_t errors_property; /* reach_error / failed assertions */
    uint32_t errors_other;    /* abort, crashes, hangs */
    int complete;             /* the execution tree was exhausted without bounds/unknowns */
    const char *stop_reason;  /* static string: "exhausted", "budget", ... */
    double seconds;
    /* input diversification (explore_opts.diversify_prefs): tests given new inputs, tries whose run
     * left the path, tests not tried (the time share was spent), seconds */
    uint32_t diversified, div_rejected, div_skipped;
    uint32_t cands_diversified; /* candidate tests of the mutation analysis rewritten with diversified inputs */
    double div_seconds;
    /* stop reason "db-layout" (explore_opts.db_grow): every kept test's inputs, in the order they
     * were kept; the caller frees them with explore_seeds_free */
    explore_seed *seeds;
    size_t nseeds;
} explore_summary;

/* Free seeds[0..n) and the array. NULL ok. */
void explore_seeds_free(explore_seed *seeds, size_t n);
/* The seeds laid out for the limits `to` instead of `from` (db_fixture_relayout on the fixture part
 * of each; the inputs after it move by the difference; a seed whose run did not read the whole
 * fixture is copied as it is). malloc'ed array of n (free with explore_seeds_free); NULL when out of
 * memory. */
explore_seed *explore_seeds_relayout(const explore_seed *seeds, size_t n, const struct db_schema *schema,
                                     const struct db_limits *from, const struct db_limits *to);

/*
 * Explore the program: first run on an all-zero input vector, then repeatedly let the
 * strategy pick an open direction of the execution tree, solve its path condition and
 * run the executor on the model, until the tree is exhausted or a budget (time,
 * executions, tests) or *interrupted stops it. Tests that add branch coverage or reach
 * a new error are written as soon as they are found; report.json is written at the end
 * (and the summary printed on stderr). Returns 0, or -1 with *err (malloc'ed) when the
 * exploration could not start (executor does not start, bad strategy name, ...).
 */
int explore_program(const explore_opts *o, explore_summary *sum, char **err);

/* ---- pieces of the exploration that `sympath data` (src/data) shares ---- */

/* "reach_error", "assertion", "abort", "crash", "timeout", "out-of-memory" ("none" for
 * ERR_NONE): the kind's name in reports and error reproducers (errors.c). */
const char *error_kind_name(error_kind k);
/* 1 for property violations (reach_error, failed assertion), 0 for other terminations. */
int error_is_property(error_kind k);
/* The location in an error reproducer's description (errors/error-NNN.txt as errors.c writes
 * it): its `where:` line without the function after the last " in ", "buffer.c:56 (in strchr,
 * called from key_len)" (the first frame in the program, sympath's models named in parentheses).
 * malloc'ed; NULL when the description has no such line. */
char *explore_error_where(const char *description);

/*
 * Coverage over all runs (coverage.c), one byte per coverage slot of the site table.
 * explore_user_slots sets slot_user[slot] = 1 for the nslots slots that belong to a user
 * (non-model) site of t (slot_user: nslots bytes, zeroed by the caller) and returns how
 * many slots the user sites have. explore_merge_coverage merges one run's coverage bytes
 * (run_cov, nslots bytes, nonzero = taken) into covered[0..nslots) and returns the number
 * of user slots covered for the first time, also added to *user_covered.
 */
uint32_t explore_user_slots(const site_table *t, uint8_t *slot_user, uint32_t nslots);
uint32_t explore_merge_coverage(uint8_t *covered, const uint8_t *slot_user, uint32_t nslots, const uint8_t *run_cov,
                                uint32_t *user_covered);
/* A test's coverage list (tests/test-NNNNN.cov and cand-NNNNN.cov, `sympath unit`'s suite minimisation and refill): the user slots
 * of run_cov (nslots bytes, COV_BIT_* of proto/trace.h) as decimal numbers separated by spaces, then a
 * newline, appended to b; of a run that reached its mark (marked) only the slots taken after it (the
 * call of the target and what it calls, not the building of its inputs) and those of slot_target
 * (nslots bytes, nonzero: a slot of the function under test, taken in either phase: a construction
 * step may call it too, and gcov counts that; NULL: none). Out of memory: b is left short (strbuf). */
void explore_cov_list(strbuf *b, const uint8_t *slot_user, const uint8_t *slot_target, uint32_t nslots,
                      const uint8_t *run_cov, bool marked);

/* Open the Test-Comp suite in out_dir for the program whose (first) source is `source`:
 * metadata.xml names it with its SHA-256, entry main, the branch-coverage specification
 * and "sympath <version>" (explorer.c). NULL with *err (malloc'ed) on failure. */
suite_writer *explore_open_suite(const char *out_dir, const char *source, char **err);

/* ---- the `sympath run` pipeline (program.c), and the steps of it `sympath data` shares ---- */

/* Where a command builds: OUT/build, its executor and site table. */
typedef struct explore_paths {
    char build_dir[PATH_MAX];  /* OUT/build (also the exploration's scratch directory) */
    char exe[PATH_MAX + 16];   /* OUT/build/executor */
    char sites[PATH_MAX + 16]; /* OUT/build/sites.tsv */
} explore_paths;

/* Fill *p for the output directory `out` and create OUT/build (mkdir -p). Returns 0; -1 with
 * *err "cannot create OUT/build: <reason>"; -2 with *err "output path too long" (*err malloc'ed). */
int explore_prepare_out(const char *out, explore_paths *p, char **err);

/*
 * Build the instrumented executor p->exe and site table p->sites from the sources
 * (abs_sources: absolute paths; shown: the first source as the user gave it, named in the
 * "sympath: building X ..." line, "(and more)" when n > 1), with cflags (may be NULL), posix (may be NULL) and
 * interrupted (may be NULL) as in build_opts; the compiler is $SYMPATH_CC or clang-14.
 * cmd ("sympath run", "sympath data") prefixes the failure messages written to log.
 * Returns 0 with *bs filled (the caller reports the figures; free with build_stats_free);
 * 1 when the build failed (the compiler's diagnostics are in the message); 130 when
 * *interrupted was set during the build: the partial executor and site table are removed.
 */
int explore_build_program(const char *cmd, const explore_paths *p, char *const *abs_sources, size_t n,
                          const char *shown, const char *cflags, const struct sym_posix_opts *posix,
                          volatile sig_atomic_t *interrupted, build_stats *bs, FILE *log);

struct db_setup;
/*
 * Write OUT/build/replay.conf (atomically, by proto.h's one writer): sources, flags, the
 * replay library, the branch figures covered/total, nondet and POSIX lines, the SQLite
 * database lines when db->schema is set for SQLite, and the replay_pq.c line when replaypq
 * is set (db and posix may be NULL). Returns 0, or -1 after a "sympath: ..." message on log.
 */
int explore_write_replay_conf(const char *out, char *const *abs_sources, size_t n, const char *cflags,
                              const struct sym_posix_opts *posix, uint32_t covered, uint32_t total,
                              const struct db_setup *db, int replaypq, FILE *log);

/* What `sympath run` was asked to do: the parsed command line. All borrowed. */
typedef struct explore_run_opts {
    const char *out_dir;        /* OUT: tests/, errors/, report.json, build/ */
    const char *const *sources; /* the program's C files as given (>= 1) */
    size_t nsources;
    const char *cflags;           /* --cflags, or NULL */
    const char *compile_commands; /* --compile-commands file or directory (its flags go before cflags), or NULL */
    /* reads compile_commands for the sources (absolute paths): unit_compdb_flags, passed in by
     * the CLI because src/unit sits above explore; the malloc'ed flags, or NULL with *err */
    char *(*compdb_flags)(const char *db, const char *const *sources, size_t nsources, char **err);
    const char *db;                     /* --db: DDL or SQLite file, or a PostgreSQL conninfo; NULL: none */
    const char *db_scratch;             /* --db-scratch conninfo, or NULL */
    unsigned db_rows, db_text;          /* --db-rows, --db-text (row slots per table, bytes per TEXT cell) */
    int no_db_faults;                   /* --no-db-faults: no database call fails on purpose (db_setup.no_faults) */
    int no_db_grow;                     /* --no-db-grow: keep the layout (explore_opts.db_grow) */
    const struct sym_posix_opts *posix; /* --sym-args/--sym-stdin/--sym-file (may be NULL: none) */
    explore_opts explore;               /* strategy, budgets, limits, jobs, progress; the paths, sources,
                                         build, database and interrupted fields are set by explore_run */
    volatile sig_atomic_t *interrupted; /* set (by a signal handler) to stop; may be NULL */
    void (*before_build)(void);         /* called once just before the build (the CLI arms Ctrl-C there); may be NULL */
    FILE *log;                          /* messages ("sympath run: ..."); NULL: stderr */
    /* --mpi (src/parallel): called on the coordinator once the executor and site table are
     * built, before exploring (to ship them to the workers); nonzero stops with exit code 1.
     * May be NULL. */
    int (*after_build)(void *ctx, const explore_paths *paths);
    void *after_build_ctx;
} explore_run_opts;

/*
 * `sympath run` after option parsing: resolve the sources, add the --compile-commands
 * flags, create OUT/build, set up the database (--db: db_setup_run), build the executor,
 * write replay.conf, explore (explore_program), write replay.conf again with the
 * coverage; PostgreSQL scratch schemas are dropped on every path after the setup.
 * Returns the exit code: 0 when the exploration ran (whatever it found); 1 when a source
 * is unreadable, OUT/build cannot be created, the database setup, build, exploration or a
 * write failed; 2 when the compile_commands file is unusable or the output path too long;
 * 130 when *interrupted was set during the build (nothing explored, executor removed).
 */
int explore_run(const explore_run_opts *r);

/*
 * A worker of a parallel exploration whose executor and site table are already on this
 * machine (--mpi: received from the coordinator by src/parallel): explore_program with
 * r->explore (its link must be set, endpoint >= 1), exe and sites, and work_dir as scratch
 * directory (created). Writes no suite: kept runs go to the coordinator. Returns 0, or 1
 * after a "sympath run: ..." message on r->log when the worker could not start.
 */
int explore_run_worker(const explore_run_opts *r, const char *exe, const char *sites, const char *work_dir);

#endif
