/* test_expr_fp.c: floating-point operators: concrete semantics on IEEE edge cases, x86-64 conversions, canonical fcmp and the builders' folding. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "expr/expr.h"

#include "fp_test_util.h"

/* float binary op */
static uint64_t f2(expr_op op, float a, float b) { return expr_eval_op(op, 32, 0, 32, fb(a), fb(b), 0); }
static uint64_t d2(expr_op op, double a, double b) { return expr_eval_op(op, 64, 0, 64, db(a), db(b), 0); }

static void test_arith_edges(void **state)
{
    (void)state;
    /* rounding to nearest even */
    assert_true(f2(EXPR_FADD, 16777216.0f, 1.0f) == fb(16777216.0f));
    assert_true(f2(EXPR_FADD, 16777216.0f, 3.0f) == fb(16777220.0f));
    assert_true(d2(EXPR_FADD, 0.1, 0.2) == db(0.30000000000000004));
    assert_true(f2(EXPR_FADD, 0.1f, 0.2f) == 0x3e99999a);
    /* signed zeros */
    assert_true(f2(EXPR_FADD, -0.0f, 0.0f) == fb(0.0f));
    assert_true(f2(EXPR_FADD, -0.0f, -0.0f) == 0x80000000u);
    assert_true(f2(EXPR_FMUL, -1.0f, 0.0f) == 0x80000000u);
    assert_true(f2(EXPR_FDIV, 1.0f, -0.0f) == fb(-INFINITY));
    /* NaN and infinities */
    assert_true(isnan(bf(f2(EXPR_FSUB, INFINITY, INFINITY))));
    assert_true(isnan(bf(f2(EXPR_FMUL, 0.0f, INFINITY))));
    assert_true(isnan(bf(f2(EXPR_FADD, NAN, 1.0f))));
    assert_true(isnan(bd(d2(EXPR_FDIV, 0.0, 0.0))));
    assert_true(f2(EXPR_FDIV, 1.0f, 0.0f) == fb(INFINITY));
    assert_true(f2(EXPR_FMUL, 3.4e38f, 10.0f) == fb(INFINITY));
    /* denormals: 2^-149 / 2 ties to even, i.e. 0; 3 * 2^-149 / 2 = 1.5 ulp rounds to 2 ulp */
    assert_true(f2(EXPR_FDIV, 0x1p-149f, 2.0f) == 0);
    assert_true(f2(EXPR_FDIV, 0x1.8p-148f, 2.0f) == fb(0x1p-148f));
    assert_true(f2(EXPR_FMUL, 0x1p-126f, 0.5f) == fb(0x1p-127f)); /* normal -> denormal, exact */
    /* fmod (C semantics, sign of the dividend) */
    assert_true(f2(EXPR_FREM, -7.0f, 2.0f) == fb(-1.0f));
    assert_true(f2(EXPR_FREM, 7.0f, -2.0f) == fb(1.0f));
    assert_true(f2(EXPR_FREM, -4.0f, 2.0f) == fb(-0.0f));
    assert_true(f2(EXPR_FREM, 5.5f, INFINITY) == fb(5.5f));
    assert_true(isnan(bf(f2(EXPR_FREM, 1.0f, 0.0f))));
    assert_true(d2(EXPR_FREM, 10.0, 3.0) == db(1.0));
    /* sqrt, fma (one rounding), min/max with NaN */
    assert_true(expr_eval_op(EXPR_FSQRT, 64, 0, 64, db(2.0), 0, 0) == db(sqrt(2.0)));
    assert_true(isnan(bf(expr_eval_op(EXPR_FSQRT, 32, 0, 32, fb(-1.0f), 0, 0))));
    assert_true(expr_eval_op(EXPR_FSQRT, 32, 0, 32, fb(-0.0f), 0, 0) == 0x80000000u);
    double a = 1.0 + 0x1p-30, c = -(1.0 + 0x1p-29);
    assert_true(expr_eval_op(EXPR_FMA, 64, 0, 64, db(a), db(a), db(c)) == db(0x1p-60)); /* fused: exact */
    assert_true(d2(EXPR_FADD, bd(d2(EXPR_FMUL, a, a)), c) == db(0.0));                  /* unfused: lost */
    assert_true(f2(EXPR_FMIN, NAN, 2.0f) == fb(2.0f));
    assert_true(f2(EXPR_FMAX, 2.0f, NAN) == fb(2.0f));
    assert_true(f2(EXPR_FMIN, -1.0f, 2.0f) == fb(-1.0f));
    assert_true(d2(EXPR_FMAX, -1.0, 2.0) == db(2.0));
}

