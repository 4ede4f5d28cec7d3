/* test_runtime_dispatch.c: the database dispatchers' mode rule (data, fixture, pass-through) and SQLite's pass-through entry points, plus the database logs' field flattener. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "runtime/core/rt_internal.h"
#include "runtime/dbcommon/db_log.h"
#include "runtime/dbcommon/db_mode.h"
#include "runtime/sqlite/sqlite_dispatch.h"

static int setup(void **state)
{
    (void)state;
    unsetenv("SYMPATH_DATA_PLAN");
    unsetenv("SYMPATH_DB_SCHEMA");
    unsetenv("SYMPATH_DB_PG_SCRATCH");
    rt_test_setup(NULL, 0, 4096, 64);
    return 0;
}

/* Without a data plan the mode is fixture when the API's fixture mode is configured, else plain. */
static void test_mode_rule(void **state)
{
    (void)state;
    assert_int_equal(rt_db_mode_of(true), RT_DB_FIXTURE);
    assert_int_equal(rt_db_mode_of(false), RT_DB_PLAIN);
}

/* Pass-through: SQLite's own results, concrete (__sym_ret NULL), sqlite3_exec rebuilt on the
 * entry points gives the same rows. */
static int rows_seen;
static int count_rows(void *arg, int n, char **vals, char **names)
{
    (void)arg, (void)names;
    assert_int_equal(n, 1);
    assert_string_equal(vals[0], rows_seen ? "7" : "5");
    rows_seen++;
    return 0;
}

static void test_sqlite_plain(void **state)
{
    (void)state;
    sqlite3 *db = NULL;
    assert_int_equal(sym_sqlite3_open(":memory:", &db), SQLITE_OK);
    char *err = NULL;
    assert_int_equal(
        sym_sqlite3_exec(db, "CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (5), (7);", NULL, NULL, &err), SQLITE_OK);
    assert_null(err);
    sqlite3_stmt *st = NULL;
    assert_int_equal(sym_sqlite3_prepare_v2(db, "SELECT a FROM t WHERE a > ? ORDER BY a", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sym_sqlite3_bind_int(st, 1, 6), SQLITE_OK);
    assert_int_equal(sym_sqlite3_column_count(st), 1);
    assert_int_equal(sym_sqlite3_step(st), SQLITE_ROW);
    __sym_ret = (symx)(uintptr_t)1; /* must be reset */
    assert_int_equal(sym_sqlite3_column_int(st, 0), 7);
    assert_null(__sym_ret);
    assert_int_equal(sym_sqlite3_step(st), SQLITE_DONE);
    assert_int_equal(sym_sqlite3_finalize(st), SQLITE_OK);
    rows_seen = 0;
    assert_int_equal(sym_sqlite3_exec(db, "SELECT a FROM t ORDER BY a", count_rows, NULL, NULL), SQLITE_OK);
    assert_int_equal(rows_seen, 2);
    char **res;
    int nrow, ncol;
    assert_int_equal(sym_sqlite3_get_table(db, "  ; SELECT a FROM t ORDER BY a", &res, &nrow, &ncol, NULL), SQLITE_OK);
    assert_int_equal(nrow, 2);
    assert_int_equal(ncol, 1);
    assert_string_equal(res[0], "a");
    assert_string_equal(res[2], "7");
    sqlite3_free_table(res);
    assert_int_not_equal(sym_sqlite3_exec(db, "SELECT nosuch FROM t", NULL, NULL, &err), SQLITE_OK);
    assert_non_null(err);
    sqlite3_free(err);
    sqlite3_close(db);
}

/* Log fields: tabs, newlines and CRs become blanks; cut to cap - 1 bytes; in place too. */
static void test_log_flat(void **state)
{
    (void)state;
    char out[8];
    proto_flat(out, sizeof out, "a\tb\nc\rdefgh");
    assert_string_equal(out, "a b c d");
    char in[] = "x\ty";
    proto_flat(in, sizeof in, in);
    assert_string_equal(in, "x y");
    proto_flat(out, sizeof out, NULL);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_mode_rule, setup),
        cmocka_unit_test_setup(test_sqlite_plain, setup),
        cmocka_unit_test(test_log_flat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
