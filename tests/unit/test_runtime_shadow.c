/* test_runtime_shadow.c: unit tests of the runtime's shadow memory (store/load round trips, clears, memcpy/memmove, memset). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/core/rt_internal.h"
#include "runtime/core/rt_fast.c" /* the inline fast paths, normally linked as bitcode */

static uint8_t *page_buf; /* two pages, aligned, so tests can straddle the boundary */

static int setup(void **state)
{
    rt_test_setup(NULL, 0, 4096, 64);
    page_buf = aligned_alloc(4096, 3 * 4096);
    memset(page_buf, 0, 3 * 4096);
    return 0;
}

static int teardown(void **state)
{
    free(page_buf);
    return 0;
}

/* What instrumented code does: the shadow side of a store, then the store itself (the
 * runtime treats a shadow byte whose value differs from memory as stale). */
static void sym_store(void *p, uint64_t size, expr *v)
{
    __sym_store(p, size, v, NULL);
    memcpy(p, &v->value, size);
}

static void sym_copy(void *dst, const void *src, uint64_t n)
{
    __sym_memcpy(dst, src, n, NULL);
    memmove(dst, src, n);
}

static void test_round_trip_32_unaligned(void **state)
{
    expr *x = expr_symbol(rt_cx(), 0, 32, 0x11223344);
    uint8_t *p = page_buf + 1;
    assert_null(__sym_load(p, 4, NULL)); /* nothing symbolic yet */
    sym_store(p, 4, x);
    assert_ptr_equal(__sym_load(p, 4, NULL), x);
    /* a part of it is the matching extract */
    assert_ptr_equal(__sym_load(p + 2, 2, NULL), expr_extract(rt_cx(), x, 16, 16));
    assert_ptr_equal(__sym_load(p + 3, 1, NULL), expr_extract(rt_cx(), x, 24, 8));
    /* neighbours stay concrete */
    assert_null(__sym_load(p - 1, 1, NULL));
    assert_null(__sym_load(p + 4, 4, NULL));
}

static void test_round_trip_64_page_boundary(void **state)
{
    expr *x = expr_symbol(rt_cx(), 1, 64, 0x0102030405060708ull);
    uint8_t *p = page_buf + 4096 - 3;
    memcpy(p, &x->value, 8);
    __sym_store(p, 8, x, NULL);
    assert_ptr_equal(__sym_load(p, 8, NULL), x);
    assert_ptr_equal(__sym_load(p + 4, 4, NULL), expr_extract(rt_cx(), x, 32, 32));
    /* a load mixing symbolic and concrete bytes: the concrete ones are the memory contents */
    p[8] = 0xab;
    expr *m = __sym_load(p + 6, 4, NULL);
    assert_non_null(m);
    assert_int_equal(m->width, 32);
    assert_int_equal(m->value, 0x00ab0102u);
}

static void test_concrete_store_clears(void **state)
{
    expr *x = expr_symbol(rt_cx(), 0, 32, 7);
    uint8_t *p = page_buf + 100;
    sym_store(p, 4, x);
    __sym_store(p + 1, 2, NULL, NULL);
    assert_null(__sym_load(p + 1, 2, NULL));
    assert_ptr_equal(__sym_load(p, 1, NULL), expr_extract(rt_cx(), x, 0, 8));
    assert_ptr_equal(__sym_load(p + 3, 1, NULL), expr_extract(rt_cx(), x, 24, 8));
    /* a large concrete store (aggregate) clears everything it covers */
    __sym_store(page_buf, 4096 + 16, NULL, NULL);
    assert_null(__sym_load(p, 4, NULL));
}

/* Memory written by code that is not instrumented (read(), sprintf()) leaves stale shadow
 * bytes; a load notices the value mismatch and treats those bytes as concrete. */
static void test_stale_shadow_is_dropped(void **state)
{
    expr *x = expr_symbol(rt_cx(), 0, 32, 0x01020304);
    uint8_t *p = page_buf + 200;
    sym_store(p, 4, x);
    p[1] = 0xee; /* behind the runtime's back */
    expr *e = __sym_load(p, 4, NULL);
    assert_non_null(e);
    assert_int_equal(e->value, 0x0102ee04);
    assert_null(__sym_load(p + 1, 1, NULL));
    assert_ptr_equal(__sym_load(p + 2, 1, NULL), expr_extract(rt_cx(), x, 16, 8));
    assert_true(rt_test_header()->conc[CONC_EXTERNAL_CALL] >= 1);
}

/* A load through a symbolic address inside a page is a select over its neighbours: it
 * evaluates to the element the address picks under other inputs too. */
static void test_symbolic_index_is_a_select(void **state)
{
    expr_ctx *cx = rt_cx();
    uint32_t *arr = (uint32_t *)(page_buf + 64);
    for (int k = 0; k < 16; k++) arr[k] = 100 + (uint32_t)k;
    expr *sym5 = expr_symbol(cx, 1, 32, 0x5555);
    sym_store(&arr[9], 4, sym5); /* one element is symbolic itself */
    expr *i = expr_symbol(cx, 0, 64, 3);
    expr *addr = expr_binary(cx, EXPR_ADD, expr_const(cx, (uintptr_t)arr, 64),
                             expr_binary(cx, EXPR_MUL, i, expr_const(cx, 4, 64)));
    expr *v = __sym_load(&arr[3], 4, addr);
    assert_non_null(v);
    assert_int_equal(v->value, 103);
    for (uint64_t k = 0; k < 16; k++) {
        uint64_t in[2] = {k, 0x77};
        assert_int_equal(expr_eval(v, in, 2), k == 9 ? 0x77 : 100 + k);
    }
    /* the run records the window it assumed (a BK_CONCRETIZE node) */
    trace_header *h = rt_test_header();
    const trace_rec *ev = &rt_test_records()[h->nrecs - 1];
    assert_int_equal(ev->type, REC_BRANCH);
    assert_int_equal(ev->u.br.kind, BK_CONCRETIZE);
    assert_int_equal(ev->u.br.taken, 1);
}

