/* test_runtime_symidx.c: a symbolic-index load inside a known global object (the instrumenter's __sym_objects table) reads the whole object, e.g. a 384-entry ctype table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/core/rt_internal.h"
#include "runtime/core/rt_fast.c" /* the inline fast paths, normally linked as bitcode */

/* What objects.c emits into an executor: here, one table of 384 shorts and one of 4000 ints. */
static unsigned short table[384];
static uint32_t big[4000];
typedef struct sym_object {
    const char *start;
    uint64_t size;
} sym_object;
const sym_object __sym_objects[] = {{(const char *)table, sizeof table}, {(const char *)big, sizeof big}};
const uint64_t __sym_nobjects = 2;

static int setup(void **state)
{
    rt_test_setup(NULL, 0, 4096, 64);
    for (int k = 0; k < 384; k++) table[k] = (unsigned short)(k * 7 + 1);
    for (int k = 0; k < 4000; k++) big[k] = (uint32_t)k;
    return 0;
}

/* &base[i * size], i a 64-bit symbol with concrete value iv */
static expr *index_addr(const void *base, uint64_t size, uint64_t iv)
{
    expr_ctx *cx = rt_cx();
    expr *i = expr_symbol(cx, 0, 64, iv);
    return expr_binary(cx, EXPR_ADD, expr_const(cx, (uintptr_t)base, 64),
                       expr_binary(cx, EXPR_MUL, i, expr_const(cx, size, 64)));
}

static void test_small_object_is_read_whole(void **state)
{
    /* the concrete index is near the end: a 32-element window would miss index 0 */
    expr *v = __sym_load(&table[300], 2, index_addr(table, 2, 300));
    assert_non_null(v);
    assert_int_equal(v->value, table[300]);
    for (uint64_t k = 0; k < 384; k++) {
        uint64_t in[1] = {k};
        assert_int_equal(expr_eval(v, in, 1), table[k]);
    }
}

static void test_big_object_keeps_a_window_inside_it(void **state)
{
    /* 4000 elements: a window of 32 on each side, clipped to the object's start */
    expr *v = __sym_load(&big[3], 4, index_addr(big, 4, 3));
    assert_non_null(v);
    for (uint64_t k = 0; k <= 35; k++) {
        uint64_t in[1] = {k};
        assert_int_equal(expr_eval(v, in, 1), k);
    }
    /* the assumed window is recorded: its other side is an index outside it */
    trace_header *h = rt_test_header();
    const trace_rec *ev = &rt_test_records()[h->nrecs - 1];
    assert_int_equal(ev->u.br.kind, BK_CONCRETIZE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_small_object_is_read_whole, setup),
        cmocka_unit_test_setup(test_big_object_keeps_a_window_inside_it, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
