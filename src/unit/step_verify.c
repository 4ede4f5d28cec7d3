/* step_verify.c: step 5 of `sympath unit`: the emitted tests compiled with -Werror and run twice; what does not compile or pass is dropped with its reason. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "instrument/instrument.h"
#include "unit/pipeline_int.h"
#include "util/util.h"
#include "proto/env.h"

/* Names of the tests a CMocka run reported as failed ("[  FAILED  ] name" lines). */
static int failed_in(const char *log, const char *name)
{
    char pat[512];
    snprintf(pat, sizeof pat, "[  FAILED  ] %s\n", name);
    return log && strstr(log, pat) != NULL;
}

/* The first occurrence of what in test name's part of the CMocka log (from its `[ RUN ]` line to the
 * next test's), or NULL. */
static const char *log_find(const char *log, const char *name, const char *what)
{
    char pat[512];
    snprintf(pat, sizeof pat, "[ RUN      ] %s\n", name);
    const char *b = log ? strstr(log, pat) : NULL;
    const char *e = b ? strstr(b + strlen(pat), "[ RUN      ]") : NULL;
    const char *hit = b ? strstr(b, what) : NULL;
    return hit && (!e || hit < e) ? hit : NULL;
}

/* Whether test name, run alone by the test program exe (its output to log, overwritten), dies of a double
 * free (glibc's abort message goes to stderr unbuffered, so in a whole run's log it is not in the test's part). */
static int dies_of_double_free(char *exe, const char *name, const char *log)
{
    char *argv[] = {exe, (char *)name, NULL};
    int status = 0;
    if (up_run(argv, NULL, log, 20, &status) != 0) return 0;
    char *out = util_read_file(log, NULL);
    int df = out && (strstr(out, "double free") || strstr(out, "free(): invalid"));
    free(out);
    return df;
}

/* Whether test name's part of the CMocka log says a mock was called with no value queued ("No entries
 * for symbol"). */
static int unqueued_mock_call(const char *log, const char *name)
{
    return log_find(log, name, "No entries for symbol") != NULL;
}

const char *native_failure(const char *log, const char *name, char *buf, size_t cap)
{
    static const char why[] = "does not pass natively (not reproducible)", tag[] = "[  ERROR   ] --- ";
    const char *hit = log_find(log, name, tag);
    if (!hit) {
        snprintf(buf, cap, "%s", why);
        return buf;
    }
    hit += strlen(tag);
    size_t n = strcspn(hit, "\n");
    snprintf(buf, cap, "%s: %.*s", why, (int)(n < 160 ? n : 160), hit);
    return buf;
}

int drop_flaky_assert(unit_test *t, const char *log, const char *text, const char *test_file)
{
    static const char tag[] = "[   LINE   ] --- ";
    const char *hit = log_find(log, t->name, tag);
    if (!hit || t->nflaky >= UNIT_MAX_FLAKY) return 0;
    /* a line of the test file (the base name of the path before ":N:"), not of the unit's sources */
    const char *path = hit + strlen(tag), *colon = strstr(path, ".c:"), *nl = strchr(path, '\n');
    if (!colon || (nl && colon > nl)) return 0;
    const char *base = path;
    for (const char *q = path; q < colon; q++)
        if (*q == '/') base = q + 1;
    if ((size_t)(colon + 2 - base) != strlen(test_file) || strncmp(base, test_file, strlen(test_file))) return 0;
    long n = strtol(colon + 3, NULL, 10);
    const char *l = text;
    for (long k = 1; l && k < n; k++) {
        l = strchr(l, '\n');
        if (l) l++;
    }
    if (n <= 0 || !l) return 0;
    while (*l == ' ') l++;
    size_t len = strcspn(l, "\n");
    if (strncmp(l, "assert_", 7) || len == 0) return 0;
    char **v = realloc(t->flaky, (t->nflaky + 1) * sizeof *v);
    if (!v) return 0;
    t->flaky = v;
    if (!(v[t->nflaky] = strndup(l, len))) return 0;
    t->nflaky++;
    return 1;
}

