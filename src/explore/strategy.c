/* strategy.c: the strategy factory, candidate_slot, and the binary heap the strategies share. */
#include "strategy_impl.h"
#include "explorer.h"

#include <stdlib.h>
#include <string.h>

const char *const strategy_names[] = {"cov", "dfs", "bfs", "random", "generational", NULL};

void strategy_ignore_run(strategy *s, const run_feedback *fb)
{
    (void)s;
    (void)fb;
}

strategy *strategy_new(const char *name, uint64_t seed, slot_covered_fn covered, void *cov_ctx)
{
    if (!name) return NULL;
    if (!strcmp(name, "cov")) return strategy_cov_new(covered, cov_ctx);
    if (!strcmp(name, "dfs")) return strategy_dfs_new();
    if (!strcmp(name, "bfs")) return strategy_bfs_new();
    if (!strcmp(name, "random")) return strategy_random_new(seed);
    if (!strcmp(name, "generational")) return strategy_gen_new();
    return NULL;
}

uint32_t candidate_slot(const tree_node *node, int dir)
{
    switch (node->kind) {
    case BK_BRANCH: return node->arg + (dir ? 1u : 0u);
    case BK_SWITCH: return dir ? node->arg : UINT32_MAX;
    default: return UINT32_MAX;
    }
}

int heap_init(heap *h, size_t esz, int (*before)(const void *, const void *))
{
    memset(h, 0, sizeof *h);
    h->esz = esz;
    h->before = before;
    h->tmp = malloc(esz);
    return h->tmp ? 0 : -1;
}

void heap_free(heap *h)
{
    free(h->data);
    free(h->tmp);
    memset(h, 0, sizeof *h);
}

#define AT(h, i) ((h)->data + (i) * (h)->esz)

static void swap_at(heap *h, size_t i, size_t j)
{
    memcpy(h->tmp, AT(h, i), h->esz);
    memcpy(AT(h, i), AT(h, j), h->esz);
    memcpy(AT(h, j), h->tmp, h->esz);
}

int heap_push(heap *h, const void *elem)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        unsigned char *d = realloc(h->data, cap * h->esz);
        if (!d) return -1;
        h->data = d;
        h->cap = cap;
    }
    size_t i = h->n++;
    memcpy(AT(h, i), elem, h->esz);
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!h->before(AT(h, i), AT(h, p))) break;
        swap_at(h, i, p);
        i = p;
    }
    return 0;
}

void *heap_top(const heap *h) { return h->n ? h->data : NULL; }

bool heap_pop(heap *h, void *out)
{
    if (!h->n) return false;
    if (out) memcpy(out, AT(h, 0), h->esz);
    h->n--;
    if (h->n) {
        memcpy(AT(h, 0), AT(h, h->n), h->esz);
        size_t i = 0;
        for (;;) {
            size_t l = 2 * i + 1, r = l + 1, m = i;
            if (l < h->n && h->before(AT(h, l), AT(h, m))) m = l;
            if (r < h->n && h->before(AT(h, r), AT(h, m))) m = r;
            if (m == i) break;
            swap_at(h, i, m);
            i = m;
        }
    }
    return true;
}
