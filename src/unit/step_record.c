/* step_record.c: step 4 of `sympath unit`: each kept test vector run through the native recorder, deduplicated, with the reasons of the dropped ones. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit/pipeline_int.h"
#include "util/util.h"
#include "proto/env.h"

/* Per-function branch coverage from the exploration's report.json: the sites whose
 * "function" is fn, and their "covered" arrays (the report is written by our own
 * writer, one value per line, so a line scan is enough). */
void coverage_of(const char *report_path, const char *fn, uint32_t *covered, uint32_t *total)
{
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
            if (!strncmp(q, "true", 4))
                (*covered)++, (*total)++;
            else if (!strncmp(q, "false", 5))
                (*total)++;
        }
    }
    free(t);
}

void add_drop(fn_result *r, const char *vec, const char *why)
{
    char *n = NULL;
    if (asprintf(&n, "%s%s: %s\n", r->drops ? r->drops : "", uc_base_name(vec), why) < 0) return;
    free(r->drops);
    r->drops = n;
    r->dropped++;
}

/* The words of an after-call record line that name what its value is of (post ID SUFFIX, walk ROOT LV TAIL,
 * ret, vararg K, varheap K OFF), or 0 when l is no such line (an assertion's source). */
static int key_words(const char *l)
{
    static const struct {
        const char *kind;
        int words;
    } kinds[] = {{"post ", 3}, {"walk ", 4}, {"ret ", 1}, {"vararg ", 2}, {"varheap ", 3}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strncmp(l, kinds[i].kind, strlen(kinds[i].kind))) return kinds[i].words;
    return 0;
}

/* The length of line l's key (its first k words, k = key_words(l) > 0) within its len bytes. */
static size_t key_len(const char *l, size_t len, int k)
{
    size_t i = 0;
    for (int w = 0; w < k && i < len; w++) {
        while (i < len && l[i] != ' ') i++;
        if (w + 1 < k) i++;
    }
    return i;
}

/* Whether the lines of painted hold the line [l, l+len) exactly. */
static int has_line(const char *painted, const char *l, size_t len)
{
    for (const char *p = painted; *p;) {
        size_t n = strcspn(p, "\n");
        if (n == len && !memcmp(p, l, len)) return 1;
        p += n + (p[n] == '\n');
    }
    return 0;
}

/* The next byte of a C string literal body at *s (sympu_escape_n's: \xNN, a backslash and one
 * character, a plain character; an empty "" between two is skipped): its text [*s, end). Returns 0 at
 * the end of the body. */
static int lit_byte(const char **s, const char **end)
{
    while ((*s)[0] == '"' && (*s)[1] == '"') *s += 2;
    const char *p = *s;
    if (!*p) return 0;
    if (p[0] == '\\' && p[1] == 'x' && p[2] && p[3])
        *end = p + 4;
    else if (p[0] == '\\' && p[1])
        *end = p + 2;
    else
        *end = p + 1;
    return 1;
}

/* A buffer struct's bytes (`walk ROOT LV TAIL b - N BODY`) that differ between the record and the painted
 * one: the line with the bytes both agree on up to the first that differs (what the call wrote; csv_parse's
 * entry_buf past the field it holds is the allocator's), or NULL when none agree or l is no such line. */
static char *stable_bytes(const char *l, size_t n, const char *painted)
{
    int k = key_words(l);
    if (strncmp(l, "walk ", 5) || k != 4) return NULL;
    size_t kl = key_len(l, n, k);
    if (kl + 5 > n || strncmp(l + kl, " b - ", 5)) return NULL;
    const char *q = NULL;
    for (const char *p = painted; *p && !q;) {
        size_t m = strcspn(p, "\n");
        if (m > kl + 5 && !memcmp(p, l, kl + 5)) q = p;
        p += m + (p[m] == '\n');
    }
    if (!q) return NULL;
    char *a = strndup(l, n);
    const char *b = q, *pa = NULL, *pb = NULL;
    if (!a) return NULL;
    pa = strchr(a + kl + 5, ' ');
    pb = strchr(b + kl + 5, ' ');
    if (!pa || !pb) {
        free(a);
        return NULL;
    }
    pa++, pb++;
    const char *body = pa, *ea = NULL, *eb = NULL;
    size_t same = 0;
    while (lit_byte(&pa, &ea) && lit_byte(&pb, &eb) && *pb != '\n' && ea - pa == eb - pb &&
           !memcmp(pa, pb, (size_t)(ea - pa))) {
        same++;
        pa = ea, pb = eb;
    }
    char *out = NULL;
    if (same && asprintf(&out, "%.*s b - %zu %.*s", (int)kl, a, same, (int)(pa - body), body) < 0) out = NULL;
    free(a);
    return out;
}

