/* test_unit_walk_shape.c: how the walk reads a struct's shape: counted arrays, a tagged union's tag, enum and members, anonymous members. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "unit/harness_int.h"

static ut_type vd = {.kind = UT_VOID};
static ut_type ch = {.kind = UT_INT, .size = 1, .bits = 8, .is_char = 1, .is_signed = 1, .is_plain_char = 1};
static ut_type in = {.kind = UT_INT, .size = 4, .bits = 32, .is_signed = 1};
static ut_type sz = {.kind = UT_INT, .size = 8, .bits = 64};
static ut_type dbl = {.kind = UT_FLOAT, .size = 8};

/* A count beside an array of strings, of struct pointers, of structs; a capacity is no count; a pointer
 * to one struct next to a count is no array. */
static void test_counted(void **state)
{
    (void)state;
    ut_field nf[] = {{"v", &in, 0, NULL}};
    ut_type node = {.kind = UT_STRUCT, .size = 4, .complete = 1, .fields = nf, .nfields = 1, .spelling = "struct n"};
    ut_type cp = {.kind = UT_PTR, .size = 8, .pointee = &ch};
    ut_type cpp = {.kind = UT_PTR, .size = 8, .pointee = &cp};
    ut_type np = {.kind = UT_PTR, .size = 8, .pointee = &node};
    ut_type npp = {.kind = UT_PTR, .size = 8, .pointee = &np};
    ut_type ip = {.kind = UT_PTR, .size = 8, .pointee = &in};
    ut_field of[] = {{"wrapping", &np, 0, NULL}, {"hashes", &ip, 0, NULL},   {"names", &cpp, 0, NULL},
                     {"values", &npp, 0, NULL},  {"capacity", &sz, 0, NULL}, {"count", &sz, 0, NULL},
                     {"entries", &np, 0, NULL},  {"n_nodes", &sz, 0, NULL},  {"nodes", &np, 0, NULL}};
    ut_type obj = {.kind = UT_STRUCT, .size = 72, .complete = 1, .fields = of, .nfields = 9, .spelling = "struct o"};
    int c = -1;
    assert_false(unit_walk_counted(&obj, &of[0], &c)); /* one struct, not named as an array */
    assert_false(unit_walk_counted(&obj, &of[1], &c)); /* integers: not walked */
    assert_true(unit_walk_counted(&obj, &of[2], &c));
    assert_int_equal(c, 5); /* count, not capacity */
    assert_true(unit_walk_counted(&obj, &of[3], &c));
    assert_int_equal(c, 5);
    assert_true(unit_walk_counted(&obj, &of[6], &c)); /* structs, a plural name */
    assert_int_equal(c, 5);
    assert_true(unit_walk_counted(&obj, &of[8], &c)); /* its own count first */
    assert_int_equal(c, 7);
}

/* An int tag with the enum naming the members; an enum tag; members by name, by abbreviation, none for
 * a valueless one; an anonymous struct member. */
static void test_tagged(void **state)
{
    (void)state;
    ut_field af[] = {{"ptr", &ch, 0, NULL}};
    ut_type anon = {
        .kind = UT_STRUCT, .size = 8, .complete = 1, .fields = af, .nfields = 1, .spelling = "struct (unnamed"};
    ut_field uf[] = {{"number", &dbl, 0, NULL},
                     {"dbl", &dbl, 0, NULL},
                     {"string", &anon, 0, NULL},
                     {"null", &in, 0, NULL},
                     {"b", &in, 0, NULL}};
    ut_type un = {.kind = UT_UNION, .size = 8, .complete = 1, .fields = uf, .nfields = 5};
    assert_ptr_equal(unit_walk_member(&un, "JSONNumber"), &uf[0]);
    assert_ptr_equal(unit_walk_member(&un, "json_double"), &uf[1]);
    assert_ptr_equal(unit_walk_member(&un, "JSON_STRING"), &uf[2]);
    assert_null(unit_walk_member(&un, "JSONNull")); /* carries no value */
    assert_null(unit_walk_member(&un, "K_B"));      /* too short a member */
    assert_true(unit_walk_anon(&anon));
    ut_enumerator en[] = {{"JSONNull", 1}, {"JSONString", 2}, {"JSONNumber", 3}};
    ut_type et = {.kind = UT_ENUM, .size = 4, .bits = 32, .is_signed = 1, .enums = en, .nenums = 3};
    ut_enumerator other[] = {{"RED", 0}, {"GREEN", 1}};
    ut_type ot = {.kind = UT_ENUM, .size = 4, .bits = 32, .enums = other, .nenums = 2};
    ut_type *types[] = {&ot, &et, &un};
    unit_info u = {0};
    u.types = types;
    u.ntypes = 3;
    ut_field vf[] = {{"parent", &vd, 0, NULL}, {"type", &in, 0, NULL}, {"value", &un, 0, NULL}};
    ut_type val = {.kind = UT_STRUCT, .size = 16, .complete = 1, .fields = vf, .nfields = 3, .spelling = "struct v"};
    const ut_field *tag = unit_walk_tag(&val);
    assert_ptr_equal(tag, &vf[1]); /* an int named type */
    assert_ptr_equal(unit_walk_tag_enum(&u, tag, &un), &et);
    ut_field ef[] = {{"kind", &ot, 0, NULL}, {"u", &un, 0, NULL}};
    ut_type tagged = {.kind = UT_STRUCT, .size = 16, .complete = 1, .fields = ef, .nfields = 2, .spelling = "struct t"};
    assert_ptr_equal(unit_walk_tag_enum(&u, unit_walk_tag(&tagged), &un), &ot); /* an enum tag: its own type */
    ut_field nf[] = {{"len", &in, 0, NULL}};
    ut_type none = {.kind = UT_STRUCT, .size = 4, .complete = 1, .fields = nf, .nfields = 1, .spelling = "struct x"};
    assert_null(unit_walk_tag(&none));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_counted), cmocka_unit_test(test_tagged)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