static void test_round_to_integral(void **state)
{
    (void)state;
    static const struct {
        double x;
        double rne, rna, rtp, rtn, rtz;
    } t[] = {
        {2.5, 2.0, 3.0, 3.0, 2.0, 2.0},
        {3.5, 4.0, 4.0, 4.0, 3.0, 3.0},
        {-2.5, -2.0, -3.0, -2.0, -3.0, -2.0},
        {-0.3, -0.0, -0.0, -0.0, -1.0, -0.0},
        {1e300, 1e300, 1e300, 1e300, 1e300, 1e300},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        double want[5] = {t[i].rne, t[i].rna, t[i].rtp, t[i].rtn, t[i].rtz};
        for (unsigned rm = FRM_RNE; rm <= FRM_RTZ; rm++) {
            assert_true(expr_eval_op(EXPR_FRINT, 64, rm, 64, db(t[i].x), 0, 0) == db(want[rm]));
            assert_true(expr_eval_op(EXPR_FRINT, 32, rm, 32, fb((float)t[i].x), 0, 0) == fb((float)want[rm]));
        }
    }
    assert_true(isnan(bd(expr_eval_op(EXPR_FRINT, 64, FRM_RTN, 64, db(NAN), 0, 0))));
}

/* The expected values are what clang-14 -O2 (and -O0) code computes on x86-64 for C casts
 * (measured with a program of noinline casts over these inputs). */
