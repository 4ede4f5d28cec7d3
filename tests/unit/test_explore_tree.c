/* test_explore_tree.c: unit tests of the execution tree (insert, statuses, divergence, mismatch, bounds, path conditions). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "explore/tree.h"

/* ---- fixtures ---- */

typedef struct opened {
    tree_node *node[256];
    int dir[256];
    int n;
} opened;

static void record_open(void *ctx, tree_node *node, int dir)
{
    opened *o = ctx;
    assert_true(o->n < 256);
    o->node[o->n] = node;
    o->dir[o->n] = dir;
    o->n++;
}

static sym_event ev(branch_kind kind, int taken, uint32_t site, uint32_t arg, expr *cond)
{
    sym_event e = {.kind = (uint8_t)kind, .taken = (uint8_t)taken, .site = site, .arg = arg, .cond = cond};
    return e;
}

typedef struct world {
    expr_ctx *cx;
    expr *c1, *c2, *c3; /* x < 5, y == 3, x == y */
    input_vec *in;
} world;

static int setup(void **state)
{
    world *w = calloc(1, sizeof *w);
    w->cx = expr_ctx_new();
    expr *x = expr_symbol(w->cx, 0, 32, 7);
    expr *y = expr_symbol(w->cx, 1, 32, 3);
    w->c1 = expr_cmp(w->cx, PRED_ULT, x, expr_const(w->cx, 5, 32));
    w->c2 = expr_cmp(w->cx, PRED_EQ, y, expr_const(w->cx, 3, 32));
    w->c3 = expr_cmp(w->cx, PRED_EQ, x, y);
    uint64_t vals[2] = {7, 3};
    w->in = input_vec_new(vals, 2);
    *state = w;
    return 0;
}

static int teardown(void **state)
{
    world *w = *state;
    input_vec_release(w->in);
    expr_ctx_free(w->cx);
    free(w);
    return 0;
}

static void check_stats_sum(tree *t)
{
    tree_stats st;
    tree_get_stats(t, &st);
    uint64_t sum = 0;
    for (int i = 0; i < CHILD_STATUS_COUNT; i++) sum += st.by_status[i];
    assert_int_equal(sum, 2 * st.nodes);
}

/* ---- tests ---- */

