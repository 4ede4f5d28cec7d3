/* minimize.c: the fewest tests of a function with the same branch coverage and the same variety of results, simplest first. */
#include <stdlib.h>
#include <string.h>

#include "unit/unit.h"

/* The order tests are preferred in: passing before failing, simpler, earlier. */
static const unit_min_item *g_items; /* qsort has no context argument */
static int pref_cmp(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const unit_min_item *x = &g_items[i], *y = &g_items[j];
    if (x->failing != y->failing) return x->failing ? 1 : -1;
    if (x->cost != y->cost) return x->cost < y->cost ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Slots of it not yet covered (cnt[slot] == 0). */
static size_t gain(const unit_min_item *it, const unsigned *cnt)
{
    size_t g = 0;
    for (size_t k = 0; k < it->ncov; k++) g += cnt[it->cov[k]] == 0;
    return g;
}

static void add(const unit_min_item *it, unsigned *cnt, int d)
{
    for (size_t k = 0; k < it->ncov; k++) cnt[it->cov[k]] = (unsigned)((int)cnt[it->cov[k]] + d);
}

/* Whether every slot of it is covered by another chosen test (cnt counts it too). */
static int redundant(const unit_min_item *it, const unsigned *cnt)
{
    for (size_t k = 0; k < it->ncov; k++)
        if (cnt[it->cov[k]] < 2) return 0;
    return 1;
}

size_t unit_minimize_select(const unit_min_item *items, size_t n, int *keep)
{
    if (n == 0) return 0;
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; items[i].cov_known && k < items[i].ncov; k++)
            if (items[i].cov[k] >= top) top = items[i].cov[k] + 1;
    size_t *order = malloc(n * sizeof *order);
    unsigned *cnt = calloc((size_t)top + 1, sizeof *cnt);
    if (!order || !cnt) {
        free(order), free(cnt);
        for (size_t i = 0; i < n; i++) keep[i] = 1;
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        keep[i] = !items[i].cov_known;
    }
    g_items = items;
    qsort(order, n, sizeof *order, pref_cmp);
    /* greedy set cover, passing tests first, then failing ones for what they alone reach */
    for (int pass = 0; pass < 2; pass++)
        for (;;) {
            size_t best = n, bg = 0;
            for (size_t o = 0; o < n; o++) {
                size_t i = order[o];
                if (keep[i] || !items[i].cov_known || items[i].failing != pass) continue;
                size_t g = gain(&items[i], cnt);
                if (g > bg) bg = g, best = i;
            }
            if (best == n) break;
            keep[best] = 1;
            add(&items[best], cnt, 1);
        }
    /* a chosen test the others cover is not needed: the most expensive go first */
    for (size_t o = n; o-- > 0;) {
        size_t i = order[o];
        if (keep[i] && items[i].cov_known && redundant(&items[i], cnt)) {
            keep[i] = 0;
            add(&items[i], cnt, -1);
        }
    }
    /* variety: a result no chosen test asserts (simplest first) */
    for (size_t o = 0; o < n; o++) {
        size_t i = order[o];
        if (keep[i]) continue;
        int seen = 0;
        for (size_t j = 0; j < n && !seen; j++)
            seen = keep[j] && !strcmp(items[j].result ? items[j].result : "", items[i].result ? items[i].result : "");
        if (!seen) keep[i] = 1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) kept += keep[i] != 0;
    free(order), free(cnt);
    return kept;
}