/* Whether name is a function of a system header (a mocked libc function). */
int unit_is_system(const unit_info *u, const char *name)
{
    for (size_t i = 0; i < u->nsystem; i++)
        if (!strcmp(u->system[i].name, name)) return 1;
    return 0;
}

/* -Wl,--wrap=NAME for every function the tests replace although it is defined (in the unit
 * or in libc); with only_defined, for those of the unit only. */
void add_wrap_flags_sel(const unit_info *u, char ***v, size_t *n, int only_defined)
{
    for (size_t i = 0; i < u->nwrapped; i++) {
        if (only_defined && unit_is_system(u, u->wrapped[i])) continue;
        char *f = NULL;
        if (asprintf(&f, "-Wl,--wrap=%s", u->wrapped[i]) >= 0) uc_push_word(f, v, n);
        free(f);
    }
}

static void add_wrap_flags(const unit_info *u, char ***v, size_t *n) { add_wrap_flags_sel(u, v, n, 0); }

/* The words of a compile of test_c: cc, flags, the unit's -I dirs and cflags, test_c. */
static char **test_cc_prefix(const unit_cfg *c, const char *cc, const char *flags, const char *test_c, size_t *n)
{
    char **v = NULL;
    *n = 0;
    uc_push_word(cc, &v, n);
    unit_split_words(flags, &v, n);
    for (size_t i = 0; i < c->nsources; i++) {
        char *d = uc_dir_of(c->abs_sources[i]);
        char *flag = NULL;
        if (asprintf(&flag, "-I%s", d) >= 0) uc_push_word(flag, &v, n);
        free(flag);
        free(d);
    }
    unit_split_words(c->cflags, &v, n);
    if (c->has_main) unit_split_words("-Dmain=sympath_unit_user_main", &v, n);
    uc_push_word(test_c, &v, n);
    return v;
}

char **unit_test_cc_argv(const unit_cfg *c, const char *cc, const char *flags, const char *test_c, const char *exe)
{
    size_t n;
    char **v = test_cc_prefix(c, cc, flags, test_c, &n);
    for (size_t i = 0; i < c->nsources; i++)
        if (!unit_source_included(c->u, c->abs_sources[i])) uc_push_word(c->abs_sources[i], &v, &n); /* unitlib */
    add_wrap_flags(c->u, &v, &n);
    unit_split_words("-lcmocka -lm -o", &v, &n);
    uc_push_word(exe, &v, &n);
    return v;
}

/* Build test_c into exe natively: the test file alone is compiled with -Wall -Wextra -Werror into
 * exe.o (the warnings of the unit's own sources, a library as shipped with an `unused variable`,
 * are not the emitted file's), then linked with the unit's sources built as they are. The
 * diagnostics go to log (NULL: none). 0 when both steps succeed. */
static int build_test(const unit_cfg *c, const char *test_c, const char *exe, const char *log)
{
    char *cenv[] = {"LC_ALL=C", NULL}; /* plain quotes in the diagnostics */
    char *obj = util_strf("%s.o", exe);
    int rc = -1, status = 0;
    for (int step = 0; step < 2 && obj; step++) {
        size_t n;
        char **argv = step ? unit_test_cc_argv(c, "cc", "-g", obj, exe)
                           : test_cc_prefix(c, "cc", "-g -Wall -Wextra -Werror -c", test_c, &n);
        if (argv && !step) {
            uc_push_word("-o", &argv, &n);
            uc_push_word(obj, &argv, &n);
        }
        rc = argv ? up_run(argv, cenv, log, 120, &status) : -1;
        util_free_strv(argv);
        if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) rc = -1;
        if (rc != 0) break;
    }
    if (obj) unlink(obj);
    free(obj);
    return rc;
}

