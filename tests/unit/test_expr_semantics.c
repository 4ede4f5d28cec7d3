/* test_expr_semantics.c: concrete semantics of every operator (expr_eval_op) on edge cases and against native C arithmetic. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdbool.h>

#include "expr/expr.h"

/* binary operator at width w: operands and result have width w */
static uint64_t bin(expr_op op, unsigned w, uint64_t a, uint64_t b) { return expr_eval_op(op, w, 0, w, a, b, 0); }
/* predicate / overflow flag over w-bit operands: result width 1 */
static uint64_t flag(expr_op op, unsigned w, uint64_t a, uint64_t b) { return expr_eval_op(op, 1, 0, w, a, b, 0); }

static void test_division_edges(void **state)
{
    (void)state;
    /* udiv / urem by zero: all ones / dividend */
    assert_int_equal(bin(EXPR_UDIV, 8, 7, 0), 0xff);
    assert_int_equal(bin(EXPR_UDIV, 32, 7, 0), 0xffffffffu);
    assert_true(bin(EXPR_UDIV, 64, 7, 0) == UINT64_MAX);
    assert_int_equal(bin(EXPR_UREM, 8, 7, 0), 7);
    assert_true(bin(EXPR_UREM, 64, UINT64_MAX, 0) == UINT64_MAX);
    /* sdiv by zero: SMT-LIB bvsdiv: negative dividend gives 1, else all ones */
    assert_int_equal(bin(EXPR_SDIV, 8, 0x80, 0), 1);
    assert_int_equal(bin(EXPR_SDIV, 8, 5, 0), 0xff);
    assert_int_equal(bin(EXPR_SDIV, 8, 0, 0), 0xff);
    assert_int_equal(bin(EXPR_SDIV, 32, 0xfffffff0u, 0), 1);
    assert_true(bin(EXPR_SDIV, 64, (uint64_t)INT64_MIN, 0) == 1);
    assert_true(bin(EXPR_SDIV, 64, 3, 0) == UINT64_MAX);
    /* srem by zero: dividend */
    assert_int_equal(bin(EXPR_SREM, 8, 0x85, 0), 0x85);
    assert_int_equal(bin(EXPR_SREM, 32, 0x80000000u, 0), 0x80000000u);
    /* INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0 */
    assert_int_equal(bin(EXPR_SDIV, 8, 0x80, 0xff), 0x80);
    assert_int_equal(bin(EXPR_SDIV, 32, 0x80000000u, 0xffffffffu), 0x80000000u);
    assert_true(bin(EXPR_SDIV, 64, (uint64_t)INT64_MIN, UINT64_MAX) == (uint64_t)INT64_MIN);
    assert_int_equal(bin(EXPR_SREM, 8, 0x80, 0xff), 0);
    assert_int_equal(bin(EXPR_SREM, 32, 0x80000000u, 0xffffffffu), 0);
    assert_true(bin(EXPR_SREM, 64, (uint64_t)INT64_MIN, UINT64_MAX) == 0);
    /* C truncating division and remainder sign */
    assert_int_equal(bin(EXPR_SDIV, 32, (uint32_t)-7, 2), (uint32_t)-3);
    assert_int_equal(bin(EXPR_SREM, 32, (uint32_t)-7, 2), (uint32_t)-1);
    assert_int_equal(bin(EXPR_SREM, 32, 7, (uint32_t)-2), 1);
    assert_int_equal(bin(EXPR_SDIV, 16, 0x8000, 2), 0xc000);
    /* width 1: the only values are 0 and -1 */
    assert_int_equal(bin(EXPR_SDIV, 1, 1, 1), 1);
    assert_int_equal(bin(EXPR_SREM, 1, 1, 1), 0);
    assert_int_equal(bin(EXPR_UDIV, 1, 1, 1), 1);
}

