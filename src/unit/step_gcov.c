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

void unit_test_names(const char *test_text, char ***names, size_t *n)
{
    static const char key[] = "cmocka_unit_test(";
    for (const char *p = test_text ? strstr(test_text, key) : NULL; p; p = strstr(p + 1, key)) {
        const char *a = p + sizeof key - 1, *e = strchr(a, ')');
        if (!e) break;
        char *w = strndup(a, (size_t)(e - a));
        if (w) uc_push_word(w, names, n);
        free(w);
    }
}

int unit_test_of(const char *test, const char *fn)
{
    size_t l = strlen(fn);
    return !strncmp(test, "test_", 5) && !strncmp(test + 5, fn, l) && test[5 + l] == '_' && test[6 + l] >= '0' &&
           test[6 + l] <= '9';
}

long unit_gcov_calls(const char *gcov_text, const char *fn)
{
    char want[512];
    snprintf(want, sizeof want, "function %s called ", fn);
    size_t wl = strlen(want);
    for (const char *l = gcov_text; l && *l;) {
        if (!strncmp(l, want, wl)) return strtol(l + wl, NULL, 10);
        const char *nl = strchr(l, '\n');
        l = nl ? nl + 1 : NULL;
    }
    return -1;
}

/* Whether the body of test `test` in the test file's text calls name ("name(" not preceded by
 * an identifier character): a function the test calls itself (a producer, a releaser). */
static int test_calls(const char *test_text, const char *test, const char *name)
{
    char *head = util_strf("static void %s(void **state) {", test);
    const char *b = head ? strstr(test_text, head) : NULL;
    free(head);
    const char *e = b ? strstr(b, "\n}\n") : NULL;
    size_t nl = strlen(name);
    for (const char *p = b; p && p < e; p++) {
        p = strstr(p, name);
        if (!p || p >= e) break;
        char before = p > test_text ? p[-1] : ' ';
        if (p[nl] == '(' && !(before == '_' || (before >= '0' && before <= '9') || (before >= 'a' && before <= 'z') ||
                              (before >= 'A' && before <= 'Z')))
            return 1;
    }
    return 0;
}

static int ident_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether name occurs as a whole word in an executable line of the len bytes of listing at s:
 * lines gcov counts ("N:" or "#####:"), not "-:" ones (comments, declarations: a prototype
 * between two functions is no call). */
static int word_in(const char *s, size_t len, const char *name)
{
    size_t nl = strlen(name);
    for (const char *l = s; l < s + len;) {
        const char *e = memchr(l, '\n', (size_t)(s + len - l));
        if (!e) e = s + len;
        const char *c = l;
        while (c < e && *c == ' ') c++;
        if (c < e && *c != '-')
            for (const char *p = c; p + nl <= e; p++) {
                p = memmem(p, (size_t)(e - p), name, nl);
                if (!p) break;
                if ((p == l || !ident_char(p[-1])) && (p + nl == e || !ident_char(p[nl]))) return 1;
            }
        l = e + 1;
    }
    return 0;
}

/* A function's part of a gcov -b listing: from its "function NAME called" line to the next one. */
typedef struct gcov_block {
    char *name;
    const char *body;
    size_t len;
} gcov_block;