static void test_symbolic_address_is_pinned(void **state)
{
    expr_ctx *cx = rt_cx();
    expr *i = expr_symbol(cx, 0, 64, 3);
    /* a load that straddles two pages is not turned into a select: the address is pinned */
    uintptr_t base = (uintptr_t)page_buf + 4096 - 5;
    expr *addr = expr_binary(cx, EXPR_ADD, expr_const(cx, base, 64), i);
    assert_null(__sym_load(page_buf + 4096 - 2, 4, addr));
    trace_header *h = rt_test_header();
    assert_int_equal(h->conc[CONC_SYM_POINTER], 1);
    const trace_rec *r = rt_test_records();
    assert_true(h->nrecs >= 2);
    const trace_rec *ev = &r[h->nrecs - 1];
    assert_int_equal(ev->type, REC_BRANCH);
    assert_int_equal(ev->u.br.kind, BK_CONCRETIZE);
    assert_int_equal(ev->u.br.taken, 1);
    assert_int_equal(ev->u.br.arg, CONC_SYM_POINTER);
}

/* byte symbols 0..n-1 stored at p[0..n) */
static void store_bytes(uint8_t *p, unsigned n, unsigned first_sym)
{
    for (unsigned i = 0; i < n; i++) {
        expr *b = expr_symbol(rt_cx(), first_sym + i, 8, i);
        sym_store(p + i, 1, b);
    }
}

static void check_bytes(uint8_t *p, unsigned n, unsigned first_sym)
{
    for (unsigned i = 0; i < n; i++) {
        expr *b = __sym_load(p + i, 1, NULL);
        assert_non_null(b);
        assert_int_equal(b->op, EXPR_SYMBOL);
        assert_int_equal(b->aux, first_sym + i);
    }
}

static void test_memcpy_and_overlaps(void **state)
{
    uint8_t *p = page_buf + 10;
    store_bytes(p, 8, 0);
    sym_copy(page_buf + 4096, p, 8); /* disjoint */
    check_bytes(page_buf + 4096, 8, 0);

    sym_copy(p + 3, p, 8); /* overlapping, dst above src: memmove */
    check_bytes(p + 3, 8, 0);
    assert_int_equal(__sym_load(p + 2, 1, NULL)->aux, 2);

    __sym_store(p, 16, NULL, NULL);
    store_bytes(p, 8, 0);
    sym_copy(p, p + 3, 8); /* overlapping, dst below src */
    for (unsigned i = 0; i < 5; i++) assert_int_equal(__sym_load(p + i, 1, NULL)->aux, i + 3);
    assert_null(__sym_load(p + 5, 1, NULL)); /* came from concrete p[8..11) */
}

static void test_memmove_large_overlap(void **state)
{
    /* more than one bounce block, across a page boundary, dst above src */
    uint8_t *p = page_buf + 1000;
    __sym_store(p, 4096 + 1000, NULL, NULL);
    store_bytes(p + 1500, 4, 0);
    store_bytes(p + 2990, 4, 4);
    sym_copy(p + 100, p, 3000);
    check_bytes(p + 1600, 4, 0);
    check_bytes(p + 3090, 4, 4);
    assert_null(__sym_load(p + 1500, 4, NULL)); /* overwritten from concrete p[1400..) */
    /* and back down */
    sym_copy(p, p + 100, 3000);
    check_bytes(p + 1500, 4, 0);
    check_bytes(p + 2990, 4, 4);
}

static void test_memset(void **state)
{
    uint8_t *p = page_buf + 4090;
    expr *v = expr_symbol(rt_cx(), 0, 8, 0x5a);
    __sym_memset(p, v, 12, NULL);
    memset(p, 0x5a, 12);
    for (int i = 0; i < 12; i++) assert_ptr_equal(__sym_load(p + i, 1, NULL), v);
    assert_null(__sym_load(p + 12, 1, NULL));
    __sym_memset(p + 2, NULL, 4, NULL);
    memset(p + 2, 0, 4);
    assert_null(__sym_load(p + 2, 4, NULL));
    assert_ptr_equal(__sym_load(p + 6, 1, NULL), v);
}

static void test_symbolic_length_is_pinned(void **state)
{
    expr *n = expr_symbol(rt_cx(), 0, 64, 16);
    __sym_memset(page_buf, NULL, 16, n);
    assert_int_equal(rt_test_header()->conc[CONC_SYM_SIZE], 1);
    const trace_rec *r = rt_test_records();
    const trace_rec *ev = &r[rt_test_header()->nrecs - 1];
    assert_int_equal(ev->u.br.kind, BK_CONCRETIZE);
    assert_int_equal(ev->u.br.arg, CONC_SYM_SIZE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip_32_unaligned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_64_page_boundary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_concrete_store_clears, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symbolic_address_is_pinned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memcpy_and_overlaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memmove_large_overlap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_shadow_is_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symbolic_index_is_a_select, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symbolic_length_is_pinned, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