/* Append a compiler's diagnostics to <log minus .log>.dropped.log, next to the log of the last build. */
static void append_dropped_log(const char *log, const char *diagnostics)
{
    size_t n = strlen(log);
    char *path = util_strf("%.*s.dropped.log", (int)(n > 4 ? n - 4 : n), log);
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, "--- tests dropped: the file did not compile\n%s\n", diagnostics);
        fclose(f);
    }
    free(path);
}

/* A test that runs longer than this natively (seconds) is dropped: a unit test a developer keeps is quick,
 * and one that is not has most often met a value the run could not pin (cutef8's u8_printf("%*.d") padding to
 * an address read as its width: gigabytes, 17 s, before its crash). */
#define SLOW_TEST_S (util_fault("slow_test") ? 0.2 : 2.0)

/* The file passed in run_s seconds: when that is over SLOW_TEST_S, run exe once more with CMocka's JUnit
 * output (a time per test case) and drop the tests over SLOW_TEST_S with the reason. Returns how many. */
static size_t drop_slow_tests(const char *exe, double run_s, tests_vec *tv, fn_result *frs, size_t nfr)
{
    if (run_s <= SLOW_TEST_S) return 0;
    char *xml = util_strf("%s.junit.xml", exe), *e2 = xml ? util_strf("CMOCKA_XML_FILE=%s", xml) : NULL;
    char *env[] = {"CMOCKA_MESSAGE_OUTPUT=xml", e2, NULL}, *argv[] = {(char *)exe, NULL};
    char *text = NULL;
    int status = 0;
    if (e2) {
        unlink(xml); /* CMocka writes to stderr instead of over an existing file */
        if (up_run(argv, env, NULL, 120, &status) == 0) text = util_read_file(xml, NULL);
        unlink(xml);
    }
    size_t dropped = 0;
    for (size_t i = 0; text && i < tv->n; i++) {
        char key[300];
        snprintf(key, sizeof key, "<testcase name=\"%s\" time=\"", tv->v[i].name);
        const char *at = strstr(text, key);
        double t = at ? strtod(at + strlen(key), NULL) : 0;
        if (t <= SLOW_TEST_S) continue;
        char why[96];
        snprintf(why, sizeof why, "slow: %.1f s natively (a unit test over %g s)", t, SLOW_TEST_S);
        for (size_t k = 0; k < nfr; k++)
            if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, why);
        memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
        tv->n--;
        i--;
        dropped++;
    }
    free(text);
    free(e2);
    free(xml);
    return dropped;
}

/*
 * Emit the tests of one source file into dir/test_<stem>.c, compile it with -Wall -Wextra
 * -Werror and run it; drop (with the reason) every test that does not compile or does not
 * pass, and repeat until the file compiles and every test passes. Returns the number of
 * tests kept; *text gets the final file (malloc'ed) when any is kept.
 */
