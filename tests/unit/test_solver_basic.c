/* test_solver_basic.c: unit tests of the solver's answers, output vectors, independence, caches and timeouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "expr/expr.h"
#include "solver/solver.h"
#include "util/util.h"

typedef struct fixture {
    expr_ctx *cx;
    solver *s;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->cx = expr_ctx_new();
    f->s = solver_new(10000);
    if (!f->cx || !f->s) return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    solver_free(f->s);
    expr_ctx_free(f->cx);
    free(f);
    return 0;
}

static solver_stats stats(solver *s)
{
    solver_stats st;
    solver_get_stats(s, &st);
    return st;
}

static expr *k(fixture *f, uint64_t v, unsigned w) { return expr_const(f->cx, v, w); }
static expr *sym(fixture *f, uint32_t i, unsigned w) { return expr_symbol(f->cx, i, w, 0); }
static expr *bin(fixture *f, expr_op op, expr *a, expr *b) { return expr_binary(f->cx, op, a, b); }
static expr *cmp(fixture *f, expr_pred p, expr *a, expr *b) { return expr_cmp(f->cx, p, a, b); }

static void test_mul_const(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32);
    expr *t = cmp(f, PRED_EQ, bin(f, EXPR_MUL, x, k(f, 3, 32)), k(f, 42, 32));
    uint64_t parent[1] = {0};
    uint64_t *out = NULL;
    size_t on = 0;
    assert_int_equal(solver_solve(f->s, &t, 1, parent, 1, &out, &on), SOLVE_SAT);
    assert_non_null(out);
    assert_int_equal(on, 1);
    assert_int_equal((uint32_t)(out[0] * 3), 42);
    assert_int_equal(expr_eval(t, out, on), 1);
    assert_true(out[0] <= 0xffffffffu);
    free(out);
    solver_stats st = stats(f->s);
    assert_int_equal(st.queries, 1);
    assert_int_equal(st.sat, 1);
    assert_int_equal(st.z3_calls, 1);
    assert_true(st.seconds >= st.z3_seconds);
}

static void test_magic_xor(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32);
    expr *t = cmp(f, PRED_EQ, bin(f, EXPR_XOR, x, k(f, 0xdeadbeef, 32)), k(f, 0x12345678, 32));
    uint64_t *out = NULL;
    size_t on = 0;
    assert_int_equal(solver_solve(f->s, &t, 1, NULL, 0, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 1);
    assert_int_equal(out[0], 0xdeadbeefu ^ 0x12345678u);
    free(out);
}

static void test_nested_unsat(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32);
    expr *cs[2] = {cmp(f, PRED_SGT, x, k(f, 5, 32)), cmp(f, PRED_SLT, x, k(f, 3, 32))};
    uint64_t parent[1] = {7};
    uint64_t *out = (uint64_t *)1;
    size_t on = 99;
    assert_int_equal(solver_solve(f->s, cs, 2, parent, 1, &out, &on), SOLVE_UNSAT);
    assert_null(out);
    assert_int_equal(on, 0);
    solver_stats st = stats(f->s);
    assert_int_equal(st.unsat, 1);
    assert_int_equal(st.z3_calls, 1);
    assert_int_equal(st.syntactic_unsat, 0);
}

static void test_syntactic_unsat(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32), *y = sym(f, 1, 32);
    expr *c = cmp(f, PRED_EQ, x, k(f, 7, 32));
    uint64_t parent[2] = {7, 0};
    uint64_t *out = NULL;
    size_t on = 0;
    expr *q1[3] = {cmp(f, PRED_ULT, y, k(f, 9, 32)), c, expr_not(f->cx, c)};
    assert_int_equal(solver_solve(f->s, q1, 3, parent, 2, &out, &on), SOLVE_UNSAT);
    solver_stats st = stats(f->s);
    assert_int_equal(st.syntactic_unsat, 1);
    assert_int_equal(st.z3_calls, 0);
    /* the reverse: prefix holds NOT(c), target is c */
    expr *q2[2] = {expr_not(f->cx, c), c};
    assert_int_equal(solver_solve(f->s, q2, 2, parent, 2, &out, &on), SOLVE_UNSAT);
    /* constant-false target */
    expr *q3[2] = {c, k(f, 0, 1)};
    assert_int_equal(solver_solve(f->s, q3, 2, parent, 2, &out, &on), SOLVE_UNSAT);
    st = stats(f->s);
    assert_int_equal(st.syntactic_unsat, 3);
    assert_int_equal(st.z3_calls, 0);
    assert_int_equal(st.unsat, 3);
    assert_int_equal(st.queries, 3);
    assert_null(out);
}

