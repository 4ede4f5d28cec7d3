/* strategy.h: search strategies behind one interface: which open direction of the execution tree to solve next. */
#ifndef SYMPATH_STRATEGY_H
#define SYMPATH_STRATEGY_H

#include <stdbool.h>
#include <stdint.h>
#include "tree.h"

/* A direction to solve for. bound is the generational-search bound the resulting run
 * inherits (SAGE: children of a run only flip branches at depth >= bound); other
 * strategies leave it 0. */
typedef struct candidate {
    tree_node *node;
    uint8_t dir;
    uint32_t bound;
} candidate;

/* What the explorer tells the strategy after each run. */
typedef struct run_feedback {
    tree_node **path; /* the run's nodes in order (tree_insert_result.path) */
    uint8_t *taken;   /* direction taken at each node */
    uint32_t npath;
    uint32_t bound;     /* the bound of the candidate that produced the run (0 for the first run) */
    uint32_t new_slots; /* coverage slots this run covered for the first time */
    bool error;         /* the run hit an error */
    bool marked;        /* the run reached its mark (run_result.marked: sympath unit's call of the target) */
    bool assume_failed; /* the run ended on a false assumption (sympath unit: a producer failed before the call) */
} run_feedback;

/* Coverage oracle for coverage-guided choices: nonzero if the slot is covered already. */
typedef int (*slot_covered_fn)(void *ctx, uint32_t slot);

typedef struct strategy strategy;
struct strategy {
    const char *name;
    /* a direction became CHILD_OPEN (from tree_insert's on_open) */
    void (*add)(strategy *s, tree_node *node, int dir);
    /* next candidate whose status is still CHILD_OPEN; false when none is left.
     * Candidates that are no longer open are dropped silently. */
    bool (*next)(strategy *s, candidate *out);
    /* a run was inserted */
    void (*on_run)(strategy *s, const run_feedback *fb);
    void (*destroy)(strategy *s);
    /* optional (NULL: not told): the direction `next` handed out cost effort and gave no run
     * on it: the solver could not answer (a time-out, an error), took long (100 ms or more)
     * to prove it infeasible, or the run it led to diverged (a quick UNSAT is not reported:
     * it is the normal cost of a search) */
    void (*on_failed)(strategy *s, const tree_node *node, int dir);
    /* optional (NULL: not told): the open direction (node, dir) of a library model's branch may
     * lead to the program's coverage slot `goal`, not covered yet: the program's own branch
     * towards it was proven infeasible after this model call (`strcmp(c, "SE") == 0` is decided
     * by the model's byte comparisons before it: explorer.c, boost_model_flips). The strategy
     * may rank it as a direction of that slot. */
    void (*boost)(strategy *s, tree_node *node, int dir, uint32_t goal);
    /* optional (NULL: never): whether an open direction is left that the strategy ranks above
     * "covers nothing new" (cov: tiers 0-2, an uncovered slot, a safety check's crash side, an
     * untried fault); `sympath unit`'s exploration may stop only when none is (explorer.c, saturated) */
    bool (*promising)(strategy *s);
};

/*
 * Create a strategy by name:
 *   "dfs"           depth-first: the most recently opened direction first
 *   "bfs"           breadth-first: the shallowest open direction first
 *   "random"        uniformly random open direction (seeded)
 *   "generational"  SAGE's generational search (Godefroid et al. 2008): expand every
 *                   branch of a run beyond its bound, prefer the run whose execution
 *                   added the most new coverage
 *   "cov"           coverage-guided (default): prefer directions whose coverage slot is
 *                   not yet covered, then checks that may reach errors, then shallower ones
 * covered/cov_ctx answer "is this slot covered" (used by cov and generational).
 * Returns NULL for an unknown name.
 */
strategy *strategy_new(const char *name, uint64_t seed, slot_covered_fn covered, void *cov_ctx);

/* (The names strategy_new accepts, strategy_names, are declared in explorer.h.) */

/* The coverage slot direction `dir` of node leads to, or UINT32_MAX when it has none
 * (BK_BRANCH: arg+dir; BK_SWITCH: arg for dir 1; other kinds: none). */
uint32_t candidate_slot(const tree_node *node, int dir);

#endif
