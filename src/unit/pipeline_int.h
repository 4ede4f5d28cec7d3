/* pipeline_int.h: the unit pipeline's internal interface: the steps (record, verify, measure, emit), their shared state and helpers; only src/unit includes it. */
#ifndef SYMPATH_UNIT_PIPELINE_INT_H
#define SYMPATH_UNIT_PIPELINE_INT_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "instrument/instrument.h"
#include "unit/unit.h"
#include "util/util.h"

/* What `sympath unit` found for one target function (summary and report.json). */
typedef struct fn_result {
    const ut_func *fn;
    char *run_dir;
    uint32_t covered, total; /* branch directions of the function (exploration) */
    unsigned vectors, kept, failing, dropped, duplicates;
    int gcov_taken, gcov_total; /* branch outcomes of the function taken by the emitted tests (gcov); -1 unknown */
    char *drops;                /* reasons, one per line */
    double seconds;
    char *gcov_unknown;             /* why gcov_taken/gcov_total are unknown (no coverage data written), or NULL */
    int san_checked;                /* the sanitizer check ran on this function's tests */
    unsigned san_dropped, san_bugs; /* tests dropped by the sanitizer check; tests moved to _bugs.c */
    char *san_bug_lines;            /* "test: reason" per test moved to _bugs.c, one per line */
    /* "function\ttaken\ttotal" per line (gcov branch outcomes): the unit's other functions the
     * target's own tests ran (its callees), except those the tests call themselves; NULL: none */
    char *reached;
    /* input diversification (explore_summary): tests given varied inputs, tries whose run left the
     * path, tests not tried (time share spent), seconds */
    unsigned div_done, div_rejected, div_skipped, cands_diversified;
    double div_seconds;
    unsigned refilled;              /* candidate tests added for directions the dropped tests took (step_refill.c) */
    int min_done;                   /* the suite minimisation ran on this function's tests */
    unsigned min_before, min_after; /* its tests before and after it */
    int min_reverted;               /* its minimised tests took fewer gcov branches: its whole suite was kept */
    /* the mutation analysis (step_mutate.c): mutants of the function, killed by the kept tests, killed in
     * all (candidates added), candidate tests found, candidates added, the survivors ("line L: what\n"
     * lines, malloc'ed, or NULL), seconds; mut_total 0: it did not run */
    unsigned mut_total, mut_killed_kept, mut_killed, mut_candidates, mut_added;
    unsigned
        mut_built; /* mutants the build gave the function (mut_total: the analysed ones, at most 150, an even sample) */
    char *mut_survivors;
    double mut_seconds;
} fn_result;

/* The tests recorded for a function (or a file), with their records' text for deduplication. */
typedef struct tests_vec {
    unit_test *v;
    size_t n;
    char **texts; /* record text + outcome, for deduplication */
} tests_vec;

/* What the test builds need: output, flags, the unit's sources, its description, the mocks. */
typedef struct unit_cfg {
    const char *out;
    const char *cflags; /* user flags + -I dirs */
    char **abs_sources;
    size_t nsources;
    const unit_info *u;
    const char *const *mocked;
    size_t nmocked;
    int has_main;
    FILE *log; /* where a file that does not compile at all is reported */
} unit_cfg;

/* Append one word (a path: blanks kept) to the NULL-terminated argv *v of *n words. */
void uc_push_word(const char *w, char ***v, size_t *n);
/* Append to *v a compiler command's start: the compiler cc (one word, may be NULL: in flags), the words of
 * flags, -I of sympath's include directory (the harness's header), then the words of build_cflags. */
void uc_compile_words(const char *cc, const char *flags, const char *build_cflags, char ***v, size_t *n);
/* "dir/parser.c" -> "parser.c" (inside p); -> "parser" and -> "dir" (malloc'ed). */
const char *uc_base_name(const char *p);
char *uc_stem(const char *path);
char *uc_dir_of(const char *path);

/* Branch directions of function fn covered / in total, from an exploration's report.json. */
void coverage_of(const char *report_path, const char *fn, uint32_t *covered, uint32_t *total);
/* The reason for a test's drop when it failed natively: "does not pass natively (not reproducible)"
 * and CMocka's first `[  ERROR   ] --- ` message of test name in the CMocka output log, if any (a
 * failed assertion, a signal), up to 160 bytes of it. Returns buf (cap bytes, always terminated). */