static void test_shift_edges(void **state)
{
    (void)state;
    assert_int_equal(bin(EXPR_SHL, 8, 1, 7), 0x80);
    assert_int_equal(bin(EXPR_SHL, 8, 1, 8), 0);
    assert_int_equal(bin(EXPR_SHL, 8, 0xff, 200), 0);
    assert_int_equal(bin(EXPR_LSHR, 8, 0x80, 7), 1);
    assert_int_equal(bin(EXPR_LSHR, 8, 0x80, 8), 0);
    assert_int_equal(bin(EXPR_ASHR, 8, 0x80, 7), 0xff);
    assert_int_equal(bin(EXPR_ASHR, 8, 0x80, 8), 0xff);
    assert_int_equal(bin(EXPR_ASHR, 8, 0x40, 9), 0);
    assert_int_equal(bin(EXPR_ASHR, 8, 0x90, 2), 0xe4);
    assert_int_equal(bin(EXPR_SHL, 32, 3, 31), 0x80000000u);
    assert_int_equal(bin(EXPR_SHL, 32, 3, 32), 0);
    assert_int_equal(bin(EXPR_LSHR, 32, 0xffffffffu, 33), 0);
    assert_int_equal(bin(EXPR_ASHR, 32, 0x80000000u, 32), 0xffffffffu);
    assert_true(bin(EXPR_SHL, 64, 1, 63) == 1ull << 63);
    assert_true(bin(EXPR_SHL, 64, 1, 64) == 0);
    assert_true(bin(EXPR_LSHR, 64, UINT64_MAX, 64) == 0);
    assert_true(bin(EXPR_ASHR, 64, 1ull << 63, 64) == UINT64_MAX);
    assert_true(bin(EXPR_ASHR, 64, 1ull << 63, UINT64_MAX) == UINT64_MAX);
    assert_true(bin(EXPR_ASHR, 64, 1ull << 62, 100) == 0);
    assert_true(bin(EXPR_ASHR, 64, 1ull << 63, 63) == UINT64_MAX);
}

static void test_overflow_flags(void **state)
{
    (void)state;
    /* width 8 */
    assert_int_equal(flag(EXPR_UADDO, 8, 0xff, 1), 1);
    assert_int_equal(flag(EXPR_UADDO, 8, 0xfe, 1), 0);
    assert_int_equal(flag(EXPR_SADDO, 8, 0x7f, 1), 1);
    assert_int_equal(flag(EXPR_SADDO, 8, 0x80, 0xff), 1);
    assert_int_equal(flag(EXPR_SADDO, 8, 0xff, 1), 0);
    assert_int_equal(flag(EXPR_USUBO, 8, 0, 1), 1);
    assert_int_equal(flag(EXPR_USUBO, 8, 1, 1), 0);
    assert_int_equal(flag(EXPR_SSUBO, 8, 0x80, 1), 1);
    assert_int_equal(flag(EXPR_SSUBO, 8, 0, 0x80), 1);
    assert_int_equal(flag(EXPR_SSUBO, 8, 0xff, 0x80), 0);
    assert_int_equal(flag(EXPR_UMULO, 8, 16, 16), 1);
    assert_int_equal(flag(EXPR_UMULO, 8, 15, 17), 0);
    assert_int_equal(flag(EXPR_SMULO, 8, 0x80, 0xff), 1);
    assert_int_equal(flag(EXPR_SMULO, 8, 0xf0, 8), 0); /* -16*8 = -128 fits */
    assert_int_equal(flag(EXPR_SMULO, 8, 16, 8), 1);   /* 128 does not */
    /* width 32 */
    assert_int_equal(flag(EXPR_UADDO, 32, 0xffffffffu, 1), 1);
    assert_int_equal(flag(EXPR_SADDO, 32, 0x7fffffffu, 1), 1);
    assert_int_equal(flag(EXPR_SADDO, 32, 0x7fffffffu, 0xffffffffu), 0);
    assert_int_equal(flag(EXPR_SSUBO, 32, 0x80000000u, 1), 1);
    assert_int_equal(flag(EXPR_UMULO, 32, 0x10000, 0x10000), 1);
    assert_int_equal(flag(EXPR_UMULO, 32, 0xffff, 0x10001), 0);
    assert_int_equal(flag(EXPR_SMULO, 32, 0x80000000u, 0xffffffffu), 1);
    assert_int_equal(flag(EXPR_SMULO, 32, 0x10000, 0x8000), 1);
    assert_int_equal(flag(EXPR_SMULO, 32, 0xffff0000u, 0x8000), 0); /* -2^31 fits */
    /* width 64 */
    assert_int_equal(flag(EXPR_UADDO, 64, UINT64_MAX, 1), 1);
    assert_int_equal(flag(EXPR_UADDO, 64, UINT64_MAX, 0), 0);
    assert_int_equal(flag(EXPR_SADDO, 64, INT64_MAX, 1), 1);
    assert_int_equal(flag(EXPR_SADDO, 64, (uint64_t)INT64_MIN, (uint64_t)INT64_MIN), 1);
    assert_int_equal(flag(EXPR_SADDO, 64, (uint64_t)INT64_MIN, INT64_MAX), 0);
    assert_int_equal(flag(EXPR_USUBO, 64, 5, 6), 1);
    assert_int_equal(flag(EXPR_SSUBO, 64, (uint64_t)INT64_MIN, 1), 1);
    assert_int_equal(flag(EXPR_SSUBO, 64, INT64_MAX, UINT64_MAX), 1);
    assert_int_equal(flag(EXPR_UMULO, 64, 1ull << 32, 1ull << 32), 1);
    assert_int_equal(flag(EXPR_UMULO, 64, UINT64_MAX, 1), 0);
    assert_int_equal(flag(EXPR_SMULO, 64, (uint64_t)INT64_MIN, UINT64_MAX), 1);
    assert_int_equal(flag(EXPR_SMULO, 64, 1ull << 31, 1ull << 32), 1);               /* 2^63 */
    assert_int_equal(flag(EXPR_SMULO, 64, (uint64_t) - (1ll << 31), 1ull << 32), 0); /* -2^63 */
    /* width 1: -1 + -1 overflows signed, 1 + 1 carries */
    assert_int_equal(flag(EXPR_SADDO, 1, 1, 1), 1);
    assert_int_equal(flag(EXPR_UADDO, 1, 1, 1), 1);
    assert_int_equal(flag(EXPR_SMULO, 1, 1, 1), 1);
    assert_int_equal(flag(EXPR_UMULO, 1, 1, 1), 0);
}

