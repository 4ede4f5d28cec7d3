/* test_expr_builder.c: hash-consing, canonical comparisons, simplification rules, expr_raw validation, printing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "expr_test_util.h"

#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"

static int setup(void **state)
{
    *state = expr_ctx_new();
    return *state ? 0 : -1;
}
static int teardown(void **state)
{
    expr_ctx_free(*state);
    return 0;
}

static void test_hash_consing(void **state)
{
    expr_ctx *cx = *state;
    expr *x = expr_symbol(cx, 0, 32, 7);
    expr *y = expr_symbol(cx, 1, 32, 9);
    assert_ptr_equal(x, expr_symbol(cx, 0, 32, 12345)); /* keyed by (index, width) */
    assert_int_equal(x->value, 7);                      /* value of the first creation */
    assert_ptr_not_equal(x, expr_symbol(cx, 0, 16, 7));
    assert_ptr_equal(expr_const(cx, 5, 32), expr_const(cx, 5, 32));
    assert_ptr_equal(expr_const(cx, 0x105, 8), expr_const(cx, 5, 8)); /* masked */
    assert_ptr_not_equal(expr_const(cx, 5, 32), expr_const(cx, 5, 16));
    assert_ptr_not_equal(expr_const(cx, 5, 32), expr_const(cx, 6, 32));
    expr *s1 = expr_binary(cx, EXPR_ADD, x, y);
    expr *s2 = expr_binary(cx, EXPR_ADD, x, y);
    assert_ptr_equal(s1, s2);
    assert_int_equal(s1->op, EXPR_ADD);
    assert_int_equal(s1->value, 16);
    assert_int_equal(s1->depth, 2);
    assert_ptr_not_equal(s1, expr_binary(cx, EXPR_SUB, x, y));
    assert_ptr_equal(expr_extract(cx, s1, 8, 8), expr_extract(cx, s1, 8, 8));
    assert_ptr_not_equal(expr_extract(cx, s1, 8, 8), expr_extract(cx, s1, 0, 8));
    /* ids are dense and expr_by_id inverts them */
    size_t n = expr_ctx_count(cx);
    assert_true(n >= 5);
    for (uint32_t id = 1; id <= n; id++) assert_int_equal(expr_by_id(cx, id)->id, id);
    assert_null(expr_by_id(cx, 0));
    assert_null(expr_by_id(cx, (uint32_t)n + 1));
    assert_ptr_equal(expr_by_id(cx, s1->id), s1);
    /* many nodes: table growth keeps identity */
    expr *prev[5000];
    for (int i = 0; i < 5000; i++) prev[i] = expr_binary(cx, EXPR_MUL, x, expr_const(cx, (uint64_t)i + 2, 32));
    for (int i = 0; i < 5000; i++)
        assert_ptr_equal(prev[i], expr_binary(cx, EXPR_MUL, x, expr_const(cx, (uint64_t)i + 2, 32)));
    assert_ptr_equal(s1, expr_binary(cx, EXPR_ADD, x, y));
}

static const expr_pred negation[10] = {
    [PRED_EQ] = PRED_NE,   [PRED_NE] = PRED_EQ,   [PRED_UGT] = PRED_ULE, [PRED_ULE] = PRED_UGT, [PRED_UGE] = PRED_ULT,
    [PRED_ULT] = PRED_UGE, [PRED_SGT] = PRED_SLE, [PRED_SLE] = PRED_SGT, [PRED_SGE] = PRED_SLT, [PRED_SLT] = PRED_SGE,
};

