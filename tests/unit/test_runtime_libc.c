/* test_runtime_libc.c: the runtime side of the libc models: vararg shadow slots (value-checked, turning concrete mode off) and per-callee concretization counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/core/rt_internal.h"
#include "runtime/core/rt_fast.c" /* the inline fast paths, normally linked as bitcode */

int32_t sym_model_vararg32(uint32_t k, int32_t value);
int64_t sym_model_vararg64(uint32_t k, int64_t value);

static int setup(void **state)
{
    rt_test_setup(NULL, 0, 4096, 64);
    return 0;
}

static void test_vararg_slots(void **state)
{
    expr_ctx *cx = rt_cx();
    expr *x = expr_symbol(cx, 0, 32, 41);
    assert_int_equal(__sym_shadow_active, 0);
    __sym_set_vararg(1, x);
    /* a symbolic slot turns concrete mode off, as a symbolic byte in memory does */
    assert_int_equal(__sym_shadow_active, 1);
    /* the model reads argument 1 back: its value, the slot's expression as return shadow */
    assert_int_equal(sym_model_vararg32(1, 41), 41);
    assert_ptr_equal(__sym_get_ret(41, 32), x);
    /* a stale slot (another value) reads as concrete, never as a wrong expression */
    sym_model_vararg32(1, 7);
    assert_null(__sym_get_ret(7, 32));
    /* a 32-bit slot read as 64 bits is extended to reproduce the value */
    sym_model_vararg64(1, 41);
    expr *w = __sym_get_ret(41, 64);
    assert_non_null(w);
    assert_int_equal(w->width, 64);
    /* an empty slot, and slots out of range */
    sym_model_vararg32(0, 5);
    assert_null(__sym_get_ret(5, 32));
    sym_model_vararg32(1000, 5);
    assert_null(__sym_get_ret(5, 32));
    rt_varargs_reset();
    sym_model_vararg32(1, 41);
    assert_null(__sym_get_ret(41, 32));
}

static void test_concretizations_by_callee(void **state)
{
    expr_ctx *cx = rt_cx();
    trace_header *h = rt_test_header();
    expr *x = expr_symbol(cx, 0, 32, 3);
    __sym_concretize_call(2, x);
    __sym_concretize_call(2, x);
    __sym_concretize_call(2, NULL); /* concrete argument: nothing */
    __sym_concretize_call(5000, x); /* id past the table: slot 0 */
    assert_int_equal(h->conc_fn[2], 2);
    assert_int_equal(h->conc_fn[0], 1);
    assert_int_equal(h->conc[CONC_EXTERNAL_CALL], 3);
    /* a pointer to symbolic bytes counts once per call */
    static uint8_t buf[16];
    __sym_store(buf + 3, 1, expr_symbol(cx, 1, 8, 0), NULL);
    __sym_external_ptr_call(buf, 4);
    assert_int_equal(h->conc_fn[4], 1);
    uint8_t *clean = calloc(1, 4096); /* the scan covers 256 bytes: far from buf */
    __sym_external_ptr_call(clean + 8, 4);
    assert_int_equal(h->conc_fn[4], 1);
    free(clean);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_vararg_slots, setup),
        cmocka_unit_test_setup(test_concretizations_by_callee, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