char *unit_record_stable(const char *text, const char *painted, size_t *dropped)
{
    *dropped = 0;
    if (!painted || !strcmp(text, painted)) return strdup(text); /* the usual case: nothing unwritten was read */
    /* the unstable lines' keys ("post 6 .start", "walk 6 .start -"), newline-separated */
    strbuf gone = STRBUF_INIT, b = STRBUF_INIT;
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        int k = key_words(l);
        if (k && !has_line(painted, l, n)) sb_printf(&gone, "%.*s\n", (int)key_len(l, n, k), l);
        l += n + (l[n] == '\n');
    }
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        int k = key_words(l), drop = 0;
        if (k && gone.s) {
            size_t kl = key_len(l, n, k);
            char key[512];
            snprintf(key, sizeof key, "%.*s\n", (int)kl, l);
            drop = strstr(gone.s, key) != NULL;
            /* a pointer whose pointee was unstable: `post ID SUFFIX p ...` after `walk ID SUFFIX ...` went */
            if (!drop && !strncmp(l, "post ", 5)) {
                snprintf(key, sizeof key, "walk %.*s ", (int)kl - 5, l + 5);
                for (const char *g = gone.s; g && !drop; g = strchr(g, '\n'), g = g ? g + 1 : NULL)
                    drop = !strncmp(g, key, strlen(key));
            }
        }
        char *kept = drop ? stable_bytes(l, n, painted) : NULL;
        if (kept)
            sb_printf(&b, "%s\n", kept);
        else if (drop)
            (*dropped)++;
        else
            sb_printf(&b, "%.*s\n", (int)n, l);
        free(kept);
        l += n + (l[n] == '\n');
    }
    sb_free(&gone);
    return b.s ? b.s : strdup("");
}

/* Run the recorder on one test vector; on success append a unit_test. */
void record_vector(const char *recorder, const char *rec_path, const char *vec, fn_result *fr, tests_vec *tv,
                   unsigned *counter)
{
    char *e1 = NULL, *e2 = NULL, *e3 = NULL;
    if (asprintf(&e1, SYMPATH_ENV_TESTCASE "=%s", vec) < 0 ||
        asprintf(&e2, SYMPATH_ENV_UNIT_FUNCTION "=%s", fr->fn->name) < 0 ||
        asprintf(&e3, SYMPATH_ENV_UNIT_RECORD "=%s", rec_path) < 0)
        return;
    char *env[] = {e1, e2, e3, NULL};
    char *argv[] = {(char *)recorder, NULL};
    unlink(rec_path);
    int st = 0;
    int rc = up_run(argv, env, NULL, 1.5, &st);
    if (rc != 0) {
        add_drop(fr, vec,
                 rc == 1 ? "the call does not end natively within 1.5 s (hang)" : "the recorder did not start");
        goto out;
    }
    char *text = util_read_file(rec_path, NULL);
    {
        /* once more with the stack below the call and the call's malloc blocks filled with 0xAA: what it
         * read from memory nobody wrote differs, and is not asserted (sj.h's sj_read returns a struct
         * whose depth it never sets) */
        char e4[64];
        snprintf(e4, sizeof e4, SYMPATH_ENV_UNIT_PAINT "=170");
        char *penv[] = {e1, e2, e3, e4, NULL};
        unlink(rec_path);
        int st2 = 0;
        char *painted =
            text && up_run(argv, penv, NULL, 1.5, &st2) == 0 && st2 == st ? util_read_file(rec_path, NULL) : NULL;
        size_t unstable = 0;
        char *stable = text ? unit_record_stable(text, painted, &unstable) : NULL;
        if (stable) {
            free(text);
            text = stable;
        }
        free(painted);
    }
    unit_record rec;
    char *err = NULL;
    if (unit_record_parse(text ? text : "", &rec, &err) != 0) {
        add_drop(fr, vec, err ? err : "malformed record");
        free(err);
        free(text);
        goto out;
    }
    unit_record_prune(&rec);
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