static void test_canonical_comparisons(void **state)
{
    expr_ctx *cx = *state;
    static const unsigned widths[] = {1, 8, 32, 64};
    for (unsigned wi = 0; wi < 4; wi++) {
        unsigned w = widths[wi];
        uint64_t m = expr_mask(w);
        uint64_t vals[] = {0, 1, 2, m, m - 1, m >> 1, (m >> 1) + 1, 0x5a & m};
        size_t nv = sizeof vals / sizeof vals[0];
        expr *x = expr_symbol(cx, 10 + wi * 2, w, 0);
        expr *y = expr_symbol(cx, 11 + wi * 2, w, 0);
        for (int p = PRED_EQ; p <= PRED_SLE; p++) {
            expr *c = expr_cmp(cx, (expr_pred)p, x, y);
            assert_int_equal(c->width, 1);
            /* only EQ/ULT/SLT nodes, possibly under one NOT */
            expr *core = c->op == EXPR_NOT ? c->kid[0] : c;
            assert_true(core->op == EXPR_EQ || core->op == EXPR_ULT || core->op == EXPR_SLT);
            /* negation is pointer-related */
            assert_ptr_equal(expr_cmp(cx, negation[p], x, y), expr_not(cx, c));
            assert_ptr_equal(expr_not(cx, expr_not(cx, c)), c);
            for (size_t i = 0; i < nv; i++)
                for (size_t j = 0; j < nv; j++) {
                    uint64_t a = vals[i] & m, b = vals[j] & m;
                    uint64_t in[20] = {0};
                    in[10 + wi * 2] = a;
                    in[11 + wi * 2] = b;
                    assert_int_equal(expr_eval(c, in, 20), pred_ref((expr_pred)p, a, b, w));
                    /* with constants, the predicate folds to the same truth value */
                    expr *k = expr_cmp(cx, (expr_pred)p, expr_const(cx, a, w), expr_const(cx, b, w));
                    assert_int_equal(k->op, EXPR_CONST);
                    assert_int_equal(k->value, pred_ref((expr_pred)p, a, b, w));
                    /* with one constant side, it still evaluates right */
                    expr *h = expr_cmp(cx, (expr_pred)p, x, expr_const(cx, b, w));
                    assert_int_equal(expr_eval(h, in, 20), pred_ref((expr_pred)p, a, b, w));
                    expr *g = expr_cmp(cx, (expr_pred)p, expr_const(cx, a, w), y);
                    assert_int_equal(expr_eval(g, in, 20), pred_ref((expr_pred)p, a, b, w));
                }
        }
        /* the canonical shapes */
        expr *eq = expr_binary(cx, EXPR_EQ, x, y);
        expr *ult = expr_binary(cx, EXPR_ULT, x, y);
        expr *slt = expr_binary(cx, EXPR_SLT, x, y);
        assert_ptr_equal(expr_cmp(cx, PRED_EQ, x, y), eq);
        assert_ptr_equal(expr_cmp(cx, PRED_NE, x, y), expr_not(cx, eq));
        assert_ptr_equal(expr_cmp(cx, PRED_ULT, x, y), ult);
        assert_ptr_equal(expr_cmp(cx, PRED_UGT, y, x), ult);
        assert_ptr_equal(expr_cmp(cx, PRED_UGE, x, y), expr_not(cx, ult));
        assert_ptr_equal(expr_cmp(cx, PRED_ULE, y, x), expr_not(cx, ult));
        assert_ptr_equal(expr_cmp(cx, PRED_SLT, x, y), slt);
        assert_ptr_equal(expr_cmp(cx, PRED_SGT, y, x), slt);
        assert_ptr_equal(expr_cmp(cx, PRED_SGE, x, y), expr_not(cx, slt));
        assert_ptr_equal(expr_cmp(cx, PRED_SLE, y, x), expr_not(cx, slt));
    }
}