char *unit_gcov_refs(const char *const *listings, size_t nlistings, const char *target)
{
    gcov_block *b = NULL;
    size_t nb = 0, cap = 0;
    for (size_t i = 0; i < nlistings; i++) {
        size_t first = nb; /* the blocks of this listing */
        for (const char *l = listings[i]; l && *l;) {
            const char *nl = strchr(l, '\n');
            if (!strncmp(l, "function ", 9) && strchr(l + 9, ' ')) {
                if (nb == cap) {
                    cap = cap ? 2 * cap : 64;
                    gcov_block *nbk = realloc(b, cap * sizeof *b);
                    if (!nbk) break;
                    b = nbk;
                }
                if (nb && b[nb - 1].body && !b[nb - 1].len) b[nb - 1].len = (size_t)(l - b[nb - 1].body);
                b[nb].name = strndup(l + 9, (size_t)(strchr(l + 9, ' ') - (l + 9)));
                b[nb].body = nl ? nl + 1 : l + strlen(l);
                b[nb].len = 0;
                nb++;
            }
            l = nl ? nl + 1 : NULL;
        }
        if (nb > first && !b[nb - 1].len) b[nb - 1].len = strlen(b[nb - 1].body); /* ends with its listing */
    }
    /* the last block of each listing ends with it */
    for (size_t k = 0; k < nb; k++)
        if (!b[k].len) b[k].len = strlen(b[k].body);
    char *in = calloc(nb + 1, 1); /* in[k]: b[k]'s function is reached */
    size_t *work = calloc(nb + 1, sizeof *work), nw = 0;
    for (size_t k = 0; in && work && k < nb; k++)
        if (b[k].name && !strcmp(b[k].name, target)) work[nw++] = k; /* its blocks, not reached by itself */
    while (in && work && nw) {
        size_t k = work[--nw];
        for (size_t m = 0; m < nb; m++)
            if (!in[m] && b[m].name && strcmp(b[m].name, target) && word_in(b[k].body, b[k].len, b[m].name)) {
                for (size_t x = 0; x < nb; x++) /* every block of that name (a static one in two files) */
                    if (!in[x] && b[x].name && !strcmp(b[x].name, b[m].name)) {
                        in[x] = 1;
                        work[nw++] = x;
                    }
            }
    }
    strbuf out = STRBUF_INIT;
    sb_puts(&out, "\n");
    for (size_t k = 0; in && k < nb; k++) {
        int dup = 0;
        for (size_t x = 0; x < k; x++) dup |= in[x] && !strcmp(b[x].name, b[k].name);
        if (in[k] && !dup) sb_printf(&out, "%s\n", b[k].name);
    }
    for (size_t k = 0; k < nb; k++) free(b[k].name);
    free(b);
    free(in);
    free(work);
    return out.s;
}

void unit_gcov_reached(const char *gcov_text, const char *target, const char *refs, const char *test_text,
                       char *const *tests, size_t ntests, strbuf *out)
{
    for (const char *l = gcov_text; l && *l;) {
        const char *nl = strchr(l, '\n');
        if (!strncmp(l, "function ", 9)) {
            const char *a = l + 9, *sp = strchr(a, ' ');
            char *name = sp ? strndup(a, (size_t)(sp - a)) : NULL;
            int direct = 0;
            for (size_t t = 0; name && t < ntests && !direct; t++) direct = test_calls(test_text, tests[t], name);
            char *key = name ? util_strf("\n%s\n", name) : NULL;
            int referred = !refs || (key && strstr(refs, key));
            free(key);
            if (name && strcmp(name, target) && referred && !direct && unit_gcov_calls(l, name) > 0) {
                int taken, total;
                gcov_function(gcov_text, name, &taken, &total);
                sb_printf(out, "%s\t%d\t%d\n", name, taken, total);
            }
            free(name);
        }
        l = nl ? nl + 1 : NULL;
    }
}

/* Why a run wrote no coverage data, from its wait status and the last line of its log that is
 * not CMocka's own (malloc'ed). */
static char *no_data_reason(const char *log, int status)
{
    char *l = util_read_file(log, NULL), *last = NULL;
    for (char *p = l ? strtok(l, "\n") : NULL; p; p = strtok(NULL, "\n"))
        if (*p && *p != '[') last = p; /* CMocka's own lines say nothing about the cause */
    char *why = WIFSIGNALED(status)
                    ? util_strf("the test program died by signal %d (%s) before writing its coverage data%s%s",
                                WTERMSIG(status), strsignal(WTERMSIG(status)), last ? ": " : "", last ? last : "")
                    : util_strf("the test program (exit status %d) wrote no coverage data%s%s",
                                WIFEXITED(status) ? WEXITSTATUS(status) : -1, last ? ": " : "", last ? last : "");
    free(l);
    return why ? why : strdup("no coverage data");
}

/* Remove the files of gdir matching pattern (data of an earlier run would pass for this one's);
 * with count, only count them. Returns how many there were. */
static size_t gdir_files(const char *gdir, const char *pattern, int count)
{
    glob_t g;
    char *pat = util_strf("%s/%s", gdir, pattern);
    size_t n = 0;
    if (pat && glob(pat, 0, NULL, &g) == 0) {
        n = g.gl_pathc;
        for (size_t i = 0; i < g.gl_pathc && !count; i++) unlink(g.gl_pathv[i]);
        globfree(&g);
    }
    free(pat);
    return n;
}