const char *native_failure(const char *log, const char *name, char *buf, size_t cap);
/* When test t failed natively on an assertion (CMocka's `[   LINE   ] --- PATH/test_file:N:` in its part
 * of log names line N of text, the test file whose base name is test_file, an assert_ statement) and may
 * lose another
 * (UNIT_MAX_FLAKY), adds that statement (trimmed, malloc'ed) to t->flaky and returns 1: the value
 * differs between the record and the native run (EvoSuite removes such unstable assertions). Else 0
 * (also out of memory). */
int drop_flaky_assert(unit_test *t, const char *log, const char *text, const char *test_file);
/* The record text without the after-call lines (post, ret, walk, vararg, varheap) that painted, the record of
 * the same test vector with fresh memory filled with another byte (SYMPATH_UNIT_PAINT), does not hold as they
 * are: values the call read from memory nobody wrote, which a test would assert by chance. Every line of the
 * same key goes (`post 6 .len` whatever its value), and the `post` line of a pointer whose `walk` went. With
 * painted NULL, text unchanged. *dropped gets the count of lines left out. Malloc'ed (NULL: out of memory). */
char *unit_record_stable(const char *text, const char *painted, size_t *dropped);
/* Note that the test from vector `vec` was dropped, and why (report and summary). */
void add_drop(fn_result *r, const char *vec, const char *why);
/* Run the recorder (the harness built natively with -DSYMPATH_UNIT_RECORD) on one test vector
 * of fr's function; append the test to tv unless it is dropped (reason in fr) or a duplicate.
 * counter numbers the function's tests. */
void record_vector(const char *recorder, const char *rec_path, const char *vec, fn_result *fr, tests_vec *tv,
                   unsigned *counter);
/* What the mutation analysis of every function uses (borrowed). */
typedef struct unit_mut_ctx {
    const char *exe;      /* the mutant-schemata recorder (build_mutants): SYMPATH_MUTANT selects a mutant */
    const char *recorder; /* the native recorder (record_vector) */
    const mutant_desc *mutants;
    size_t nmutants;
    double seconds;                     /* at most this long per function */
    volatile sig_atomic_t *interrupted; /* Ctrl-C: stop at the next test (what is known stays); may be NULL */
} unit_mut_ctx;
/* Step 4b (step_mutate.c): run fr's mutants (mc->mutants of fr's function) on the kept tests tv (all of
 * fr's function; 150 at most, an even sample) until two tests killed each; a mutant none kills is run on the exploration's candidate
 * tests (fr->run_dir/tests/cand-*.xml), smallest file first, and a candidate that ends normally and kills
 * one is recorded into tv (named with *counter). Each test's unit_test.kills lists the mutants it was seen
 * to kill. Sets fr's mut_* figures; bounded by mc->seconds. Out of memory: fewer kills known. */
void unit_mutation_step(const unit_mut_ctx *mc, fn_result *fr, tests_vec *tv, unsigned *counter);

/* Emit tv's tests (of source src) into dir, compile with -Wall -Wextra -Werror, run; retry a
 * failing test in another form (stand-ins accepting a release's calls, the made objects kept, the
 * flaky assertion left out, heap mode), drop what does not compile or pass (reasons in frs), until the
 * file passes: at most 10 rounds, the last two only dropping (a test needing more forms than the
 * rounds lost the whole file: libcsv's csv_parse kept no test). Returns the tests kept, *text the
 * final file (malloc'ed) or NULL (then every test is dropped with a reason). */
size_t verify_file(const unit_cfg *c, const char *dir, const char *src, tests_vec *tv, fn_result *frs, size_t nfr,
                   char **text);
/* The command that builds test_c (and the unit's sources it does not include) into exe: the
 * compiler cc (one word), then the words of flags, the unit's -I dirs and cflags, the sources,
 * the --wrap flags, -lcmocka -lm. NULL-terminated, malloc'ed (util_free_strv). */
char **unit_test_cc_argv(const unit_cfg *c, const char *cc, const char *flags, const char *test_c, const char *exe);
/* The unit's function releasing what f returns: for an array whose count f writes to an
 * out-parameter (unit_result_count), the unit's destructor of (array, count)
 * (unit_array_destructor: the test passes it the count); else a unit function named like a
 * destructor (free, delete, destroy, release, in any case) taking exactly f's return type and
 * returning void; else "free". A static string or the unit's name (borrowed). */