static void test_identities(void **state)
{
    expr_ctx *cx = *state;
    expr *x = expr_symbol(cx, 0, 32, 0x12345678);
    expr *z = expr_const(cx, 0, 32), *one = expr_const(cx, 1, 32), *ones = expr_const(cx, 0xffffffff, 32);
    assert_ptr_equal(expr_binary(cx, EXPR_ADD, x, z), x);
    assert_ptr_equal(expr_binary(cx, EXPR_ADD, z, x), x);
    assert_ptr_equal(expr_binary(cx, EXPR_SUB, x, z), x);
    assert_ptr_equal(expr_binary(cx, EXPR_MUL, x, one), x);
    assert_ptr_equal(expr_binary(cx, EXPR_MUL, one, x), x);
    assert_ptr_equal(expr_binary(cx, EXPR_MUL, x, z), z);
    assert_ptr_equal(expr_binary(cx, EXPR_AND, x, z), z);
    assert_ptr_equal(expr_binary(cx, EXPR_AND, x, ones), x);
    assert_ptr_equal(expr_binary(cx, EXPR_OR, x, z), x);
    assert_ptr_equal(expr_binary(cx, EXPR_OR, x, ones), ones);
    assert_ptr_equal(expr_binary(cx, EXPR_XOR, x, z), x);
    assert_ptr_equal(expr_binary(cx, EXPR_XOR, x, x), z);
    assert_ptr_equal(expr_binary(cx, EXPR_SUB, x, x), z);
    assert_ptr_equal(expr_binary(cx, EXPR_AND, x, x), x);
    assert_ptr_equal(expr_binary(cx, EXPR_OR, x, x), x);
    assert_ptr_equal(expr_binary(cx, EXPR_SHL, x, z), x);
    assert_ptr_equal(expr_binary(cx, EXPR_LSHR, x, z), x);
    assert_ptr_equal(expr_binary(cx, EXPR_ASHR, x, z), x);
    assert_ptr_equal(expr_not(cx, expr_not(cx, x)), x);
    assert_ptr_equal(expr_binary(cx, EXPR_EQ, x, x), expr_const(cx, 1, 1));
    assert_ptr_equal(expr_binary(cx, EXPR_ULT, x, x), expr_const(cx, 0, 1));
    assert_ptr_equal(expr_binary(cx, EXPR_SLT, x, x), expr_const(cx, 0, 1));
    /* constant folding */
    expr *k = expr_binary(cx, EXPR_SDIV, expr_const(cx, 0x80000000u, 32), ones);
    assert_int_equal(k->op, EXPR_CONST);
    assert_int_equal(k->value, 0x80000000u);
    assert_ptr_equal(expr_not(cx, expr_const(cx, 0x0f, 8)), expr_const(cx, 0xf0, 8));
    assert_ptr_equal(expr_binary(cx, EXPR_UMULO, expr_const(cx, 16, 8), expr_const(cx, 16, 8)), expr_const(cx, 1, 1));
    /* constant sides are folded in chains: (x + 3) + 5 = x + 8, x - 8 = x + (-8) */
    expr *x3 = expr_binary(cx, EXPR_ADD, x, expr_const(cx, 3, 32));
    expr *x8 = expr_binary(cx, EXPR_ADD, x3, expr_const(cx, 5, 32));
    assert_ptr_equal(x8, expr_binary(cx, EXPR_ADD, x, expr_const(cx, 8, 32)));
    assert_ptr_equal(expr_binary(cx, EXPR_SUB, x8, expr_const(cx, 8, 32)), x);
    assert_int_equal(x8->value, 0x12345680);
    /* width-1 equalities */
    expr *b = expr_symbol(cx, 1, 1, 1);
    assert_ptr_equal(expr_binary(cx, EXPR_EQ, b, expr_const(cx, 1, 1)), b);
    assert_ptr_equal(expr_binary(cx, EXPR_EQ, b, expr_const(cx, 0, 1)), expr_not(cx, b));
    /* clang's bool idioms: icmp ne/eq (zext i1 to i8), const */
    expr *zb = expr_zext(cx, b, 8);
    assert_ptr_equal(expr_binary(cx, EXPR_EQ, zb, expr_const(cx, 0, 8)), expr_not(cx, b));
    assert_ptr_equal(expr_cmp(cx, PRED_NE, zb, expr_const(cx, 0, 8)), b);
    assert_ptr_equal(expr_binary(cx, EXPR_EQ, zb, expr_const(cx, 1, 8)), b);
    assert_ptr_equal(expr_binary(cx, EXPR_EQ, zb, expr_const(cx, 2, 8)), expr_const(cx, 0, 1));
    assert_ptr_equal(expr_binary(cx, EXPR_EQ, expr_const(cx, 0, 8), zb), expr_not(cx, b));
    /* casts */
    expr *c8 = expr_symbol(cx, 2, 8, 0x80);
    assert_ptr_equal(expr_zext(cx, c8, 8), c8);
    assert_ptr_equal(expr_sext(cx, c8, 8), c8);
    assert_ptr_equal(expr_zext(cx, expr_zext(cx, c8, 16), 32), expr_zext(cx, c8, 32));
    assert_ptr_equal(expr_sext(cx, expr_sext(cx, c8, 16), 32), expr_sext(cx, c8, 32));
    assert_int_equal(expr_sext(cx, c8, 32)->value, 0xffffff80u);
    assert_int_equal(expr_zext(cx, c8, 32)->value, 0x80);
    assert_ptr_equal(expr_sext(cx, expr_const(cx, 0x80, 8), 16), expr_const(cx, 0xff80, 16));
    assert_ptr_equal(expr_resize(cx, c8, 32), expr_zext(cx, c8, 32));
    assert_ptr_equal(expr_resize(cx, x, 8), expr_extract(cx, x, 0, 8));
    assert_ptr_equal(expr_resize(cx, x, 32), x);
    /* extracts */
    assert_ptr_equal(expr_extract(cx, x, 0, 32), x);
    assert_ptr_equal(expr_extract(cx, expr_const(cx, 0x12345678, 32), 8, 8), expr_const(cx, 0x56, 8));
    assert_ptr_equal(expr_extract(cx, expr_extract(cx, x, 8, 16), 4, 8), expr_extract(cx, x, 12, 8));
    expr *cc = expr_concat(cx, x, expr_symbol(cx, 3, 16, 0));
    assert_int_equal(cc->op, EXPR_CONCAT);
    assert_ptr_equal(expr_extract(cx, cc, 16, 32), x);
    assert_ptr_equal(expr_extract(cx, cc, 20, 8), expr_extract(cx, x, 4, 8));
    assert_ptr_equal(expr_extract(cx, cc, 0, 16), expr_symbol(cx, 3, 16, 0));
    assert_ptr_equal(expr_extract(cx, expr_zext(cx, c8, 32), 0, 8), c8);
    assert_ptr_equal(expr_extract(cx, expr_sext(cx, c8, 32), 0, 8), c8);
    assert_ptr_equal(expr_extract(cx, expr_sext(cx, c8, 32), 2, 4), expr_extract(cx, c8, 2, 4));
    assert_ptr_equal(expr_extract(cx, expr_zext(cx, c8, 32), 8, 8), expr_const(cx, 0, 8));
    /* truncation of a promoted char addition gives back the 8-bit addition */
    expr *d8 = expr_symbol(cx, 4, 8, 3);
    expr *sum = expr_binary(cx, EXPR_ADD, expr_sext(cx, c8, 32), expr_sext(cx, d8, 32));
    assert_ptr_equal(expr_extract(cx, sum, 0, 8), expr_binary(cx, EXPR_ADD, c8, d8));
    assert_ptr_equal(expr_concat(cx, expr_const(cx, 0x12, 8), expr_const(cx, 0x34, 8)), expr_const(cx, 0x1234, 16));
    /* ite */
    expr *y = expr_symbol(cx, 5, 32, 1);
    assert_ptr_equal(expr_ite(cx, expr_const(cx, 1, 1), x, y), x);
    assert_ptr_equal(expr_ite(cx, expr_const(cx, 0, 1), x, y), y);
    assert_ptr_equal(expr_ite(cx, b, x, x), x);
    assert_ptr_equal(expr_ite(cx, b, expr_const(cx, 1, 1), expr_const(cx, 0, 1)), b);
    assert_ptr_equal(expr_ite(cx, b, expr_const(cx, 0, 1), expr_const(cx, 1, 1)), expr_not(cx, b));
    expr *it = expr_ite(cx, b, x, y);
    assert_int_equal(it->op, EXPR_ITE);
    assert_int_equal(it->value, x->value);
    assert_ptr_equal(expr_ite(cx, expr_not(cx, b), y, x), it);
    /* and1 */
    expr *t = expr_const(cx, 1, 1), *f = expr_const(cx, 0, 1);
    assert_ptr_equal(expr_and1(cx, b, t), b);
    assert_ptr_equal(expr_and1(cx, t, b), b);
    assert_ptr_equal(expr_and1(cx, b, f), f);
    assert_ptr_equal(expr_and1(cx, f, b), f);
    assert_ptr_equal(expr_and1(cx, t, t), t);
    assert_ptr_equal(expr_and1(cx, b, b), b);
    assert_ptr_equal(expr_and1(cx, b, expr_not(cx, b)), f);
    expr *a1 = expr_and1(cx, b, expr_binary(cx, EXPR_EQ, x, y));
    assert_int_equal(a1->op, EXPR_AND);
    assert_int_equal(a1->value, 0);
}

