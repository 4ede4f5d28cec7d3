/* test_explore_strategy.c: unit tests of the search strategies (dfs, bfs, random, cov, generational) and candidate_slot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "explore/explorer.h"
#include "explore/strategy.h"

/* ---- fixtures: a tree built from one straight run of N branches ---- */

enum { N = 8 };

typedef struct world {
    expr_ctx *cx;
    expr *c;
    tree *t;
    tree_node *n[N]; /* n[i]: the branch at depth i of the first run (site i+1, slots 2i, 2i+1) */
    uint8_t cov[64]; /* coverage bitmap for the covered callback */
    int cov_calls;
} world;

static sym_event ev(branch_kind kind, int taken, uint32_t site, uint32_t arg, expr *cond)
{
    sym_event e = {.kind = (uint8_t)kind, .taken = (uint8_t)taken, .site = site, .arg = arg, .cond = cond};
    return e;
}

static void add_cb(void *ctx, tree_node *node, int dir)
{
    strategy *s = ctx;
    s->add(s, node, dir);
}

static int covered_cb(void *ctx, uint32_t slot)
{
    world *w = ctx;
    w->cov_calls++;
    return slot < sizeof w->cov && w->cov[slot];
}

/* Insert run [b_0 .. b_{N-1}], all taken 1, without telling any strategy. */
static int setup(void **state)
{
    world *w = calloc(1, sizeof *w);
    w->cx = expr_ctx_new();
    w->c = expr_cmp(w->cx, PRED_ULT, expr_symbol(w->cx, 0, 32, 1), expr_const(w->cx, 5, 32));
    w->t = tree_new(0, 0);
    sym_event e[N];
    for (int i = 0; i < N; i++) e[i] = ev(BK_BRANCH, 1, (uint32_t)i + 1, 2u * (uint32_t)i, w->c);
    tree_insert_result res;
    if (tree_insert(w->t, e, N, NULL, NULL, 0, NULL, NULL, &res) != 0) return -1;
    memcpy(w->n, res.path, sizeof w->n);
    *state = w;
    return 0;
}

static int teardown(void **state)
{
    world *w = *state;
    tree_free(w->t);
    expr_ctx_free(w->cx);
    free(w);
    return 0;
}

/* Pop every candidate into out[], returning how many (at most max). */
static int drain(strategy *s, candidate *out, int max)
{
    int k = 0;
    candidate c;
    while (k < max && s->next(s, &c)) out[k++] = c;
    return k;
}

/* ---- tests ---- */

static void test_factory(void **state)
{
    (void)state;
    for (int i = 0; strategy_names[i]; i++) {
        strategy *s = strategy_new(strategy_names[i], 1, NULL, NULL);
        assert_non_null(s);
        assert_string_equal(s->name, strategy_names[i]);
        candidate c;
        assert_false(s->next(s, &c));
        s->destroy(s);
    }
    assert_string_equal(strategy_names[0], "cov");
    assert_null(strategy_new("nope", 1, NULL, NULL));
}

static void test_candidate_slot(void **state)
{
    world *w = *state;
    tree_node node = {0};
    node.kind = BK_BRANCH;
    node.arg = 10;
    assert_int_equal(candidate_slot(&node, 0), 10);
    assert_int_equal(candidate_slot(&node, 1), 11);
    node.kind = BK_SWITCH;
    assert_int_equal(candidate_slot(&node, 1), 10);
    assert_int_equal(candidate_slot(&node, 0), UINT32_MAX);
    node.kind = BK_CHECK;
    assert_int_equal(candidate_slot(&node, 1), UINT32_MAX);
    node.kind = BK_ASSUME;
    assert_int_equal(candidate_slot(&node, 1), UINT32_MAX);
    assert_int_equal(candidate_slot(w->n[3], 0), 6);
}

