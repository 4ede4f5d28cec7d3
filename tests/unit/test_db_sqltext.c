/* test_db_sqltext.c: the one quoting of SQL identifiers and literals, checked by SQLite reading them back. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"

static void is(char *got, const char *want)
{
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void test_ident(void **state)
{
    is(db_sql_ident("t"), "\"t\"");
    is(db_sql_ident("we\"ird"), "\"we\"\"ird\"");
    is(db_sql_ident("\"\""), "\"\"\"\"\"\"");
    is(db_sql_ident(""), "\"\"");
    is(db_sql_ident("sp ace;--"), "\"sp ace;--\"");
}

static void test_numbers(void **state)
{
    is(db_sql_int(0), "0");
    is(db_sql_int(-42), "-42");
    is(db_sql_int(INT64_MAX), "9223372036854775807");
    is(db_sql_int(INT64_MIN), "(-9223372036854775807-1)");
    is(db_sql_double(3.0), "3.0");
    is(db_sql_double(-0.5), "-0.5");
    is(db_sql_double(1e300), "1.0000000000000001e+300");
    is(db_sql_double(NAN), "NULL");
    is(db_sql_double(INFINITY), "NULL");
}

static void test_text(void **state)
{
    is(db_sql_text(false, "it's", 4), "'it''s'");
    is(db_sql_text(true, "it's", 4), "'it''s'");
    is(db_sql_text(false, "", 0), "''");
    is(db_sql_text(false, NULL, 0), "NULL");
    is(db_sql_text(false, "a\0b", 3), "CAST(X'610062' AS TEXT)");
    is(db_sql_text(false, "\xff'", 2), "CAST(X'FF27' AS TEXT)");
    is(db_sql_text(true, "a\tb'\\", 5), "E'a\\x09b\\x27\\x5C'");
    is(db_sql_text(true, "back\\slash", 10), "'back\\slash'"); /* plain: standard strings keep \ */
    is(db_sql_blob("\x01\xab", 2), "X'01AB'");
    is(db_sql_blob(NULL, 0), "X''");
}

/* Run "SELECT <lit>" in SQLite: the value must come back with its type and bytes. */
static void sqlite_reads(char *lit, int type, const void *bytes, int n)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    char *q = NULL;
    assert_true(asprintf(&q, "SELECT %s", lit) > 0);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) fail_msg("%s: %s", q, sqlite3_errmsg(db));
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_type(st, 0), type);
    if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        const void *p = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, 0) : sqlite3_column_blob(st, 0);
        assert_int_equal(sqlite3_column_bytes(st, 0), n);
        assert_memory_equal(p ? p : "", bytes, (size_t)n);
    } else if (type == SQLITE_INTEGER) {
        assert_true(sqlite3_column_int64(st, 0) == *(const int64_t *)bytes);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    free(q);
    free(lit);
}

static void test_sqlite_reads_them_back(void **state)
{
    int64_t v = INT64_MIN;
    sqlite_reads(db_sql_int(v), SQLITE_INTEGER, &v, 0);
    sqlite_reads(db_sql_text(false, "it's \"q\"", 8), SQLITE_TEXT, "it's \"q\"", 8);
    sqlite_reads(db_sql_text(false, "\x01\x7f\xc3\xa9", 4), SQLITE_TEXT, "\x01\x7f\xc3\xa9", 4);
    sqlite_reads(db_sql_text(false, "", 0), SQLITE_TEXT, "", 0);
    sqlite_reads(db_sql_text(false, NULL, 0), SQLITE_NULL, NULL, 0);
    sqlite_reads(db_sql_blob("\x00\x01", 2), SQLITE_BLOB, "\x00\x01", 2);
    sqlite_reads(db_sql_double(2.0), SQLITE_FLOAT, NULL, 0);
    /* an identifier with a quote names the same column */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    char *id = db_sql_ident("a\"b"), *q = NULL;
    assert_true(asprintf(&q, "CREATE TABLE %s(%s INT); INSERT INTO %s VALUES(1);", id, id, id) > 0);
    assert_int_equal(sqlite3_exec(db, q, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT * FROM \"a\"\"b\"", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal(sqlite3_column_name(st, 0), "a\"b");
    sqlite3_finalize(st);
    sqlite3_close(db);
    free(id), free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ident),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_sqlite_reads_them_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