const char *sanitize_releaser(const unit_info *u, const ut_func *f);
/* Whether the call of t ended normally and returned a pointer that is no input object (fresh
 * memory, perhaps): the result a test may have to release. */
int sanitize_returns_fresh(const unit_test *t);

/* Step 5b (step_sanitize.c): build the verified tests of source src (*text, tests tv) with clang-14
 * -fsanitize=address,undefined and run each alone. A test with a report that is a harness defect
 * or an unfixable leak is dropped (reason in frs), one showing a bug of the unit moves to *bugs
 * (the text of test_<stem>_bugs.c, malloc'ed; NULL when none); a leaked result is released by the
 * test (unit_test.release) and the file verified again (verify_file). *text is replaced by the
 * final suite (NULL when no test is left). *seconds gets the time spent. Returns the tests kept. */
size_t sanitize_file(const unit_cfg *c, const char *dir, const char *src, tests_vec *tv, fn_result *frs, size_t nfr,
                     char **text, char **bugs, double *seconds);
/* Build test_text with gcov instrumentation of the unit and store each of src's target
 * functions' gcov branch figures in frs, measured on that function's own tests only (one run
 * of the binary per function, CMocka's test filter), with the functions those tests reached
 * (fn_result.reached). Leaves the figures at -1 when anything fails or the function has no test;
 * when a run writes no coverage data (it died at exit), says so on c->log (once per file) and
 * sets gcov_unknown. */
void gcov_measure(const unit_cfg *c, const char *dir, const char *src, const char *test_text, fn_result *frs,
                  size_t nfr);
/* The names of the tests of a test file's text (its cmocka_unit_test(NAME) entries), appended
 * to the NULL-terminated *names of *n words (util_free_strv). */
void unit_test_names(const char *test_text, char ***names, size_t *n);
/* Whether the test named test is one of function fn's ("test_FN_" and a digit: step_record.c). */
int unit_test_of(const char *test, const char *fn);
/* The call count of function fn in a gcov -b listing ("function FN called N ..."); -1 when fn is
 * not in it. */
long unit_gcov_calls(const char *gcov_text, const char *fn);
/* The functions target refers to, transitively, in the gcov -b listings of the unit's files (a
 * textual call graph: a function's part of a listing runs from its "function NAME" line to the
 * next; a reference is another listed function's name as a whole word there, a call or a
 * function pointer). Returns "\nNAME\nNAME\n" (target left out; malloc'ed). */
char *unit_gcov_refs(const char *const *listings, size_t nlistings, const char *target);
/* Append to out, as "function\ttaken\ttotal" lines, each function of the gcov -b listing that
 * was called, is in refs (unit_gcov_refs; NULL: any) and is neither target nor one the bodies
 * of the tests named tests[0..ntests-1] in the test file's text call themselves (producers,
 * releasers): what target's tests reached of the target's callees. */
void unit_gcov_reached(const char *gcov_text, const char *target, const char *refs, const char *test_text,
                       char *const *tests, size_t ntests, strbuf *out);
/* Whether file compiles (clang -fsyntax-only, the build's flags); *diag (if given) gets the
 * first lines of clang's errors on failure. */
int syntax_ok(const char *file, const char *build_cflags, const char *build_dir, char **diag);

/* Whether name is a function of a system header (a mocked libc function). */
int unit_is_system(const unit_info *u, const char *name);
/* Append -Wl,--wrap=NAME to *v for every function the tests replace although it is defined
 * (in the unit or in libc); with only_defined, for those of the unit only. */
void add_wrap_flags_sel(const unit_info *u, char ***v, size_t *n, int only_defined);

/* Run argv (PATH lookup) in its own process group with stdin from /dev/null and
 * stdout+stderr to log (NULL: discarded), env_add ("NAME=value", NULL-terminated, may be
 * NULL) added to the environment. timeout_s > 0 kills the group after that many seconds.
 * Returns 0 with *status (wait status), 1 on time-out, -1 when it could not start. */
int up_run(char *const *argv, char *const *env_add, const char *log, double timeout_s, int *status);