/* Candidates added out of depth order: dfs is LIFO, bfs is shallowest first. */
static void test_dfs_bfs_order(void **state)
{
    world *w = *state;
    strategy *d = strategy_new("dfs", 0, NULL, NULL);
    strategy *b = strategy_new("bfs", 0, NULL, NULL);
    const int order[5] = {3, 1, 6, 0, 2};
    for (int i = 0; i < 5; i++) {
        d->add(d, w->n[order[i]], 0);
        b->add(b, w->n[order[i]], 0);
    }
    candidate c[8];
    assert_int_equal(drain(d, c, 8), 5);
    for (int i = 0; i < 5; i++) {
        assert_ptr_equal(c[i].node, w->n[order[4 - i]]);
        assert_int_equal(c[i].dir, 0);
        assert_int_equal(c[i].bound, 0);
    }
    assert_int_equal(drain(b, c, 8), 5);
    const int shallow[5] = {0, 1, 2, 3, 6};
    for (int i = 0; i < 5; i++) assert_ptr_equal(c[i].node, w->n[shallow[i]]);
    d->destroy(d);
    b->destroy(b);
}

/* dfs and bfs fed by tree_insert: a second run opens directions below the first's. */
static void test_dfs_bfs_from_tree(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *d = strategy_new("dfs", 0, NULL, NULL);
    strategy *b = strategy_new("bfs", 0, NULL, NULL);
    sym_event a[3] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_BRANCH, 1, 2, 2, w->c), ev(BK_BRANCH, 1, 3, 4, w->c)};
    tree_insert_result res;
    assert_int_equal(tree_insert(t, a, 3, NULL, NULL, 0, add_cb, d, &res), 0);
    assert_int_equal(tree_insert(t, a, 3, NULL, NULL, 0, add_cb, b, &res), 0); /* nothing new for b */
    tree_node *n2 = res.path[2];
    candidate c;
    assert_true(d->next(d, &c));
    assert_ptr_equal(c.node, n2);
    assert_false(b->next(b, &c));
    tree_free(t);

    /* fresh tree: feed bfs, then a run under (n0, 0) opens a depth-1 direction later */
    t = tree_new(0, 0);
    assert_int_equal(tree_insert(t, a, 3, NULL, NULL, 0, add_cb, b, &res), 0);
    tree_node *n1 = res.path[1];
    n2 = res.path[2];
    sym_event e[2] = {ev(BK_BRANCH, 0, 1, 0, w->c), ev(BK_BRANCH, 1, 9, 8, w->c)};
    assert_int_equal(tree_insert(t, e, 2, NULL, NULL, 0, add_cb, b, &res), 0);
    tree_node *n9 = res.path[1];
    /* (n0,0) is now visited: stale; order is depth 1 (n1, then n9), then depth 2 */
    assert_true(b->next(b, &c));
    assert_ptr_equal(c.node, n1);
    assert_true(b->next(b, &c));
    assert_ptr_equal(c.node, n9);
    assert_true(b->next(b, &c));
    assert_ptr_equal(c.node, n2);
    assert_false(b->next(b, &c));
    d->destroy(d);
    b->destroy(b);
    tree_free(t);
}

/* random returns each open candidate exactly once, reproducibly per seed. */
static void test_random(void **state)
{
    world *w = *state;
    enum { M = 200 };
    tree *t = tree_new(0, 0);
    sym_event e[M];
    for (int i = 0; i < M; i++) e[i] = ev(BK_BRANCH, i & 1, (uint32_t)i, 0, w->c);
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, M, NULL, NULL, 0, NULL, NULL, &res), 0);
    tree_node *nodes[M];
    memcpy(nodes, res.path, sizeof nodes);

    int first[M];
    for (int round = 0; round < 3; round++) {
        strategy *s = strategy_new("random", round == 2 ? 99 : 42, NULL, NULL);
        for (int i = 0; i < M; i++) s->add(s, nodes[i], !(i & 1));
        int seen[M] = {0};
        int order[M];
        candidate c;
        for (int k = 0; k < M; k++) {
            assert_true(s->next(s, &c));
            int i = (int)c.node->depth;
            assert_ptr_equal(nodes[i], c.node);
            assert_int_equal(c.dir, !(i & 1));
            assert_int_equal(seen[i], 0);
            seen[i] = 1;
            order[k] = i;
        }
        assert_false(s->next(s, &c));
        if (round == 0)
            memcpy(first, order, sizeof first);
        else if (round == 1)
            assert_memory_equal(first, order, sizeof first); /* same seed, same order */
        else
            assert_memory_not_equal(first, order, sizeof first);
        int sorted = 1;
        for (int k = 1; k < M; k++) sorted &= order[k] > order[k - 1];
        assert_false(sorted);
        s->destroy(s);
    }
    tree_free(t);
}

