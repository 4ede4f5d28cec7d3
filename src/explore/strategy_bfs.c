/* strategy_bfs.c: breadth-first search: the shallowest open direction first (LCT sec. 5, BFS). */
#include "strategy_impl.h"

#include <stdlib.h>

/* A min-heap keyed (depth, sequence number): directions are opened in no particular
 * depth order across runs (a later run can open shallower directions), so a plain FIFO
 * would not be breadth-first; the sequence number keeps equal depths first-in first-out. */
typedef struct bfs_item {
    tree_node *node;
    uint32_t depth;
    uint8_t dir;
    uint64_t seq;
} bfs_item;

typedef struct bfs {
    strategy base;
    heap h;
    uint64_t seq;
} bfs;

static int bfs_before(const void *a, const void *b)
{
    const bfs_item *x = a, *y = b;
    return x->depth != y->depth ? x->depth < y->depth : x->seq < y->seq;
}

static void bfs_add(strategy *s, tree_node *node, int dir)
{
    bfs *b = (bfs *)s;
    bfs_item it = {node, node->depth, (uint8_t)dir, b->seq++};
    (void)heap_push(&b->h, &it); /* out of memory: the direction is not offered */
}

static bool bfs_next(strategy *s, candidate *out)
{
    bfs *b = (bfs *)s;
    bfs_item it;
    while (heap_pop(&b->h, &it)) {
        if (cand_open(it.node, it.dir)) {
            *out = (candidate){.node = it.node, .dir = it.dir, .bound = 0};
            return true;
        }
    }
    return false;
}

static void bfs_destroy(strategy *s)
{
    bfs *b = (bfs *)s;
    if (!b) return;
    heap_free(&b->h);
    free(b);
}

strategy *strategy_bfs_new(void)
{
    bfs *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    if (heap_init(&b->h, sizeof(bfs_item), bfs_before) < 0) {
        free(b);
        return NULL;
    }
    b->base = (strategy){"bfs", bfs_add, bfs_next, strategy_ignore_run, bfs_destroy, NULL, NULL, NULL};
    return &b->base;
}
