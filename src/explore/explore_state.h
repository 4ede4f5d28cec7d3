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
#include "par_int.h"

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

struct par_job;
struct coord;

/* The run an executor is busy with: the candidate it was solved for (for the divergence check). */
/* Attempts at one target direction after runs that ended on a false assumption (assume_retry.c). */
#define ASSUME_RETRIES 4
#define RETRY_QUEUE_MAX 64

typedef struct pending_run {
    int has_cand;
    candidate cand;
    unsigned assume_retries;       /* earlier attempts at cand that ended on a false assumption */
    expr *assumed[ASSUME_RETRIES]; /* ... and those assumptions, solved with cand's path condition */
    struct par_job *job;           /* a worker's run of a job another worker gave (worker.c), or NULL */
    uint64_t *inputs;              /* the inputs it was given (to confirm a time-out) */
    size_t ninputs;
} pending_run;

typedef struct explore_state {
    const explore_opts *o;
    expr_ctx *cx;
    tree *tree;
    strategy *st;
    solver *solver;
    solver *min_solver; /* fixture minimization's own (its caches must not steer the search); NULL until used */
    suite_writer *suite;
    site_table sites;
    executor **ex;
    pending_run *pending;
    unsigned nex, running;

    uint8_t *covered;      /* per slot: covered by some run */
    uint8_t *slot_user;    /* per slot: belongs to a user (not model) site */
    uint8_t *slot_target;  /* per slot: belongs to a site of explore_opts.unit_target; NULL without one */
    uint32_t target_slots; /* how many */
    uint32_t nslots, user_slots, user_covered;

    error_rec *errors;
    uint32_t nerrors, errors_cap, errors_property, errors_other;
    /* crash locations resolved so far (errors.c): addr2line is a process or two per crash, and a
     * unit whose producer fails and whose target then dereferences NULL crashes at the same pc on
     * most runs (zserge/expr's expr_eval: 12 of 15 s went to addr2line) */
    struct crash_loc *crash_locs;
    uint32_t ncrash_locs;

    uint8_t *taken; /* scratch for strategy feedback */
    uint32_t taken_cap;

    uint64_t execs, tests, divergences, timeouts, assume_failed, forks, dropped;
    uint64_t inputs_done; /* runs ended by the per-run input limit */
    /* Continuations: runs cut by the input limit, to be run again with their own inputs as
     * the given vector (which doubles their limit) when no candidate is left. */
    input_vec **cont;
    uint32_t ncont, cont_cap;
    /* Targets solved again with the assumption their run broke (assume_retry.c), run before the
     * strategy's next candidate. */
    struct assume_retry *retry;
    uint32_t nretry;
    uint64_t assume_retries;             /* such re-solved runs started */
    uint64_t cont_dropped;               /* cut runs that will not be continued (queue full, or at the cap) */
    uint64_t slow_runs;                  /* runs over the time limit that ended under the longer confirmation limit */
    uint64_t hangs_confirmed;            /* time-outs that did not end under the longer limit either */
    uint64_t optimistic, optimistic_sat; /* queries retried with the negated branch alone */
    uint64_t pins_dropped;               /* UNSAT queries answered SAT without their concretizations (drop_pins) */
    uint64_t events_total, events_max, inputs_total;
    uint64_t conc[CONC_KIND_COUNT];
    uint64_t conc_fn[TRACE_CONC_FN_SLOTS]; /* external-call concretizations by callee id, all runs */
    double t0, exec_seconds, solve_seconds, last_cov_time, last_progress, total_seconds;
    const char *stop_reason;
    double mem_checked; /* when the heap in use was last measured against o->max_memory_mb (util_now_s) */
    uint64_t mem_peak;  /* the largest heap in use measured, bytes */
    int exhausted, complete;
    int timeout_unconfirmed;               /* the run being processed timed out and was not confirmed:
                                              UNCONFIRMED_NO_BUDGET or UNCONFIRMED_HANGS (0: confirmed) */
    int write_failed;                      /* a file of the suite could not be written: the exploration stops */
    int report_failed;                     /* report.json could not be written (there is none) */
    uint64_t db_fixtures, db_fixture_rows; /* fixtures written with kept tests, and their rows */
    uint64_t db_fault_tests;               /* of those, fixtures with an injected fault (runtime db_fault.c) */
    /* fixture minimization (db_minimize.c): tests simplified, simplifications whose run left the
     * path, solver queries, tests not tried (its time share was spent), seconds */
    uint64_t db_minimized, db_min_rejected, db_min_queries, db_min_skipped;
    uint64_t db_min_partial; /* of db_minimized: ended by the time or query limit (db_minimize.c) */
    double db_min_seconds;
    /* growing the database layout (db_layout.c): kept tests' inputs, the next explore_opts.seeds
     * entry to run, when the sites were last scanned for one half covered */
    explore_seed *kept_seeds;
    size_t nkept_seeds, kept_seeds_cap, seed_next;
    uint64_t last_cov_execs;    /* s->execs when the last new branch direction was covered */
    double layout_scan_at;      /* seconds since t0 of the last scan (util_now_s) */
    uint64_t layout_scan_execs; /* s->execs at the last scan (under a run budget) */
    int layout_scanned;
    struct min_entry *min_queue; /* kept tests to minimize at the end, newest first */
    uint64_t *cand_seen;         /* combinations of user branch directions seen (candidates.c), 8192 slots */
    unsigned ncand;              /* candidate tests written */
    struct div_entry *div_queue; /* kept tests to diversify at the end, newest first (diversify.c) */
    uint32_t diversified, div_rejected, div_skipped;
    uint32_t cands_diversified; /* candidate tests rewritten with diversified inputs (diversify.c) */
    double div_seconds;
    unsigned cur_exec;        /* executor of the run being processed (its number: exec_base + index) */
    unsigned exec_base;       /* number of executor 0 (a worker's: its endpoint) */
    const char *results_text; /* PostgreSQL: the recorded results of a worker's run the coordinator
                                               keeps (instead of reading results-<cur_exec>.txt), or NULL */
    size_t results_len;
    struct report_progress *progress; /* OUT/stats and the progress display (src/report) */
    struct report_reasons *reasons;   /* at the end: why directions stay uncovered (src/report) */

    /* every mode: the paths run (report.json "paths": distinct, duplicates, fingerprint) */
    pathset paths;
    /* ---- parallel exploration (worker.c, coordinator.c, docs/parallel.md) ---- */
    int par_role;          /* PAR_ALONE, PAR_COORDINATOR, PAR_WORKER */
    struct par_link *link; /* o->link, or the one par_local.c made */
    /* worker */
    uint64_t *new_hashes;  /* hashes of the paths run since the last STATS */
    uint8_t *new_diverged; /* per hash: the run diverged */
    uint32_t nnew_hashes, new_hashes_cap;
    struct par_job **jobq; /* jobs received, not yet run (oldest first) */
    uint32_t njobq, jobq_cap;
    tree_node **opened; /* directions a job run opened (collected, then kept or marked remote) */
    uint8_t *opened_dir;
    uint32_t nopened, opened_cap;
    int collect_opens;
    uint64_t jobs_sent, jobs_received, jobs_diverged, jobs_unsolved;
    double idle_seconds, job_seconds, last_stats_sent;
    uint64_t promising, promising_jobs; /* open directions toward uncovered branches, as of promising_at, when
                                           jobs sent + received was promising_jobs (worker.c: fill_figures) */
    double promising_at;
    char par_stop[32]; /* the coordinator's STOP reason, "" until then */
    /* coordinator */
    struct coord *coord;
    struct par_figures *agg; /* the workers' figures summed (report.c uses them), or NULL */
} explore_state;