/* cov prefers an uncovered slot over a covered one, regardless of depth. */
static void test_cov_prefers_uncovered(void **state)
{
    world *w = *state;
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    w->cov[0] = 1; /* slot of (n0, 0) */
    w->cov[2] = 1; /* slot of (n1, 0) */
    s->add(s, w->n[0], 0);
    s->add(s, w->n[1], 0);
    s->add(s, w->n[5], 0);
    s->add(s, w->n[4], 0);
    candidate c[8];
    assert_int_equal(drain(s, c, 8), 4);
    assert_ptr_equal(c[0].node, w->n[4]); /* uncovered, shallower */
    assert_ptr_equal(c[1].node, w->n[5]); /* uncovered */
    assert_ptr_equal(c[2].node, w->n[0]); /* covered, shallower */
    assert_ptr_equal(c[3].node, w->n[1]);
    assert_true(w->cov_calls > 0);
    s->destroy(s);
}

/* promising: an open direction towards an uncovered slot is; once every slot is covered (by other
 * runs, after the adds) none is, the directions still open; dfs has no such judgement. */
static void test_cov_promising(void **state)
{
    world *w = *state;
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    assert_non_null(s->promising);
    assert_false(s->promising(s)); /* nothing open */
    s->add(s, w->n[0], 0);
    s->add(s, w->n[1], 0);
    assert_true(s->promising(s)); /* the last run's directions, not queued yet */
    w->cov[0] = 1;
    assert_true(s->promising(s)); /* (n1, 0) still uncovered */
    w->cov[2] = 1;
    assert_false(s->promising(s)); /* both covered: tier 3 */
    candidate c[4];
    assert_int_equal(drain(s, c, 4), 2); /* ... and still handed out */
    s->destroy(s);
    strategy *d = strategy_new("dfs", 0, covered_cb, w);
    assert_null(d->promising);
    d->destroy(d);
}

/* Coverage that changes after add() is taken into account when popping. */
static void test_cov_lazy_rescore(void **state)
{
    world *w = *state;
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    s->add(s, w->n[0], 0);
    s->add(s, w->n[1], 0);
    s->add(s, w->n[2], 0);
    w->cov[0] = 1; /* (n0, 0) got covered by some other run */
    w->cov[2] = 1; /* and (n1, 0) */
    candidate c[8];
    assert_int_equal(drain(s, c, 8), 3);
    assert_ptr_equal(c[0].node, w->n[2]);
    assert_ptr_equal(c[1].node, w->n[0]);
    assert_ptr_equal(c[2].node, w->n[1]);
    s->destroy(s);
}

/* Phases (sympath unit's mark before the call of the target): an uncovered slot after the mark
 * comes before the shallower uncovered ones of the setup; then, while the setup phase has not had
 * its share (half) of the contested picks, the usual order; once it has, the target's next. */
