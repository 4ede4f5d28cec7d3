/* test_runtime_float.c: the runtime's floating-point entry points: symbolic float inputs, __sym_fp and __sym_fcmp. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "sympath.h"
#include "runtime/core/rt_internal.h"
#include "runtime/core/rt_fast.c" /* the inline fast paths, normally linked as bitcode */

float __VERIFIER_nondet_float(void);

static uint64_t fb(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static uint64_t db(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static int setup(void **state)
{
    (void)state;
    uint64_t in[4] = {fb(2.5f), db(-4.0), fb(NAN), 0xff800123u /* a negative NaN with a payload */};
    rt_test_setup(in, 4, 4096, 64);
    return 0;
}

static void test_float_inputs_are_symbols(void **state)
{
    (void)state;
    assert_true(__VERIFIER_nondet_float() == 2.5f);
    expr *x = __sym_get_ret(fb(2.5f), 32);
    assert_non_null(x);
    assert_int_equal(x->op, EXPR_SYMBOL);
    assert_int_equal(x->width, 32);
    assert_true(sym_double("d") == -4.0);
    expr *d = __sym_get_ret(db(-4.0), 64);
    assert_non_null(d);
    assert_int_equal(d->width, 64);
    assert_true(isnan(sym_float(NULL)));
    assert_non_null(__sym_get_ret(fb(NAN), 32));
    /* a NaN input is the quiet NaN of its sign, which a test case's "-nan" replays exactly */
    float q = sym_float("q");
    uint32_t qb;
    memcpy(&qb, &q, sizeof qb);
    assert_int_equal(qb, 0xffc00000u);
    expr *qe = __sym_get_ret(qb, 32);
    assert_non_null(qe);
    assert_int_equal(qe->value, 0xffc00000u);
    assert_int_equal(rt_test_header()->conc[CONC_FLOAT], 0);
}

static void test_operations(void **state)
{
    (void)state;
    __VERIFIER_nondet_float();
    expr *x = __sym_get_ret(fb(2.5f), 32);
    /* concrete operands: no expression at all */
    assert_null(__sym_fp(SYM_F_ADD, 32, 32, NULL, fb(1.0f), NULL, fb(2.0f), NULL, 0));
    /* x * 3.0f: a node whose value is the run's value */
    expr *m = __sym_fp(SYM_F_MUL, 32, 32, x, fb(2.5f), NULL, fb(3.0f), NULL, 0);
    assert_non_null(m);
    assert_int_equal(m->op, EXPR_FMUL);
    assert_true(m->value == fb(7.5f));
    /* fneg, fabs, copysign are sign-bit operations */
    expr *n = __sym_fp(SYM_F_NEG, 32, 32, x, fb(2.5f), NULL, 0, NULL, 0);
    assert_int_equal(n->op, EXPR_XOR);
    assert_true(n->value == fb(-2.5f));
    expr *a = __sym_fp(SYM_F_ABS, 32, 32, n, fb(-2.5f), NULL, 0, NULL, 0);
    assert_true(a->value == fb(2.5f));
    expr *cs = __sym_fp(SYM_F_COPYSIGN, 32, 32, x, fb(2.5f), NULL, fb(-0.0f), NULL, 0);
    assert_true(cs->value == fb(-2.5f));
    /* fmuladd is a product then a sum (two roundings, as baseline x86-64 code computes it) */
    expr *fm = __sym_fp(SYM_F_FMULADD, 32, 32, x, fb(2.5f), NULL, fb(3.0f), NULL, fb(1.0f));
    assert_int_equal(fm->op, EXPR_FADD);
    assert_int_equal(fm->kid[0]->op, EXPR_FMUL);
    assert_true(fm->value == fb(8.5f));
    /* rounding functions and conversions */
    expr *fl = __sym_fp(SYM_F_FLOOR, 32, 32, x, fb(2.5f), NULL, 0, NULL, 0);
    assert_int_equal(fl->aux, FRM_RTN);
    assert_true(fl->value == fb(2.0f));
    expr *i = __sym_fp(SYM_F_FPTOSI, 32, 32, x, fb(2.5f), NULL, 0, NULL, 0);
    assert_int_equal(i->op, EXPR_FTOSI);
    assert_int_equal(i->value, 2);
    expr *back = __sym_fp(SYM_F_SITOFP, 64, 32, i, 2, NULL, 0, NULL, 0);
    assert_true(back->value == db(2.0));
    expr *ext = __sym_fp(SYM_F_FPCONV, 64, 32, x, fb(2.5f), NULL, 0, NULL, 0);
    assert_true(ext->value == db(2.5));
    assert_ptr_equal(__sym_fp(SYM_F_FPCONV, 32, 64, ext, db(2.5), NULL, 0, NULL, 0), x);
    /* fcmp: canonical, and the negated predicate is one NOT away */
    expr *lt = __sym_fcmp(FPRED_OLT, 32, x, fb(2.5f), NULL, fb(3.0f));
    assert_int_equal(lt->op, EXPR_FOLT);
    assert_int_equal(lt->value, 1);
    expr *uge = __sym_fcmp(FPRED_UGE, 32, x, fb(2.5f), NULL, fb(3.0f));
    assert_int_equal(uge->op, EXPR_NOT);
    assert_ptr_equal(uge->kid[0], lt);
    assert_null(__sym_fcmp(FPRED_OLT, 32, NULL, 0, NULL, 0));
    /* a shadow of the wrong width (a caller/callee type mismatch) is dropped and counted */
    assert_null(__sym_fp(SYM_F_ADD, 64, 64, x, fb(2.5f), NULL, 0, NULL, 0));
    assert_null(__sym_fp(99, 32, 32, x, fb(2.5f), NULL, 0, NULL, 0));
    assert_int_equal(rt_test_header()->conc[CONC_FLOAT], 2);
}

/* glibc's classification functions against the real ones, over edge values */
int __isnan(double);
int __isinff(float);
int __finite(double);
int __fpclassify(double);

static void test_classification(void **state)
{
    (void)state;
    static const double vals[] = {0.0,     -0.0,     1.0,       -3.5, 2.5,  -0.5,  1e-310,
                                  -1e-310, INFINITY, -INFINITY, NAN,  -NAN, 1e308, 9.3e18};
    __VERIFIER_nondet_float();
    expr_ctx *cx = rt_cx();
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        /* a symbol holding the value, so nothing folds and expr_eval computes the model */
        expr *d = expr_symbol(cx, 7, 64, db(vals[i])), *f = expr_symbol(cx, 8, 32, fb((float)vals[i]));
        uint64_t in[9] = {0};
        in[7] = db(vals[i]);
        in[8] = fb((float)vals[i]);
        expr *e;
        e = __sym_fp(SYM_F_ISNAN, 32, 64, d, in[7], NULL, 0, NULL, 0);
        assert_int_equal((int32_t)expr_eval(e, in, 9), __isnan(vals[i]));
        e = __sym_fp(SYM_F_ISINF, 32, 32, f, in[8], NULL, 0, NULL, 0);
        assert_int_equal((int32_t)expr_eval(e, in, 9), __isinff((float)vals[i]));
        e = __sym_fp(SYM_F_FINITE, 32, 64, d, in[7], NULL, 0, NULL, 0);
        assert_int_equal((int32_t)expr_eval(e, in, 9), __finite(vals[i]));
        e = __sym_fp(SYM_F_FPCLASSIFY, 32, 64, d, in[7], NULL, 0, NULL, 0);
        assert_int_equal((int32_t)expr_eval(e, in, 9), __fpclassify(vals[i]));
        /* lrint, lround: also out of range (1e308, inf, NaN: the integer indefinite) */
        volatile double v = vals[i];
        e = __sym_fp(SYM_F_LRINT, 64, 64, d, in[7], NULL, 0, NULL, 0);
        assert_true((int64_t)expr_eval(e, in, 9) == lrint(v));
        e = __sym_fp(SYM_F_LROUND, 64, 32, f, in[8], NULL, 0, NULL, 0);
        assert_true((int64_t)expr_eval(e, in, 9) == lroundf((float)v));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_float_inputs_are_symbols, setup),
        cmocka_unit_test_setup(test_operations, setup),
        cmocka_unit_test_setup(test_classification, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