static void test_independence(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32), *y = sym(f, 1, 32);
    expr *cs[2] = {cmp(f, PRED_EQ, y, k(f, 9, 32)), cmp(f, PRED_EQ, x, k(f, 4, 32))};
    uint64_t parent[2] = {1, 2}; /* y = 2 violates the dropped constraint: proof it was dropped */
    uint64_t *out = NULL;
    size_t on = 0;
    assert_int_equal(solver_solve(f->s, cs, 2, parent, 2, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 2);
    assert_int_equal(out[0], 4);
    assert_int_equal(out[1], 2);
    free(out);
    solver_stats st = stats(f->s);
    assert_int_equal(st.constraints_in, 2);
    assert_int_equal(st.constraints_kept, 1);
}

static void test_independence_transitive(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32), *y = sym(f, 1, 32), *z = sym(f, 2, 32);
    /* x is linked to y through x + y == 20, and y is pinned; z is unrelated */
    expr *cs[5] = {
        cmp(f, PRED_EQ, y, k(f, 9, 32)),
        cmp(f, PRED_EQ, z, k(f, 5, 32)),
        cmp(f, PRED_EQ, bin(f, EXPR_ADD, x, y), k(f, 20, 32)),
        cmp(f, PRED_EQ, y, k(f, 9, 32)), /* duplicate */
        cmp(f, PRED_ULT, x, k(f, 100, 32)),
    };
    uint64_t parent[3] = {11, 9, 77};
    uint64_t *out = NULL;
    size_t on = 0;
    assert_int_equal(solver_solve(f->s, cs, 5, parent, 3, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 3);
    assert_int_equal(out[0], 11);
    assert_int_equal(out[1], 9);
    assert_int_equal(out[2], 77);
    free(out);
    solver_stats st = stats(f->s);
    assert_int_equal(st.constraints_in, 5);
    assert_int_equal(st.constraints_kept, 3);
}

static void test_exact_cache(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 16);
    expr *cs[2] = {cmp(f, PRED_UGT, x, k(f, 1000, 16)),
                   cmp(f, PRED_EQ, bin(f, EXPR_UREM, x, k(f, 77, 16)), k(f, 3, 16))};
    uint64_t parent[1] = {2000};
    uint64_t *o1 = NULL, *o2 = NULL;
    size_t n1 = 0, n2 = 0;
    assert_int_equal(solver_solve(f->s, cs, 2, parent, 1, &o1, &n1), SOLVE_SAT);
    solver_stats a = stats(f->s);
    assert_int_equal(a.z3_calls, 1);
    assert_int_equal(a.cache_hits, 0);
    assert_int_equal(solver_solve(f->s, cs, 2, parent, 1, &o2, &n2), SOLVE_SAT);
    solver_stats b = stats(f->s);
    assert_int_equal(b.z3_calls, 1);
    assert_int_equal(b.cache_hits, 1);
    assert_int_equal(n1, n2);
    assert_int_equal(o1[0], o2[0]);
    assert_int_equal(expr_eval(cs[0], o2, n2), 1);
    assert_int_equal(expr_eval(cs[1], o2, n2), 1);
    free(o1);
    free(o2);
    /* an UNSAT answer is cached too */
    expr *u[2] = {cmp(f, PRED_ULT, x, k(f, 10, 16)), cmp(f, PRED_UGT, x, k(f, 20, 16))};
    uint64_t *o = NULL;
    size_t n = 0;
    assert_int_equal(solver_solve(f->s, u, 2, parent, 1, &o, &n), SOLVE_UNSAT);
    assert_int_equal(solver_solve(f->s, u, 2, parent, 1, &o, &n), SOLVE_UNSAT);
    solver_stats c = stats(f->s);
    assert_int_equal(c.z3_calls, 2);
    assert_int_equal(c.cache_hits, 2);
}