/* Bytes of v, rebuilt as a load from byte shadows would, must give v back. */
static void test_byte_reassembly(void **state)
{
    expr_ctx *cx = *state;
    static const unsigned widths[] = {16, 32, 64};
    for (unsigned wi = 0; wi < 3; wi++) {
        unsigned w = widths[wi], nb = w / 8;
        expr *v = expr_binary(cx, EXPR_MUL, expr_symbol(cx, 20 + wi, w, 0x0123456789abcdefull),
                              expr_symbol(cx, 30 + wi, w, 3));
        expr *bytes[8] = {0};
        for (unsigned i = 0; i < nb; i++) bytes[i] = expr_extract(cx, v, 8 * i, 8);
        /* right-associated: b_{n-1} : (b_{n-2} : (... : b0)) */
        expr *r = bytes[0];
        for (unsigned i = 1; i < nb; i++) r = expr_concat(cx, bytes[i], r);
        assert_ptr_equal(r, v);
        /* left-associated: ((b_{n-1} : b_{n-2}) : ...) : b0 */
        expr *l = bytes[nb - 1];
        for (unsigned i = nb - 1; i-- > 0;) l = expr_concat(cx, l, bytes[i]);
        assert_ptr_equal(l, v);
        /* top half then low half */
        expr *hi = expr_extract(cx, v, w / 2, w / 2), *lo = expr_extract(cx, v, 0, w / 2);
        assert_ptr_equal(expr_concat(cx, hi, lo), v);
        /* a foreign low byte blocks the full merge, but the upper bytes still merge */
        expr *other = expr_symbol(cx, 40, 8, 0);
        expr *m = other;
        for (unsigned i = 1; i < nb; i++) m = expr_concat(cx, bytes[i], m);
        assert_int_equal(m->op, EXPR_CONCAT);
        assert_ptr_equal(m->kid[0], expr_extract(cx, v, 8, w - 8));
        assert_ptr_equal(m->kid[1], other);
        /* and the same with a foreign top byte, built left-associated */
        expr *n = other;
        for (unsigned i = nb - 1; i-- > 0;) n = expr_concat(cx, n, bytes[i]);
        assert_int_equal(n->op, EXPR_CONCAT);
        assert_ptr_equal(n->kid[0], other);
        assert_ptr_equal(n->kid[1], expr_extract(cx, v, 0, w - 8));
        /* mixed association: b3 : ((b2 : b1) : b0) */
        if (w == 32) {
            expr *mid = expr_concat(cx, expr_concat(cx, bytes[2], bytes[1]), bytes[0]);
            assert_ptr_equal(expr_concat(cx, bytes[3], mid), v);
        }
    }
    /* the merge of b3 : (b2 : rest) with an unmergeable rest */
    expr *v = expr_symbol(cx, 50, 32, 0xdeadbeef);
    expr *rest = expr_symbol(cx, 51, 8, 0x11);
    expr *inner = expr_concat(cx, expr_extract(cx, v, 16, 8), rest);
    expr *outer = expr_concat(cx, expr_extract(cx, v, 24, 8), inner);
    assert_ptr_equal(outer->kid[0], expr_extract(cx, v, 16, 16));
    assert_ptr_equal(outer->kid[1], rest);
    assert_int_equal(outer->value, 0xdead11);
    /* (rest : b1) : b0 */
    expr *inner2 = expr_concat(cx, rest, expr_extract(cx, v, 8, 8));
    expr *outer2 = expr_concat(cx, inner2, expr_extract(cx, v, 0, 8));
    assert_ptr_equal(outer2->kid[0], rest);
    assert_ptr_equal(outer2->kid[1], expr_extract(cx, v, 0, 16));
    assert_int_equal(outer2->value, 0x11beef);
}

