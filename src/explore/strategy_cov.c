/* strategy_cov.c: coverage-guided search (the default): directions towards uncovered code first. */
#include "strategy_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

/*
 * Priority of a direction, best first (LCT sec. 5 describes such priority strategies;
 * branch coverage as the goal follows SAGE's coverage-driven scoring):
 *   tier 0  its coverage slot (candidate_slot) is not covered yet
 *   tier 1  the crash side of a safety check (BK_CHECK direction 1): may reveal an error; the
 *           failing side of an injected database fault (BK_FAULT direction 1) whose location
 *           (the branch direction taken before the call, and which call after it) no fault was
 *           handed out at yet: the program's handling of that failure is probably not covered
 *   tier 2  a fault of the same kind whose failure is a NULL result (BK_FAULT_NULL: libpq's
 *           statements), at a location no such fault was handed out at yet: programs test
 *           for NULL less often than for an error status, so these come after tier 1
 *   tier 3  everything else (covered slot, or no slot of its own), and a direction whose slot
 *           is not covered but COV_FAIL_LIMIT directions towards it (at other nodes: a
 *           loop's other iterations) were unknown to the solver, slow to prove
 *           infeasible or diverged (strategy.h, on_failed). Without that demotion one branch that is infeasible
 *           in every iteration of a long loop (`ret < 0` after a stub `write` whose
 *           result is never negative) kept the search on its thousands of nodes, each
 *           query harder than the last (the iteration's path condition grows) and timing
 *           out, while every other direction waited
 *   tier 4  asking for a database row past a slot that is still absent (BK_ROW_BEYOND): the
 *           same rows come from asking for the absent slot first
 * then shallower depth (shorter path condition, cheaper query), then older.
 *
 * Coverage and failure counts only grow, so a direction's tier can only get worse after it
 * was queued.
 * The heap is therefore re-scored lazily (as in "lazy greedy" selection): the popped
 * top is re-scored; if it got worse and now belongs behind the new top, it is pushed
 * back with its new tier and the next top is tried. Every re-push strictly worsens a
 * tier, so each entry is re-pushed at most twice.
 */
typedef struct cov_item {
    tree_node *node;
    uint32_t depth;
    uint8_t dir;
    uint8_t tier;
    uint64_t seq;
} cov_item;

#define COV_FAIL_LIMIT 4

typedef struct cov {
    strategy base;
    uint8_t *fails; /* per coverage slot: directions towards it that failed (saturating at 255) */
    size_t fails_cap;
    heap h;
    uint64_t seq;
    slot_covered_fn covered;
    void *cov_ctx;
    ptrmap fault_sites; /* fault_key of every BK_FAULT node whose direction 1 was handed out */
} cov;

/* A fault's approximate location (its arg: the branch site before the call and which fallible
 * call after it), as a map key (never NULL). */
static const void *fault_key(const tree_node *n) { return (const void *)((uintptr_t)n->arg + 1); }

static int cov_before(const void *a, const void *b)
{
    const cov_item *x = a, *y = b;
    if (x->tier != y->tier) return x->tier < y->tier;
    if (x->depth != y->depth) return x->depth < y->depth;
    return x->seq < y->seq;
}

static uint8_t cov_tier(const cov *c, const tree_node *node, int dir)
{
    uint32_t slot = candidate_slot(node, dir);
    if (slot != UINT32_MAX && !(c->covered && c->covered(c->cov_ctx, slot)) &&
        !(slot < c->fails_cap && c->fails[slot] >= COV_FAIL_LIMIT))
        return 0;
    if (node->kind == BK_CHECK && dir == 1) return 1;
    if (node->kind == BK_FAULT && dir == 1 && !ptrmap_get(&c->fault_sites, fault_key(node)))
        return node->arg & BK_FAULT_NULL ? 2 : 1;
    if (node->kind == BK_ROW && dir == 1 && (node->arg & BK_ROW_BEYOND))
        return 4; /* a second "one more row" past an absent slot: the first one comes before */
    return 3;
}

static void cov_add(strategy *s, tree_node *node, int dir)
{
    cov *c = (cov *)s;
    cov_item it = {node, node->depth, (uint8_t)dir, cov_tier(c, node, dir), c->seq++};
    (void)heap_push(&c->h, &it); /* out of memory: the direction is not offered */
}

static bool cov_next(strategy *s, candidate *out)
{
    cov *c = (cov *)s;
    cov_item it;
    while (heap_pop(&c->h, &it)) {
        if (!cand_open(it.node, it.dir)) continue;
        uint8_t tier = cov_tier(c, it.node, it.dir);
        if (tier > it.tier) {
            it.tier = tier;
            const cov_item *top = heap_top(&c->h);
            if (top && cov_before(top, &it) && heap_push(&c->h, &it) == 0) continue;
        }
        if (it.node->kind == BK_FAULT && it.dir == 1) /* out of memory: the next ones keep their tier */
            (void)ptrmap_put(&c->fault_sites, fault_key(it.node), NULL, NULL);
        *out = (candidate){.node = it.node, .dir = it.dir, .bound = 0};
        return true;
    }
    return false;
}

/* Count a failed direction against its slot (out of memory: not counted). */
static void cov_failed(strategy *s, const tree_node *node, int dir)
{
    cov *c = (cov *)s;
    uint32_t slot = candidate_slot(node, dir);
    if (slot == UINT32_MAX) return;
    if (slot >= c->fails_cap) {
        size_t cap = c->fails_cap ? c->fails_cap : 256;
        while (cap <= slot) cap *= 2;
        uint8_t *f = realloc(c->fails, cap);
        if (!f) return;
        memset(f + c->fails_cap, 0, cap - c->fails_cap);
        c->fails = f;
        c->fails_cap = cap;
    }
    if (c->fails[slot] < 255) c->fails[slot]++;
}

static void cov_destroy(strategy *s)
{
    cov *c = (cov *)s;
    if (!c) return;
    free(c->fails);
    heap_free(&c->h);
    ptrmap_clear(&c->fault_sites);
    free(c);
}

strategy *strategy_cov_new(slot_covered_fn covered, void *cov_ctx)
{
    cov *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (heap_init(&c->h, sizeof(cov_item), cov_before) < 0) {
        free(c);
        return NULL;
    }
    c->covered = covered;
    c->cov_ctx = cov_ctx;
    c->base = (strategy){"cov", cov_add, cov_next, strategy_ignore_run, cov_destroy, cov_failed};
    return &c->base;
}
