/* test_report_json.c: the report component's JSON reader: values, escapes, errors with line numbers, nesting limit, a round trip through the JSON writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "report/report_int.h"

static void test_values(void **state)
{
    char *err = NULL;
    jv *v = jv_parse(" {\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\\\"\", \"o\": {}} ",
                     &err);
    assert_non_null(v);
    assert_null(err);
    const jv *a = jv_get(v, "a");
    assert_int_equal(jv_len(a), 5);
    assert_true(jv_num(&a->items[0], 0) == 1 && jv_num(&a->items[1], 0) == -2500);
    assert_true(jv_num(&a->items[2], 0) == 1 && a->items[3].t == JV_BOOL && a->items[4].t == JV_NULL);
    assert_string_equal(jv_str(jv_get(v, "s"), NULL), "x\n\xc3\xa9\xf0\x9f\x98\x80\"");
    assert_int_equal(jv_get(v, "o")->t, JV_OBJ);
    assert_null(jv_get(v, "missing"));
    assert_null(jv_get(a, "a")); /* not an object */
    assert_string_equal(jv_str(NULL, "d"), "d");
    assert_int_equal(jv_len(NULL), 0);
    jv_free(v);
}

static void test_errors(void **state)
{
    static const char *const bad[] = {"{\"a\": 1,}", "[1 2]", "{\"a\" 1}",       "\"abc",
                                      "[1]x",        "tru",   "{\"a\":\"\\q\"}", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *err = NULL;
        assert_null(jv_parse(bad[i], &err));
        assert_non_null(err);
        free(err);
    }
    char *err = NULL;
    assert_null(jv_parse("{\n\"a\": 1,\n\"b\": ]\n}", &err));
    assert_non_null(strstr(err, "line 3"));
    free(err);
    /* nesting deeper than the limit is an error, not a stack overflow */
    char deep[1000];
    memset(deep, '[', 500);
    deep[500] = 0;
    assert_null(jv_parse(deep, &err));
    free(err);
    assert_null(jv_read_file("/nonexistent.json", &err));
    assert_non_null(strstr(err, "/nonexistent.json"));
    free(err);
}

/* What the JSON writer writes, the reader reads back. */
static void test_round_trip(void **state)
{
    json_writer *j = json_new();
    json_begin_object(j);
    json_key(j, "tab\tkey");
    json_string(j, "quote \" back \\ ctrl \x01 end");
    json_key(j, "n");
    json_uint(j, 1ull << 52);
    json_key(j, "d");
    json_double(j, 0.125);
    json_end_object(j);
    char *err = NULL;
    jv *v = jv_parse(json_text(j, NULL), &err);
    assert_non_null(v);
    assert_string_equal(jv_str(jv_get(v, "tab\tkey"), NULL), "quote \" back \\ ctrl \x01 end");
    assert_true(jv_num(jv_get(v, "n"), 0) == (double)(1ull << 52));
    assert_true(jv_num(jv_get(v, "d"), 0) == 0.125);
    jv_free(v);
    json_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