static void test_raw(void **state)
{
    expr_ctx *cx = *state;
    expr *x = expr_symbol(cx, 0, 32, 1), *y = expr_symbol(cx, 1, 32, 2);
    expr *b = expr_symbol(cx, 2, 1, 1), *c8 = expr_symbol(cx, 3, 8, 4);
    expr *z = expr_const(cx, 0, 32);
    /* valid shapes; no simplification */
    expr *r = expr_raw(cx, EXPR_ADD, 32, 0, x, z, NULL, 99);
    assert_non_null(r);
    assert_int_equal(r->op, EXPR_ADD);
    assert_int_equal(r->value, 99);
    assert_ptr_equal(expr_raw(cx, EXPR_ADD, 32, 0, x, z, NULL, 5), r); /* interned */
    assert_ptr_equal(expr_raw(cx, EXPR_ADD, 32, 0, x, y, NULL, 3), expr_binary(cx, EXPR_ADD, x, y));
    assert_ptr_equal(expr_raw(cx, EXPR_SYMBOL, 32, 0, NULL, NULL, NULL, 0), x);
    assert_ptr_equal(expr_raw(cx, EXPR_CONST, 8, 0, NULL, NULL, NULL, 0x1ff), expr_const(cx, 0xff, 8));
    assert_non_null(expr_raw(cx, EXPR_EQ, 1, 0, x, y, NULL, 0));
    assert_non_null(expr_raw(cx, EXPR_NOT, 1, 0, b, NULL, NULL, 0));
    assert_non_null(expr_raw(cx, EXPR_ZEXT, 32, 0, c8, NULL, NULL, 4));
    assert_non_null(expr_raw(cx, EXPR_EXTRACT, 8, 24, x, NULL, NULL, 0));
    assert_non_null(expr_raw(cx, EXPR_CONCAT, 40, 0, x, c8, NULL, 0));
    assert_non_null(expr_raw(cx, EXPR_ITE, 32, 0, b, x, y, 1));
    assert_non_null(expr_raw(cx, EXPR_SMULO, 1, 0, x, y, NULL, 0));
    assert_non_null(expr_raw(cx, EXPR_NOT, 32, 0, x, NULL, NULL, 0));
    /* invalid */
    assert_null(expr_raw(cx, EXPR_OP_COUNT, 32, 0, x, y, NULL, 0));
    assert_null(expr_raw(cx, (expr_op)200, 32, 0, x, y, NULL, 0));
    assert_null(expr_raw(cx, EXPR_CONST, 0, 0, NULL, NULL, NULL, 0));
    assert_null(expr_raw(cx, EXPR_CONST, 65, 0, NULL, NULL, NULL, 0));
    assert_null(expr_raw(cx, EXPR_CONST, 8, 0, x, NULL, NULL, 0)); /* extra kid */
    assert_null(expr_raw(cx, EXPR_ADD, 32, 0, x, NULL, NULL, 0));  /* missing kid */
    assert_null(expr_raw(cx, EXPR_ADD, 32, 0, x, y, b, 0));        /* extra kid */
    assert_null(expr_raw(cx, EXPR_ADD, 32, 0, NULL, y, NULL, 0));
    assert_null(expr_raw(cx, EXPR_ADD, 32, 0, x, c8, NULL, 0)); /* widths differ */
    assert_null(expr_raw(cx, EXPR_ADD, 16, 0, x, y, NULL, 0));  /* result width */
    assert_null(expr_raw(cx, EXPR_ADD, 32, 3, x, y, NULL, 0));  /* stray aux */
    assert_null(expr_raw(cx, EXPR_SHL, 32, 0, x, c8, NULL, 0));
    assert_null(expr_raw(cx, EXPR_EQ, 32, 0, x, y, NULL, 0)); /* cmp width 1 */
    assert_null(expr_raw(cx, EXPR_ULT, 1, 0, x, c8, NULL, 0));
    assert_null(expr_raw(cx, EXPR_UADDO, 1, 0, x, c8, NULL, 0));
    assert_null(expr_raw(cx, EXPR_UMULO, 32, 0, x, y, NULL, 0));
    assert_null(expr_raw(cx, EXPR_NOT, 8, 0, x, NULL, NULL, 0));
    assert_null(expr_raw(cx, EXPR_ZEXT, 32, 0, x, NULL, NULL, 0)); /* not widening */
    assert_null(expr_raw(cx, EXPR_SEXT, 16, 0, x, NULL, NULL, 0));
    assert_null(expr_raw(cx, EXPR_EXTRACT, 8, 25, x, NULL, NULL, 0)); /* past the top */
    assert_null(expr_raw(cx, EXPR_EXTRACT, 8, 0xfffffff0u, x, NULL, NULL, 0));
    assert_null(expr_raw(cx, EXPR_CONCAT, 48, 0, x, c8, NULL, 0)); /* widths sum */
    assert_null(expr_raw(cx, EXPR_CONCAT, 64, 0, x, y, x, 0));
    assert_null(expr_raw(cx, EXPR_ITE, 32, 0, c8, x, y, 0)); /* cond width */
    assert_null(expr_raw(cx, EXPR_ITE, 32, 0, b, x, c8, 0)); /* branch widths */
    assert_null(expr_raw(cx, EXPR_ITE, 8, 0, b, x, y, 0));
    assert_null(expr_raw(cx, EXPR_ITE, 32, 0, b, x, NULL, 0));
}