enum { PAR_ALONE = 0, PAR_COORDINATOR, PAR_WORKER };

/* A new time-out is run again with this many times the limit before it counts as a hang. */
#define CONFIRM_FACTOR 5
/* ... unless this many time-outs were confirmed as hangs and none turned out to be a slow run:
 * then the program hangs, and each new place a run is stopped at would cost CONFIRM_FACTOR
 * times the limit again (an endless loop after the inputs stops at any of its branches). */
#define CONFIRM_HANGS_MAX 2
/* Why a time-out was not confirmed (explore_state.timeout_unconfirmed). */
enum { UNCONFIRMED_NO_BUDGET = 1, UNCONFIRMED_HANGS = 2 };

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
/* Free the crash locations error_location remembered (errors.c). */
void explore_crash_locs_free(explore_state *s);
/* 1 when an error with this key was recorded already. */
int explore_error_known(const explore_state *s, const char *key);
/* Record the run's error if it is new (writes its reproducer errors/error-NNN.xml and says
 * so on stderr); a known one counts a hit. Returns 1 when a reproducer was written (a
 * reproducer that cannot be written stops the exploration: explore_output_failed). */
int explore_handle_error(explore_state *s, const run_result *r);

/* ---- the loop's steps the parallel parts share (explorer.c) ---- */