static void test_cov_phases(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    sym_event e[8];
    for (int i = 0; i < 8; i++) {
        e[i] = ev(BK_BRANCH, 1, (uint32_t)i + 1, 2u * (uint32_t)i, w->c);
        e[i].phase = i >= 5;
    }
    w->cov[0] = w->cov[6] = w->cov[8] = 1; /* setup (p[0], 0), (p[3], 0), (p[4], 0) covered */
    w->cov[12] = 1;                        /* target (p[6], 0) covered */
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, 8, NULL, NULL, 0, add_cb, s, &res), 0);
    tree_node *p[8];
    memcpy(p, res.path, sizeof p);
    assert_int_equal(p[5]->phase, 1);
    assert_int_equal(p[4]->phase, 0);
    candidate c[8];
    assert_int_equal(drain(s, c, 8), 8);
    assert_ptr_equal(c[0].node, p[5]); /* target, uncovered, before the setup's shallower uncovered */
    assert_ptr_equal(c[1].node, p[7]);
    assert_ptr_equal(c[2].node, p[1]); /* setup, uncovered (the setup had no pick yet) */
    assert_ptr_equal(c[3].node, p[2]);
    assert_ptr_equal(c[4].node, p[0]); /* covered: the setup's shallower one (2 picks of 4) */
    assert_ptr_equal(c[5].node, p[6]); /* the setup had its half (3 of 5): the target's */
    assert_ptr_equal(c[6].node, p[3]);
    assert_ptr_equal(c[7].node, p[4]);
    s->destroy(s);
    tree_free(t);
}

/* Every slot covered (all tier 3), then a first run of two true branches that reached the mark and covered
 * one new slot; its path into pa. */
static void first_marked_run(world *w, tree *t, strategy *s, tree_node *pa[2])
{
    memset(w->cov, 1, sizeof w->cov);
    sym_event a[2] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_BRANCH, 1, 2, 2, w->c)};
    tree_insert_result res;
    assert_int_equal(tree_insert(t, a, 2, NULL, NULL, 0, add_cb, s, &res), 0);
    pa[0] = res.path[0];
    pa[1] = res.path[1];
    uint8_t ta[2] = {1, 1};
    run_feedback fa = {pa, ta, 2, 0, 1, false, true, false}; /* marked, one new slot */
    s->on_run(s, &fa);
}

/* Once a run reached the mark, the directions a run opened are scored with the slots it covered
 * first: within a tier, the more productive run's directions come before shallower ones. */
static void test_cov_scored_runs(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    tree_node *pa[2];
    first_marked_run(w, t, s, pa);
    tree_insert_result res;
    /* a second run below (pa[1], 0), deeper, that covered three new slots */
    sym_event b[4] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_BRANCH, 0, 2, 2, w->c), ev(BK_BRANCH, 1, 3, 4, w->c),
                      ev(BK_BRANCH, 1, 4, 6, w->c)};
    assert_int_equal(tree_insert(t, b, 4, NULL, NULL, 0, add_cb, s, &res), 0);
    tree_node *pb[4] = {res.path[0], res.path[1], res.path[2], res.path[3]};
    uint8_t tb[4] = {1, 0, 1, 1};
    run_feedback fb = {pb, tb, 4, 0, 3, false, true, false};
    s->on_run(s, &fb);
    candidate c[8];
    assert_int_equal(drain(s, c, 8), 3);
    assert_ptr_equal(c[0].node, pb[2]); /* the second run's, by depth */
    assert_ptr_equal(c[1].node, pb[3]);
    assert_ptr_equal(c[2].node, pa[0]); /* the first run's, shallower but less productive */
    s->destroy(s);
    tree_free(t);
}

/* Repairs: once a run reached the mark, a run that ended before it on a false assumption offers its three
 * deepest setup directions again, newest first, for at most 30% of the picks (a failed parse is mended by its
 * last decisions), and they come when nothing else is left. */