static void test_casts_and_bits(void **state)
{
    (void)state;
    assert_int_equal(expr_eval_op(EXPR_ZEXT, 32, 0, 8, 0x80, 0, 0), 0x80);
    assert_int_equal(expr_eval_op(EXPR_SEXT, 32, 0, 8, 0x80, 0, 0), 0xffffff80u);
    assert_int_equal(expr_eval_op(EXPR_SEXT, 32, 0, 8, 0x7f, 0, 0), 0x7f);
    assert_true(expr_eval_op(EXPR_SEXT, 64, 0, 1, 1, 0, 0) == UINT64_MAX);
    assert_int_equal(expr_eval_op(EXPR_EXTRACT, 8, 8, 32, 0x12345678u, 0, 0), 0x56);
    assert_int_equal(expr_eval_op(EXPR_EXTRACT, 4, 28, 32, 0x12345678u, 0, 0), 0x1);
    assert_true(expr_eval_op(EXPR_EXTRACT, 1, 63, 64, 1ull << 63, 0, 0) == 1);
    assert_int_equal(expr_eval_op(EXPR_CONCAT, 16, 0, 8, 0x12, 0x34, 0), 0x1234);
    assert_true(expr_eval_op(EXPR_CONCAT, 64, 0, 32, 0xdeadbeefu, 0x01020304u, 0) == 0xdeadbeef01020304ull);
    assert_true(expr_eval_op(EXPR_CONCAT, 64, 0, 63, 1, 1, 0) == 3);
    assert_int_equal(expr_eval_op(EXPR_ITE, 8, 0, 1, 1, 0x11, 0x22), 0x11);
    assert_int_equal(expr_eval_op(EXPR_ITE, 8, 0, 1, 0, 0x11, 0x22), 0x22);
    assert_int_equal(expr_eval_op(EXPR_NOT, 8, 0, 8, 0x0f, 0, 0), 0xf0);
    assert_int_equal(expr_eval_op(EXPR_NOT, 1, 0, 1, 1, 0, 0), 0);
    assert_int_equal(bin(EXPR_ADD, 8, 0xff, 1), 0);
    assert_int_equal(bin(EXPR_SUB, 8, 0, 1), 0xff);
    assert_int_equal(bin(EXPR_MUL, 8, 0x10, 0x10), 0);
    assert_true(bin(EXPR_MUL, 64, UINT64_MAX, UINT64_MAX) == 1);
    assert_int_equal(flag(EXPR_SLT, 8, 0x80, 0x7f), 1);
    assert_int_equal(flag(EXPR_ULT, 8, 0x80, 0x7f), 0);
    assert_int_equal(flag(EXPR_SLT, 64, (uint64_t)INT64_MIN, 0), 1);
    assert_int_equal(flag(EXPR_EQ, 64, 5, 5), 1);
    assert_int_equal(flag(EXPR_SLT, 1, 1, 0), 1); /* -1 < 0 */
}

