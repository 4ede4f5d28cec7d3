/* tree.c: the execution tree: inserting runs, divergence detection, path conditions, direction statuses. */
#include "tree.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/*
 * Node memory: nodes are never freed one by one (the tree only grows), so they come
 * from a pool of fixed-size chunks chained in a list. A chunk holds NODE_CHUNK nodes;
 * only the newest chunk (the list head) is partly used. Pointers to nodes stay valid
 * until tree_free.
 */
#define NODE_CHUNK 1024u

typedef struct node_chunk {
    struct node_chunk *next;
    uint32_t used;
    tree_node nodes[NODE_CHUNK];
} node_chunk;

/*
 * Per-insert occurrence counter of (kind, site) along the inserted path, used to set
 * tree_node.site_count in O(1) per event (so an insert is O(path), not O(path^2)).
 * Open addressing with linear probing; instead of clearing the table for every insert,
 * each slot carries the generation (insert number) that wrote it, and a slot from an
 * older generation counts as empty. The table is kept at most half full.
 */
typedef struct site_slot {
    uint64_t key; /* kind << 32 | site */
    uint32_t gen;
    uint32_t count;
} site_slot;

struct tree {
    uint32_t loop_bound, max_depth;
    tree_node *root;
    node_chunk *chunks;
    tree_stats st;
    /* scratch for tree_insert */
    tree_node **path;
    uint32_t path_cap;
    uint8_t *pred; /* predicted direction per depth (divergence check) */
    uint32_t pred_cap;
    const tree_node **pred_node; /* predicted node per depth */
    uint32_t pred_node_cap;
    site_slot *sites;
    uint32_t sites_cap;  /* power of two, or 0 */
    uint32_t sites_used; /* slots of the current generation */
    uint32_t gen;
};

tree *tree_new(uint32_t loop_bound, uint32_t max_depth)
{
    tree *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->loop_bound = loop_bound;
    t->max_depth = max_depth;
    return t;
}

void tree_free(tree *t)
{
    if (!t) return;
    node_chunk *c = t->chunks;
    while (c) {
        node_chunk *next = c->next;
        for (uint32_t i = 0; i < c->used; i++) input_vec_release(c->nodes[i].inputs);
        free(c);
        c = next;
    }
    free(t->path);
    free(t->pred);
    free(t->pred_node);
    free(t->sites);
    free(t);
}

/* A zeroed node from the pool, or NULL when out of memory. */
static tree_node *node_alloc(tree *t)
{
    if (!t->chunks || t->chunks->used == NODE_CHUNK) {
        node_chunk *c = malloc(sizeof *c);
        if (!c) return NULL;
        c->next = t->chunks;
        c->used = 0;
        t->chunks = c;
    }
    tree_node *n = &t->chunks->nodes[t->chunks->used++];
    memset(n, 0, sizeof *n);
    return n;
}

/* Make room for n entries in a scratch array of elements of size esz. */
static int grow(void **arr, uint32_t *cap, uint32_t n, size_t esz)
{
    if (n <= *cap) return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < n) c = c > UINT32_MAX / 2 ? n : c * 2;
    void *p = realloc(*arr, (size_t)c * esz);
    if (!p) return -1;
    *arr = p;
    *cap = c;
    return 0;
}

static uint32_t site_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key;
}

/* Start a new generation of the site table, sized for up to n distinct keys. */
static int sites_reset(tree *t, uint32_t n)
{
    uint64_t want = 16;
    while (want < 2ull * n) want *= 2;
    if (want > UINT32_MAX / 2) want = UINT32_MAX / 2 + 1;
    if (want > t->sites_cap) {
        site_slot *s = calloc(want, sizeof *s);
        if (!s) return -1;
        free(t->sites);
        t->sites = s;
        t->sites_cap = (uint32_t)want;
        t->gen = 0;
    }
    if (++t->gen == 0) { /* wrapped: stale generations could look current */
        memset(t->sites, 0, (size_t)t->sites_cap * sizeof *t->sites);
        t->gen = 1;
    }
    t->sites_used = 0;
    return 0;
}