static char *print_to_string(const expr *e, size_t max)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    expr_print(f, e, max);
    fclose(f);
    return buf;
}

static void test_print_and_names(void **state)
{
    expr_ctx *cx = *state;
    expr *x = expr_symbol(cx, 0, 32, 1);
    expr *e = expr_binary(cx, EXPR_ADD, x, expr_const(cx, 5, 32));
    char *s = print_to_string(e, 100);
    assert_string_equal(s, "(add:32 (sym:32 #0) (const:32 5))");
    free(s);
    s = print_to_string(e, 2);
    assert_string_equal(s, "(add:32 (sym:32 #0) ...)");
    free(s);
    s = print_to_string(expr_extract(cx, e, 8, 8), 100);
    assert_string_equal(s, "(extract:8 @8 (add:32 (sym:32 #0) (const:32 5)))");
    free(s);
    assert_string_equal(expr_op_name(EXPR_ULT), "ult");
    assert_string_equal(expr_op_name(EXPR_SMULO), "smulo");
    assert_string_equal(expr_op_name(EXPR_OP_COUNT), "?");
    assert_int_equal(expr_op_arity(EXPR_CONST), 0);
    assert_int_equal(expr_op_arity(EXPR_NOT), 1);
    assert_int_equal(expr_op_arity(EXPR_EXTRACT), 1);
    assert_int_equal(expr_op_arity(EXPR_CONCAT), 2);
    assert_int_equal(expr_op_arity(EXPR_ITE), 3);
    for (int op = 0; op < EXPR_OP_COUNT; op++) assert_string_not_equal(expr_op_name((expr_op)op), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_hash_consing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_canonical_comparisons, setup, teardown),
        cmocka_unit_test_setup_teardown(test_identities, setup, teardown),
        cmocka_unit_test_setup_teardown(test_byte_reassembly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_raw, setup, teardown),
        cmocka_unit_test_setup_teardown(test_print_and_names, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
