/* test_util_ptrmap.c: the pointer map: put, replace, get, growth past many entries, clear and reuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/util.h"

static void test_empty_map_finds_nothing(void **state)
{
    ptrmap m = PTRMAP_INIT;
    int x = 0;
    assert_null(ptrmap_get(&m, &x));
    ptrmap_clear(&m);
    assert_int_equal(m.n, 0);
}

static void test_put_get_replace(void **state)
{
    ptrmap m = PTRMAP_INIT;
    int a = 0, b = 0, c = 0;
    assert_int_equal(ptrmap_put(&m, &a, &b, &c), 0);
    ptrmap_ent *e = ptrmap_get(&m, &a);
    assert_non_null(e);
    assert_ptr_equal(e->key, &a);
    assert_ptr_equal(e->a, &b);
    assert_ptr_equal(e->b, &c);
    assert_null(ptrmap_get(&m, &b));
    /* a second put of the same key replaces its values, the count stays */
    assert_int_equal(ptrmap_put(&m, &a, &c, NULL), 0);
    e = ptrmap_get(&m, &a);
    assert_ptr_equal(e->a, &c);
    assert_null(e->b);
    assert_int_equal(m.n, 1);
    /* values can be changed in place */
    e->b = &b;
    assert_ptr_equal(ptrmap_get(&m, &a)->b, &b);
    ptrmap_clear(&m);
}

/* Many keys, as consecutive addresses (aligned like allocations) and integers stored as
 * values: every key keeps its value through the table's growth; the table stays at most
 * half full. */
static void test_growth_keeps_every_entry(void **state)
{
    enum { N = 20000 };
    uint64_t *keys = calloc(N, sizeof *keys);
    assert_non_null(keys);
    ptrmap m = PTRMAP_INIT;
    for (uintptr_t i = 0; i < N; i++) assert_int_equal(ptrmap_put(&m, &keys[i], (void *)(i + 1), (void *)(2 * i)), 0);
    assert_int_equal(m.n, N);
    assert_true(2 * m.n <= m.cap);
    assert_int_equal(m.cap & (m.cap - 1), 0); /* a power of two */
    for (uintptr_t i = 0; i < N; i++) {
        ptrmap_ent *e = ptrmap_get(&m, &keys[i]);
        assert_non_null(e);
        assert_int_equal((uintptr_t)e->a, i + 1);
        assert_int_equal((uintptr_t)e->b, 2 * i);
    }
    int other = 0;
    assert_null(ptrmap_get(&m, &other));
    /* cleared, the map is empty and usable again */
    ptrmap_clear(&m);
    assert_null(ptrmap_get(&m, &keys[0]));
    assert_int_equal(ptrmap_put(&m, &keys[7], NULL, NULL), 0);
    assert_non_null(ptrmap_get(&m, &keys[7]));
    assert_null(ptrmap_get(&m, &keys[8]));
    ptrmap_clear(&m);
    free(keys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_map_finds_nothing),
        cmocka_unit_test(test_put_get_replace),
        cmocka_unit_test(test_growth_keeps_every_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