/* Set up s for o (s zeroed, s->t0, s->par_role and s->link set): site table, coverage,
 * tree, solver, strategy; unless a worker: the suite, old reports removed, the progress
 * display; unless the coordinator: the executors. 0, or -1 with *err (malloc'ed). */
int explore_setup(explore_state *s, const explore_opts *o, char **err);
/* Free everything s holds. */
void explore_teardown(explore_state *s);
/* The end of an exploration (s->complete, s->stop_reason set): final progress sample,
 * reasons.tsv, report.json, errors.sarif, the summary on stderr, *sum. 0, or -1 with *err
 * when a file of the suite could not be written. */
int explore_finish(explore_state *s, explore_summary *sum, char **err);
/* Why directions stay uncovered (OUT/build/reasons.tsv, src/report): add(ctx, site, dir,
 * why) for every direction of a user branch site no run took (not remote), with its
 * status name; dir is the direction index within the site, REPORT_DIR_ANY with
 * "concretization" for a concretization after the site. */
typedef void explore_reason_fn(void *ctx, uint32_t site, uint32_t dir, const char *why);
void explore_walk_reasons(explore_state *s, explore_reason_fn *add, void *ctx);
/* A progress sample (OUT/stats, display) when one is due, or always when final. */
void explore_progress(explore_state *s, int final);

/* Solve the path condition of (node, dir) (optimistic solving when Z3 cannot answer) with
 * the per-query time-out lowered to what is left of the budget. SAT: *inputs (malloc'ed),
 * *n. The caller sets the direction's status. */
solve_result explore_solve_direction(explore_state *s, tree_node *node, int dir, uint64_t **inputs, size_t *n);
/* The same for a path condition pc[0..npc) (the target last) with the parent run's inputs
 * pv[0..pn) for the symbols the condition leaves free (a job's, worker.c). */
solve_result explore_solve_pc(explore_state *s, expr **pc, size_t npc, const uint64_t *pv, size_t pn, uint64_t **inputs,
                              size_t *n);
/* After an UNSAT answer for pc[0..npc), whose concretizations (BK_CONCRETIZE constraints
 * before the target) the caller set to NULL: the same query without them (explorer.c says
 * why), counted in pins_dropped when SAT. UNSAT at once when there was none. */
solve_result explore_solve_unpinned(explore_state *s, expr **pc, size_t npc, const uint64_t *pv, size_t pn,
                                    uint64_t **inputs, size_t *n);
/* The first user slots covered: merge a run's coverage bytes (nslots) into s->covered;
 * returns the count of user slots new to s. fresh_coverage counts without merging. */
uint32_t explore_fresh_coverage(const explore_state *s, const uint8_t *cov);
uint32_t explore_merge_run_coverage(explore_state *s, const uint8_t *cov);
/* Write run r as a test case (tests/test-NNNNN.xml, its fixture with --db) with comment;
 * counts it; a failed write stops the exploration (explore_output_failed). */
int explore_keep_test(explore_state *s, const run_result *r, const char *comment);

/*
 * Fixture minimization (db_minimize.c, issue 14). explore_db_queue_kept remembers kept test
 * `num` and its run r (copied; its expressions stay in s->cx) when there is a database schema,
 * --no-db-minimize is off and the run ended without an error. After the exploration,
 * explore_db_minimize_kept finds for each queued test, with a solver of its own, the simplest
 * fixture values its path condition allows (fewest rows, no NULLs, short texts, small numbers,
 * greedily in input order), runs them on executor 0 and, when that run follows exactly the
 * test's events and ends the same way, rewrites the test's .xml, .sql (and PostgreSQL .results)
 * files. It takes at most 10% of the budget (2 s at least; 1 s per test) and nothing after
 * Ctrl-C; the queue is freed either way.
 */
