/* unit_steps.c: the steps of `sympath unit` after the harness: recording test vectors natively, verifying and measuring the emitted tests. */
#define _GNU_SOURCE
#include "unit_steps.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit/emit.h"
#include "util/util.h"
#include "unit_proc.h"

/* Append one word (a path: blanks kept) to the NULL-terminated argv *v of *n words. */
void uc_push_word(const char *w, char ***v, size_t *n) {
    char **nv = realloc(*v, (*n + 2) * sizeof *nv);
    if (!nv) return;
    *v = nv;
    (*v)[(*n)++] = strdup(w);
    (*v)[*n] = NULL;
}

const char *uc_lib_dir(void) {
    const char *e = getenv("SYMPATH_LIB_DIR");
    return e && *e ? e : SYMPATH_LIB_DIR;
}

const char *uc_include_dir(void) {
    const char *e = getenv("SYMPATH_INCLUDE_DIR");
    return e && *e ? e : SYMPATH_INCLUDE_DIR;
}

const char *uc_base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* "parser.c" -> "parser" (malloc'ed). */
char *uc_stem(const char *path) {
    const char *b = uc_base_name(path);
    const char *dot = strrchr(b, '.');
    return strndup(b, dot ? (size_t)(dot - b) : strlen(b));
}

char *uc_dir_of(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? strndup(path, s == path ? 1 : (size_t)(s - path)) : strdup(".");
}


/* Per-function branch coverage from the exploration's report.json: the sites whose
 * "function" is fn, and their "covered" arrays (the report is written by our own
 * writer, one value per line, so a line scan is enough). */
void coverage_of(const char *report_path, const char *fn, uint32_t *covered, uint32_t *total) {
    *covered = *total = 0;
    char *t = util_read_file(report_path, NULL);
    if (!t) return;
    char key[512];
    snprintf(key, sizeof key, "\"function\": \"%s\"", fn);
    for (char *p = strstr(t, key); p; p = strstr(p + 1, key)) {
        /* the site's "covered": [ ... ] follows before the next site */
        char *c = strstr(p, "\"covered\": [");
        char *next = strstr(p + 1, "\"function\": ");
        if (!c || (next && next < c)) continue;
        char *end = strchr(c, ']');
        for (char *q = c; q && q < end; q++) {
            if (!strncmp(q, "true", 4)) (*covered)++, (*total)++;
            else if (!strncmp(q, "false", 5)) (*total)++;
        }
    }
    free(t);
}

void add_drop(fn_result *r, const char *vec, const char *why) {
    char *n = NULL;
    if (asprintf(&n, "%s%s: %s\n", r->drops ? r->drops : "", uc_base_name(vec), why) < 0) return;
    free(r->drops);
    r->drops = n;
    r->dropped++;
}


/* Run the recorder on one test vector; on success append a unit_test. */
void record_vector(const char *recorder, const char *rec_path, const char *vec, fn_result *fr, tests_vec *tv,
                          unsigned *counter) {
    char *e1 = NULL, *e2 = NULL, *e3 = NULL;
    if (asprintf(&e1, "SYMPATH_TESTCASE=%s", vec) < 0 || asprintf(&e2, "SYMPATH_UNIT_FUNCTION=%s", fr->fn->name) < 0 ||
        asprintf(&e3, "SYMPATH_UNIT_RECORD=%s", rec_path) < 0)
        return;
    char *env[] = {e1, e2, e3, NULL};
    char *argv[] = {(char *)recorder, NULL};
    unlink(rec_path);
    int st = 0;
    int rc = up_run(argv, env, NULL, 1.5, &st);
    if (rc != 0) {
        add_drop(fr, vec, rc == 1 ? "the call does not end natively within 1.5 s (hang)" : "the recorder did not start");
        goto out;
    }
    char *text = util_read_file(rec_path, NULL);
    unit_record rec;
    char *err = NULL;
    if (unit_record_parse(text ? text : "", &rec, &err) != 0) {
        add_drop(fr, vec, err ? err : "malformed record");
        free(err);
        free(text);
        goto out;
    }
    unit_outcome oc = UO_NORMAL;
    int signo = 0, code = 0;
    if (!rec.called) {
        add_drop(fr, vec, "its inputs end before the call (an input assumption failed)");
        unit_record_free(&rec);
        free(text);
        goto out;
    }
    if (WIFSIGNALED(st)) {
        oc = UO_SIGNAL;
        signo = WTERMSIG(st);
    } else if (WIFEXITED(st) && !rec.done) {
        if (WEXITSTATUS(st) == 0) {
            add_drop(fr, vec, "the run ended inside the call asking for more inputs than the test case has");
            unit_record_free(&rec);
            free(text);
            goto out;
        }
        oc = UO_EXIT;
        code = WEXITSTATUS(st);
    }
    char *key = NULL;
    if (asprintf(&key, "%d %d %d\n%s", (int)oc, signo, code, text ? text : "") < 0) key = NULL;
    for (size_t i = 0; key && i < tv->n; i++)
        if (!strcmp(tv->texts[i], key)) {
            free(key);
            unit_record_free(&rec);
            free(text);
            fr->duplicates++; /* same record and outcome as an earlier test: not a loss */
            goto out;
        }
    unit_test *nv = realloc(tv->v, (tv->n + 1) * sizeof *nv);
    char **nt = realloc(tv->texts, (tv->n + 1) * sizeof *nt);
    if (!nv || !nt) {
        free(key);
        goto out;
    }
    tv->v = nv;
    tv->texts = nt;
    unit_test *t = &tv->v[tv->n];
    memset(t, 0, sizeof *t);
    /* the name says what a failing test expects: test_parse_3_crashes, test_scale_2_aborts */
    const char *what = oc == UO_EXIT ? "_exits" : oc == UO_SIGNAL ? (signo == SIGABRT ? "_aborts" : "_crashes") : "";
    if (asprintf(&t->name, "test_%s_%u%s", fr->fn->name, ++*counter, what) < 0) t->name = NULL;
    t->fn = fr->fn;
    t->rec = rec;
    t->outcome = oc;
    t->signo = signo;
    t->exit_code = code;
    t->origin = strdup(uc_base_name(vec));
    tv->texts[tv->n++] = key;
    free(text);
out:
    free(e1);
    free(e2);
    free(e3);
}

/* Names of the tests a CMocka run reported as failed ("[  FAILED  ] name" lines). */
static int failed_in(const char *log, const char *name) {
    char pat[512];
    snprintf(pat, sizeof pat, "[  FAILED  ] %s\n", name);
    return log && strstr(log, pat) != NULL;
}


/* Whether name is a function of a system header (a mocked libc function). */
static int is_system(const unit_info *u, const char *name) {
    for (size_t i = 0; i < u->nsystem; i++)
        if (!strcmp(u->system[i].name, name)) return 1;
    return 0;
}

/* -Wl,--wrap=NAME for every function the tests replace although it is defined (in the unit
 * or in libc); with only_defined, for those of the unit only. */
static void add_wrap_flags_sel(const unit_info *u, char ***v, size_t *n, int only_defined) {
    for (size_t i = 0; i < u->nwrapped; i++) {
        if (only_defined && is_system(u, u->wrapped[i])) continue;
        char *f = NULL;
        if (asprintf(&f, "-Wl,--wrap=%s", u->wrapped[i]) >= 0) uc_push_word(f, v, n);
        free(f);
    }
}

static void add_wrap_flags(const unit_info *u, char ***v, size_t *n) {
    add_wrap_flags_sel(u, v, n, 0);
}

/* The compile command for a test file (argv, NULL-terminated, malloc'ed strings). */
static char **test_cc_argv(const unit_cfg *c, const char *test_c, const char *exe, int werror) {
    char **v = NULL;
    size_t n = 0;
    unit_split_words("cc -g", &v, &n);
    if (werror) unit_split_words("-Wall -Wextra -Werror", &v, &n);
    for (size_t i = 0; i < c->nsources; i++) {
        char *d = uc_dir_of(c->abs_sources[i]);
        char *flag = NULL;
        if (asprintf(&flag, "-I%s", d) >= 0) uc_push_word(flag, &v, &n);
        free(flag);
        free(d);
    }
    unit_split_words(c->cflags, &v, &n);
    if (c->has_main) unit_split_words("-Dmain=sympath_unit_user_main", &v, &n);
    uc_push_word(test_c, &v, &n);
    for (size_t i = 0; i < c->nsources; i++) uc_push_word(c->abs_sources[i], &v, &n);
    add_wrap_flags(c->u, &v, &n);
    unit_split_words("-lcmocka -lm -o", &v, &n);
    uc_push_word(exe, &v, &n);
    return v;
}

/*
 * Emit the tests of one source file into dir/test_<stem>.c, compile it with -Wall -Wextra
 * -Werror and run it; drop (with the reason) every test that does not compile or does not
 * pass, and repeat until the file compiles and every test passes. Returns the number of
 * tests kept; *text gets the final file (malloc'ed) when any is kept.
 */
size_t verify_file(const unit_cfg *c, const char *dir, const char *src, tests_vec *tv, fn_result *frs, size_t nfr,
                          char **text) {
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
            if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, "an input points inside an object (not expressible as locals)");
        memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
        tv->n--;
        i--;
    }
    for (int round = 0; round < 6 && tv->n > 0; round++) {
        char *t = unit_emit_tests(c->u, tv->v, tv->n, c->mocked, c->nmocked, uc_base_name(src));
        if (!t || write_file_atomic(test_c, t, strlen(t)) != 0) {
            free(t);
            break;
        }
        char **argv = test_cc_argv(c, test_c, exe, 1);
        int status = 0;
        char *cenv[] = {"LC_ALL=C", NULL}; /* plain quotes in the diagnostics */
        int rc = up_run(argv, cenv, log, 120, &status);
        util_free_strv(argv);
        char *out = util_read_file(log, NULL);
        if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
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
                if (!one || write_file_atomic(test_c, one, strlen(one)) != 0) {
                    free(one);
                    continue;
                }
                free(one);
                char **a1 = test_cc_argv(c, test_c, exe, 1);
                int s1 = 0;
                int r1 = up_run(a1, cenv, NULL, 120, &s1);
                util_free_strv(a1);
                bad[i] = r1 != 0 || !WIFEXITED(s1) || WEXITSTATUS(s1) != 0;
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
            free(bad);
            if (tv->n == before) {
                fprintf(stderr, "sympath unit: the emitted %s does not compile:\n%s\n", test_c, out ? out : "");
                for (size_t i = 0; i < tv->n; i++)
                    for (size_t k = 0; k < nfr; k++)
                        if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, "the emitted file does not compile");
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
        if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) rc = up_run(rargv, NULL, log, 60, &status);
        out = util_read_file(log, NULL);
        if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            free(out);
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
            if (!tv->v[i].heap) {
                /* once more with malloc'ed input objects: the unit may free or realloc them */
                tv->v[i].heap = 1;
                retried++;
                continue;
            }
            for (size_t k = 0; k < nfr; k++)
                if (frs[k].fn == tv->v[i].fn) add_drop(&frs[k], tv->v[i].name, "does not pass natively (not reproducible)");
            memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
            tv->n--;
            i--;
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
    unlink(exe);
    free(test_c);
    free(exe);
    free(log);
    free(st);
    return *text ? tv->n : 0;
}

