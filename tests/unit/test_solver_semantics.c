/* test_solver_semantics.c: differential tests — the Z3 translation of every operator must agree with expr_eval. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "expr/expr.h"
#include "solver/solver.h"

/* Deterministic generator (splitmix64) so that a failure reproduces. */
static uint64_t rng_state = 0x5eed5eed12345678ull;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const unsigned widths[] = {1, 2, 8, 16, 32, 64};

/* An interesting value of width w: edge cases (0, 1, -1, INT_MIN, INT_MAX) or random. */
static uint64_t pick_value(unsigned w)
{
    uint64_t m = expr_mask(w);
    switch (rnd() % 7) {
    case 0: return 0;
    case 1: return 1 & m;
    case 2: return m;
    case 3: return (1ull << (w - 1)) & m;
    case 4: return ((1ull << (w - 1)) - 1) & m;
    case 5: return rnd() % 8 & m;
    default: return rnd() & m;
    }
}

/* A random expression of one operator over x (symbol 0) and either y (symbol 1) or a
 * constant, in a random operand order. Sets *hard for operators whose inversion may be
 * slow for Z3 at large widths. */
static expr *random_expr(expr_ctx *cx, unsigned w, bool *hard, int *opcode)
{
    expr *x = expr_symbol(cx, 0, w, 0);
    expr *y = (rnd() & 1) ? expr_symbol(cx, 1, w, 0) : expr_const(cx, pick_value(w), w);
    if (rnd() % 4 == 0) {
        expr *t = x;
        x = y;
        y = t;
    }
    if (x->op == EXPR_CONST && y->op == EXPR_CONST) x = expr_symbol(cx, 0, w, 0);
    int op = (int)(rnd() % 28);
    *opcode = op;
    *hard = false;
    if (op <= 12) { /* EXPR_ADD .. EXPR_XOR */
        expr_op o = (expr_op)(EXPR_ADD + op);
        *hard = o == EXPR_MUL || (o >= EXPR_UDIV && o <= EXPR_SREM);
        return expr_binary(cx, o, x, y);
    }
    switch (op) {
    case 13: return expr_not(cx, x);
    case 14: return expr_cmp(cx, (expr_pred)(rnd() % 10), x, y);
    case 15:
    case 16:
    case 17:
    case 18:
    case 19:
    case 20: *hard = op >= 19; return expr_binary(cx, (expr_op)(EXPR_UADDO + (op - 15)), x, y);
    case 21: return w < 64 ? expr_zext(cx, x, w + (unsigned)(rnd() % (64 - w)) + 1) : x;
    case 22: return w < 64 ? expr_sext(cx, x, w + (unsigned)(rnd() % (64 - w)) + 1) : x;
    case 23: {
        unsigned lo = (unsigned)(rnd() % w);
        unsigned len = 1 + (unsigned)(rnd() % (w - lo));
        return expr_extract(cx, x, lo, len);
    }
    case 24: return w <= 32 ? expr_concat(cx, x, y) : x;
    case 25: {
        expr *c = expr_cmp(cx, PRED_ULT, x, y);
        return expr_ite(cx, c, expr_binary(cx, EXPR_SUB, x, y), expr_binary(cx, EXPR_XOR, x, y));
    }
    case 26: return expr_binary(cx, EXPR_SDIV, x, expr_binary(cx, EXPR_OR, y, expr_const(cx, rnd() % 2, w)));
    default:
        return expr_binary(
            cx, EXPR_ASHR, x,
            expr_binary(cx, EXPR_AND, y, expr_const(cx, 2 * w - 1 > expr_mask(w) ? expr_mask(w) : 2 * w - 1, w)));
    }
}

/* For each random expression e and random inputs v: (1) with the inputs pinned to v,
 * "e != eval(e, v)" must be UNSAT — Z3 computes exactly what expr_eval computes; (2)
 * "e == eval(e, v)" from other parent inputs must be SAT, with a model that expr_eval
 * confirms. */
