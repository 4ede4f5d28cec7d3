/* step_minimize.c: step 5c of `sympath unit`: each function's verified tests reduced to the fewest with the same coverage and result variety (minimize.c). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/pipeline_int.h"
#include "util/util.h"

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
            items[k].cov_known = unit_read_cov(fr->run_dir, t->origin, &covs[k], &items[k].ncov) == 0;
            if (items[k].cov_known && t->nkills) { /* the mutants it kills are goals too (step_mutate.c) */
                uint32_t *nc = realloc(covs[k], (items[k].ncov + t->nkills) * sizeof *nc);
                if (nc) {
                    covs[k] = nc;
                    for (size_t q = 0; q < t->nkills; q++) nc[items[k].ncov++] = 0x80000000u | t->kills[q];
                }
            }
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

int unit_minimize_checked(const unit_cfg *c, const char *dir, const char *src, tests_vec *tv, fn_result *frs,
                          size_t nfr, char **text)
{
    tests_vec full = {malloc((tv->n + 1) * sizeof *tv->v), tv->n, NULL};
    if (!full.v) return 0;
    memcpy(full.v, tv->v, tv->n * sizeof *tv->v);
    if (unit_minimize_tests(tv, frs, nfr) == 0) {
        free(full.v);
        return 0;
    }
    char *min_text = unit_emit_tests(c->u, tv->v, tv->n, c->mocked, c->nmocked, uc_base_name(src));
    if (!min_text) { /* keep the whole suite */
        memcpy(tv->v, full.v, full.n * sizeof *tv->v);
        tv->n = full.n;
        free(full.v);
        return 0;
    }
    /* the gcov figures of the whole suite, then of the minimised one (each function on its own tests) */
    gcov_measure(c, dir, src, *text, frs, nfr);
    int *taken = calloc(nfr + 1, sizeof *taken);
    char **reached = calloc(nfr + 1, sizeof *reached);
    int *total = calloc(nfr + 1, sizeof *total);
    char **unknown = calloc(nfr + 1, sizeof *unknown);
    if (!taken || !reached || !total || !unknown) {
        memcpy(tv->v, full.v, full.n * sizeof *tv->v); /* measured: the whole suite stays */
        tv->n = full.n;
        for (size_t f = 0; f < nfr; f++) frs[f].min_after = frs[f].min_before;
        free(taken), free(reached), free(total), free(unknown), free(full.v), free(min_text);
        return 1;
    }
    for (size_t f = 0; f < nfr; f++) {
        taken[f] = frs[f].gcov_taken;
        total[f] = frs[f].gcov_total;
        reached[f] = frs[f].reached ? strdup(frs[f].reached) : NULL;
        unknown[f] = frs[f].gcov_unknown ? strdup(frs[f].gcov_unknown) : NULL;
    }
    gcov_measure(c, dir, src, min_text, frs, nfr);
    /* a function whose own tests now take fewer of its gcov branch outcomes keeps its whole suite:
     * the exploration's coverage slots are coarser than gcov's branches (`a && b` compiled to one
     * branch, a switch's cases). Its callees' outcomes do not count: the tests' coverage lists hold
     * the directions taken in the call (explore_cov_list), while gcov also counts a callee the
     * construction of the inputs runs (cJSON_Compare's callees in the cJSON_Parse that builds its
     * items: every suite was kept whole) */
    int restored = 0;
    for (size_t f = 0; f < nfr; f++) {
        fn_result *fr = &frs[f];
        if (!fr->min_done || fr->min_after == fr->min_before || taken[f] < 0 || fr->gcov_taken < 0) continue;
        if (fr->gcov_taken >= taken[f]) continue;
        restored = 1;
        fr->min_reverted = 1;
        fr->min_after = fr->min_before;
        fr->gcov_taken = taken[f];
        fr->gcov_total = total[f];
        free(fr->reached);
        fr->reached = reached[f];
        reached[f] = NULL;
        free(fr->gcov_unknown);
        fr->gcov_unknown = unknown[f];
        unknown[f] = NULL;
    }
    if (restored) { /* the whole suite of those functions, in the original order */
        size_t n = 0;
        for (size_t i = 0; i < full.n; i++) {
            int keep = 0;
            for (size_t f = 0; f < nfr && !keep; f++)
                if (frs[f].fn == full.v[i].fn && frs[f].min_reverted) keep = 1;
            for (size_t j = 0; j < tv->n && !keep; j++) keep = tv->v[j].name == full.v[i].name; /* the same test */
            if (keep) full.v[n++] = full.v[i];
        }
        memcpy(tv->v, full.v, n * sizeof *tv->v);
        tv->n = n;
        free(min_text);
        min_text = unit_emit_tests(c->u, tv->v, tv->n, c->mocked, c->nmocked, uc_base_name(src));
    }
    if (min_text) {
        free(*text);
        *text = min_text;
    }
    for (size_t f = 0; f < nfr; f++) free(reached[f]), free(unknown[f]);
    free(taken), free(reached), free(total), free(unknown), free(full.v);
    return 1;
}
