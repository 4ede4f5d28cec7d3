/* strategy_impl.h: internals shared by the strategy implementations (strategy_*.c): constructors and a binary heap. */
#ifndef SYMPATH_STRATEGY_IMPL_H
#define SYMPATH_STRATEGY_IMPL_H

#include <stddef.h>
#include "strategy.h"

/* Constructors behind strategy_new; each returns NULL when out of memory. */
strategy *strategy_dfs_new(void);
strategy *strategy_bfs_new(void);
strategy *strategy_random_new(uint64_t seed);
strategy *strategy_cov_new(slot_covered_fn covered, void *cov_ctx);
strategy *strategy_gen_new(void);

/* on_run of the strategies that learn nothing from a run (dfs, bfs, random, cov: their
 * order depends on the tree and on coverage only). */
void strategy_ignore_run(strategy *s, const run_feedback *fb);

/* True while direction dir of node is still a candidate. */
static inline bool cand_open(const tree_node *n, int dir) { return n->status[dir] == CHILD_OPEN; }

/*
 * Binary heap of fixed-size elements (the classic array heap: element i's children are
 * 2i+1 and 2i+2, and no child comes out before its parent). `before(a, b)` is nonzero
 * when a must come out before b; it must be a strict weak order. Used by bfs (depth),
 * cov (score) and generational (run score).
 */
typedef struct heap {
    unsigned char *data;
    size_t n, cap, esz;
    int (*before)(const void *a, const void *b);
    unsigned char *tmp; /* one element of scratch, for swaps */
} heap;

/* Empty heap of elements of esz bytes. Returns 0, or -1 when out of memory. */
int heap_init(heap *h, size_t esz, int (*before)(const void *, const void *));
void heap_free(heap *h);
/* Copy *elem in. Returns 0, or -1 when out of memory (the heap is unchanged). */
int heap_push(heap *h, const void *elem);
/* The element that comes out first, or NULL when empty; valid until the next change. */
void *heap_top(const heap *h);
/* Remove the first element, copying it to *out (out may be NULL). False when empty. */
bool heap_pop(heap *h, void *out);

#endif
