/* test_emit_json.c: exact output of the JSON writer for nesting, escapes, numbers, and its atomic file write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"

static void test_nested(void **state)
{
    json_writer *j = json_new();
    assert_non_null(j);
    json_begin_object(j);
    json_key(j, "tests");
    json_uint(j, 3);
    json_key(j, "delta");
    json_int(j, -12);
    json_key(j, "sites");
    json_begin_array(j);
    json_begin_object(j);
    json_key(j, "id");
    json_uint(j, UINT64_MAX);
    json_key(j, "ok");
    json_bool(j, 1);
    json_end_object(j);
    json_begin_array(j);
    json_end_array(j);
    json_begin_object(j);
    json_end_object(j);
    json_null(j);
    json_bool(j, 0);
    json_end_array(j);
    json_key(j, "empty");
    json_begin_array(j);
    json_end_array(j);
    json_key(j, "name");
    json_string(j, NULL);
    json_end_object(j);

    const char *want = "{\n"
                       "  \"tests\": 3,\n"
                       "  \"delta\": -12,\n"
                       "  \"sites\": [\n"
                       "    {\n"
                       "      \"id\": 18446744073709551615,\n"
                       "      \"ok\": true\n"
                       "    },\n"
                       "    [],\n"
                       "    {},\n"
                       "    null,\n"
                       "    false\n"
                       "  ],\n"
                       "  \"empty\": [],\n"
                       "  \"name\": null\n"
                       "}\n";
    size_t len;
    const char *text = json_text(j, &len);
    assert_string_equal(text, want);
    assert_int_equal(len, strlen(want));
    json_free(j);
}

static void test_escapes(void **state)
{
    json_writer *j = json_new();
    json_begin_array(j);
    json_string(j, "q\"b\\s/\n\r\t\b\f\x01\x1f\x7f"
                   "caf\xc3\xa9");
    json_end_array(j);
    assert_string_equal(json_text(j, NULL), "[\n  \"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\x7f"
                                            "caf\xc3\xa9\"\n]\n");
    json_free(j);

    j = json_new();
    json_begin_object(j);
    json_key(j, "a\"key\n");
    json_string(j, "");
    json_end_object(j);
    assert_string_equal(json_text(j, NULL), "{\n  \"a\\\"key\\n\": \"\"\n}\n");
    json_free(j);
}

static void test_doubles(void **state)
{
    json_writer *j = json_new();
    json_begin_array(j);
    json_double(j, 0.1);
    json_double(j, 87.5);
    json_double(j, 3.0);
    json_double(j, -1e300);
    json_double(j, 1.0 / 3.0);
    json_double(j, NAN);
    json_double(j, INFINITY);
    json_double(j, -INFINITY);
    json_end_array(j);
    assert_string_equal(json_text(j, NULL), "[\n  0.1,\n  87.5,\n  3,\n  -1e+300,\n  0.3333333333333333,\n"
                                            "  null,\n  null,\n  null\n]\n");
    json_free(j);
}

static void test_scalar_top_level_and_file(void **state)
{
    json_writer *j = json_new();
    json_string(j, "x");
    assert_string_equal(json_text(j, NULL), "\"x\"\n");
    json_free(j);

    char dir[] = "/tmp/sympath-json-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/report.json", dir);
    j = json_new();
    json_begin_object(j);
    json_key(j, "n");
    json_int(j, 1);
    json_end_object(j);
    assert_int_equal(json_write_file(j, path), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[64] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    assert_int_equal(n, strlen("{\n  \"n\": 1\n}\n"));
    assert_string_equal(buf, "{\n  \"n\": 1\n}\n");
    json_free(j);

    /* a directory that does not exist: -1, nothing created */
    snprintf(path, sizeof path, "%s/missing/report.json", dir);
    j = json_new();
    json_null(j);
    assert_int_equal(json_write_file(j, path), -1);
    json_free(j);
    snprintf(path, sizeof path, "%s/report.json", dir);
    unlink(path);
    assert_int_equal(rmdir(dir), 0); /* no temp file left behind */
}

/* json_kv_* write exactly what json_key followed by the matching value writes. */
static void test_key_value_helpers(void **state)
{
    json_writer *a = json_new(), *b = json_new();
    assert_non_null(a);
    assert_non_null(b);
    json_begin_object(a);
    json_kv_str(a, "s", "x\"y");
    json_kv_str(a, "none", NULL);
    json_kv_int(a, "i", INT64_MIN);
    json_kv_uint(a, "u", UINT64_MAX);
    json_kv_double(a, "d", 0.1);
    json_kv_double(a, "nan", NAN);
    json_kv_bool(a, "t", 7);
    json_kv_bool(a, "f", 0);
    json_end_object(a);

    json_begin_object(b);
    json_key(b, "s");
    json_string(b, "x\"y");
    json_key(b, "none");
    json_string(b, NULL);
    json_key(b, "i");
    json_int(b, INT64_MIN);
    json_key(b, "u");
    json_uint(b, UINT64_MAX);
    json_key(b, "d");
    json_double(b, 0.1);
    json_key(b, "nan");
    json_double(b, NAN);
    json_key(b, "t");
    json_bool(b, 7);
    json_key(b, "f");
    json_bool(b, 0);
    json_end_object(b);

    assert_string_equal(json_text(a, NULL), json_text(b, NULL));
    assert_string_equal(json_text(a, NULL), "{\n"
                                            "  \"s\": \"x\\\"y\",\n"
                                            "  \"none\": null,\n"
                                            "  \"i\": -9223372036854775808,\n"
                                            "  \"u\": 18446744073709551615,\n"
                                            "  \"d\": 0.1,\n"
                                            "  \"nan\": null,\n"
                                            "  \"t\": true,\n"
                                            "  \"f\": false\n"
                                            "}\n");
    json_free(a);
    json_free(b);
}

static void test_kv_lines(void **state)
{
    json_writer *j = json_new();
    json_begin_object(j);
    json_kv_lines(j, "none", NULL);
    json_kv_lines(j, "empty", "");
    json_kv_lines(j, "two", "a\n\nb\n");
    json_kv_lines(j, "last", "x\ny");
    json_end_object(j);
    assert_string_equal(json_text(j, NULL), "{\n"
                                            "  \"none\": [],\n"
                                            "  \"empty\": [],\n"
                                            "  \"two\": [\n    \"a\",\n    \"\",\n    \"b\"\n  ],\n"
                                            "  \"last\": [\n    \"x\",\n    \"y\"\n  ]\n"
                                            "}\n");
    json_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_key_value_helpers),
        cmocka_unit_test(test_kv_lines),
        cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_scalar_top_level_and_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
