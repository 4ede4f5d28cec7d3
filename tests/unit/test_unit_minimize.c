/* test_unit_minimize.c: the suite minimisation of `sympath unit` (which tests of a function are kept) and the values input diversification prefers. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/trace.h"
#include "unit/pipeline_int.h"
#include "util/util.h"

static const uint32_t C_ABC[] = {1, 2, 3}, C_AB[] = {1, 2}, C_C[] = {3}, C_D[] = {4}, C_ABCD[] = {1, 2, 3, 4};

#define ITEM(c, fail, cost, res)                    \
    {                                               \
        c, sizeof c / sizeof *c, 1, fail, cost, res \
    }

/* A test whose slots a kept test covers, with the same result, goes; the one covering most stays. */
static void test_subset_with_same_result_removed(void **state)
{
    (void)state;
    unit_min_item it[] = {ITEM(C_AB, 0, 1, "0 0 0 i 1"), ITEM(C_ABC, 0, 5, "0 0 0 i 1"), ITEM(C_C, 0, 1, "0 0 0 i 1")};
    int keep[3];
    assert_int_equal(unit_minimize_select(it, 3, keep), 1);
    assert_int_equal(keep[0], 0);
    assert_int_equal(keep[1], 1);
    assert_int_equal(keep[2], 0);
}

/* Two simple tests that together cover what an expensive one covers: the greedy choice takes the
 * expensive one first (it covers the most), and then the others add nothing. With equal gain,
 * the simpler test is taken. */
static void test_ties_prefer_simpler(void **state)
{
    (void)state;
    unit_min_item it[] = {ITEM(C_ABC, 0, 9, "r"), ITEM(C_ABC, 0, 2, "r"), ITEM(C_ABC, 0, 4, "r")};
    int keep[3];
    assert_int_equal(unit_minimize_select(it, 3, keep), 1);
    assert_int_equal(keep[1], 1);
}

/* A redundant test with a result no kept test asserts is kept (variety); its twin is not. */
static void test_variety_keeps_new_result(void **state)
{
    (void)state;
    unit_min_item it[] = {ITEM(C_ABCD, 0, 3, "0 0 0 i 7"), ITEM(C_AB, 0, 1, "0 0 0 i 0"), ITEM(C_AB, 0, 2, "0 0 0 i 0"),
                          ITEM(C_C, 0, 1, "0 0 0 i 7")};
    int keep[4];
    assert_int_equal(unit_minimize_select(it, 4, keep), 2);
    assert_int_equal(keep[0], 1);
    assert_int_equal(keep[1], 1); /* the simpler of the two that return 0 */
    assert_int_equal(keep[2], 0);
    assert_int_equal(keep[3], 0);
}

/* A failing test (its child is invisible to gcov) is chosen only for what no passing test
 * covers; tests of unknown coverage are always kept. */
static void test_failing_last_unknown_kept(void **state)
{
    (void)state;
    unit_min_item it[] = {ITEM(C_ABCD, 1, 1, "1 11 0 - "),
                          ITEM(C_ABC, 0, 5, "0 0 0 i 1"),
                          ITEM(C_D, 0, 5, "0 0 0 i 1"),
                          {NULL, 0, 0, 0, 100, "0 0 0 i 1"}};
    int keep[4];
    size_t n = unit_minimize_select(it, 4, keep);
    assert_int_equal(keep[1], 1);
    assert_int_equal(keep[2], 1);
    assert_int_equal(keep[3], 1);
    assert_int_equal(keep[0], 1); /* not for coverage: its result (a crash) is new */
    assert_int_equal(n, 4);
    it[0].result = "0 0 0 i 1"; /* the same result: the passing tests cover it */
    assert_int_equal(unit_minimize_select(it, 4, keep), 3);
    assert_int_equal(keep[0], 0);
    assert_int_equal(unit_minimize_select(it, 0, keep), 0);
}

/* Bytes: printable, not 0 or 1, different for neighbouring inputs, none equal to the current
 * value; integers away from 0 and 1 within their width; nothing for the harness's decisions. */