static void test_cov_repairs(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    tree_node *pa[2];
    first_marked_run(w, t, s, pa);
    tree_insert_result res;
    /* a run below (pa[1], 0) that ended on a false assumption before the mark */
    sym_event b[6];
    for (int i = 0; i < 6; i++) b[i] = ev(BK_BRANCH, i == 1 ? 0 : 1, (uint32_t)i + 1, 2u * (uint32_t)i, w->c);
    assert_int_equal(tree_insert(t, b, 6, NULL, NULL, 0, add_cb, s, &res), 0);
    tree_node *pb[6];
    memcpy(pb, res.path, sizeof pb);
    uint8_t tb[6] = {1, 0, 1, 1, 1, 1};
    run_feedback fb = {pb, tb, 6, 0, 0, false, false, true};
    s->on_run(s, &fb);
    candidate c[8];
    int n = 0;
    while (n < 8 && s->next(s, &c[n])) c[n].node->status[c[n].dir] = CHILD_PENDING, n++; /* as the explorer does */
    assert_int_equal(n, 5);
    assert_ptr_equal(c[0].node, pb[5]); /* a repair: the failed run's deepest */
    assert_ptr_equal(c[1].node, pa[0]); /* the repairs had their share: the productive run's */
    assert_ptr_equal(c[2].node, pb[2]); /* then by depth */
    assert_ptr_equal(c[3].node, pb[4]); /* a repair again (1 of 4 picks) */
    assert_ptr_equal(c[4].node, pb[3]);
    s->destroy(s);
    tree_free(t);
}

/* A model direction the explorer boosts towards an uncovered program slot (strategy.h, boost) comes before the
 * covered ones; a boost towards a covered slot changes nothing; once the goal is covered a boosted direction
 * waits with the others again (by depth). */
static void test_cov_boost(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    assert_non_null(s->boost);
    memset(w->cov, 1, sizeof w->cov);
    w->cov[20] = 0; /* the program's slot behind the model's comparisons */
    sym_event e[4];
    for (int i = 0; i < 4; i++) e[i] = ev(BK_BRANCH, 1, (uint32_t)i + 1, 2u * (uint32_t)i, w->c);
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, 4, NULL, NULL, 0, add_cb, s, &res), 0);
    tree_node *p[4];
    memcpy(p, res.path, sizeof p);
    s->boost(s, p[2], 0, 20);
    s->boost(s, p[1], 0, 2); /* a covered goal: not boosted */
    s->boost(s, p[3], 0, 20);
    candidate c;
    tree_node *order[4];
    for (int k = 0; k < 4; k++) {
        assert_true(s->next(s, &c));
        order[k] = c.node;
        tree_set_status(t, c.node, c.dir, CHILD_PENDING); /* as the explorer does: the duplicate is dropped */
        if (k == 0) w->cov[20] = 1;                       /* the first boosted run covered the goal */
    }
    assert_false(s->next(s, &c));
    assert_ptr_equal(order[0], p[2]); /* boosted, the shallower of the two */
    assert_ptr_equal(order[1], p[0]); /* then by depth: p[3]'s boost is stale */
    assert_ptr_equal(order[2], p[1]);
    assert_ptr_equal(order[3], p[3]);
    s->destroy(s);
    tree_free(t);
}

/* Tiers: uncovered slot, then the crash side of a check, then covered / slot-less. */
static void test_cov_tiers(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    sym_event e[4] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_ASSUME, 0, 0, 0, w->c), ev(BK_CHECK, 0, 0, 0, w->c),
                      ev(BK_BRANCH, 1, 2, 2, w->c)};
    w->cov[0] = 1;
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, 4, NULL, NULL, 0, add_cb, s, &res), 0);
    tree_node *p[4];
    memcpy(p, res.path, sizeof p);
    candidate c[8];
    assert_int_equal(drain(s, c, 8), 4);
    assert_ptr_equal(c[0].node, p[3]); /* slot 2 uncovered, deepest */
    assert_ptr_equal(c[1].node, p[2]); /* check, crash side */
    assert_int_equal(c[1].dir, 1);
    assert_ptr_equal(c[2].node, p[0]); /* covered, depth 0 */
    assert_ptr_equal(c[3].node, p[1]); /* assumption: no slot, depth 1 */
    s->destroy(s);
    tree_free(t);
}

/* A slot whose directions failed COV_FAIL_LIMIT (4) times (strategy.h, on_failed: a loop's
 * branch the solver times out on, iteration after iteration) drops to tier 3: a deeper
 * uncovered slot comes first, then the rest by depth. */