static void test_conversions_x86(void **state)
{
    (void)state;
    static const struct {
        float x;
        int32_t s32;
        int16_t s16;
        int8_t s8;
        int64_t s64;
        uint32_t u32;
        uint16_t u16;
        uint64_t u64;
    } t[] = {
        {NAN, INT32_MIN, 0, 0, INT64_MIN, 0, 0, 0x8000000000000000ull},
        {INFINITY, INT32_MIN, 0, 0, INT64_MIN, 0, 0, 0x8000000000000000ull},
        {-1e30f, INT32_MIN, 0, 0, INT64_MIN, 0, 0, 0x8000000000000000ull},
        {3e9f, INT32_MIN, 0, 0, 3000000000ll, 3000000000u, 0, 3000000000ull},
        {-3e9f, INT32_MIN, 0, 0, -3000000000ll, 1294967296u, 0, 18446744070709551616ull},
        {70000.0f, 70000, 4464, 112, 70000, 70000, 4464, 70000},
        {-300.0f, -300, -300, -44, -300, 4294966996u, 65236, 18446744073709551316ull},
        {-1.5f, -1, -1, -1, -1, 4294967295u, 65535, 18446744073709551615ull},
        {9.3e18f, INT32_MIN, 0, 0, INT64_MIN, 0, 0, 9300000300729368576ull},
        {1.9e19f, INT32_MIN, 0, 0, INT64_MIN, 0, 0, 0x8000000000000000ull},
        {4.4e9f, INT32_MIN, 0, 0, 4400000000ll, 105032704u, 0, 4400000000ull},
        {65535.9f, 65535, -1, -1, 65535, 65535, 65535, 65535},
        {-0.5f, 0, 0, 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uint64_t x = fb(t[i].x), xd = db((double)t[i].x);
        assert_true(expr_eval_op(EXPR_FTOSI, 32, 0, 32, x, 0, 0) == (uint32_t)t[i].s32);
        assert_true(expr_eval_op(EXPR_FTOSI, 16, 0, 32, x, 0, 0) == (uint16_t)t[i].s16);
        assert_true(expr_eval_op(EXPR_FTOSI, 8, 0, 32, x, 0, 0) == (uint8_t)t[i].s8);
        assert_true(expr_eval_op(EXPR_FTOSI, 64, 0, 32, x, 0, 0) == (uint64_t)t[i].s64);
        assert_true(expr_eval_op(EXPR_FTOUI, 32, 0, 32, x, 0, 0) == t[i].u32);
        assert_true(expr_eval_op(EXPR_FTOUI, 16, 0, 32, x, 0, 0) == t[i].u16);
        assert_true(expr_eval_op(EXPR_FTOUI, 64, 0, 32, x, 0, 0) == t[i].u64);
        /* the same from double (every value above is exactly a double) */
        assert_true(expr_eval_op(EXPR_FTOSI, 32, 0, 64, xd, 0, 0) == (uint32_t)t[i].s32);
        assert_true(expr_eval_op(EXPR_FTOUI, 64, 0, 64, xd, 0, 0) == t[i].u64);
        assert_true(expr_eval_op(EXPR_FTOUI, 32, 0, 64, xd, 0, 0) == t[i].u32);
    }
    /* integer -> float rounds to nearest even; unsigned uses all 64 bits */
    assert_true(expr_eval_op(EXPR_SITOF, 32, 0, 32, 16777217u, 0, 0) == fb(16777216.0f));
    assert_true(expr_eval_op(EXPR_SITOF, 32, 0, 32, 16777219u, 0, 0) == fb(16777220.0f));
    assert_true(expr_eval_op(EXPR_SITOF, 64, 0, 8, 0xff, 0, 0) == db(-1.0));
    assert_true(expr_eval_op(EXPR_UITOF, 64, 0, 8, 0xff, 0, 0) == db(255.0));
    assert_true(expr_eval_op(EXPR_UITOF, 32, 0, 64, UINT64_MAX, 0, 0) == fb(0x1p64f));
    assert_true(expr_eval_op(EXPR_SITOF, 64, 0, 64, (uint64_t)INT64_MIN, 0, 0) == db(-0x1p63));
    assert_true(expr_eval_op(EXPR_SITOF, 32, 0, 1, 1, 0, 0) == fb(-1.0f)); /* i1 true is -1 */
    /* float <-> double */
    assert_true(expr_eval_op(EXPR_FCVT, 32, 0, 64, db(0.1), 0, 0) == fb(0.1f));
    assert_true(expr_eval_op(EXPR_FCVT, 32, 0, 64, db(1e300), 0, 0) == fb(INFINITY));
    assert_true(expr_eval_op(EXPR_FCVT, 32, 0, 64, db(1e-50), 0, 0) == 0);
    assert_true(expr_eval_op(EXPR_FCVT, 64, 0, 32, fb(0.1f), 0, 0) == db((double)0.1f));
    assert_true(expr_eval_op(EXPR_FCVT, 64, 0, 32, 0x80000000u, 0, 0) == db(-0.0));
}

/* Reference semantics of an LLVM fcmp predicate. */
static int fpred_ref(expr_fpred p, double a, double b)
{
    bool uno = isnan(a) || isnan(b);
    switch (p) {
    case FPRED_FALSE: return 0;
    case FPRED_OEQ: return !uno && a == b;
    case FPRED_OGT: return !uno && a > b;
    case FPRED_OGE: return !uno && a >= b;
    case FPRED_OLT: return !uno && a < b;
    case FPRED_OLE: return !uno && a <= b;
    case FPRED_ONE: return !uno && a != b;
    case FPRED_ORD: return !uno;
    case FPRED_UNO: return uno;
    case FPRED_UEQ: return uno || a == b;
    case FPRED_UGT: return uno || a > b;
    case FPRED_UGE: return uno || a >= b;
    case FPRED_ULT: return uno || a < b;
    case FPRED_ULE: return uno || a <= b;
    case FPRED_UNE: return uno || a != b;
    default: return 1;
    }
}

static void test_fcmp_all_predicates(void **state)
{
    (void)state;
    static const double vals[] = {0.0, -0.0, 1.0, -1.0, 2.5, INFINITY, -INFINITY, NAN, 1e-310, 3.0e38};
    const size_t nv = sizeof vals / sizeof *vals;
    expr_ctx *cx = expr_ctx_new();
    expr *x = expr_symbol(cx, 0, 64, 0), *y = expr_symbol(cx, 1, 64, 0);
    expr *xf = expr_symbol(cx, 2, 32, 0), *yf = expr_symbol(cx, 3, 32, 0);
    for (unsigned p = FPRED_FALSE; p <= FPRED_TRUE; p++) {
        expr *e = expr_fcmp(cx, (expr_fpred)p, x, y), *ef = expr_fcmp(cx, (expr_fpred)p, xf, yf);
        assert_int_equal(e->width, 1);
        /* the negation of predicate p is predicate 15 - p, exactly one NOT away */
        assert_ptr_equal(expr_fcmp(cx, (expr_fpred)(FPRED_TRUE - p), x, y), expr_not(cx, e));
        for (size_t i = 0; i < nv; i++)
            for (size_t j = 0; j < nv; j++) {
                int want = fpred_ref((expr_fpred)p, vals[i], vals[j]);
                uint64_t in[4] = {db(vals[i]), db(vals[j]), fb((float)vals[i]), fb((float)vals[j])};
                assert_int_equal(expr_eval(e, in, 4), want);
                assert_int_equal(expr_eval(ef, in, 4), fpred_ref((expr_fpred)p, (float)vals[i], (float)vals[j]));
                /* constants fold to the same answer */
                expr *c = expr_fcmp(cx, (expr_fpred)p, expr_const(cx, in[0], 64), expr_const(cx, in[1], 64));
                assert_int_equal(c->op, EXPR_CONST);
                assert_int_equal(c->value, want);
            }
    }
    /* isnan written as x != x or as x uno 0.0 is one node */
    assert_ptr_equal(expr_fcmp(cx, FPRED_UNO, x, x), expr_fcmp(cx, FPRED_UNO, x, expr_const(cx, 0, 64)));
    /* a value against itself: every predicate folds to a constant or to (not) isnan, and agrees with C */
    for (unsigned p = FPRED_FALSE; p <= FPRED_TRUE; p++) {
        expr *e = expr_fcmp(cx, (expr_fpred)p, x, x);
        assert_true(e->op == EXPR_CONST || e->depth <= 3);
        for (size_t i = 0; i < nv; i++) {
            uint64_t in[1] = {db(vals[i])};
            assert_int_equal(expr_eval(e, in, 1), fpred_ref((expr_fpred)p, vals[i], vals[i]));
        }
    }
    assert_int_equal(expr_fcmp(cx, FPRED_OLT, x, x)->op, EXPR_CONST);
    expr *k = expr_fp(cx, EXPR_SITOF, 64, 0, expr_symbol(cx, 4, 32, 0), NULL, NULL); /* never NaN */
    expr *le = expr_fcmp(cx, FPRED_OLE, k, k);
    assert_true(le->op == EXPR_CONST && le->value == 1);
    expr_ctx_free(cx);
}

static void test_builders(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    expr *f = expr_symbol(cx, 0, 32, fb(1.5f));
    /* a fresh node's value is its operator applied to its kids' values */
    expr *m = expr_fp(cx, EXPR_FMUL, 32, 0, f, expr_const(cx, fb(3.0f), 32), NULL);
    assert_int_equal(m->op, EXPR_FMUL);
    assert_true(m->value == fb(4.5f));
    /* EXPR_FLAG_FP marks nodes with a floating-point operator at or below them */
    assert_true(m->flags & EXPR_FLAG_FP);
    assert_false(f->flags & EXPR_FLAG_FP);
    assert_true(expr_extract(cx, m, 31, 1)->flags & EXPR_FLAG_FP);
    assert_false(expr_binary(cx, EXPR_ADD, f, f)->flags & EXPR_FLAG_FP);
    /* constants fold */
    expr *k = expr_fp(cx, EXPR_FADD, 32, 0, expr_const(cx, fb(1.0f), 32), expr_const(cx, fb(2.0f), 32), NULL);
    assert_int_equal(k->op, EXPR_CONST);
    assert_true(k->value == fb(3.0f));
    /* fptrunc(fpext(x)) = x; fpext(fptrunc(d)) is not d */
    expr *ext = expr_fp(cx, EXPR_FCVT, 64, 0, f, NULL, NULL);
    assert_true(ext->value == db(1.5));
    assert_ptr_equal(expr_fp(cx, EXPR_FCVT, 32, 0, ext, NULL, NULL), f);
    expr *d = expr_symbol(cx, 1, 64, db(0.1));
    expr *tr = expr_fp(cx, EXPR_FCVT, 32, 0, d, NULL, NULL);
    assert_true(expr_fp(cx, EXPR_FCVT, 64, 0, tr, NULL, NULL) != d);
    /* conversions to integers of any width */
    expr *i = expr_fp(cx, EXPR_FTOSI, 16, 0, f, NULL, NULL);
    assert_int_equal(i->width, 16);
    assert_int_equal(i->value, 1);
    /* expr_raw checks the shapes */
    assert_non_null(expr_raw(cx, EXPR_FADD, 32, 0, f, f, NULL, 0));
    assert_null(expr_raw(cx, EXPR_FADD, 64, 0, f, f, NULL, 0)); /* width mismatch */
    assert_null(expr_raw(cx, EXPR_FADD, 16, 0, expr_symbol(cx, 2, 16, 0), expr_symbol(cx, 2, 16, 0), NULL, 0));
    assert_null(expr_raw(cx, EXPR_FCVT, 32, 0, f, NULL, NULL, 0)); /* same format */
    assert_non_null(expr_raw(cx, EXPR_FRINT, 32, FRM_RTZ, f, NULL, NULL, 0));
    assert_null(expr_raw(cx, EXPR_FRINT, 32, 9, f, NULL, NULL, 0)); /* no such rounding mode */
    assert_null(expr_raw(cx, EXPR_FOLT, 32, 0, f, f, NULL, 0));     /* comparisons have width 1 */
    assert_non_null(expr_raw(cx, EXPR_SITOF, 64, 0, expr_symbol(cx, 3, 8, 0), NULL, NULL, 0));
    assert_string_equal(expr_op_name(EXPR_FTOUI), "ftoui");
    assert_int_equal(expr_op_arity(EXPR_FMA), 3);
    expr_ctx_free(cx);
}

/* A comparison of a monotone chain of an integer (k / 100 as a DECIMAL cell, k * 0.25, a float of
 * k / 100) with a constant becomes an integer comparison of k (expr_fp.c, fcmp_monotone): no FP
 * node is left, and for every predicate, side and k (random, and near the constant's bound) it
 * gives what the floating-point comparison gives. */
static void test_monotone_chain(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    const double consts[] = {15.0, 100.0, 0.25, 7.0, -3.5, 1e300, 0.0, -0.0, 2.5e3, 19.99, 12.34, 1e-320, INFINITY};
    const expr_fpred preds[] = {FPRED_OLT, FPRED_OLE, FPRED_OGT, FPRED_OGE, FPRED_OEQ, FPRED_UNE};
    const expr_op nodes[] = {EXPR_FOLT, EXPR_FOLE, EXPR_FOLT, EXPR_FOLE, EXPR_FOEQ, EXPR_FOEQ};
    uint64_t seed = 88172645463325252ull;
    for (unsigned kw = 32; kw <= 64; kw += 32) {
        expr *k = expr_symbol(cx, 0, kw, 5);
        expr *base = expr_fp(cx, EXPR_SITOF, 64, 0, k, NULL, NULL);
        expr *chains[3] = {expr_fp(cx, EXPR_FDIV, 64, 0, base, expr_const(cx, db(100.0), 64), NULL),
                           expr_fp(cx, EXPR_FMUL, 64, 0, base, expr_const(cx, db(0.25), 64), NULL), NULL};
        chains[2] = expr_fp(cx, EXPR_FCVT, 32, 0, chains[0], NULL, NULL);
        for (int ci = 0; ci < 3; ci++)
            for (size_t cc = 0; cc < sizeof consts / sizeof *consts; cc++)
                for (int p = 0; p < 6; p++) {
                    expr *n = chains[ci];
                    uint64_t cb = n->width == 32 ? fb((float)consts[cc]) : db(consts[cc]);
                    expr *c = expr_const(cx, cb, n->width);
                    for (int side = 0; side < 2; side++) {
                        expr *r = side ? expr_fcmp(cx, preds[p], c, n) : expr_fcmp(cx, preds[p], n, c);
                        assert_false(r->flags & EXPR_FLAG_FP);
                        for (int t = 0; t < 300; t++) {
                            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                            double near = consts[cc] * (ci == 1 ? 4 : 100); /* k near the constant's bound */
                            int64_t kv =
                                t % 2 || !(fabs(near) < 1e15) ? (int64_t)seed : (int64_t)near + (int64_t)(seed % 5) - 2;
                            uint64_t in[1] = {(uint64_t)kv & (kw == 64 ? ~0ull : 0xffffffffull)};
                            uint64_t nv = expr_eval(n, in, 1);
                            bool swap = (p == 2 || p == 3) != (side == 1); /* ogt/oge are olt/ole swapped */
                            uint64_t want =
                                expr_eval_op(nodes[p], 1, 0, n->width, swap ? cb : nv, swap ? nv : cb, 0) & 1;
                            if (p == 5) want = !want;
                            assert_int_equal(expr_eval(r, in, 1) & 1, want);
                        }
                    }
                }
    }
    expr_ctx_free(cx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arith_edges),     cmocka_unit_test(test_round_to_integral),
        cmocka_unit_test(test_conversions_x86), cmocka_unit_test(test_fcmp_all_predicates),
        cmocka_unit_test(test_builders),        cmocka_unit_test(test_monotone_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