/* Count one more occurrence of (kind, site) on the current path; returns the new count. */
static uint32_t sites_bump(tree *t, uint8_t kind, uint32_t site)
{
    uint64_t key = (uint64_t)kind << 32 | site;
    uint32_t mask = t->sites_cap - 1;
    for (uint32_t i = site_hash(key) & mask;; i = (i + 1) & mask) {
        site_slot *s = &t->sites[i];
        if (s->gen != t->gen) {
            assert(t->sites_used < t->sites_cap / 2 + 1);
            s->gen = t->gen;
            s->key = key;
            s->count = 1;
            t->sites_used++;
            return 1;
        }
        if (s->key == key) return ++s->count;
    }
}

static void status_move(tree *t, tree_node *n, int dir, child_status st)
{
    assert(t->st.by_status[n->status[dir]] > 0);
    t->st.by_status[n->status[dir]]--;
    t->st.by_status[st]++;
    n->status[dir] = (uint8_t)st;
}

void tree_set_status(tree *t, tree_node *node, int dir, child_status st)
{
    assert(node && (dir == 0 || dir == 1) && st < CHILD_STATUS_COUNT);
    status_move(t, node, dir, st);
}

/* Status of the direction a new node's run did not take (see tree.h). */
static child_status fresh_status(const tree *t, const tree_node *n, int dir)
{
    if (n->kind == BK_ASSUME && dir == 0) return CHILD_IGNORED;
    if ((t->loop_bound && n->site_count > t->loop_bound) || (t->max_depth && n->depth >= t->max_depth))
        return CHILD_BOUNDED;
    return CHILD_OPEN;
}

/* A new node for event ev at depth `depth` below (parent, pdir); NULL when out of memory.
 * Sets the taken direction VISITED and the other one by fresh_status. */
static tree_node *node_create(tree *t, tree_node *parent, int pdir, uint32_t depth, const sym_event *ev,
                              input_vec *inputs)
{
    tree_node *n = node_alloc(t);
    if (!n) return NULL;
    n->parent = parent;
    n->parent_dir = (uint8_t)pdir;
    n->kind = ev->kind;
    n->phase = ev->phase;
    n->depth = depth;
    n->site = ev->site;
    n->arg = ev->arg;
    n->site_count = sites_bump(t, ev->kind, ev->site);
    n->cond = ev->cond;
    n->inputs = input_vec_retain(inputs);
    int taken = ev->taken ? 1 : 0;
    n->status[taken] = CHILD_VISITED;
    n->status[!taken] = (uint8_t)fresh_status(t, n, !taken);
    t->st.by_status[n->status[0]]++;
    t->st.by_status[n->status[1]]++;
    t->st.nodes++;
    if (depth > t->st.max_depth) t->st.max_depth = depth;
    /* a node already in this place means another event came after the same outcomes:
     * the new node becomes an alternative beside it (see tree_insert) */
    tree_node **slot = parent ? &parent->child[pdir] : &t->root;
    if (*slot) {
        n->alt = (*slot)->alt;
        (*slot)->alt = n;
    } else {
        *slot = n;
    }
    return n;
}

/*
 * Insertion walks the run's events and the tree in lockstep from the root: event i
 * belongs to the node at depth i reached by the directions of events 0..i-1. Missing
 * nodes are created, and their untaken direction is offered to the search if it is open.
 *
 * The same outcomes of the symbolic events can be followed by different events when a
 * concrete value the runtime does not track (a call into uninstrumented code, a float)
 * decides a branch in between. Such a place holds a chain of alternative nodes (`alt`),
 * one per (kind, site) seen there; each is a real path with a valid path condition, so
 * nothing a run found is thrown away. Creating an alternative counts as a mismatch.
 *
 * Divergence (LCT sec. 4 compares the branch bit-vector the solver predicted with the
 * one executed; SAGE does the same per generated child): the prediction for a run aimed
 * at (expected_node, d) is the direction sequence from the root to expected_node followed
 * by d. The run diverged if it did not follow that whole sequence.
 */