static void test_cov_failed_slot_demoted(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    assert_non_null(s->on_failed);
    sym_event e[8];
    for (int i = 0; i < 6; i++) e[i] = ev(BK_BRANCH, 1, 1, 0, w->c); /* a loop: site 1, slots 0/1 */
    e[6] = ev(BK_BRANCH, 1, 2, 2, w->c);
    e[7] = ev(BK_BRANCH, 1, 3, 4, w->c);
    w->cov[4] = 1; /* (p[7], 0) covered */
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, 8, NULL, NULL, 0, add_cb, s, &res), 0);
    tree_node *p[8];
    memcpy(p, res.path, sizeof p);
    candidate c[8];
    for (int i = 0; i < 4; i++) {
        assert_true(s->next(s, &c[0]));
        assert_ptr_equal(c[0].node, p[i]); /* slot 0 uncovered: shallowest first */
        tree_set_status(t, c[0].node, c[0].dir, CHILD_UNKNOWN);
        s->on_failed(s, c[0].node, c[0].dir);
    }
    assert_int_equal(drain(s, c, 8), 4);
    assert_ptr_equal(c[0].node, p[6]); /* slot 2 uncovered, never failed */
    assert_ptr_equal(c[1].node, p[4]); /* slot 0 demoted: with the covered ones, by depth */
    assert_ptr_equal(c[2].node, p[5]);
    assert_ptr_equal(c[3].node, p[7]);
    s->destroy(s);
    tree_free(t);
}

/* An injected fault's failing side (BK_FAULT direction 1) is tier 1 the first time its location (site, which call
 * after it) is handed out, tier 3 after; a NULL-result fault (BK_FAULT_NULL) at a fresh location is tier 2: two
 * faults after one site (the second a NULL result), one fault after another, two covered branches. */
static void test_cov_fault_tier(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("cov", 0, covered_cb, w);
    sym_event e[5] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_FAULT, 0, 0, 1 << 12 | 1, w->c),
                      ev(BK_FAULT, 0, 0, 1 << 12 | BK_FAULT_NULL | 2, w->c), ev(BK_BRANCH, 1, 2, 2, w->c),
                      ev(BK_FAULT, 0, 0, 2 << 12 | 1, w->c)};
    w->cov[0] = w->cov[1] = w->cov[2] = w->cov[3] = 1;
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, 5, NULL, NULL, 0, add_cb, s, &res), 0);
    tree_node *p[5];
    memcpy(p, res.path, sizeof p);
    candidate c[8];
    assert_int_equal(drain(s, c, 8), 5);
    /* tier 1, shallowest first: the two error faults (each location once); tier 2: the NULL result */
    assert_ptr_equal(c[0].node, p[1]);
    assert_int_equal(c[0].dir, 1);
    assert_ptr_equal(c[1].node, p[4]);
    assert_ptr_equal(c[2].node, p[2]);
    assert_int_equal(c[2].dir, 1);
    /* tier 3: the covered branches */
    assert_ptr_equal(c[3].node, p[0]);
    assert_ptr_equal(c[4].node, p[3]);
    /* a second run reaching the first fault's location on another path: tier 3 now, behind a new uncovered branch */
    sym_event e2[3] = {ev(BK_BRANCH, 0, 1, 0, w->c), ev(BK_FAULT, 0, 0, 1 << 12 | 1, w->c),
                       ev(BK_BRANCH, 1, 3, 4, w->c)};
    assert_int_equal(tree_insert(t, e2, 3, NULL, p[0], 0, add_cb, s, &res), 0);
    assert_int_equal(drain(s, c, 8), 2);
    assert_ptr_equal(c[0].node, res.path[2]); /* slot 4 uncovered */
    assert_ptr_equal(c[1].node, res.path[1]);
    s->destroy(s);
    tree_free(t);
}