void explore_db_queue_kept(explore_state *s, int num, const run_result *r);
void explore_db_minimize_kept(explore_state *s);
/* Same events (kind, site, outcome) and the same ending (db_minimize.c). */
bool explore_same_path(const run_result *a, const run_result *b);
/* Solve pc[0..npc) plus want (pc has room for one more constraint: pc[npc] is overwritten) with
 * s->min_solver, which must exist; on SAT copy the model's first ncur values into cur (inputs in
 * test-vector order) and return true (db_minimize.c; also used by diversify.c). */
bool explore_try_solve(explore_state *s, expr **pc, size_t npc, expr *want, uint64_t *cur, uint32_t ncur);
/* A kept run's path condition, to solve it again (db_minimize.c; also used by diversify.c): *pc
 * gets each event's condition as it went (*npc of them) with room for `extra` more constraints,
 * *cur a copy of r's ninputs input values, *sym each input's symbol at its width (64-bit values).
 * All three are malloc'ed for the caller to free. Returns 0, or -1 when out of memory (then
 * nothing is left allocated). */
int explore_run_path(explore_state *s, const run_result *r, size_t extra, expr ***pc, size_t *npc, uint64_t **cur,
                     expr ***sym);
/*
 * Input diversification (diversify.c): explore_div_queue_kept remembers kept test num, its run r
 * and the coverage bytes cov of that run (copied) when o->diversify_prefs or o->candidates is set
 * and the run ended without an error; with o->test_coverage it writes tests/test-NNNNN.cov. After
 * the exploration, explore_diversify_kept solves each queued test's path condition again with the
 * inputs at their preferred values where the path allows (greedily, in input order), runs the
 * model on executor 0 and rewrites the test's .xml when the run has the same events, ending and
 * user coverage (with diversify_prefs), then looks for its boundary candidates
 * (explore_boundary_candidates, with candidates). Bounded by o->diversify_share of the budget each
 * (div_seconds counts diversification's); the queue is freed either way.
 */
void explore_div_queue_kept(explore_state *s, int num, const run_result *r, const uint8_t *cov);
/* Candidate test num (tests/cand-NNNNN.xml; candidates.c) with its run r and coverage cov, queued for
 * the same diversification after the kept tests and their boundary candidates, in its own
 * o->diversify_share of the budget, when o->diversify_prefs is set and r ended without an error:
 * a candidate kills the mutants of an arithmetic only with inputs that are not all 0. */
void explore_div_queue_cand(explore_state *s, unsigned num, const run_result *r, const uint8_t *cov);
/*
 * Candidate tests (candidates.c; explore_opts.candidates): a run r that kept no test, ended without
 * an error, reached the target's call and did not diverge, whose user coverage cov is a combination
 * of branch directions no earlier run had, is written as tests/cand-NNNNN.xml with its coverage in
 * tests/cand-NNNNN.cov, up to o->candidates of them. A write that fails is ignored (an extra).
 */
void explore_candidate_consider(explore_state *s, const run_result *r, const uint8_t *cov, int diverged);
/*
 * Boundary candidates (candidates.c; explore_opts.candidates): for each branch of kept run r inside
 * the target's call (phase 1) on an ordered comparison a < b (EXPR_ULT/SLT, perhaps negated), the
 * inputs that follow r's path up to that branch with a == b, and with a + 1 == b, solved (s->min_solver,
 * 300 ms) and run on executor 0; a run that ends normally at the target is written as a candidate test.
 * Each (branch site, goal) is tried once per exploration, and not when r is on it already. Those are
 * the inputs that tell `<` from `<=` and c from c+1 (weak mutation: Howden 1982). Stops at deadline
 * (util_now_s() seconds) or when 1.5 x o->candidates are written (the exploration's own stop at o->candidates).
 */
void explore_boundary_candidates(explore_state *s, const run_result *r, double deadline);
/*
 * Growing the database layout (db_layout.c). explore_db_layout_stalled: 1 when o->db_grow holds and
 * the exploration should stop to start again with a larger layout (see explore_opts.db_grow);
 * exhausted: the strategy has nothing left. explore_db_layout_keep copies kept run r's inputs into
 * s->kept_seeds (with o->db_grow). explore_seeds_left: 1 while o->seeds has entries not yet run.
 */