int tree_insert(tree *t, const sym_event *events, uint32_t nevents, input_vec *inputs, tree_node *expected_node,
                int expected_dir, tree_open_fn on_open, void *ctx, tree_insert_result *res)
{
    memset(res, 0, sizeof *res);
    if (grow((void **)&t->path, &t->path_cap, nevents ? nevents : 1, sizeof *t->path) < 0) return -1;
    res->path = t->path;
    if (sites_reset(t, nevents) < 0) return -1;

    /* predicted directions, root first */
    uint32_t pdepth = 0;
    if (expected_node) {
        pdepth = expected_node->depth;
        if (grow((void **)&t->pred, &t->pred_cap, pdepth + 1, 1) < 0) return -1;
        if (grow((void **)&t->pred_node, &t->pred_node_cap, pdepth + 1, sizeof *t->pred_node) < 0) return -1;
        t->pred[pdepth] = (uint8_t)(expected_dir ? 1 : 0);
        for (const tree_node *n = expected_node; n; n = n->parent) {
            t->pred_node[n->depth] = n;
            if (n->parent) t->pred[n->depth - 1] = n->parent_dir;
        }
    }
    bool on_prediction = expected_node != NULL;

    int rc = 0;
    tree_node *parent = NULL;
    int pdir = 0;
    uint32_t i;
    for (i = 0; i < nevents; i++) {
        const sym_event *ev = &events[i];
        int taken = ev->taken ? 1 : 0;
        tree_node *first = parent ? parent->child[pdir] : t->root;
        tree_node *n = first;
        while (n && (n->kind != ev->kind || n->site != ev->site)) n = n->alt;
        if (!n) {
            if (first) {
                res->mismatch = true;
                t->st.mismatches++;
            }
            n = node_create(t, parent, pdir, i, ev, inputs);
            if (!n) {
                rc = -1;
                break;
            }
            if (n->status[!taken] == CHILD_OPEN && on_open) on_open(ctx, n, !taken);
        } else {
            uint32_t c = sites_bump(t, ev->kind, ev->site);
            (void)c;
            assert(c == n->site_count);
            if (n->status[taken] != CHILD_VISITED) status_move(t, n, taken, CHILD_VISITED);
        }
        if (on_prediction && i <= pdepth) {
            if (taken != t->pred[i] || n != t->pred_node[i]) {
                on_prediction = false;
                res->diverged = true;
                res->diverged_at = i;
            }
        }
        t->path[i] = n;
        parent = n;
        pdir = taken;
    }
    res->npath = i;
    if (on_prediction && i <= pdepth) {
        /* the run ended (or stopped on a mismatch) before taking the predicted direction */
        res->diverged = true;
        res->diverged_at = i;
    }
    if (res->diverged) {
        t->st.divergences++;
        if (expected_node->status[expected_dir ? 1 : 0] != CHILD_VISITED)
            status_move(t, expected_node, expected_dir ? 1 : 0, CHILD_DIVERGED);
    }
    return rc;
}

size_t tree_path_condition(const tree_node *node, int dir, expr_ctx *cx, expr ***out)
{
    size_t n = (size_t)node->depth + 1;
    expr **pc = malloc(n * sizeof *pc);
    *out = pc;
    if (!pc) return 0;
    /* each node's depth is its index in the array, so no reversal is needed */
    pc[node->depth] = dir ? node->cond : expr_not(cx, node->cond);
    for (const tree_node *c = node; c->parent; c = c->parent) {
        const tree_node *p = c->parent;
        assert(p->depth + 1 == c->depth);
        pc[p->depth] = c->parent_dir ? p->cond : expr_not(cx, p->cond);
    }
    return n;
}

void tree_get_stats(const tree *t, tree_stats *out) { *out = t->st; }

const char *child_status_name(child_status st)
{
    static const char *const names[CHILD_STATUS_COUNT] = {
        "open", "pending", "visited", "infeasible", "diverged", "unknown", "bounded", "ignored", "remote",
    };
    return st < CHILD_STATUS_COUNT ? names[st] : "?";
}

void tree_for_each_node(const tree *t, void (*fn)(void *ctx, const tree_node *n), void *ctx)
{
    for (const node_chunk *c = t ? t->chunks : NULL; c; c = c->next)
        for (uint32_t i = 0; i < c->used; i++) fn(ctx, &c->nodes[i]);
}