/* One target's figures: the coverage binary exe run on that function's own tests only (CMocka's
 * filter: "test_FN_*" when no other test matches it, else one run per test), then gcov -b on
 * every object; the target's branches from its file's listing and, in fr->reached, every other
 * function of the unit's files the tests ran except those the tests call themselves. */
static void gcov_target(const unit_cfg *c, const char *gdir, const char *exe, const char *log, const char *src,
                        const char *test_text, char *const *names, size_t nnames, fn_result *fr, int *warned)
{
    const char *fn = fr->fn->name;
    char **own = NULL;
    size_t nown = 0;
    int ambiguous = 0;
    char *prefix = util_strf("test_%s_", fn);
    for (size_t i = 0; i < nnames && prefix; i++) {
        if (unit_test_of(names[i], fn))
            uc_push_word(names[i], &own, &nown);
        else if (!strncmp(names[i], prefix, strlen(prefix)))
            ambiguous = 1; /* test_a_b_1 of a_b would run with a's */
    }
    free(prefix);
    if (!nown) return; /* no test of its own: nothing measured */
    gdir_files(gdir, "*.gcda", 0);
    int status = 0, ok = 1;
    for (size_t i = 0; ok && i < (ambiguous ? nown : 1); i++) {
        char *filter = ambiguous ? strdup(own[i]) : util_strf("test_%s_*", fn);
        char *rargv[] = {(char *)exe, filter, NULL};
        ok = filter && up_run(rargv, NULL, log, 120, &status) == 0;
        free(filter);
    }
    if (!ok) goto done;
    /* the data is written at exit: a program that dies there (a corrupted heap: "malloc():
     * corrupted top size") leaves none, and gcov would then count every branch as not taken */
    if (!gdir_files(gdir, "*.gcda", 1)) {
        char *why = no_data_reason(log, status);
        if (!*warned)
            fprintf(c->log, "sympath unit: warning: gcov figures of %s unknown: %s\n", uc_base_name(src), why);
        *warned = 1;
        free(fr->gcov_unknown);
        fr->gcov_unknown = why;
        goto done;
    }
    /* gcov writes NAME.c.gcov into its working directory: one per source of every object (an
     * included source's counts are in the test's own object) */
    gdir_files(gdir, "*.gcov", 0);
    char *cmd = util_strf("cd '%s' && gcov -b *.gcda", gdir);
    char *sh[] = {"sh", "-c", cmd, NULL};
    if (cmd) up_run(sh, NULL, log, 60, &status);
    free(cmd);
    strbuf reached = STRBUF_INIT;
    char **texts = calloc(c->nsources + 1, sizeof *texts);
    for (size_t i = 0; texts && i < c->nsources; i++) {
        char *gpath = util_strf("%s/%s.gcov", gdir, uc_base_name(c->abs_sources[i]));
        texts[i] = gpath ? util_read_file(gpath, NULL) : NULL;
        free(gpath);
        if (texts[i] && !strcmp(c->abs_sources[i], src)) gcov_function(texts[i], fn, &fr->gcov_taken, &fr->gcov_total);
    }
    /* what the target's tests ran that the target refers to: not the internals of the producers
     * that built its inputs */
    char *refs = texts ? unit_gcov_refs((const char *const *)texts, c->nsources, fn) : NULL;
    for (size_t i = 0; texts && refs && i < c->nsources; i++)
        if (texts[i]) unit_gcov_reached(texts[i], fn, refs, test_text, own, nown, &reached);
    for (size_t i = 0; texts && i < c->nsources; i++) free(texts[i]);
    free(texts);
    free(refs);
    free(fr->reached);
    fr->reached = reached.s; /* NULL when none */
done:
    util_free_strv(own);
}

/* Build the verified test file again with gcov instrumentation of the unit and measure each
 * target function on its own tests (gcov_target): what a user measuring the emitted tests
 * sees; docs/coverage.md explains the differences from sympath's own count. */
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
    char **names = NULL;
    size_t nnames = 0;
    unit_test_names(test_text, &names, &nnames);
    int warned = 0;
    for (size_t k = 0; k < nfr; k++)
        if (!strcmp(frs[k].fn->file, src))
            gcov_target(c, gdir, exe, log, src, test_text, names, nnames, &frs[k], &warned);
    util_free_strv(names);
out:
    free(st);
    free(gdir);
    free(test_c);
    free(exe);
    free(log);
}