static void test_diversify_prefs(void **state)
{
    (void)state;
    uint64_t v[3], w[3];
    assert_int_equal(unit_diversify_prefs("s[]", IT_BYTE, 8, 0, 4, v, 3), 3);
    assert_int_equal(unit_diversify_prefs("s[]", IT_BYTE, 8, 0, 5, w, 3), 3);
    assert_true(v[0] != w[0]);
    for (int k = 0; k < 3; k++) {
        assert_true(isprint((int)v[k]) && v[k] != ' ' && v[k] != '"' && v[k] != '\\');
        assert_true(v[k] > 1);
    }
    /* two arrays of 32 bytes, 33 inputs apart, read at a shift of one (a copy after a quote): few bytes alike */
    int alike = 0;
    for (uint32_t k = 0; k < 32; k++) {
        assert_int_equal(unit_diversify_prefs("s[]", IT_BYTE, 8, 0, 100 + k + 1, v, 1), 1);
        assert_int_equal(unit_diversify_prefs("s[]", IT_BYTE, 8, 0, 133 + k, w, 1), 1);
        alike += v[0] == w[0];
        assert_int_equal(unit_diversify_prefs("s[]", IT_BYTE, 8, 0, 100 + k, w, 1), 1);
        assert_true(v[0] != w[0]); /* neighbours differ */
    }
    assert_true(alike < 8);
    assert_int_equal(unit_diversify_prefs("s[]", IT_BYTE, 8, 0, 4, v, 3), 3);
    unsigned n = unit_diversify_prefs("s[]", IT_BYTE, 8, v[0], 4, w, 3);
    for (unsigned k = 0; k < n; k++) assert_true(w[k] != v[0]);
    assert_int_equal(unit_diversify_prefs("x", IT_INT, 32, 0, 0, v, 3), 3);
    assert_true(v[0] > 1 && v[1] > 1 && v[2] > 1);
    assert_int_equal(unit_diversify_prefs("x", IT_INT, 32, 0, 1, w, 3), 3);
    assert_true(v[0] != w[0]);
    assert_int_equal(unit_diversify_prefs("x", IT_U16, 16, 7, 0, v, 3), 2); /* 7 is its value already */
    assert_int_equal(unit_diversify_prefs("p.null", IT_INT, 8, 0, 0, v, 3), 0);
    assert_int_equal(unit_diversify_prefs("p", IT_BOOL, 8, 0, 0, v, 3), 0);
    assert_int_equal(unit_diversify_prefs("p", IT_POINTER, 64, 0, 0, v, 3), 0);
    assert_int_equal(unit_diversify_prefs("d", IT_DOUBLE, 64, 0, 0, v, 1), 1);
    assert_true(v[0] == 0x4004000000000000ull); /* 2.5 */
    assert_int_equal(unit_diversify_prefs("d", IT_DOUBLE, 64, 0, 0, v, 0), 0);
}

/* unit_minimize_tests: the coverage comes from the run directory's test-NNNNN.cov files; a test
 * without one (an error reproducer) stays; other functions' tests are left alone. */
static void test_minimize_tests_from_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/sympath_min_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *tdir = util_strf("%s/tests", dir), *p1 = util_strf("%s/test-00001.cov", tdir),
         *p2 = util_strf("%s/test-00002.cov", tdir);
    assert_int_equal(util_mkdir_p(tdir), 0);
    assert_int_equal(util_write_atomic(p1, "3 4\n", 4), 0);
    assert_int_equal(util_write_atomic(p2, "3 4 5\n", 6), 0);
    ut_func f = {0}, g = {0};
    fn_result fr[2];
    memset(fr, 0, sizeof fr);
    fr[0].fn = &f;
    fr[0].run_dir = dir;
    fr[1].fn = &g;
    fr[1].run_dir = dir;
    unit_test t[4];
    memset(t, 0, sizeof t);
    char o1[] = "test-00001.xml", o2[] = "test-00002.xml", oe[] = "error-001.xml", r5[] = "5";
    t[0].fn = &f, t[0].origin = o1, t[0].rec.ret.kind = 'i', t[0].rec.ret.text = r5;
    t[1].fn = &g, t[1].origin = o1;
    t[2].fn = &f, t[2].origin = o2, t[2].rec.ret.kind = 'i', t[2].rec.ret.text = r5;
    t[3].fn = &f, t[3].origin = oe, t[3].rec.ret.kind = 'i', t[3].rec.ret.text = r5;
    tests_vec tv = {malloc(sizeof t), 4, NULL};
    memcpy(tv.v, t, sizeof t);
    assert_int_equal(unit_minimize_tests(&tv, fr, 2), 1);
    assert_int_equal(tv.n, 3);
    assert_ptr_equal(tv.v[0].fn, &g); /* order kept: g's, then f's test-00002 and its error */
    assert_ptr_equal(tv.v[1].origin, o2);
    assert_ptr_equal(tv.v[2].origin, oe);
    assert_int_equal(fr[0].min_before, 3);
    assert_int_equal(fr[0].min_after, 2);
    assert_int_equal(fr[1].min_after, 1);
    free(tv.v);
    unlink(p1), unlink(p2), rmdir(tdir), rmdir(dir);
    free(tdir), free(p1), free(p2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subset_with_same_result_removed),
        cmocka_unit_test(test_ties_prefer_simpler),
        cmocka_unit_test(test_variety_keeps_new_result),
        cmocka_unit_test(test_failing_last_unknown_kept),
        cmocka_unit_test(test_diversify_prefs),
        cmocka_unit_test(test_minimize_tests_from_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