static void test_differential(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(20000);
    assert_non_null(s);
    int checked = 0;
    for (int it = 0; it < 400; it++) {
        unsigned w = widths[rnd() % (sizeof widths / sizeof widths[0])];
        bool hard;
        int opcode;
        expr *e = random_expr(cx, w, &hard, &opcode);
        uint64_t v[2] = {pick_value(w), pick_value(w)};
        uint64_t val = expr_eval(e, v, 2);
        expr *eqv = expr_cmp(cx, PRED_EQ, e, expr_const(cx, val, e->width));
        /* (1) pinned */
        expr *pin[3] = {expr_cmp(cx, PRED_EQ, expr_symbol(cx, 0, w, 0), expr_const(cx, v[0], w)),
                        expr_cmp(cx, PRED_EQ, expr_symbol(cx, 1, w, 0), expr_const(cx, v[1], w)), expr_not(cx, eqv)};
        uint64_t *out = NULL;
        size_t on = 0;
        solve_result r = solver_solve(s, pin, 3, v, 2, &out, &on);
        if (r != SOLVE_UNSAT) {
            fprintf(stderr, "it %d op %d width %u x=%#llx y=%#llx value %#llx: ", it, opcode, w,
                    (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)val);
            expr_print(stderr, e, 20);
            fprintf(stderr, "\n");
        }
        assert_int_equal(r, SOLVE_UNSAT);
        /* (2) find */
        if (hard && w > 32) continue;
        uint64_t parent[2] = {rnd() & expr_mask(w), rnd() & expr_mask(w)};
        r = solver_solve(s, &eqv, 1, parent, 2, &out, &on);
        assert_int_equal(r, SOLVE_SAT);
        assert_true(on >= 2);
        assert_int_equal(expr_eval(eqv, out, on), 1);
        free(out);
        checked++;
    }
    assert_true(checked > 200);
    solver_stats st;
    solver_get_stats(s, &st);
    assert_int_equal(st.unknown, 0);
    assert_true(st.z3_calls > 100);
    solver_free(s);
    expr_ctx_free(cx);
}

/* Exhaustive check of the six overflow flags at width 4 against expr_eval. */
static void test_overflow_exhaustive(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(20000);
    expr *x = expr_symbol(cx, 0, 4, 0), *y = expr_symbol(cx, 1, 4, 0);
    for (int op = EXPR_UADDO; op <= EXPR_SMULO; op++) {
        expr *f = expr_binary(cx, (expr_op)op, x, y);
        for (uint64_t a = 0; a < 16; a++)
            for (uint64_t b = 0; b < 16; b++) {
                uint64_t v[2] = {a, b};
                uint64_t want = expr_eval(f, v, 2);
                expr *cs[3] = {expr_cmp(cx, PRED_EQ, x, expr_const(cx, a, 4)),
                               expr_cmp(cx, PRED_EQ, y, expr_const(cx, b, 4)), want ? f : expr_not(cx, f)};
                uint64_t *out = NULL;
                size_t on = 0;
                assert_int_equal(solver_solve(s, cs, 3, v, 2, &out, &on), SOLVE_SAT);
                free(out);
            }
    }
    solver_free(s);
    expr_ctx_free(cx);
}

/* A symbol seen at two widths: both become variables, the output takes the widest. */
static void test_two_widths(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(0);
    expr *x8 = expr_symbol(cx, 0, 8, 0), *x32 = expr_symbol(cx, 0, 32, 0);
    expr *cs[2] = {expr_cmp(cx, PRED_ULT, x8, expr_const(cx, 200, 8)),
                   expr_cmp(cx, PRED_EQ, x32, expr_const(cx, 0x12345, 32))};
    uint64_t *out = NULL;
    size_t on = 0;
    uint64_t p[1] = {0};
    assert_int_equal(solver_solve(s, cs, 2, p, 1, &out, &on), SOLVE_SAT);
    assert_int_equal(on, 1);
    assert_int_equal(out[0], 0x12345);
    free(out);
    solver_free(s);
    expr_ctx_free(cx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_differential),
        cmocka_unit_test(test_overflow_exhaustive),
        cmocka_unit_test(test_two_widths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
