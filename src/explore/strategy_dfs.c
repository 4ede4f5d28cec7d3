/* strategy_dfs.c: depth-first search: the most recently opened direction first (LCT sec. 5, DFS). */
#include "strategy_impl.h"

#include <stdlib.h>

/* A LIFO stack of opened directions. Since tree_insert opens the directions of a run
 * root first, the deepest direction of the latest run comes out first, which is the
 * classic depth-first order over the execution tree. Stale entries are skipped on pop. */
typedef struct dfs {
    strategy base;
    candidate *v;
    size_t n, cap;
} dfs;

static void dfs_add(strategy *s, tree_node *node, int dir)
{
    dfs *d = (dfs *)s;
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        candidate *v = realloc(d->v, cap * sizeof *v);
        if (!v) return; /* out of memory: the direction is not offered (it stays OPEN in the tree) */
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = (candidate){.node = node, .dir = (uint8_t)dir, .bound = 0};
}

static bool dfs_next(strategy *s, candidate *out)
{
    dfs *d = (dfs *)s;
    while (d->n) {
        candidate c = d->v[--d->n];
        if (cand_open(c.node, c.dir)) {
            *out = c;
            return true;
        }
    }
    return false;
}

static void dfs_destroy(strategy *s)
{
    dfs *d = (dfs *)s;
    if (!d) return;
    free(d->v);
    free(d);
}

strategy *strategy_dfs_new(void)
{
    dfs *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->base = (strategy){"dfs", dfs_add, dfs_next, strategy_ignore_run, dfs_destroy, NULL, NULL, NULL};
    return &d->base;
}