static void test_unsat_subset(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32), *y = sym(f, 1, 32);
    expr *gt5 = cmp(f, PRED_SGT, x, k(f, 5, 32)), *lt3 = cmp(f, PRED_SLT, x, k(f, 3, 32));
    expr *q1[2] = {gt5, lt3};
    uint64_t parent[2] = {6, 0};
    uint64_t *out = NULL;
    size_t on = 0;
    assert_int_equal(solver_solve(f->s, q1, 2, parent, 2, &out, &on), SOLVE_UNSAT);
    assert_int_equal(stats(f->s).z3_calls, 1);
    /* superset: one more related constraint (x != 100), one unrelated (y == 2) */
    expr *q2[4] = {cmp(f, PRED_EQ, y, k(f, 2, 32)), cmp(f, PRED_NE, x, k(f, 100, 32)), gt5, lt3};
    assert_int_equal(solver_solve(f->s, q2, 4, parent, 2, &out, &on), SOLVE_UNSAT);
    solver_stats st = stats(f->s);
    assert_int_equal(st.z3_calls, 1);
    assert_int_equal(st.unsat_subset_hits, 1);
    assert_int_equal(st.cache_hits, 0);
    assert_int_equal(st.unsat, 2);
    /* a set that does not contain the core goes to Z3 */
    expr *q3[2] = {cmp(f, PRED_NE, x, k(f, 100, 32)), lt3};
    assert_int_equal(solver_solve(f->s, q3, 2, parent, 2, &out, &on), SOLVE_SAT);
    assert_true((int32_t)out[0] < 3 && out[0] != 100);
    free(out);
    assert_int_equal(stats(f->s).z3_calls, 2);
}

static void test_counterexample_reuse(void **state)
{
    fixture *f = *state;
    expr *x = sym(f, 0, 32);
    expr *t1 = cmp(f, PRED_UGT, x, k(f, 10, 32)), *t2 = cmp(f, PRED_UGT, x, k(f, 5, 32));
    uint64_t parent[1] = {0};
    uint64_t *o = NULL;
    size_t n = 0;
    assert_int_equal(solver_solve(f->s, &t1, 1, parent, 1, &o, &n), SOLVE_SAT);
    uint64_t first = o[0];
    free(o);
    assert_int_equal(solver_solve(f->s, &t2, 1, parent, 1, &o, &n), SOLVE_SAT);
    assert_int_equal(o[0], first); /* the model of t1 also satisfies t2 */
    free(o);
    solver_stats st = stats(f->s);
    assert_int_equal(st.z3_calls, 1);
    assert_int_equal(st.cache_hits, 1);
}