size_t verify_file(const unit_cfg *c, const char *dir, const char *src, tests_vec *tv, fn_result *frs, size_t nfr,
                   char **text)
{
    *text = NULL;
    char *st = uc_stem(src);
    char *test_c = NULL, *exe = NULL, *log = NULL;
    if (asprintf(&test_c, "%s/test_%s.c", dir, st) < 0 || asprintf(&exe, "%s/test_%s", dir, st) < 0 ||
        asprintf(&log, "%s/test_%s.log", dir, st) < 0)
        return 0;
    /* tests that cannot even be written as C are dropped first */
    for (size_t i = 0; i < tv->n; i++) {
        char *body = unit_emit_test_body(c->u, &tv->v[i]);
        if (body) {
            free(body);
            continue;
        }
        for (size_t k = 0; k < nfr; k++)
            if (frs[k].fn == tv->v[i].fn)
                add_drop(&frs[k], tv->v[i].name, "an input points inside an object (not expressible as locals)");
        memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
        tv->n--;
        i--;
    }
    /* each round drops or retries (in another form) the tests that failed; the last rounds only drop, so
     * that the tests left are kept even when some need more forms than there are rounds */
    enum { ROUNDS = 10, LAST_RETRY = 7 };
    for (int round = 0; round < ROUNDS && tv->n > 0; round++) {
        int retry = round <= LAST_RETRY;
        char *t = unit_emit_tests(c->u, tv->v, tv->n, c->mocked, c->nmocked, uc_base_name(src));
        if (!t || util_write_atomic(test_c, t, strlen(t)) != 0) {
            free(t);
            break;
        }
        int status = 0;
        int rc = build_test(c, test_c, exe, log);
        char *out = util_read_file(log, NULL);
        if (rc != 0) {
            /* a compile error: drop the tests the diagnostics point into; when none is named,
             * compile each test alone and drop those that do not compile */
            size_t before = tv->n;
            char *bad = calloc(tv->n + 1, 1);
            int named = 0;
            for (size_t i = 0; out && bad && i < tv->n; i++) {
                char pat[512];
                snprintf(pat, sizeof pat, "In function '%s'", tv->v[i].name);
                if (strstr(out, pat)) bad[i] = 1, named = 1;
            }
            for (size_t i = 0; !named && bad && i < tv->n; i++) {
                char *one = unit_emit_tests(c->u, &tv->v[i], 1, c->mocked, c->nmocked, uc_base_name(src));
                if (!one || util_write_atomic(test_c, one, strlen(one)) != 0) {
                    free(one);
                    continue;
                }
                free(one);
                bad[i] = build_test(c, test_c, exe, NULL) != 0;
            }
            for (size_t i = 0, o = 0; bad && i < before; i++) {
                if (!bad[i]) {
                    tv->v[o++] = tv->v[i];
                    continue;
                }
                for (size_t k = 0; k < nfr; k++)
                    if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, "the emitted test does not compile");
                tv->n--;
            }
            /* the diagnostics stay for the user: OUT/build/verify/test_<stem>.dropped.log */
            if (out && tv->n < before) append_dropped_log(log, out);
            free(bad);
            if (tv->n == before) {
                fprintf(c->log, "sympath unit: the emitted %s does not compile:\n%s\n", test_c, out ? out : "");
                for (size_t i = 0; i < tv->n; i++)
                    for (size_t k = 0; k < nfr; k++)
                        if (frs[k].fn == tv->v[i].fn)
                            add_drop(&frs[k], tv->v[i].name, "the emitted file does not compile");
                tv->n = 0;
            }
            free(out);
            free(t);
            continue;
        }
        free(out);
        /* run twice: a test whose outcome changes from run to run (uninitialised memory,
         * addresses) must not be kept */
        char *rargv[] = {exe, NULL};
        rc = up_run(rargv, NULL, log, 60, &status);
        double t0 = util_now_s();
        if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) rc = up_run(rargv, NULL, log, 60, &status);
        out = util_read_file(log, NULL);
        if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            free(out);
            if (drop_slow_tests(exe, util_now_s() - t0, tv, frs, nfr)) { /* the file again without them */
                free(t);
                continue;
            }
            *text = t;
            break;
        }
        size_t before = tv->n, retried = 0;
        for (size_t i = 0; i < tv->n; i++) {
            int bad = failed_in(out, tv->v[i].name);
            if (!bad && (rc != 0 || !out || !strstr(out, " test(s) run."))) {
                /* the run did not finish: find the culprits one by one */
                char *a2[] = {exe, tv->v[i].name, NULL};
                int s2 = 0;
                int r2 = up_run(a2, NULL, NULL, 20, &s2);
                bad = r2 != 0 || !WIFEXITED(s2) || WEXITSTATUS(s2) != 0;
            }
            if (!bad) continue;
            if (retry && !tv->v[i].release_stubs && !tv->v[i].keep_made && unqueued_mock_call(out, tv->v[i].name) &&
                unit_emit_release_standins(c->u, &tv->v[i], NULL)) {
                /* a release called a stand-in with nothing queued: it accepts any further calls */
                tv->v[i].release_stubs = 1;
                retried++;
                continue;
            }
            if (retry && !tv->v[i].keep_made && unqueued_mock_call(out, tv->v[i].name)) {
                /* a release called a mock with nothing queued: the made objects are left to the test */
                tv->v[i].keep_made = 1;
                retried++;
                continue;
            }
            if (retry && !tv->v[i].items_kept && tv->v[i].fn->nparams > 1 &&
                dies_of_double_free(exe, tv->v[i].name, log)) {
                /* once more releasing only the first argument's objects: the call linked the others into it */
                tv->v[i].items_kept = 1;
                retried++;
                continue;
            }
            if (retry && drop_flaky_assert(&tv->v[i], out, t, uc_base_name(test_c))) {
                /* once more without that assertion: the value it checked is not the same natively */
                retried++;
                continue;
            }
            if (retry && !tv->v[i].heap) {
                /* once more with malloc'ed input objects: the unit may free or realloc them */
                tv->v[i].heap = 1;
                retried++;
                continue;
            }
            char why[256];
            native_failure(out, tv->v[i].name, why, sizeof why);
            for (size_t k = 0; k < nfr; k++)
                if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, why);
            memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
            tv->n--;
            i--;
        }
        if (tv->n == before && !retried && out) {
            /* the program died in a test that passes alone (heap corruption that shows later):
             * drop the test the run was in, the last `[ RUN ]` without an outcome */
            const char *run = NULL;
            for (const char *q = strstr(out, "[ RUN      ] "); q; q = strstr(q + 1, "[ RUN      ] ")) run = q;
            if (run) {
                run += strlen("[ RUN      ] ");
                size_t l = strcspn(run, "\n");
                int ended = strstr(run, "[       OK ]") || strstr(run, "[  FAILED  ]");
                for (size_t i = 0; !ended && i < tv->n; i++) {
                    if (strlen(tv->v[i].name) != l || strncmp(tv->v[i].name, run, l)) continue;
                    for (size_t k = 0; k < nfr; k++)
                        if (frs[k].fn == tv->v[i].fn)
                            add_drop(&frs[k], tv->v[i].name, "the test program dies in it (it passes alone)");
                    memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
                    tv->n--;
                    break;
                }
            }
        }
        free(out);
        free(t);
        if (tv->n == before && !retried) { /* nothing identifiable: give up on the file */
            for (size_t i = 0; i < tv->n; i++)
                for (size_t k = 0; k < nfr; k++)
                    if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, "the test program fails");
            tv->n = 0;
        }
    }
    if (!*text)
        for (size_t i = 0; i < tv->n; i++)
            for (size_t k = 0; k < nfr; k++)
                if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, "the test program still failed");
    unlink(exe);
    free(test_c);
    free(exe);
    free(log);
    free(st);
    return *text ? tv->n : 0;
}

/* Whether the harness compiles (clang -fsyntax-only with the build's flags); on failure
 * *diag (if given) gets the first lines of clang's errors. */
int syntax_ok(const char *file, const char *build_cflags, const char *build_dir, char **diag)
{
    char **v = NULL;
    size_t n = 0;
    uc_compile_words(getenv(SYMPATH_ENV_CC) ? getenv(SYMPATH_ENV_CC) : SYMPATH_CLANG, "-fsyntax-only -w -std=gnu11",
                     build_cflags, &v, &n);
    uc_push_word(file, &v, &n);
    char log[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/syntax.log", build_dir);
    int st = 0;
    int rc = up_run(v, NULL, log, 60, &st);
    util_free_strv(v);
    int ok = rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!ok && diag) {
        char *t = util_read_file(log, NULL);
        if (t) {
            /* the first five lines are enough to see what went wrong */
            char *p = t;
            for (int k = 0; k < 5 && p && *p; k++) {
                p = strchr(p, '\n');
                if (p) p++;
            }
            if (p) *p = 0;
        }
        *diag = t;
    }
    return ok;
}
