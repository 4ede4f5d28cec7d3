/* step_gcov.c: `sympath unit` measures its verified tests: the unit rebuilt with gcc --coverage, each target function's gcov branch figures. */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit/pipeline_int.h"
#include "util/util.h"

/* Branch outcomes of function fn in a gcov -b listing: (taken, total) over the "branch"
 * lines between "function fn" and the next function. */
static void gcov_function(const char *gcov_text, const char *fn, int *taken, int *total)
{
    *taken = *total = 0;
    int on = 0;
    char want[512];
    snprintf(want, sizeof want, "function %s ", fn);
    for (const char *l = gcov_text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (!strncmp(l, "function ", 9))
            on = !strncmp(l, want, strlen(want));
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
                  size_t nfr)
{
    char *st = uc_stem(src), *gdir = NULL, *test_c = NULL, *exe = NULL, *log = NULL;
    if (asprintf(&gdir, "%s/gcov_%s", dir, st) < 0 || asprintf(&test_c, "%s/test_%s.c", gdir, st) < 0 ||
        asprintf(&exe, "%s/t", gdir) < 0 || asprintf(&log, "%s/log", gdir) < 0)
        goto out;
    util_mkdir_p(gdir);
    if (util_write_atomic(test_c, test_text, strlen(test_text)) != 0) goto out;
    char **objs = NULL;
    size_t nobjs = 0;
    for (size_t i = 0; i < c->nsources; i++) {
        if (unit_source_included(c->u, c->abs_sources[i])) continue; /* unitlib: inside the test's object */
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
            if (unit_is_system(c->u, c->u->wrapped[k]) &&
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
    for (size_t k = 0; k < c->u->nwrapped && nobjs < c->nsources;
         k++) { /* unitlib: an included source, renamed as above */
        char *d = unit_is_system(c->u, c->u->wrapped[k])
                      ? util_strf("-D%s=__wrap_%s", c->u->wrapped[k], c->u->wrapped[k])
                      : NULL;
        if (d) uc_push_word(d, &v, &n);
        free(d);
    }
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
    glob_t old;
    char *pat = util_strf("%s/*.gcda", gdir);
    if (pat && glob(pat, 0, NULL, &old) == 0) { /* data of an earlier run would pass for this one's */
        for (size_t i = 0; i < old.gl_pathc; i++) unlink(old.gl_pathv[i]);
        globfree(&old);
    }
    if (up_run(rargv, NULL, log, 120, &status) != 0) {
        free(pat);
        goto out;
    }
    /* the data is written at exit: a program that dies there (a corrupted heap: "malloc():
     * corrupted top size") leaves none, and gcov would then count every branch as not taken */
    glob_t got;
    int have = pat && glob(pat, 0, NULL, &got) == 0;
    if (have) globfree(&got);
    free(pat);
    if (!have) {
        char *l = util_read_file(log, NULL), *last = NULL;
        for (char *p = l ? strtok(l, "\n") : NULL; p; p = strtok(NULL, "\n"))
            if (*p && *p != '[') last = p; /* CMocka's own lines say nothing about the cause */
        char *why = WIFSIGNALED(status)
                        ? util_strf("the test program died by signal %d (%s) before writing its coverage data%s%s",
                                    WTERMSIG(status), strsignal(WTERMSIG(status)), last ? ": " : "", last ? last : "")
                        : util_strf("the test program (exit status %d) wrote no coverage data%s%s",
                                    WIFEXITED(status) ? WEXITSTATUS(status) : -1, last ? ": " : "", last ? last : "");
        fprintf(c->log, "sympath unit: warning: gcov figures of %s unknown: %s\n", uc_base_name(src),
                why ? why : "no coverage data");
        for (size_t k = 0; k < nfr; k++)
            if (!strcmp(frs[k].fn->file, src)) {
                free(frs[k].gcov_unknown);
                frs[k].gcov_unknown = strdup(why ? why : "no coverage data");
            }
        free(why);
        free(l);
        goto out;
    }
    /* gcov writes NAME.c.gcov into its working directory */
    char *cmd = NULL;
    /* unitlib: an included source's counts are in the test's own object */
    if (asprintf(&cmd, "cd '%s' && gcov -b -o . '%s'%s", gdir, src,
                 unit_source_included(c->u, src) ? "; gcov -b *.gcda" : "") < 0)
        goto out;
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