/* Run A: b1 taken 1, b2 taken 0; then B aimed at (b2,1) takes it; then C aimed at (b1,0) does not. */
static void test_insert_predict_diverge(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    assert_non_null(t);
    opened o = {0};
    tree_insert_result res;

    sym_event a[2] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_BRANCH, 0, 2, 2, w->c2)};
    assert_int_equal(tree_insert(t, a, 2, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_false(res.diverged);
    assert_false(res.mismatch);
    assert_int_equal(res.npath, 2);
    tree_node *b1 = res.path[0], *b2 = res.path[1];
    assert_null(b1->parent);
    assert_ptr_equal(b1->child[1], b2);
    assert_null(b1->child[0]);
    assert_ptr_equal(b2->parent, b1);
    assert_int_equal(b2->parent_dir, 1);
    assert_int_equal(b1->depth, 0);
    assert_int_equal(b2->depth, 1);
    assert_int_equal(b2->site, 2);
    assert_int_equal(b2->arg, 2);
    assert_ptr_equal(b2->cond, w->c2);
    assert_ptr_equal(b2->inputs, w->in);
    assert_int_equal(w->in->refs, 3); /* ours + two nodes */
    assert_int_equal(b1->status[1], CHILD_VISITED);
    assert_int_equal(b1->status[0], CHILD_OPEN);
    assert_int_equal(b2->status[0], CHILD_VISITED);
    assert_int_equal(b2->status[1], CHILD_OPEN);
    assert_int_equal(o.n, 2);
    assert_ptr_equal(o.node[0], b1);
    assert_int_equal(o.dir[0], 0);
    assert_ptr_equal(o.node[1], b2);
    assert_int_equal(o.dir[1], 1);

    tree_stats st;
    tree_get_stats(t, &st);
    assert_int_equal(st.nodes, 2);
    assert_int_equal(st.by_status[CHILD_VISITED], 2);
    assert_int_equal(st.by_status[CHILD_OPEN], 2);
    assert_int_equal(st.max_depth, 1);
    assert_int_equal(st.divergences, 0);

    /* path conditions */
    expr **pc = NULL;
    assert_int_equal(tree_path_condition(b2, 1, w->cx, &pc), 2);
    assert_ptr_equal(pc[0], w->c1);
    assert_ptr_equal(pc[1], w->c2);
    free(pc);
    assert_int_equal(tree_path_condition(b1, 0, w->cx, &pc), 1);
    assert_ptr_equal(pc[0], expr_not(w->cx, w->c1));
    free(pc);
    assert_int_equal(tree_path_condition(b2, 0, w->cx, &pc), 2);
    assert_ptr_equal(pc[1], expr_not(w->cx, w->c2));
    free(pc);

    /* B: aimed at (b2, 1) and takes it, then a new branch b3 */
    tree_set_status(t, b2, 1, CHILD_PENDING);
    tree_get_stats(t, &st);
    assert_int_equal(st.by_status[CHILD_PENDING], 1);
    assert_int_equal(st.by_status[CHILD_OPEN], 1);
    sym_event b[3] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_BRANCH, 1, 2, 2, w->c2), ev(BK_BRANCH, 0, 3, 4, w->c3)};
    assert_int_equal(tree_insert(t, b, 3, w->in, b2, 1, record_open, &o, &res), 0);
    assert_false(res.diverged);
    assert_int_equal(res.npath, 3);
    assert_ptr_equal(res.path[1], b2);
    tree_node *b3 = res.path[2];
    assert_ptr_equal(b2->child[1], b3);
    assert_int_equal(b2->status[1], CHILD_VISITED);
    assert_int_equal(o.n, 3); /* only b3's direction 1 is new; b1's 0 is not re-offered */
    assert_ptr_equal(o.node[2], b3);
    assert_int_equal(o.dir[2], 1);
    assert_int_equal(tree_path_condition(b3, 1, w->cx, &pc), 3);
    assert_ptr_equal(pc[0], w->c1);
    assert_ptr_equal(pc[1], w->c2);
    assert_ptr_equal(pc[2], w->c3);
    free(pc);
    tree_get_stats(t, &st);
    assert_int_equal(st.nodes, 3);
    assert_int_equal(st.by_status[CHILD_PENDING], 0);
    assert_int_equal(st.by_status[CHILD_VISITED], 4);
    assert_int_equal(st.by_status[CHILD_OPEN], 2);
    assert_int_equal(st.divergences, 0);

    /* C: aimed at (b1, 0) but takes b1 = 1 again */
    tree_set_status(t, b1, 0, CHILD_PENDING);
    assert_int_equal(tree_insert(t, a, 2, w->in, b1, 0, record_open, &o, &res), 0);
    assert_true(res.diverged);
    assert_int_equal(res.diverged_at, 0);
    assert_int_equal(b1->status[0], CHILD_DIVERGED);
    assert_int_equal(o.n, 3);
    tree_get_stats(t, &st);
    assert_int_equal(st.divergences, 1);
    assert_int_equal(st.by_status[CHILD_DIVERGED], 1);
    assert_int_equal(st.by_status[CHILD_PENDING], 0);
    assert_int_equal(st.nodes, 3);

    /* D: aimed at (b3, 1) but the run ends after b2: divergence at depth 2 */
    tree_set_status(t, b3, 1, CHILD_PENDING);
    assert_int_equal(tree_insert(t, b, 2, w->in, b3, 1, record_open, &o, &res), 0);
    assert_true(res.diverged);
    assert_int_equal(res.diverged_at, 2);
    assert_int_equal(b3->status[1], CHILD_DIVERGED);

    /* E: aimed at (b3, 1) again, diverging deeper in the prefix (b2 = 0) */
    tree_set_status(t, b3, 1, CHILD_PENDING);
    assert_int_equal(tree_insert(t, a, 2, w->in, b3, 1, record_open, &o, &res), 0);
    assert_true(res.diverged);
    assert_int_equal(res.diverged_at, 1);

    /* F: a run that goes to b1 = 0 (a real path) makes the DIVERGED direction VISITED */
    sym_event f[1] = {ev(BK_BRANCH, 0, 1, 0, w->c1)};
    assert_int_equal(tree_insert(t, f, 1, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_int_equal(b1->status[0], CHILD_VISITED);
    assert_int_equal(b1->status[1], CHILD_VISITED);
    assert_null(b1->child[0]); /* the run ended there */
    tree_get_stats(t, &st);
    assert_int_equal(st.divergences, 3);
    check_stats_sum(t);

    tree_free(t);
    assert_int_equal(w->in->refs, 1);
}

/* A run whose event at a known place has another site gets an alternative node there:
 * the rest of its path is inserted, and the known node is untouched. */
static void test_mismatch(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    opened o = {0};
    tree_insert_result res;
    sym_event a[3] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_BRANCH, 0, 2, 2, w->c2), ev(BK_BRANCH, 0, 3, 4, w->c3)};
    assert_int_equal(tree_insert(t, a, 3, w->in, NULL, 0, record_open, &o, &res), 0);
    tree_node *b1 = res.path[0], *b2 = res.path[1];

    sym_event m[3] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_BRANCH, 1, 9, 2, w->c2), ev(BK_BRANCH, 0, 3, 4, w->c3)};
    assert_int_equal(tree_insert(t, m, 3, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_true(res.mismatch);
    assert_int_equal(res.npath, 3);
    assert_ptr_equal(res.path[0], b1);
    tree_node *alt = res.path[1];
    assert_ptr_not_equal(alt, b2);
    assert_ptr_equal(b2->alt, alt);
    assert_int_equal(alt->site, 9);
    assert_ptr_equal(alt->parent, b1);
    assert_int_equal(b2->status[1], CHILD_OPEN); /* the known node is untouched */
    assert_int_equal(alt->status[1], CHILD_VISITED);
    assert_int_equal(alt->status[0], CHILD_OPEN);
    tree_stats st;
    tree_get_stats(t, &st);
    assert_int_equal(st.mismatches, 1);
    assert_int_equal(st.nodes, 5);
    /* the path condition through the alternative uses its own condition */
    expr **pc = NULL;
    assert_int_equal(tree_path_condition(res.path[2], 1, w->cx, &pc), 3);
    assert_ptr_equal(pc[1], w->c2);
    free(pc);

    /* inserting the same run again finds the alternative: no new mismatch */
    assert_int_equal(tree_insert(t, m, 3, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_false(res.mismatch);
    assert_ptr_equal(res.path[1], alt);

    /* same site, other kind is another alternative */
    sym_event k[2] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_SWITCH, 0, 2, 2, w->c2)};
    assert_int_equal(tree_insert(t, k, 2, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_true(res.mismatch);
    tree_get_stats(t, &st);
    assert_int_equal(st.mismatches, 2);

    /* a run aimed at b2 that reaches the alternative instead diverged */
    tree_set_status(t, b2, 1, CHILD_PENDING);
    assert_int_equal(tree_insert(t, m, 3, w->in, b2, 1, record_open, &o, &res), 0);
    assert_true(res.diverged);
    assert_int_equal(res.diverged_at, 1);
    assert_int_equal(b2->status[1], CHILD_DIVERGED);
    check_stats_sum(t);
    tree_free(t);
}

/* One site repeated 10 times with loop bound 3: only the first 3 occurrences are offered. */
static void test_loop_bound(void **state)
{
    world *w = *state;
    tree *t = tree_new(3, 0);
    opened o = {0};
    tree_insert_result res;
    sym_event e[10];
    for (int i = 0; i < 10; i++) e[i] = ev(BK_BRANCH, 1, 7, 10, w->c1);
    assert_int_equal(tree_insert(t, e, 10, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_int_equal(res.npath, 10);
    assert_int_equal(o.n, 3);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(res.path[i]->site_count, i + 1);
        assert_int_equal(res.path[i]->status[0], i < 3 ? CHILD_OPEN : CHILD_BOUNDED);
    }
    for (int i = 0; i < 3; i++) assert_ptr_equal(o.node[i], res.path[i]);
    tree_stats st;
    tree_get_stats(t, &st);
    assert_int_equal(st.by_status[CHILD_BOUNDED], 7);
    assert_int_equal(st.by_status[CHILD_OPEN], 3);
    assert_int_equal(st.max_depth, 9);
    tree_free(t);
}

/* site_count counts per (kind, site) along the path, across runs that share a prefix. */
static void test_site_count_interleaved(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    tree_insert_result res;
    sym_event e[6] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_BRANCH, 1, 2, 0, w->c2), ev(BK_BRANCH, 1, 1, 0, w->c1),
                      ev(BK_SWITCH, 0, 1, 0, w->c2), ev(BK_BRANCH, 1, 2, 0, w->c2), ev(BK_BRANCH, 1, 1, 0, w->c1)};
    assert_int_equal(tree_insert(t, e, 6, w->in, NULL, 0, NULL, NULL, &res), 0);
    const uint32_t want[6] = {1, 1, 2, 1, 2, 3};
    for (int i = 0; i < 6; i++) assert_int_equal(res.path[i]->site_count, want[i]);
    /* a second run whose event 3 is a branch where the tree has a switch: an alternative
     * node, whose site count continues the path's own count */
    e[3] = ev(BK_BRANCH, 0, 1, 0, w->c1);
    e[4] = ev(BK_BRANCH, 0, 2, 0, w->c2);
    assert_int_equal(tree_insert(t, e, 5, w->in, NULL, 0, NULL, NULL, &res), 0);
    assert_true(res.mismatch);
    assert_int_equal(res.npath, 5);
    assert_int_equal(res.path[3]->site_count, 3);
    assert_int_equal(res.path[4]->site_count, 2);
    tree_free(t);

    t = tree_new(0, 0);
    assert_int_equal(tree_insert(t, e, 3, w->in, NULL, 0, NULL, NULL, &res), 0);
    sym_event f[5] = {e[0], e[1], ev(BK_BRANCH, 0, 1, 0, w->c1), ev(BK_BRANCH, 1, 1, 0, w->c1),
                      ev(BK_BRANCH, 1, 2, 0, w->c2)};
    assert_int_equal(tree_insert(t, f, 5, w->in, NULL, 0, NULL, NULL, &res), 0);
    const uint32_t want2[5] = {1, 1, 2, 3, 2};
    for (int i = 0; i < 5; i++) assert_int_equal(res.path[i]->site_count, want2[i]);
    tree_free(t);
}

/* Directions at depth >= max_depth are BOUNDED. */
static void test_max_depth(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 2);
    opened o = {0};
    tree_insert_result res;
    sym_event e[4] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_BRANCH, 1, 2, 0, w->c2), ev(BK_BRANCH, 1, 3, 0, w->c3),
                      ev(BK_BRANCH, 1, 4, 0, w->c1)};
    assert_int_equal(tree_insert(t, e, 4, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_int_equal(o.n, 2);
    assert_int_equal(res.path[1]->status[0], CHILD_OPEN);
    assert_int_equal(res.path[2]->status[0], CHILD_BOUNDED);
    assert_int_equal(res.path[3]->status[0], CHILD_BOUNDED);
    tree_free(t);
}

/* Assumptions open only direction 1; concretizations and checks open the untaken side. */
static void test_kinds(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    opened o = {0};
    tree_insert_result res;
    sym_event e[3] = {ev(BK_ASSUME, 1, 0, 0, w->c1), ev(BK_CONCRETIZE, 1, 0, CONC_SYM_POINTER, w->c2),
                      ev(BK_CHECK, 0, 0, 0, w->c3)};
    assert_int_equal(tree_insert(t, e, 3, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_int_equal(res.path[0]->status[0], CHILD_IGNORED);
    assert_int_equal(res.path[1]->status[0], CHILD_OPEN);
    assert_int_equal(res.path[2]->status[1], CHILD_OPEN);
    assert_int_equal(o.n, 2);
    assert_ptr_equal(o.node[0], res.path[1]);
    assert_int_equal(o.dir[0], 0);
    assert_ptr_equal(o.node[1], res.path[2]);
    assert_int_equal(o.dir[1], 1);
    tree_stats st;
    tree_get_stats(t, &st);
    assert_int_equal(st.by_status[CHILD_IGNORED], 1);
    assert_int_equal(st.by_status[CHILD_OPEN], 2);
    assert_int_equal(st.by_status[CHILD_VISITED], 3);
    tree_free(t);

    /* an assumption that failed: direction 1 is open */
    t = tree_new(0, 0);
    o.n = 0;
    sym_event f[1] = {ev(BK_ASSUME, 0, 0, 0, w->c1)};
    assert_int_equal(tree_insert(t, f, 1, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_int_equal(res.path[0]->status[1], CHILD_OPEN);
    assert_int_equal(res.path[0]->status[0], CHILD_VISITED);
    assert_int_equal(o.n, 1);
    assert_int_equal(o.dir[0], 1);
    /* and a later run that satisfies it does not re-offer anything */
    sym_event g[1] = {ev(BK_ASSUME, 1, 0, 0, w->c1)};
    assert_int_equal(tree_insert(t, g, 1, w->in, NULL, 0, record_open, &o, &res), 0);
    assert_int_equal(res.path[0]->status[1], CHILD_VISITED);
    assert_int_equal(o.n, 1);
    tree_free(t);
}

/* Statuses set by the explorer are counted; names are stable. */
static void test_set_status_and_names(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    tree_insert_result res;
    sym_event e[2] = {ev(BK_BRANCH, 1, 1, 0, w->c1), ev(BK_BRANCH, 1, 2, 0, w->c2)};
    assert_int_equal(tree_insert(t, e, 2, w->in, NULL, 0, NULL, NULL, &res), 0);
    tree_set_status(t, res.path[0], 0, CHILD_INFEASIBLE);
    tree_set_status(t, res.path[1], 0, CHILD_UNKNOWN);
    tree_stats st;
    tree_get_stats(t, &st);
    assert_int_equal(st.by_status[CHILD_OPEN], 0);
    assert_int_equal(st.by_status[CHILD_INFEASIBLE], 1);
    assert_int_equal(st.by_status[CHILD_UNKNOWN], 1);
    check_stats_sum(t);
    assert_string_equal(child_status_name(CHILD_OPEN), "open");
    assert_string_equal(child_status_name(CHILD_VISITED), "visited");
    assert_string_equal(child_status_name(CHILD_DIVERGED), "diverged");
    assert_string_equal(child_status_name(CHILD_IGNORED), "ignored");
    tree_free(t);
    tree_free(NULL);
}

/* A 100k-event path: insert and path condition work without recursion; the scratch path
 * buffer grows; a later short insert reuses the site table. */
static void test_long_path(void **state)
{
    world *w = *state;
    enum { N = 100000 };
    tree *t = tree_new(0, 0);
    sym_event *e = malloc(N * sizeof *e);
    for (uint32_t i = 0; i < N; i++) e[i] = ev(BK_BRANCH, i & 1, i % 1000, 0, (i % 3) ? w->c1 : w->c2);
    tree_insert_result res;
    assert_int_equal(tree_insert(t, e, N, w->in, NULL, 0, NULL, NULL, &res), 0);
    assert_int_equal(res.npath, N);
    tree_node *last = res.path[N - 1];
    assert_int_equal(last->depth, N - 1);
    assert_int_equal(last->site_count, N / 1000);
    expr **pc = NULL;
    assert_int_equal(tree_path_condition(last, 0, w->cx, &pc), N);
    assert_ptr_equal(pc[0], expr_not(w->cx, w->c2));     /* event 0: taken 0, cond c2 */
    assert_ptr_equal(pc[1], w->c1);                      /* event 1: taken 1, cond c1 */
    assert_ptr_equal(pc[N - 1], expr_not(w->cx, w->c2)); /* target: event N-1 has cond c2 */
    free(pc);
    assert_int_equal(tree_insert(t, e, 5, w->in, NULL, 0, NULL, NULL, &res), 0);
    assert_int_equal(res.path[4]->site_count, 1);
    tree_stats st;
    tree_get_stats(t, &st);
    assert_int_equal(st.nodes, N);
    assert_int_equal(st.max_depth, N - 1);
    free(e);
    tree_free(t);
}

/* An empty run inserts nothing; aimed at the root, it is a divergence at depth 0. */
static void test_empty_run(void **state)
{
    world *w = *state;
    tree *t = tree_new(0, 0);
    tree_insert_result res;
    assert_int_equal(tree_insert(t, NULL, 0, w->in, NULL, 0, NULL, NULL, &res), 0);
    assert_int_equal(res.npath, 0);
    sym_event e[1] = {ev(BK_BRANCH, 1, 1, 0, w->c1)};
    assert_int_equal(tree_insert(t, e, 1, w->in, NULL, 0, NULL, NULL, &res), 0);
    tree_node *root = res.path[0];
    tree_set_status(t, root, 0, CHILD_PENDING);
    assert_int_equal(tree_insert(t, NULL, 0, w->in, root, 0, NULL, NULL, &res), 0);
    assert_true(res.diverged);
    assert_int_equal(res.diverged_at, 0);
    assert_int_equal(root->status[0], CHILD_DIVERGED);
    tree_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_insert_predict_diverge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mismatch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(test_site_count_interleaved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_max_depth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kinds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_status_and_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_run, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