int explore_db_layout_stalled(explore_state *s, int exhausted);
void explore_db_layout_keep(explore_state *s, const run_result *r);
int explore_seeds_left(const explore_state *s);
void explore_diversify_kept(explore_state *s);
/* 1 when the exploration saw every feasible path (s->exhausted and nothing bounded, unknown,
 * diverged, dropped, concretized for good, or left to continue); ts: the tree's figures. */
int explore_is_complete(const explore_state *s, const tree_stats *ts);

/* ---- parallel exploration: the worker (worker.c) ---- */

/* Handle what the coordinator sent (coverage, steal requests, jobs, stop), waiting at most
 * timeout_ms for the first message; sends the figures when 0.5 s passed since the last. */
void worker_poll(explore_state *s, int timeout_ms);
/* The oldest job received and not yet run, or NULL. The caller owns it (worker_job_free). */
struct par_job *worker_take_job(explore_state *s);
/* Solve job j's path condition in s->cx (with the giver's parent inputs for the free
 * symbols): SAT with *inputs (malloc'ed) and *n; UNSAT and UNKNOWN are counted. */
solve_result worker_solve_job(explore_state *s, const struct par_job *j, uint64_t **inputs, size_t *n);
void worker_job_free(struct par_job *j);
/* No candidate and nothing running: tell the coordinator and wait. 1 when jobs came, 0 on
 * STOP (s->par_stop set) or Ctrl-C. */
int worker_wait_for_work(explore_state *s);
/* After a job run was inserted (collect_opens was set): check it followed the job's
 * prefix; keep the directions it opened below the job's node, mark the others remote.
 * Returns 1 when it followed the prefix, 0 when it diverged. */
int worker_job_inserted(explore_state *s, const struct par_job *j, const run_result *r);
/* Send run r (with its coverage bytes) to the coordinator. */
void worker_send_result(explore_state *s, const run_result *r, const uint8_t *cov);
/* Record a run's path hash (and whether the run diverged) for the next STATS. */
void worker_note_path(explore_state *s, uint64_t h, int diverged);
/* The final figures and error hit counts (BYE). */
void worker_bye(explore_state *s);
/* Free the worker's queues. */
void worker_free(explore_state *s);

/* ---- parallel exploration: the coordinator (coordinator.c) and local workers (par_local.c) ---- */

/* The coordinator's side of explore_program: o->link endpoint 0. Same contract. */
int explore_coordinate(const explore_opts *o, explore_summary *sum, char **err);
/* explore_program with o->jobs > 1 and no link: fork o->jobs workers connected by sockets
 * and coordinate them. Same contract. */
int explore_parallel_local(const explore_opts *o, explore_summary *sum, char **err);

struct json_writer;
/* report.json's "paths" (every mode) and "parallel" (the coordinator) objects. */
void explore_report_parallel(struct json_writer *j, const explore_state *s);
/* The tree's and the solver's figures: the workers' sums on the coordinator. */
void explore_tree_stats(const explore_state *s, tree_stats *ts);
void explore_solver_stats(const explore_state *s, solver_stats *ss);

/* ---- runs that broke an assumption before their target (assume_retry.c) ---- */

typedef struct assume_retry {
    candidate cand;
    uint64_t *inputs; /* malloc'ed, owned by the entry */
    size_t ninputs;
    unsigned tries;
    expr *assumed[ASSUME_RETRIES];
} assume_retry;

/* Run r (pending p) ended on a false assumption without reaching p's target direction:
 * solve the target's path condition with every assumption its attempts broke, and queue the
 * inputs (s->retry) when SAT. Nothing when r did not fail an assumption, p had no target, the
 * target was reached, or it had ASSUME_RETRIES attempts already. */
void explore_retry_after_assumption(explore_state *s, const pending_run *p, const run_result *r);
/* Take the oldest queued retry into *out (its inputs are then the caller's to free). 1, or 0
 * when the queue is empty. */
int explore_take_retry(explore_state *s, assume_retry *out);

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
