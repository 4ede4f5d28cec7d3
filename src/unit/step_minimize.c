/* step_minimize.c: step 5c of `sympath unit`: each function's verified tests reduced to the fewest with the same coverage and result variety (minimize.c). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/pipeline_int.h"
#include "util/util.h"

/* The slots of run_dir/tests/<vector stem>.cov (explore_opts.test_coverage) into *cov (malloc'ed);
 * 0, or -1 when there is no such file. */
static int read_cov(const char *run_dir, const char *origin, uint32_t **cov, size_t *n)
{
    *cov = NULL;
    *n = 0;
    if (!run_dir || !origin || strncmp(origin, "test-", 5)) return -1;
    const char *dot = strrchr(origin, '.');
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/tests/%.*s.cov", run_dir, (int)(dot ? dot - origin : (long)strlen(origin)), origin);
    char *t = util_read_file(path, NULL);
    if (!t) return -1;
    size_t cap = 0;
    for (char *p = t;;) {
        char *e;
        unsigned long v = strtoul(p, &e, 10);
        if (e == p) break;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            uint32_t *nc = realloc(*cov, cap * sizeof *nc);
            if (!nc) break;
            *cov = nc;
        }
        (*cov)[(*n)++] = (uint32_t)v;
        p = e;
    }
    free(t);
    return 0;
}

/* The size of the values t's inputs held before the call. */
static size_t test_cost(const unit_test *t)
{
    size_t c = 0;
    for (size_t i = 0; i < t->rec.nentries; i++)
        if (t->rec.entries[i].pre.kind && t->rec.entries[i].pre.text) c += strlen(t->rec.entries[i].pre.text);
    for (size_t i = 0; i < t->rec.nobjs; i++) c += t->rec.objs[i].ndata;
    return c;
}

/* What t asserts that sets it apart (malloc'ed): its outcome, its returned value and the values
 * the call changed (each entry whose value after the call differs from the one before). */
static char *test_result(const unit_test *t)
{
    strbuf b = STRBUF_INIT;
    sb_printf(&b, "%d %d %d %c %s", (int)t->outcome, t->signo, t->exit_code, t->rec.ret.kind ? t->rec.ret.kind : '-',
              t->rec.ret.text ? t->rec.ret.text : "");
    for (size_t i = 0; i < t->rec.nentries; i++) {
        const ur_entry *e = &t->rec.entries[i];
        if (!e->post.kind || !e->post.text) continue;
        if (e->pre.kind && e->pre.text && !strcmp(e->pre.text, e->post.text)) continue;
        sb_printf(&b, "\n%d%s=%s", e->obj, e->suffix ? e->suffix : "", e->post.text);
    }
    return b.s ? b.s : strdup("");
}

size_t unit_minimize_tests(tests_vec *tv, fn_result *frs, size_t nfr)
{
    size_t removed = 0;
    for (size_t f = 0; f < nfr; f++) {
        fn_result *fr = &frs[f];
        size_t m = 0;
        for (size_t i = 0; i < tv->n; i++) m += tv->v[i].fn == fr->fn;
        if (m == 0) continue;
        unit_min_item *items = calloc(m, sizeof *items);
        size_t *at = calloc(m, sizeof *at);
        char **results = calloc(m, sizeof *results);
        uint32_t **covs = calloc(m, sizeof *covs);
        int *keep = calloc(m, sizeof *keep);
        if (!items || !at || !results || !covs || !keep) {
            free(items), free(at), free(results), free(covs), free(keep);
            continue;
        }
        size_t k = 0;
        for (size_t i = 0; i < tv->n; i++) {
            const unit_test *t = &tv->v[i];
            if (t->fn != fr->fn) continue;
            at[k] = i;
            items[k].cov_known = read_cov(fr->run_dir, t->origin, &covs[k], &items[k].ncov) == 0;
            items[k].cov = covs[k];
            items[k].failing = t->outcome != UO_NORMAL;
            items[k].cost = test_cost(t);
            results[k] = test_result(t);
            items[k].result = results[k];
            k++;
        }
        size_t kept = unit_minimize_select(items, m, keep);
        fr->min_done = 1;
        fr->min_before += (unsigned)m;
        fr->min_after += (unsigned)kept;
        for (size_t j = m; j-- > 0;)
            if (!keep[j]) { /* remove tv->v[at[j]], from the back so the other positions hold */
                size_t i = at[j];
                memmove(&tv->v[i], &tv->v[i + 1], (tv->n - i - 1) * sizeof *tv->v);
                tv->n--;
                removed++;
            }
        for (size_t j = 0; j < m; j++) free(results[j]), free(covs[j]);
        free(items), free(at), free(results), free(covs), free(keep);
    }
    return removed;
}