/* Without a coverage oracle cov still hands out everything (as if uncovered). */
static void test_cov_no_oracle(void **state)
{
    world *w = *state;
    strategy *s = strategy_new("cov", 0, NULL, NULL);
    s->add(s, w->n[2], 0);
    s->add(s, w->n[1], 0);
    candidate c[4];
    assert_int_equal(drain(s, c, 4), 2);
    assert_ptr_equal(c[0].node, w->n[1]);
    s->destroy(s);
}

static run_feedback feedback(tree_insert_result *res, uint8_t *taken, const sym_event *e, uint32_t bound,
                             uint32_t new_slots, bool error)
{
    for (uint32_t i = 0; i < res->npath; i++) taken[i] = e[i].taken;
    run_feedback fb = {res->path, taken, res->npath, bound, new_slots, error, false, false};
    return fb;
}

/* generational: expands only positions >= bound, with bound i+1; ignores add(). */
static void test_generational_bound(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("generational", 0, covered_cb, w);
    sym_event e[4] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_BRANCH, 1, 2, 2, w->c), ev(BK_BRANCH, 0, 3, 4, w->c),
                      ev(BK_BRANCH, 1, 4, 6, w->c)};
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, 4, NULL, NULL, 0, add_cb, s, &res), 0);
    candidate c[8];
    assert_int_equal(drain(s, c, 8), 0); /* add() alone gives nothing */
    tree_node *p[4];
    memcpy(p, res.path, sizeof p);
    uint8_t taken[4];
    run_feedback fb = feedback(&res, taken, e, 0, 3, false);
    s->on_run(s, &fb);
    assert_int_equal(drain(s, c, 8), 4);
    for (int i = 0; i < 4; i++) {
        assert_ptr_equal(c[i].node, p[i]);
        assert_int_equal(c[i].dir, !e[i].taken);
        assert_int_equal(c[i].bound, i + 1);
    }
    /* the same run with bound 2: only positions 2 and 3 */
    fb.bound = 2;
    s->on_run(s, &fb);
    assert_int_equal(drain(s, c, 8), 2);
    assert_ptr_equal(c[0].node, p[2]);
    assert_int_equal(c[0].bound, 3);
    assert_ptr_equal(c[1].node, p[3]);
    assert_int_equal(c[1].bound, 4);
    /* directions no longer open are not expanded */
    tree_set_status(t, p[2], 1, CHILD_PENDING);
    s->on_run(s, &fb);
    assert_int_equal(drain(s, c, 8), 1);
    assert_ptr_equal(c[0].node, p[3]);
    /* bound at the end of the path: nothing */
    fb.bound = 4;
    s->on_run(s, &fb);
    assert_int_equal(drain(s, c, 8), 0);
    s->destroy(s);
    tree_free(t);
}

/* generational: the run with more new coverage is expanded first; errors get a bonus;
 * entries that stop being open while waiting in the expansion list are skipped. */