/* The coverage slots (branch directions of the unit, explore_opts.test_coverage) of the test vector origin
 * (a file name "test-NNNNN.xml" or a candidate's "cand-NNNNN.xml") of the run in run_dir, read from
 * run_dir/tests/<stem>.cov into *cov (*n slot numbers, malloc'ed). 0, or -1 when there is no such file. */
int unit_read_cov(const char *run_dir, const char *origin, uint32_t **cov, size_t *n);
/* Sort the n file paths by file size, smallest first (a candidate test's cost: smaller is simpler); a
 * file that cannot be read goes last. */
void unit_sort_by_size(char **paths, size_t n);
/* Step 5b' (step_refill.c): the branch directions that the recorded tests of source src's target functions
 * took (all[k], the tests recorded for frs[k], k < nfr) and no test left in tv takes (the verification and
 * the sanitizer check dropped the tests that took them: a path through a bug of the unit, a test that
 * does not pass natively) are sought among the exploration's candidate tests (frs[k].run_dir/tests/
 * cand-*.xml, smallest file first, at most UNIT_REFILL_MAX recorded per function): each candidate that
 * takes a lost direction is recorded by recorder (into all[k], named with counters[k]), then verified and
 * checked under the sanitizers on its own (verify_file, sanitize_file; what they drop is not reported:
 * a candidate is an extra). Those that pass are appended to tv and *text is emitted again. Returns the
 * tests added (fn_result.refilled counts them per function). */
size_t unit_refill_lost(const unit_cfg *c, const char *dir, const char *src, const char *recorder, tests_vec *tv,
                        tests_vec *all, fn_result *frs, unsigned *counters, size_t nfr, char **text);
#define UNIT_REFILL_MAX 12

/* Step 5c (step_minimize.c): reduce tv (the verified tests of one source file, of the functions
 * frs[0..nfr)) per function to the tests unit_minimize_select keeps, with each test's coverage
 * read from its vector's tests/test-NNNNN.cov in the function's run directory (a test without
 * one is kept), its cost the length of its recorded input values and its result its outcome and
 * returned value; sets the functions' min_* figures. Returns the number of tests removed (tv is
 * compacted in order; the removed tests' records stay owned by the caller's vectors). */
size_t unit_minimize_tests(tests_vec *tv, fn_result *frs, size_t nfr);
/* Step 5c with its gcov check: unit_minimize_tests on tv, and when it removed tests, gcov_measure
 * of the whole suite (*text) and of the minimised one; a function whose own tests take fewer gcov
 * branch outcomes after it (its own, or its callees' in fn_result.reached) gets its whole suite
 * back (fn_result.min_reverted). *text is replaced by the final suite, frs hold its gcov figures.
 * Returns 1 when it measured (the caller's gcov_measure is not needed), else 0 (nothing removed:
 * tv and *text unchanged). */
int unit_minimize_checked(const unit_cfg *c, const char *dir, const char *src, tests_vec *tv, fn_result *frs,
                          size_t nfr, char **text);

/* What the pipeline (pipeline.c) hands to its last step; all borrowed. */
typedef struct unit_pipe {
    FILE *log;                  /* progress, summary and messages */
    const char *out, *cflags;   /* OUT; the user's flags (-I dirs included) */
    const char *const *sources; /* as given */
    char **abs_sources;         /* absolute */
    size_t nsources;
    const unit_info *u;
    const ut_func **targets; /* the functions tested */
    size_t ntargets;
    const char **mocked; /* the stand-ins the tests define */
    size_t nmocked;
    const char *warnings;  /* the harness's warnings (report.json) */
    strbuf *untested;      /* "function\treason" lines: left out before the exploration */
    const char *build_dir; /* OUT/build */
    fn_result *frs;        /* per target: the figures so far */
    tests_vec *tvs;        /* per target: the recorded tests */
    int no_minimize;       /* --no-minimize: no step 5c */
    const char *recorder;  /* the native recorder (record_vector), for step 5b' */
    unsigned *counters;    /* per target: the number of its last test's name */
} unit_pipe;

/* Step 5: per source file its tests verified (verify_file), measured (gcov_measure) and
 * written as OUT/test_<stem>.c, then OUT/BUILD.txt, OUT/tests.cmake, OUT/report.json and
 * the summary on p->log. Returns 0 when at least one test file was written, else 1. */
int unit_step_emit(unit_pipe *p);

#endif