static void test_output_vector(void **state)
{
    fixture *f = *state;
    uint64_t *out = NULL;
    size_t on = 0;
    /* target on symbol 3 with a 1-value parent: length 4, zeros in the gap */
    expr *t = cmp(f, PRED_EQ, sym(f, 3, 8), k(f, 0xab, 8));
    uint64_t p1[1] = {55};
    assert_int_equal(solver_solve(f->s, &t, 1, p1, 1, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 4);
    assert_int_equal(out[0], 55);
    assert_int_equal(out[1], 0);
    assert_int_equal(out[2], 0);
    assert_int_equal(out[3], 0xab);
    free(out);
    /* a longer parent keeps its length and its values outside the kept symbols */
    expr *t2 = cmp(f, PRED_EQ, sym(f, 2, 8), k(f, 0x11, 8));
    uint64_t p2[6] = {1, 2, 3, 4, 5, 6};
    assert_int_equal(solver_solve(f->s, &t2, 1, p2, 6, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 6);
    uint64_t want[6] = {1, 2, 0x11, 4, 5, 6};
    for (int i = 0; i < 6; i++) assert_int_equal(out[i], want[i]);
    free(out);
    /* model values are masked to the symbol's width */
    expr *s8 = sym(f, 0, 8);
    expr *t3 = cmp(f, PRED_SLT, s8, k(f, 0, 8));
    uint64_t p3[1] = {0};
    assert_int_equal(solver_solve(f->s, &t3, 1, p3, 1, &out, &on), SOLVE_SAT);
    assert_true(out[0] >= 0x80 && out[0] <= 0xff);
    free(out);
}

static void test_ground_target(void **state)
{
    fixture *f = *state;
    uint64_t *out = NULL;
    size_t on = 0;
    expr *x = sym(f, 0, 8);
    expr *cs[2] = {cmp(f, PRED_EQ, x, k(f, 3, 8)), k(f, 1, 1)};
    uint64_t p[2] = {3, 4};
    assert_int_equal(solver_solve(f->s, cs, 2, p, 2, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 2);
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], 4);
    free(out);
    assert_int_equal(stats(f->s).z3_calls, 0);
}

static void test_deep_expression(void **state)
{
    fixture *f = *state;
    /* rotate-and-xor 1200 times (depth > 3000, beyond DEEP_QUERY): deep queries go to Z3
     * on a big stack. Bit-blasted, it is wiring and xors with constants, so the SAT search
     * is pure propagation and the test stays fast. */
    expr *x = sym(f, 0, 32), *e = x;
    for (int i = 0; i < 1200; i++) {
        expr *rot = bin(f, EXPR_OR, bin(f, EXPR_SHL, e, k(f, 1, 32)), bin(f, EXPR_LSHR, e, k(f, 31, 32)));
        e = bin(f, EXPR_XOR, rot, k(f, (uint64_t)(i + 1) * 2654435761u, 32));
    }
    assert_true(e->depth > 3000 && e->depth <= 4000);
    expr *t = cmp(f, PRED_EQ, e, k(f, 0x5eed, 32));
    uint64_t p[1] = {0};
    uint64_t *out = NULL;
    size_t on = 0;
    assert_int_equal(solver_solve(f->s, &t, 1, p, 1, &out, &on), SOLVE_SAT);
    assert_int_equal(expr_eval(t, out, on), 1);
    free(out);
}

/* A hard query: factor the product of two 31-bit primes (x, y > 1). Fills cs[3]. */
static void semiprime_query(expr_ctx *cx, expr *cs[3])
{
    expr *x = expr_zext(cx, expr_symbol(cx, 0, 32, 0), 64), *y = expr_zext(cx, expr_symbol(cx, 1, 32, 0), 64);
    expr *one = expr_const(cx, 1, 64);
    cs[0] = expr_cmp(cx, PRED_UGT, x, one);
    cs[1] = expr_cmp(cx, PRED_UGT, y, one);
    cs[2] = expr_cmp(cx, PRED_EQ, expr_binary(cx, EXPR_MUL, x, y), expr_const(cx, 2147483647ull * 2147483629ull, 64));
}

/* solver_set_timeout lowers the limit of the next queries (the explorer's budget): without
 * it this query runs for about 26 s here. */
static void test_lowered_timeout(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(60000);
    assert_non_null(s);
    solver_set_timeout(s, 100);
    expr *cs[3];
    semiprime_query(cx, cs);
    uint64_t *out = NULL;
    size_t n = 0;
    double t0 = util_now_s();
    solve_result r = solver_solve(s, cs, 3, NULL, 0, &out, &n);
    double dt = util_now_s() - t0;
    free(out);
    assert_true(r == SOLVE_UNKNOWN || r == SOLVE_SAT);
    assert_true(dt < 5.0);
    solver_free(s);
    expr_ctx_free(cx);
}

static void test_timeout(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(1);
    assert_non_null(s);
    /* hopeless in 1 ms */
    expr *cs[3];
    semiprime_query(cx, cs);
    uint64_t p[2] = {2, 3};
    uint64_t *out = NULL;
    size_t on = 0;
    solve_result r = solver_solve(s, cs, 3, p, 2, &out, &on);
    assert_true(r == SOLVE_UNKNOWN || r == SOLVE_SAT);
    solver_stats st;
    solver_get_stats(s, &st);
    if (r == SOLVE_UNKNOWN) {
        assert_null(out);
        assert_int_equal(st.unknown, 1);
        assert_int_equal(st.z3_timeouts, 1);
    } else {
        for (int i = 0; i < 3; i++) assert_int_equal(expr_eval(cs[i], out, on), 1);
        free(out);
    }
    /* the solver stays usable after a timeout, and unknown answers are not cached;
     * the limit is raised first: 1 ms is too short for any query on a loaded
     * machine under AddressSanitizer */
    solver_set_timeout(s, 10000);
    expr *t = expr_cmp(cx, PRED_EQ, expr_symbol(cx, 0, 32, 0), expr_const(cx, 5, 32));
    assert_int_equal(solver_solve(s, &t, 1, p, 2, &out, &on), SOLVE_SAT);
    assert_int_equal(out[0], 5);
    free(out);
    solver_free(s);
    expr_ctx_free(cx);
}

static void test_empty_and_free_null(void **state)
{
    fixture *f = *state;
    uint64_t p[2] = {8, 9};
    uint64_t *out = NULL;
    size_t on = 0;
    assert_int_equal(solver_solve(f->s, NULL, 0, p, 2, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 2);
    assert_int_equal(out[1], 9);
    free(out);
    solver_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mul_const, setup, teardown),
        cmocka_unit_test_setup_teardown(test_magic_xor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_unsat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_syntactic_unsat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_independence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_independence_transitive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exact_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsat_subset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_counterexample_reuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_output_vector, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ground_target, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_expression, setup, teardown),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_lowered_timeout),
        cmocka_unit_test_setup_teardown(test_empty_and_free_null, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