static void test_generational_score(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    strategy *s = strategy_new("generational", 0, NULL, NULL);
    sym_event r1[3] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_BRANCH, 1, 2, 2, w->c), ev(BK_BRANCH, 1, 3, 4, w->c)};
    sym_event r2[3] = {ev(BK_BRANCH, 0, 1, 0, w->c), ev(BK_BRANCH, 1, 5, 10, w->c), ev(BK_BRANCH, 1, 6, 12, w->c)};
    sym_event r3[3] = {ev(BK_BRANCH, 1, 1, 0, w->c), ev(BK_BRANCH, 0, 2, 2, w->c), ev(BK_BRANCH, 1, 7, 14, w->c)};
    tree_insert_result res;
    uint8_t taken[3];
    tree_node *a[3], *b[3];

    assert_int_equal(tree_insert(t, r1, 3, NULL, NULL, 0, NULL, NULL, &res), 0);
    memcpy(a, res.path, sizeof a);
    run_feedback fb1 = feedback(&res, taken, r1, 1, 1, false);
    s->on_run(s, &fb1);
    assert_int_equal(tree_insert(t, r2, 3, NULL, NULL, 0, NULL, NULL, &res), 0);
    memcpy(b, res.path, sizeof b);
    run_feedback fb2 = feedback(&res, taken, r2, 1, 5, false);
    s->on_run(s, &fb2);

    candidate c;
    assert_true(s->next(s, &c)); /* r2 (5 new slots) first */
    assert_ptr_equal(c.node, b[1]);
    assert_int_equal(c.bound, 2);
    /* r1's expansion will contain (a[1], 0); a run takes it meanwhile, and hits an error */
    assert_int_equal(tree_insert(t, r3, 3, NULL, NULL, 0, NULL, NULL, &res), 0);
    tree_node *d2 = res.path[2];
    assert_int_equal(a[1]->status[0], CHILD_VISITED);
    run_feedback fb3 = feedback(&res, taken, r3, 2, 0, true); /* error bonus beats r1's 1 slot */
    s->on_run(s, &fb3);
    assert_true(s->next(s, &c));
    assert_ptr_equal(c.node, b[2]); /* the current expansion list is finished first */
    assert_int_equal(c.bound, 3);
    assert_true(s->next(s, &c));
    assert_ptr_equal(c.node, d2); /* r3: only position 2 */
    assert_int_equal(c.bound, 3);
    assert_true(s->next(s, &c));
    assert_ptr_equal(c.node, a[2]); /* r1: (a[1], 0) is stale */
    assert_int_equal(c.dir, 0);
    assert_int_equal(c.bound, 3);
    assert_false(s->next(s, &c));

    /* equal scores: the earlier run first */
    tree_set_status(t, a[2], 0, CHILD_OPEN);
    tree_set_status(t, d2, 0, CHILD_OPEN);
    s->destroy(s);
    s = strategy_new("generational", 0, NULL, NULL);
    tree_node *pa[3] = {a[0], a[1], a[2]}, *pd[3] = {a[0], a[1], d2};
    uint8_t ta[3] = {1, 1, 1}, td[3] = {1, 0, 1};
    run_feedback ga = {pd, td, 3, 2, 4, false, false, false}, gb = {pa, ta, 3, 2, 4, false, false, false};
    s->on_run(s, &ga);
    s->on_run(s, &gb);
    assert_true(s->next(s, &c));
    assert_ptr_equal(c.node, d2);
    assert_true(s->next(s, &c));
    assert_ptr_equal(c.node, a[2]);
    assert_false(s->next(s, &c));
    s->destroy(s);
    tree_free(t);
}

/* Every strategy drops candidates that are no longer open. */
static void test_stale_skipped(void **state)
{
    world *w = *state;
    const char *names[4] = {"dfs", "bfs", "random", "cov"};
    for (int k = 0; k < 4; k++) {
        strategy *s = strategy_new(names[k], 7, covered_cb, w);
        for (int i = 0; i < N; i++) s->add(s, w->n[i], 0);
        tree_set_status(w->t, w->n[2], 0, CHILD_PENDING);
        tree_set_status(w->t, w->n[5], 0, CHILD_INFEASIBLE);
        candidate c[N + 1];
        int got = drain(s, c, N + 1);
        assert_int_equal(got, N - 2);
        for (int i = 0; i < got; i++) {
            assert_ptr_not_equal(c[i].node, w->n[2]);
            assert_ptr_not_equal(c[i].node, w->n[5]);
            assert_int_equal(c[i].node->status[0], CHILD_OPEN);
        }
        tree_set_status(w->t, w->n[2], 0, CHILD_OPEN);
        tree_set_status(w->t, w->n[5], 0, CHILD_OPEN);
        s->destroy(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_factory),
        cmocka_unit_test_setup_teardown(test_candidate_slot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dfs_bfs_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dfs_bfs_from_tree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_prefers_uncovered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_lazy_rescore, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_tiers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_boost, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_fault_tier, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_failed_slot_demoted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_phases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_scored_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_repairs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_promising, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cov_no_oracle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generational_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generational_score, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_skipped, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
