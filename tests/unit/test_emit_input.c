/* test_emit_input.c: input-type table and input_format_value for every input type, incl. float round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"

static const char *fmt(input_type t, uint64_t bits)
{
    static char buf[64];
    return input_format_value(buf, sizeof buf, t, bits);
}

static void test_widths_names_signedness(void **state)
{
    static const struct {
        input_type t;
        unsigned w;
        int s;
        const char *name;
    } want[] = {
        {IT_INT, 32, 1, "int"},
        {IT_UINT, 32, 0, "unsigned int"},
        {IT_CHAR, 8, 1, "char"},
        {IT_UCHAR, 8, 0, "unsigned char"},
        {IT_SCHAR, 8, 1, "signed char"},
        {IT_SHORT, 16, 1, "short"},
        {IT_USHORT, 16, 0, "unsigned short"},
        {IT_LONG, 64, 1, "long"},
        {IT_ULONG, 64, 0, "unsigned long"},
        {IT_LONGLONG, 64, 1, "long long"},
        {IT_ULONGLONG, 64, 0, "unsigned long long"},
        {IT_BOOL, 1, 0, "_Bool"},
        {IT_FLOAT, 32, 1, "float"},
        {IT_DOUBLE, 64, 1, "double"},
        {IT_POINTER, 64, 0, "void *"},
        {IT_SIZE_T, 64, 0, "size_t"},
        {IT_U8, 8, 0, "uint8_t"},
        {IT_U16, 16, 0, "uint16_t"},
        {IT_U32, 32, 0, "uint32_t"},
        {IT_U64, 64, 0, "uint64_t"},
        {IT_S8, 8, 1, "int8_t"},
        {IT_S16, 16, 1, "int16_t"},
        {IT_S32, 32, 1, "int32_t"},
        {IT_S64, 64, 1, "int64_t"},
        {IT_LOFF_T, 64, 1, "loff_t"},
        {IT_BYTE, 8, 0, "unsigned char"},
    };
    assert_int_equal(sizeof want / sizeof want[0], IT_COUNT); /* every type is checked */
    for (size_t i = 0; i < IT_COUNT; i++) {
        assert_int_equal(input_type_width(want[i].t), want[i].w);
        assert_int_equal(input_type_signed(want[i].t), want[i].s);
        assert_string_equal(input_type_c_name(want[i].t), want[i].name);
    }
    /* out of range: no crash, treated as unsigned 64-bit */
    assert_int_equal(input_type_width((input_type)200), 64);
    assert_string_equal(fmt((input_type)200, UINT64_MAX), "18446744073709551615");
}

static void test_signed(void **state)
{
    assert_string_equal(fmt(IT_INT, 0), "0");
    assert_string_equal(fmt(IT_INT, 42), "42");
    assert_string_equal(fmt(IT_INT, 0xffffffffu), "-1");
    assert_string_equal(fmt(IT_INT, (uint32_t)INT_MIN), "-2147483648");
    assert_string_equal(fmt(IT_INT, INT_MAX), "2147483647");
    /* bits above the width are ignored */
    assert_string_equal(fmt(IT_INT, 0xabcd00000005ull), "5");
    assert_string_equal(fmt(IT_CHAR, 0xff), "-1");
    assert_string_equal(fmt(IT_SCHAR, 0x80), "-128");
    assert_string_equal(fmt(IT_S8, 0x7f), "127");
    assert_string_equal(fmt(IT_SHORT, 0x8000), "-32768");
    assert_string_equal(fmt(IT_S16, 0xfffe), "-2");
    assert_string_equal(fmt(IT_S32, 0x80000001u), "-2147483647");
    assert_string_equal(fmt(IT_LONG, (uint64_t)INT64_MIN), "-9223372036854775808");
    assert_string_equal(fmt(IT_LONGLONG, UINT64_MAX), "-1");
    assert_string_equal(fmt(IT_S64, 123), "123");
    assert_string_equal(fmt(IT_LOFF_T, (uint64_t)-7), "-7");
}

