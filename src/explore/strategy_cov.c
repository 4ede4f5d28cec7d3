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
 *           The side not taken of a write's constraint event (BK_ROW with BK_ROW_WRITE: the engine
 *           refuses the write, or not) the first time a direction of its site is handed out: as for
 *           a fault, the write that failed leaves the rest of the program's path untried, and the
 *           one that succeeded its handling of the refusal; as a plain row event it waited in tier
 *           3 behind every other row event (a warehouse's stock UPDATE under CHECK (stock >= 0)
 *           never once succeeded in 60 s)
 *           A row of a query that has not returned one in any run yet (BK_ROW direction 1, not past
 *           an absent slot nor a write's constraint), for its first COV_ROW_TRIES hand-outs at that
 *           query: the program's handling of its rows is untried. As a plain row event it waited in
 *           tier 3 behind the shallower row events of the queries before it, which every new run
 *           adds again: a courier's `WHERE p.tracking = $1` after a correlated NOT EXISTS count over
 *           three parcels and three scans never once returned its row in 60 s
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
 * A direction of a library model's branch that the explorer boosted (strategy.h, boost) takes
 * the tier of its goal slot: tier 0 while the program's branch it serves is uncovered. Without
 * that `if (strcmp(country, "SE") == 0)` on a database row stayed one-sided on a program whose
 * queries kept Z3 busy: the flip at the `== 0` is infeasible (the model's loop fixed where the
 * texts differ), and the model's byte comparisons that decide it, whose own slots are covered,
 * waited in tier 3 behind 128 other directions for the whole budget.
 * then shallower depth (shorter path condition, cheaper query), then older.
 *
 * Phases (`sympath unit`: tree_node.phase, from the harness's REC_MARK before the call of the
 * function under test): the directions of the target phase (the call and what it calls) and
 * those of the setup phase (building the inputs, the producers' parsers) wait in two heaps of
 * the order above. A target direction of tier 0 comes first; otherwise, of the picks made while
 * both heaps hold candidates, the setup phase gets at most COV_SETUP_PCT percent (the target's
 * best comes next when the setup had its share), and within its share the order above decides.
 * Without that the setup's directions, shallower by construction, won every tie, and a parser
 * producer's many uncovered sites kept the search inside the producer for the whole budget
 * (tinyexpr's te_compile before te_eval). And once a run reached the mark (run_feedback.marked),
 * a setup direction whose slot COV_INFEASIBLE_LIMIT directions (at other nodes) were proven
 * infeasible drops from tier 0 to tier 3, as a failed one does: tinyexpr's binary search over its
 * builtin names (`c == 0`, a name matching the identifier whose length the path has fixed) took
 * 4526 of 7526 picks in 15 s, each a quick UNSAT at another probe, position or path, while no
 * produced expression called a function. Also once a run reached the mark, a direction is
 * scored with the slots the run that opened it covered first (run_feedback.new_slots; the adds
 * of a run wait in `pend` until its on_run), and within a tier the higher score comes first,
 * before depth: SAGE's generational preference for the runs that found new code, which keeps
 * the search extending the inputs that made a producer take new paths (zserge/expr's expr_eval
 * 2 -> 4 of 40 directions in 30 s, te_eval's gcov 8 -> 9 of 29; the generational strategy alone
 * gave 7 and 9 in 15 s, but loses cov's tiers). A program without a mark (`sympath run`) has
 * one phase: one heap, the order above, no demotion and no score.
 *
 * Repairs (sympath unit, once a run reached the mark): a run that ended before the call on a false
 * assumption (a producer failed: its parser rejected the text) offers its COV_REPAIRS deepest setup
 * directions once more in a queue of their own, newest first, which gets at most COV_REPAIR_PCT percent
 * of the picks: the last decisions of a failed parse are what made it fail (json.h's json_parse of
 * `{}B2mZp`, an object followed by bytes the length still covered: flipping the end-of-input check
 * gives `{}`), while the parser's uncovered directions, tier 0, are endless and mostly give texts that
 * fail elsewhere. A run made from a repair counts its generation; repairs stop after COV_REPAIR_GENS.
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
    uint32_t score; /* sympath unit: the slots the run that opened it covered first (0 elsewhere) */
    uint32_t goal;  /* a boosted model direction: the program's slot it serves (UINT32_MAX: its own) */
    uint64_t seq;
    uint8_t gen; /* a repair: the generation of repairs it comes from (1 first) */
} cov_item;

#define COV_FAIL_LIMIT 4
#define COV_SETUP_PCT 50
#define COV_INFEASIBLE_LIMIT 8
#define COV_REPAIRS 3
#define COV_REPAIR_PCT 30
#define COV_REPAIR_GENS 3
/* 4 took tests/db/library.c twice its time under --max-execs 45 (2.3-3.1 s -> 5.5-5.9 s), 2: 3.2-3.5 s */
#define COV_ROW_TRIES 2

typedef struct cov {
    strategy base;
    uint8_t *fails;      /* per coverage slot: directions towards it that failed (saturating at 255) */
    uint8_t *infeasible; /* per coverage slot: setup directions towards it proven infeasible (saturating) */
    size_t fails_cap;    /* of both arrays */
    heap h[2];           /* by tree_node.phase: 0 setup (or a program without phases), 1 target */
    heap repair;         /* the deepest setup directions of runs that failed before the call, newest first */
    uint64_t picks, repair_picks;
    uint8_t last_gen;      /* the repair generation of the direction handed out last (0: none) */
    uint64_t contested[2]; /* picks per phase made while both heaps held a candidate */
    bool marked;           /* a run reached its mark */
    tree_node *last;       /* the direction handed out last (its status tells how it went) */
    cov_item *pend;        /* directions opened by the run being inserted, until on_run scores them */
    size_t npend, pend_cap;
    uint8_t last_dir;
    uint64_t seq;
    slot_covered_fn covered;
    void *cov_ctx;
    ptrmap fault_sites; /* fault_key of every BK_FAULT node whose direction 1 was handed out */
    ptrmap write_sites; /* write_key of every write's constraint event and direction handed out */
    ptrmap row_sites;   /* row_key of a query's row events: a = hand-outs of a row so far, b non-NULL once a run
                         * got a row from it */
} cov;

/* A fault's approximate location (its arg: the branch site before the call and which fallible
 * call after it), as a map key (never NULL). */
static const void *fault_key(const tree_node *n) { return (const void *)((uintptr_t)n->arg + 1); }

/* A write's constraint event (its query's site) and a direction of it, as a map key (never NULL). */
static const void *write_key(const tree_node *n, int dir)
{
    return (const void *)((uintptr_t)n->site << 1 | (uintptr_t)dir | 2);
}

static int cov_before(const void *a, const void *b)
{
    const cov_item *x = a, *y = b;
    if (x->tier != y->tier) return x->tier < y->tier;
    if (x->score != y->score) return x->score > y->score;
    if (x->depth != y->depth) return x->depth < y->depth;
    return x->seq < y->seq;
}

/* Newest first (repairs). */
static int cov_newer(const void *a, const void *b) { return ((const cov_item *)a)->seq > ((const cov_item *)b)->seq; }

/* A query's row events (their site), as a map key (never NULL). */
static const void *row_key(const tree_node *n) { return (const void *)((uintptr_t)n->site + 1); }

/* Direction dir of node asks a query for a row it has not returned in any run yet, and fewer than COV_ROW_TRIES
 * such directions were handed out (tier 1). */
static bool row_untried(const cov *c, const tree_node *node, int dir)
{
    if (node->kind != BK_ROW || dir != 1 || (node->arg & (BK_ROW_BEYOND | BK_ROW_WRITE))) return false;
    const ptrmap_ent *e = ptrmap_get(&c->row_sites, row_key(node));
    return !e || (!e->b && (uintptr_t)e->a < COV_ROW_TRIES);
}

static uint8_t cov_tier(const cov *c, const tree_node *node, int dir, uint32_t goal)
{
    uint32_t slot = goal != UINT32_MAX ? goal : candidate_slot(node, dir);
    if (slot != UINT32_MAX && !(c->covered && c->covered(c->cov_ctx, slot)) &&
        !(slot < c->fails_cap && c->fails[slot] >= COV_FAIL_LIMIT) &&
        !(c->marked && node->phase == 0 && slot < c->fails_cap && c->infeasible[slot] >= COV_INFEASIBLE_LIMIT))
        return 0;
    if (node->kind == BK_CHECK && dir == 1) return 1;
    if (node->kind == BK_FAULT && dir == 1 && !ptrmap_get(&c->fault_sites, fault_key(node)))
        return node->arg & BK_FAULT_NULL ? 2 : 1;
    if (node->kind == BK_ROW && (node->arg & BK_ROW_WRITE) && !ptrmap_get(&c->write_sites, write_key(node, dir)))
        return 1;
    if (row_untried(c, node, dir)) return 1;
    if (node->kind == BK_ROW && dir == 1 && (node->arg & BK_ROW_BEYOND))
        return 4; /* a second "one more row" past an absent slot: the first one comes before */
    return 3;
}

/* Make room for slot in the per-slot counters. False when out of memory. */
static bool cov_room(cov *c, uint32_t slot)
{
    if (slot < c->fails_cap) return true;
    size_t cap = c->fails_cap ? c->fails_cap : 256;
    while (cap <= slot) cap *= 2;
    uint8_t *f = realloc(c->fails, cap);
    if (f) c->fails = f;
    uint8_t *g = f ? realloc(c->infeasible, cap) : NULL;
    if (!g) return false;
    c->infeasible = g;
    memset(f + c->fails_cap, 0, cap - c->fails_cap);
    memset(g + c->fails_cap, 0, cap - c->fails_cap);
    c->fails_cap = cap;
    return true;
}

/* Count a failed direction against its slot (out of memory: not counted). */
static void cov_failed(strategy *s, const tree_node *node, int dir)
{
    cov *c = (cov *)s;
    uint32_t slot = candidate_slot(node, dir);
    if (slot == UINT32_MAX || !cov_room(c, slot)) return;
    if (c->fails[slot] < 255) c->fails[slot]++;
}

/* The direction handed out last was proven infeasible (the explorer sets its status before it
 * asks for the next one): count it against its slot when it is of the setup phase. */
static void cov_note_last(cov *c)
{
    tree_node *n = c->last;
    c->last = NULL;
    if (!n || n->phase || n->status[c->last_dir] != CHILD_INFEASIBLE) return;
    uint32_t slot = candidate_slot(n, c->last_dir);
    if (slot == UINT32_MAX || !cov_room(c, slot)) return;
    if (c->infeasible[slot] < 255) c->infeasible[slot]++;
}

/* Queue the directions the last run opened, each scored with the slots that run covered first
 * (sympath unit: SAGE's preference for the runs that found new code, below the tier). */
static void cov_flush(cov *c, uint32_t score)
{
    for (size_t i = 0; i < c->npend; i++) {
        c->pend[i].score = c->marked ? score : 0;
        (void)heap_push(&c->h[c->pend[i].node->phase ? 1 : 0], &c->pend[i]); /* out of memory: not offered */
    }
    c->npend = 0;
}

static void cov_add(strategy *s, tree_node *node, int dir)
{
    cov *c = (cov *)s;
    if (node->kind == BK_ROW && dir == 0) { /* the run took direction 1: the query returned this row */
        ptrmap_ent *e = ptrmap_get(&c->row_sites, row_key(node));
        if (!e || !e->b) /* out of memory: it stays untried */
            (void)ptrmap_put(&c->row_sites, row_key(node), e ? e->a : NULL, (void *)1);
    }
    cov_item it = {node, node->depth, (uint8_t)dir, cov_tier(c, node, dir, UINT32_MAX), 0, UINT32_MAX, c->seq++, 0};
    if (c->npend == c->pend_cap) {
        size_t cap = c->pend_cap ? 2 * c->pend_cap : 64;
        cov_item *p = realloc(c->pend, cap * sizeof *p);
        if (!p) { /* out of memory: queued unscored */
            (void)heap_push(&c->h[node->phase ? 1 : 0], &it);
            return;
        }
        c->pend = p;
        c->pend_cap = cap;
    }
    c->pend[c->npend++] = it;
}

/* A model direction towards goal: queued once more, with goal's tier (the older entry is dropped
 * when one of them has been handed out: no longer open). */
static void cov_boost(strategy *s, tree_node *node, int dir, uint32_t goal)
{
    cov *c = (cov *)s;
    cov_item it = {node, node->depth, (uint8_t)dir, cov_tier(c, node, dir, goal), 0, goal, c->seq++, 0};
    if (it.tier == 0) (void)heap_push(&c->h[node->phase ? 1 : 0], &it); /* out of memory: not boosted */
}

/* The deepest COV_REPAIRS setup directions the last run opened, into the repair queue (generation gen). */
static void cov_repairs(cov *c, uint8_t gen)
{
    size_t best[COV_REPAIRS], nb = 0;
    for (size_t i = 0; i < c->npend; i++) {
        if (c->pend[i].node->phase) continue;
        size_t k = nb < COV_REPAIRS ? nb++ : COV_REPAIRS;
        if (k == COV_REPAIRS && c->pend[i].depth <= c->pend[best[COV_REPAIRS - 1]].depth) continue;
        if (k == COV_REPAIRS) k = COV_REPAIRS - 1;
        while (k > 0 && c->pend[best[k - 1]].depth < c->pend[i].depth) {
            best[k] = best[k - 1];
            k--;
        }
        best[k] = i;
    }
    for (size_t j = nb; j-- > 0;) { /* the deepest newest */
        cov_item it = c->pend[best[j]];
        it.gen = gen;
        it.seq = c->seq++;
        (void)heap_push(&c->repair, &it); /* out of memory: no repair */
    }
}

static void cov_on_run(strategy *s, const run_feedback *fb)
{
    cov *c = (cov *)s;
    if (fb->marked) c->marked = true;
    uint8_t gen = c->last_gen;
    c->last_gen = 0;
    if (c->marked && fb->assume_failed && !fb->marked && gen < COV_REPAIR_GENS) cov_repairs(c, (uint8_t)(gen + 1));
    cov_flush(c, fb->new_slots);
}

/* The top of h once it is still open and its tier is current (lazy re-scoring: a worse tier is
 * pushed back; a push right after a pop never needs memory), or NULL when h is empty. */
static cov_item *cov_settle(cov *c, heap *h)
{
    cov_item *top;
    while ((top = heap_top(h)) != NULL) {
        cov_item it = *top;
        if (!cand_open(it.node, it.dir)) {
            heap_pop(h, NULL);
            continue;
        }
        uint8_t tier = cov_tier(c, it.node, it.dir, it.goal);
        if (tier <= it.tier) return top;
        heap_pop(h, NULL);
        it.tier = tier;
        (void)heap_push(h, &it);
    }
    return NULL;
}

/* The newest open repair, handed out (false when none is left). */
static bool cov_next_repair(cov *c, candidate *out)
{
    cov_item it;
    while (heap_top(&c->repair) != NULL) {
        heap_pop(&c->repair, &it);
        if (!cand_open(it.node, it.dir)) continue;
        c->repair_picks++;
        c->last = it.node;
        c->last_dir = it.dir;
        c->last_gen = it.gen;
        *out = (candidate){.node = it.node, .dir = it.dir, .bound = 0};
        return true;
    }
    return false;
}

static bool cov_next(strategy *s, candidate *out)
{
    cov *c = (cov *)s;
    cov_note_last(c);
    cov_flush(c, 0);
    c->picks++;
    if (c->repair_picks * 100 < c->picks * COV_REPAIR_PCT && cov_next_repair(c, out)) return true;
    cov_item *setup = cov_settle(c, &c->h[0]), *target = cov_settle(c, &c->h[1]);
    if (!setup && !target) return cov_next_repair(c, out);
    int ph = !setup ? 1 : !target ? 0 : -1;
    if (ph < 0) {
        uint64_t total = c->contested[0] + c->contested[1];
        if (target->tier == 0 || c->contested[0] * 100 >= (total + 1) * COV_SETUP_PCT)
            ph = 1;
        else
            ph = cov_before(target, setup) ? 1 : 0;
        c->contested[ph]++;
    }
    cov_item it;
    heap_pop(&c->h[ph], &it);
    if (it.node->kind == BK_FAULT && it.dir == 1) /* out of memory: the next ones keep their tier */
        (void)ptrmap_put(&c->fault_sites, fault_key(it.node), NULL, NULL);
    if (it.node->kind == BK_ROW && (it.node->arg & BK_ROW_WRITE))
        (void)ptrmap_put(&c->write_sites, write_key(it.node, it.dir), NULL, NULL);
    if (row_untried(c, it.node, it.dir)) { /* out of memory: not counted */
        const ptrmap_ent *e = ptrmap_get(&c->row_sites, row_key(it.node));
        (void)ptrmap_put(&c->row_sites, row_key(it.node), (void *)((e ? (uintptr_t)e->a : 0) + 1), NULL);
    }
    c->last = it.node;
    c->last_dir = it.dir;
    *out = (candidate){.node = it.node, .dir = it.dir, .bound = 0};
    return true;
}

/* Whether the best open direction of either phase (or of the last run's, not queued yet) is of
 * tier 0-2 (strategy.h, promising); tiers are scored again as in cov_next. */
static bool cov_promising(strategy *s)
{
    cov *c = (cov *)s;
    for (size_t i = 0; i < c->npend; i++)
        if (cand_open(c->pend[i].node, c->pend[i].dir) &&
            cov_tier(c, c->pend[i].node, c->pend[i].dir, c->pend[i].goal) < 3)
            return true;
    for (int ph = 0; ph < 2; ph++) {
        cov_item *top = cov_settle(c, &c->h[ph]);
        if (top && top->tier < 3) return true;
    }
    return false;
}

static void cov_destroy(strategy *s)
{
    cov *c = (cov *)s;
    if (!c) return;
    free(c->fails);
    free(c->infeasible);
    free(c->pend);
    heap_free(&c->h[0]);
    heap_free(&c->h[1]);
    heap_free(&c->repair);
    ptrmap_clear(&c->fault_sites);
    ptrmap_clear(&c->row_sites);
    ptrmap_clear(&c->write_sites);
    free(c);
}

strategy *strategy_cov_new(slot_covered_fn covered, void *cov_ctx)
{
    cov *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (heap_init(&c->h[0], sizeof(cov_item), cov_before) < 0 ||
        heap_init(&c->h[1], sizeof(cov_item), cov_before) < 0 ||
        heap_init(&c->repair, sizeof(cov_item), cov_newer) < 0) {
        heap_free(&c->h[0]);
        heap_free(&c->h[1]);
        free(c);
        return NULL;
    }
    c->covered = covered;
    c->cov_ctx = cov_ctx;
    c->base = (strategy){"cov", cov_add, cov_next, cov_on_run, cov_destroy, cov_failed, cov_boost, cov_promising};
    return &c->base;
}
