/* test_data_tree.c: the execution tree over tuples: paths, complement nodes, path conditions (data_tree.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "data/data_int.h"

static sym_event ev(uint32_t site, int taken)
{
    sym_event e;
    memset(&e, 0, sizeof e);
    e.kind = BK_BRANCH;
    e.site = site;
    e.taken = (uint8_t)taken;
    return e;
}

static void insert(dsite *s, const sym_event *e, char **sql, size_t n, int want_fresh)
{
    const sym_event *pe[8];
    const char *why[8] = {0};
    for (size_t i = 0; i < n; i++) pe[i] = &e[i];
    assert_int_equal(dtree_insert(s, pe, sql, why, n), want_fresh);
}

static void test_paths_and_complements(void **state)
{
    dsite s;
    memset(&s, 0, sizeof s);
    /* tuple 1: a > 5 true, then b = 1 false */
    sym_event e1[2] = {ev(1, 1), ev(2, 0)};
    char *q1[2] = {"(c0 > 5)", "NOT (c1 = 1)"};
    insert(&s, e1, q1, 2, 0);
    assert_int_equal(dtree_paths(&s.root), 1);
    dtree_count_open(&s.root);
    assert_int_equal(s.root.open_below, 2); /* a > 5 false; b = 1 true */
    /* the complement of the second edge: path condition with the first edge's */
    dnode *a = NULL;
    for (dnode *k = s.root.kids; k; k = k->next)
        if (k->explored) a = k;
    assert_non_null(a);
    dnode *b1 = NULL;
    for (dnode *k = a->kids; k; k = k->next)
        if (!k->explored) b1 = k;
    assert_non_null(b1);
    assert_int_equal(b1->dir, 1);
    unsigned dropped = 9;
    char *pc = dtree_path_sql(b1, &dropped);
    assert_string_equal(pc, "(c1 = 1) AND (c0 > 5)");
    assert_int_equal(dropped, 0);
    free(pc);
    /* tuple 2 takes that complement node: one complement node explored, a new path */
    sym_event e2[2] = {ev(1, 1), ev(2, 1)};
    char *q2[2] = {"(c0 > 5)", "(c1 = 1)"};
    insert(&s, e2, q2, 2, 1);
    assert_int_equal(dtree_paths(&s.root), 2);
    dtree_count_open(&s.root);
    assert_int_equal(s.root.open_below, 1);
    /* the same path again: nothing new */
    insert(&s, e2, q2, 2, 0);
    assert_int_equal(dtree_paths(&s.root), 2);
    dtree_free(&s.root);
}

static void test_not_expressible_edges(void **state)
{
    dsite s;
    memset(&s, 0, sizeof s);
    sym_event e[2] = {ev(1, 0), ev(3, 1)};
    char *q[2] = {NULL, "(c2 < 0)"}; /* the first condition has no SQL form */
    insert(&s, e, q, 2, 0);
    dnode *first_open = NULL, *deep_open = NULL;
    for (dnode *k = s.root.kids; k; k = k->next) {
        if (!k->explored)
            first_open = k;
        else
            for (dnode *j = k->kids; j; j = j->next)
                if (!j->explored) deep_open = j;
    }
    assert_non_null(first_open);
    assert_int_equal(first_open->state, DN_NOT_SQL); /* no condition: not a candidate of its own */
    assert_non_null(deep_open);
    unsigned dropped = 0;
    char *pc = dtree_path_sql(deep_open, &dropped);
    assert_string_equal(pc, "NOT (c2 < 0)"); /* wider: the inexpressible edge is dropped and counted */
    assert_int_equal(dropped, 1);
    free(pc);
    dtree_free(&s.root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths_and_complements),
        cmocka_unit_test(test_not_expressible_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
