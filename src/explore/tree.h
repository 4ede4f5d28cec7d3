/* tree.h: the execution tree built from all runs, whose unexplored directions are the candidates for new tests. */
#ifndef SYMPATH_TREE_H
#define SYMPATH_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run.h"

/*
 * The execution tree (LCT's symbolic execution tree; Kähkönen et al. 2009, sec. 4):
 * a node is one symbolic event (branch, switch case, assumption, concretization,
 * safety check) reached by a fixed sequence of earlier event outcomes. Each node has
 * two directions; child[d] is the node of the next event after taking d (NULL when the
 * run ended there or d was never taken). A direction's status says whether it still
 * needs a run. The path condition of (node, d) is the conjunction of the conditions
 * on the way from the root, each as taken, plus cond (d = 1) or NOT cond (d = 0).
 *
 * Invariant: a direction is CHILD_VISITED iff some inserted run took it; only
 * CHILD_OPEN directions are offered to the search strategy (via the on_open callback),
 * and each is offered exactly once.
 */

typedef enum child_status {
    CHILD_OPEN = 0,   /* not taken by any run; a candidate */
    CHILD_PENDING,    /* a run for it is being solved or executed */
    CHILD_VISITED,    /* taken by a run */
    CHILD_INFEASIBLE, /* the solver proved its path condition unsatisfiable */
    CHILD_DIVERGED,   /* a run aimed at it took another path (divergence) */
    CHILD_UNKNOWN,    /* the solver timed out or gave up */
    CHILD_BOUNDED,    /* skipped: beyond the loop bound or depth bound */
    CHILD_IGNORED,    /* not worth a run (the false side of an assumption) */
    CHILD_REMOTE,     /* another worker of a parallel exploration owns it (explore/worker.c) */
    CHILD_STATUS_COUNT
} child_status;

typedef struct tree_node {
    struct tree_node *parent;
    struct tree_node *child[2];
    struct tree_node *alt; /* next alternative node after the same parent direction (see tree_insert) */
    uint8_t parent_dir;    /* direction of parent that leads here */
    uint8_t kind;          /* branch_kind */
    uint8_t status[2];     /* child_status per direction */
    uint8_t phase;         /* sym_event.phase of the first run that reached the node */
    uint32_t depth;        /* root = 0 */
    uint32_t site;         /* as in sym_event */
    uint32_t arg;
    uint32_t site_count; /* occurrences of (kind, site) on the path from the root, this node included */
    expr *cond;          /* width 1, from the first run that reached the node */
    input_vec *inputs;   /* inputs of the first run that reached the node (a reference) */
} tree_node;

typedef struct tree_stats {
    uint64_t nodes;
    uint64_t by_status[CHILD_STATUS_COUNT]; /* directions per status */
    uint64_t divergences;                   /* runs that did not follow their predicted path */
    uint64_t mismatches;                    /* alternative nodes created: after the same outcomes, another event came
                                   (a concrete value the runtime does not track decided a branch) */
    uint64_t max_depth;
} tree_stats;

typedef struct tree tree;

/* Candidate directions beyond these bounds get CHILD_BOUNDED instead of CHILD_OPEN:
 * loop_bound limits site_count (0 = unbounded), max_depth limits depth (0 = unbounded). */
tree *tree_new(uint32_t loop_bound, uint32_t max_depth);
/* Free the tree, dropping its input_vec references. NULL ok. */
void tree_free(tree *t);

/* Called once for each direction that becomes CHILD_OPEN. */
typedef void (*tree_open_fn)(void *ctx, tree_node *node, int dir);

typedef struct tree_insert_result {
    bool diverged;        /* expected was given and the run did not take it */
    uint32_t diverged_at; /* depth of the first event that differed from the prediction */
    bool mismatch;        /* an event disagreed with a known node's site/kind: an alternative node was made */
    tree_node **path;     /* node of each inserted event, in order; owned by the tree, valid until the next insert */
    uint32_t npath;       /* events inserted (< run's nevents only when out of memory) */
} tree_insert_result;

/* Insert the events of a run. inputs: the run's inputs (the tree takes references for
 * new nodes). expected_node/expected_dir: the candidate the run was generated for, or
 * NULL for a run with no prediction (the first run, replayed seeds). The candidate's
 * direction becomes VISITED if taken, else DIVERGED (and divergences counts it).
 * BK_ASSUME nodes open only direction 1 (direction 0 is IGNORED); BK_CONCRETIZE nodes
 * open direction 0. Returns 0, or -1 when out of memory. */
int tree_insert(tree *t, const sym_event *events, uint32_t nevents, input_vec *inputs, tree_node *expected_node,
                int expected_dir, tree_open_fn on_open, void *ctx, tree_insert_result *res);

/* Path condition of (node, dir): fills *out (malloc'ed array the caller frees) with
 * node->depth + 1 expressions (width 1), root first; the last one is the target
 * (cond or its negation). Negations are built in cx. Returns the count, or 0 when out of memory. */
size_t tree_path_condition(const tree_node *node, int dir, expr_ctx *cx, expr ***out);

/* Set the status of (node, dir) (e.g. PENDING, INFEASIBLE, UNKNOWN). */
void tree_set_status(tree *t, tree_node *node, int dir, child_status st);

/* Counters; by_status is kept up to date by insert and set_status. */
void tree_get_stats(const tree *t, tree_stats *out);

/* Name of a status ("open", "visited", ...). */
const char *child_status_name(child_status st);
/* Call fn(ctx, node) once for every node of the tree, in no particular order (for reports). */
void tree_for_each_node(const tree *t, void (*fn)(void *ctx, const tree_node *n), void *ctx);

#endif