/* Branch outcomes of function fn in a gcov -b listing: (taken, total) over the "branch"
 * lines between "function fn" and the next function. */
static void gcov_function(const char *gcov_text, const char *fn, int *taken, int *total) {
    *taken = *total = 0;
    int on = 0;
    char want[512];
    snprintf(want, sizeof want, "function %s ", fn);
    for (const char *l = gcov_text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (!strncmp(l, "function ", 9)) on = !strncmp(l, want, strlen(want));
        else if (on && !strncmp(l, "branch ", 7)) {
            (*total)++;
            if (!memmem(l, len, "taken 0%", 8) && !memmem(l, len, "never executed", 14)) (*taken)++;
        }
        l = nl ? nl + 1 : l + len;
    }
}

/* Build the verified test file again with gcov instrumentation of the unit, run it, and
 * read each target function's branch coverage (what a user measuring the emitted tests
 * sees; docs/coverage.md explains the differences from sympath's own count). */
void gcov_measure(const unit_cfg *c, const char *dir, const char *src, const char *test_text, fn_result *frs,
                         size_t nfr) {
    char *st = uc_stem(src), *gdir = NULL, *test_c = NULL, *exe = NULL, *log = NULL;
    if (asprintf(&gdir, "%s/gcov_%s", dir, st) < 0 || asprintf(&test_c, "%s/test_%s.c", gdir, st) < 0 ||
        asprintf(&exe, "%s/t", gdir) < 0 || asprintf(&log, "%s/log", gdir) < 0)
        goto out;
    util_mkdir_p(gdir);
    if (write_file_atomic(test_c, test_text, strlen(test_text)) != 0) goto out;
    char **objs = NULL;
    size_t nobjs = 0;
    for (size_t i = 0; i < c->nsources; i++) {
        char **v = NULL;
        size_t n = 0;
        char *obj = NULL, *b = uc_stem(c->abs_sources[i]);
        if (asprintf(&obj, "%s/%s.o", gdir, b) < 0) obj = NULL;
        free(b);
        unit_split_words("cc -w -c -O0 --coverage", &v, &n);
        unit_split_words(c->cflags, &v, &n);
        if (c->has_main) unit_split_words("-Dmain=sympath_unit_user_main", &v, &n);
        /* gcov's runtime calls getenv & co. itself: a mocked libc function is renamed in the
         * unit's objects here instead of wrapped at link time */
        for (size_t k = 0; k < c->u->nwrapped; k++) {
            char *d = NULL;
            if (is_system(c->u, c->u->wrapped[k]) &&
                asprintf(&d, "-D%s=__wrap_%s", c->u->wrapped[k], c->u->wrapped[k]) >= 0)
                uc_push_word(d, &v, &n);
            free(d);
        }
        uc_push_word(c->abs_sources[i], &v, &n);
        unit_split_words("-o", &v, &n);
        uc_push_word(obj, &v, &n);
        int status = 0;
        int rc = up_run(v, NULL, log, 120, &status);
        util_free_strv(v);
        if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            free(obj);
            util_free_strv(objs);
            goto out;
        }
        uc_push_word(obj, &objs, &nobjs);
        free(obj);
    }
    char **v = NULL;
    size_t n = 0;
    unit_split_words("cc -w -O0 --coverage", &v, &n);
    for (size_t i = 0; i < c->nsources; i++) {
        char *d = uc_dir_of(c->abs_sources[i]), *flag = NULL;
        if (asprintf(&flag, "-I%s", d) >= 0) uc_push_word(flag, &v, &n);
        free(flag);
        free(d);
    }
    unit_split_words(c->cflags, &v, &n);
    uc_push_word(test_c, &v, &n);
    for (size_t i = 0; i < nobjs; i++) uc_push_word(objs[i], &v, &n);
    add_wrap_flags_sel(c->u, &v, &n, 1);
    unit_split_words("-lcmocka -lm -o", &v, &n);
    uc_push_word(exe, &v, &n);
    util_free_strv(objs);
    int status = 0;
    int rc = up_run(v, NULL, log, 120, &status);
    util_free_strv(v);
    if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) goto out;
    char *rargv[] = {exe, NULL};
    if (up_run(rargv, NULL, log, 120, &status) != 0) goto out;
    /* gcov writes NAME.c.gcov into its working directory */
    char *cmd = NULL;
    if (asprintf(&cmd, "cd '%s' && gcov -b -o . '%s'", gdir, src) < 0) goto out;
    char *sh[] = {"sh", "-c", cmd, NULL};
    rc = up_run(sh, NULL, log, 60, &status);
    free(cmd);
    char *gpath = NULL;
    if (asprintf(&gpath, "%s/%s.gcov", gdir, uc_base_name(src)) < 0) goto out;
    char *text = util_read_file(gpath, NULL);
    free(gpath);
    for (size_t k = 0; text && k < nfr; k++) {
        if (strcmp(frs[k].fn->file, src)) continue;
        gcov_function(text, frs[k].fn->name, &frs[k].gcov_taken, &frs[k].gcov_total);
    }
    free(text);
out:
    free(st);
    free(gdir);
    free(test_c);
    free(exe);
    free(log);
}

/* Whether the harness compiles (clang -fsyntax-only with the build's flags); on failure
 * *diag (if given) gets the first lines of clang's errors. */
int syntax_ok(const char *file, const char *build_cflags, const char *build_dir, char **diag) {
    char **v = NULL;
    size_t n = 0;
    uc_push_word(getenv("SYMPATH_CC") ? getenv("SYMPATH_CC") : SYMPATH_CLANG, &v, &n);
    unit_split_words("-fsyntax-only -w -std=gnu11", &v, &n);
    char *inc = NULL;
    if (asprintf(&inc, "-I%s", uc_include_dir()) >= 0) uc_push_word(inc, &v, &n);
    free(inc);
    unit_split_words(build_cflags, &v, &n);
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
