/* replay.h: the replay component: a suite's program rebuilt natively with the replay library, its tests run under time limits, gcov coverage. */
#ifndef SYMPATH_REPLAY_H
#define SYMPATH_REPLAY_H

#include <stddef.h>
#include <stdio.h>

#include "proto/proto.h"

/*
 * Two halves live in this folder. src/replay/rt/ is the replay *library*: replay.c,
 * replay_db.c and replay_pq.c are copied to the build's lib directory and compiled
 * into the user's program at replay time (they feed it a test case's inputs, its
 * database, its recorded query results). The files here are the explorer-side
 * component that does that: read OUT/build/replay.conf (proto.h), compile the
 * program's sources and the library with gcc (linking with the one --wrap list
 * below), run every test case with a time limit, and measure coverage with gcovr.
 * Nothing here prints except to the report stream the caller passes.
 */

/* ---- the --wrap list (wrap.c) ----
 * The functions the replay library replaces with the linker's --wrap: for each name N
 * the library defines __wrap_N and calls __real_N. Three groups, each linked only
 * when its library file is: POSIX start-up and files (replay.c built with
 * -DSYMPATH_REPLAY_POSIX), SQLite opens (replay_db.c), libpq (replay_pq.c).
 * tests/unit/test_replay_wrap.c checks these lists against the __wrap_ functions
 * the rt/ files define, so the two cannot drift apart. */
typedef enum replay_wrap_group {
    REPLAY_WRAP_POSIX = 0,
    REPLAY_WRAP_SQLITE,
    REPLAY_WRAP_PQ,
    REPLAY_WRAP_NGROUPS
} replay_wrap_group;

/* The NULL-terminated names of group g (static). */
const char *const *replay_wrap_names(replay_wrap_group g);
/* The rt/ file that defines group g's __wrap_ functions ("replay.c", "replay_db.c", "replay_pq.c"). */
const char *replay_wrap_file(replay_wrap_group g);
/* The one linker option for group g: "-Wl,--wrap=N1,--wrap=N2,..." (malloc'ed; NULL when out of memory). */
char *replay_wrap_option(replay_wrap_group g);

/* ---- the native build (build.c) ---- */

/*
 * Compile c's sources (with --coverage when coverage is set, -O0 -g, the user's
 * cflags split by util_split_words), the replay library files c names, the
 * generated posix_conf.c and nondet bitcode (with clang: $SYMPATH_CC or the build's)
 * into rdir (objects s<i>-<stem>.o, replaylib<k>.o, so same-named sources stay
 * apart; the library files with -I of sympath's src/), and link rdir's objects into prog
 * with the --wrap options c needs and, when c names replaydb or replaypq,
 * SYMPATH_LIB_DIR/libsympath-replay.a (the .results reader, site ids, util).
 * The compilers' diagnostics go to the inherited stderr. Returns 0, or -1 with *err
 * (malloc'ed): "compiling SRC failed", "linking PROG failed", a malformed cflags.
 */
int replay_build(const replay_conf *c, const char *rdir, const char *prog, int coverage, char **err);

/* ---- one test case (suite.c) ---- */

typedef struct replay_outcome {
    int started;   /* 0: the program could not be started */
    int timed_out; /* killed at the time limit (status is the kill's) */
    int status;    /* wait status (waitpid(2)) when started */
} replay_outcome;

/*
 * Run prog (no arguments) on one test case: environment SYMPATH_TESTCASE=testcase plus
 * env_add ("NAME=value", NULL-terminated, may be NULL), stdin /dev/null, stdout and
 * stderr to log, working directory cwd, in its own process group, which is killed
 * with SIGKILL after timeout_s seconds (a killed run writes no .gcda data of its own
 * and leaves that of the other runs intact). Returns the outcome (never fails: a run
 * that could not start has started == 0).
 */
replay_outcome replay_run_one(const char *prog, const char *testcase, char *const *env_add, const char *log,
                              const char *cwd, double timeout_s);

/* How o reads in the report: "exit code 3", "signal SIGSEGV", "timeout (2s)", "could not start"
 * (into buf of cap bytes, returned). */
const char *replay_outcome_text(const replay_outcome *o, double timeout_s, char *buf, size_t cap);

/* ---- the whole suite (suite.c) ---- */

typedef struct replay_opts {
    const char *out_dir; /* the suite's output directory OUT (of `sympath run -o OUT`) */
    int coverage;        /* build for gcov and report gcovr's totals */
    double timeout_s;    /* time limit of one test case, seconds, > 0 */
    FILE *report;        /* where the per-test lines and the totals go (the CLI: stdout) */
} replay_opts;

typedef struct replay_summary {
    size_t ran;        /* test cases run */
    size_t unexpected; /* of which did not end as expected */
} replay_summary;

/*
 * Replay the suite in o->out_dir: read OUT/build/replay.conf, build OUT/replay/prog
 * (replay_build; earlier .gcda and .log files removed first), run every
 * OUT/tests/test-*.xml and OUT/errors/error-*.xml in name order (replay_run_one; log
 * OUT/replay/<dir>-<name>.log; --db suites get their fixture, PostgreSQL suites their
 * recorded results through SYMPATH_REPLAY_* variables), print one line per test and
 * a total to o->report, and with o->coverage the gcovr totals (replay_coverage).
 * A tests/ file is expected to end normally (any exit status) unless it says
 * coversError="true"; an errors/ file must end abnormally (non-zero exit, signal,
 * time-out) unless its .txt says the instrumented run hit a time or memory limit.
 * Returns 0 with *s filled when the suite ran (s->unexpected says how it went), or -1
 * with *err (malloc'ed) on a configuration, build or gcovr error (the test lines may
 * have been printed already).
 */
int replay_suite(const replay_opts *o, replay_summary *s, char **err);

/* ---- coverage (coverage.c) ---- */

/*
 * Run gcovr over the gcov data in rdir for c's sources (root: their longest common
 * directory; each source a --filter), writing rdir/coverage-summary.json and
 * rdir/coverage.html (gcovr's output in rdir/gcovr.log), then print gcovr's branch and
 * line totals beside sympath's own branch count (c->branches_*) to report.
 * 0, or -1 with *err (malloc'ed): gcovr failed or its summary lacks the totals.
 */
int replay_coverage(const replay_conf *c, const char *rdir, FILE *report, char **err);

/* The number after `"key":` at nesting depth 1 of a JSON text (strings and nested values
 * skipped: gcovr repeats the keys per file inside "files"). 0 with *out, or -1. */
int replay_json_top_number(const char *text, const char *key, double *out);

/* The longest common directory of n absolute paths ("/" at worst), malloc'ed. */
char *replay_common_dir(char *const *paths, size_t n);

#endif