static void test_unsigned(void **state)
{
    assert_string_equal(fmt(IT_UINT, 0xffffffffu), "4294967295");
    assert_string_equal(fmt(IT_UCHAR, 0xff), "255");
    assert_string_equal(fmt(IT_BYTE, 0x1ff), "255");
    assert_string_equal(fmt(IT_U8, 0x80), "128");
    assert_string_equal(fmt(IT_USHORT, 0xffff), "65535");
    assert_string_equal(fmt(IT_U16, 0x18000), "32768");
    assert_string_equal(fmt(IT_U32, 7), "7");
    assert_string_equal(fmt(IT_ULONG, UINT64_MAX), "18446744073709551615");
    assert_string_equal(fmt(IT_ULONGLONG, 1ull << 63), "9223372036854775808");
    assert_string_equal(fmt(IT_U64, 0), "0");
    assert_string_equal(fmt(IT_SIZE_T, 4096), "4096");
}

static void test_bool_pointer(void **state)
{
    assert_string_equal(fmt(IT_BOOL, 0), "0");
    assert_string_equal(fmt(IT_BOOL, 1), "1");
    assert_string_equal(fmt(IT_BOOL, 2), "0"); /* width 1: only bit 0 counts */
    assert_string_equal(fmt(IT_POINTER, 0), "0x0");
    assert_string_equal(fmt(IT_POINTER, 0x7ffdeadbeef0ull), "0x7ffdeadbeef0");
    assert_string_equal(fmt(IT_POINTER, UINT64_MAX), "0xffffffffffffffff");
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static uint64_t double_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static void test_float_round_trip(void **state)
{
    const float fs[] = {
        0.0f,        -0.0f,    1.0f,     -1.5f, 0.1f, 3.4028235e38f, 1.17549435e-38f, 1.4e-45f /* smallest subnormal */,
        123456.789f, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        const char *s = fmt(IT_FLOAT, float_bits(fs[i]));
        char *end;
        float back = strtof(s, &end);
        assert_int_equal(*end, '\0');
        assert_int_equal(float_bits(back), float_bits(fs[i]));
    }
    /* upper bits of the 64-bit pattern are ignored for float */
    assert_int_equal(float_bits(strtof(fmt(IT_FLOAT, 0xdead00000000ull | float_bits(2.0f)), NULL)), float_bits(2.0f));

    const double ds[] = {
        0.0, -0.0, 1.0, -2.75, 0.1, 1e308, -4.9e-324, 2.2250738585072014e-308, 3.141592653589793, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        const char *s = fmt(IT_DOUBLE, double_bits(ds[i]));
        char *end;
        double back = strtod(s, &end);
        assert_int_equal(*end, '\0');
        assert_true(double_bits(back) == double_bits(ds[i]));
    }
    assert_string_equal(fmt(IT_DOUBLE, double_bits(1.0)), "0x1p+0");
    /* NaN: sign kept, reads back as NaN */
    double nan_neg = strtod(fmt(IT_DOUBLE, double_bits(-NAN)), NULL);
    assert_true(isnan(nan_neg) && signbit(nan_neg));
    float nan_pos = strtof(fmt(IT_FLOAT, float_bits(NAN)), NULL);
    assert_true(isnan(nan_pos) && !signbit(nan_pos));
}

static void test_small_buffer(void **state)
{
    char buf[4];
    input_format_value(buf, sizeof buf, IT_INT, (uint32_t)-123456);
    assert_string_equal(buf, "-12"); /* truncated, still terminated */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths_names_signedness),
        cmocka_unit_test(test_signed),
        cmocka_unit_test(test_unsigned),
        cmocka_unit_test(test_bool_pointer),
        cmocka_unit_test(test_float_round_trip),
        cmocka_unit_test(test_small_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