/*
 * Exhaustive check at width 8 and random checks at 16/32/64 against native C
 * arithmetic on fixed-width types and the compiler's overflow builtins, which
 * are an implementation independent from expr_eval_op.
 */
#define REF_CHECK(UT, ST, W, A_, B_)                                                   \
    do {                                                                               \
        UT a = (UT)(A_), b = (UT)(B_);                                                 \
        ST sa = (ST)a, sb = (ST)b;                                                     \
        UT r;                                                                          \
        ST sr;                                                                         \
        assert_true(bin(EXPR_ADD, W, a, b) == (UT)(a + b));                            \
        assert_true(bin(EXPR_SUB, W, a, b) == (UT)(a - b));                            \
        assert_true(bin(EXPR_MUL, W, a, b) == (UT)((uint64_t)a * b));                  \
        assert_true(bin(EXPR_AND, W, a, b) == (UT)(a & b));                            \
        assert_true(bin(EXPR_OR, W, a, b) == (UT)(a | b));                             \
        assert_true(bin(EXPR_XOR, W, a, b) == (UT)(a ^ b));                            \
        if (b != 0) {                                                                  \
            assert_true(bin(EXPR_UDIV, W, a, b) == (UT)(a / b));                       \
            assert_true(bin(EXPR_UREM, W, a, b) == (UT)(a % b));                       \
            if (!(sb == -1 && sa == (ST)((UT)1 << (W - 1)))) {                         \
                assert_true(bin(EXPR_SDIV, W, a, b) == (UT)(sa / sb));                 \
                assert_true(bin(EXPR_SREM, W, a, b) == (UT)(sa % sb));                 \
            }                                                                          \
        }                                                                              \
        if (b < W) {                                                                   \
            assert_true(bin(EXPR_SHL, W, a, b) == (UT)((uint64_t)a << b));             \
            assert_true(bin(EXPR_LSHR, W, a, b) == (UT)(a >> b));                      \
            assert_true(bin(EXPR_ASHR, W, a, b) == (UT)(sa >> b));                     \
        }                                                                              \
        assert_true(flag(EXPR_EQ, W, a, b) == (a == b));                               \
        assert_true(flag(EXPR_ULT, W, a, b) == (a < b));                               \
        assert_true(flag(EXPR_SLT, W, a, b) == (sa < sb));                             \
        assert_true(flag(EXPR_UADDO, W, a, b) == __builtin_add_overflow(a, b, &r));    \
        assert_true(flag(EXPR_USUBO, W, a, b) == __builtin_sub_overflow(a, b, &r));    \
        assert_true(flag(EXPR_UMULO, W, a, b) == __builtin_mul_overflow(a, b, &r));    \
        assert_true(flag(EXPR_SADDO, W, a, b) == __builtin_add_overflow(sa, sb, &sr)); \
        assert_true(flag(EXPR_SSUBO, W, a, b) == __builtin_sub_overflow(sa, sb, &sr)); \
        assert_true(flag(EXPR_SMULO, W, a, b) == __builtin_mul_overflow(sa, sb, &sr)); \
    } while (0)

#include "expr_test_util.h"

static void test_against_native(void **state)
{
    (void)state;
    for (unsigned x = 0; x < 256; x++)
        for (unsigned y = 0; y < 256; y++) REF_CHECK(uint8_t, int8_t, 8, x, y);
    for (int i = 0; i < 200000; i++) {
        REF_CHECK(uint16_t, int16_t, 16, rnd_val(16), rnd_val(16));
        REF_CHECK(uint32_t, int32_t, 32, rnd_val(32), rnd_val(32));
        REF_CHECK(uint64_t, int64_t, 64, rnd_val(64), rnd_val(64));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_division_edges), cmocka_unit_test(test_shift_edges),
        cmocka_unit_test(test_overflow_flags), cmocka_unit_test(test_casts_and_bits),
        cmocka_unit_test(test_against_native),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
