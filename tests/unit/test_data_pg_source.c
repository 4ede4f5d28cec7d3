/* test_data_pg_source.c: source_pg on a PostgreSQL server the test starts: EXPLAIN estimates, counts, parameters, writes refused. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/data.h"
#include <libpq-fe.h>
#include "db/db.h"
#include "data/source_int.h"
#include "pg_test_util.h"

/* admin: a normal (writable) connection of the test itself, to create the table */
static PGconn *admin;

static char *checksum(void)
{
    PGresult *r = PQexec(admin, "SELECT md5(string_agg(t::text, ',' ORDER BY id)) FROM t");
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    char *s = strdup(PQgetvalue(r, 0, 0));
    PQclear(r);
    return s;
}

/* 1000 rows; k = 7 on 3 of them (s = 'rare'), k = 0 elsewhere; NULL s on 10 rows */
static int setup_table(void **state)
{
    admin = PQconnectdb(pg_conninfo);
    if (PQstatus(admin) != CONNECTION_OK) return -1;
    pg_exec_ok(admin, "CREATE TABLE t(id int PRIMARY KEY, k int NOT NULL, s text)");
    pg_exec_ok(admin, "INSERT INTO t SELECT i, CASE WHEN i IN (100, 500, 900) THEN 7 ELSE 0 END, "
                      "CASE WHEN i IN (100, 500, 900) THEN 'rare' WHEN i % 100 = 1 THEN NULL ELSE 'common' END "
                      "FROM generate_series(1, 1000) i");
    pg_exec_ok(admin, "ANALYZE t");
    return 0;
}

static void test_open_failures(void **state)
{
    char *err = NULL;
    void *h = source_pg_ops.open("host=/nonexistent/sympath port=5432 dbname=nothing", &err);
    assert_null(h);
    assert_non_null(err);
    assert_non_null(strstr(err, "cannot connect to PostgreSQL"));
    free(err);
}

static void test_estimate_and_count(void **state)
{
    char *err = NULL;
    void *ds = source_pg_ops.open(pg_conninfo, &err);
    assert_non_null(ds);
    const char *sql = "SELECT id, k, s FROM t WHERE id > $1;";
    const char *params[] = {"0"};
    char *all = data_wrap_select(sql, strlen(sql), 3, NULL, 0);
    char *rare = data_wrap_select(sql, strlen(sql), 3, "c1 = 7", 0);
    data_estimate e_all, e_rare, e_lim;
    assert_int_equal(source_pg_ops.estimate(ds, all, params, 1, 0, 0, 0, &e_all, &err), 0);
    assert_int_equal(source_pg_ops.estimate(ds, rare, params, 1, 0, 0, 0, &e_rare, &err), 0);
    assert_int_equal(source_pg_ops.estimate(ds, all, params, 1, 5, 0, 0, &e_lim, &err), 0);
    /* after ANALYZE the planner knows the table's size and the rare value's frequency */
    assert_true(e_all.rows > 900 && e_all.rows < 1100);
    assert_true(e_rare.rows >= 1 && e_rare.rows < 20);
    assert_false(e_all.exact);
    assert_true(e_all.cost > 0 && e_lim.cost > 0);
    assert_true(e_lim.cost < e_all.cost); /* the first 5 rows cost less than all of them */
    assert_true(e_all.seconds >= 0);
    assert_int_equal(source_pg_ops.count(ds, all, params, 1, &err), 1000);
    assert_int_equal(source_pg_ops.count(ds, rare, params, 1, &err), 3);
    const char *p500[] = {"500"};
    assert_int_equal(source_pg_ops.count(ds, rare, p500, 1, &err), 1);
    /* an SQL error is an error value, and the connection stays usable */
    assert_int_equal(source_pg_ops.estimate(ds, "SELECT nope FROM t", NULL, 0, 0, 0, 0, &e_all, &err), -1);
    assert_non_null(err);
    assert_non_null(strstr(err, "nope"));
    free(err);
    err = NULL;
    assert_int_equal(source_pg_ops.count(ds, "SELECT 1 FROM nothing_here", NULL, 0, &err), -1);
    free(err);
    err = NULL;
    assert_int_equal(source_pg_ops.count(ds, all, params, 1, &err), 1000);
    free(all), free(rare);
    source_pg_ops.close(ds);
}

/* $N outside literals, identifiers and comments only; literals in parentheses */
static void test_parameters(void **state)
{
    char *err = NULL;
    void *ds = source_pg_ops.open(pg_conninfo, &err);
    assert_non_null(ds);
    const char *sql = "SELECT id FROM t WHERE s = $1 AND '$1' = '$1' AND \"k\" - $2 = 7 /* $2 /* $1 */ */ -- $1";
    const char *params[] = {"'rare'", "-0"};
    assert_int_equal(source_pg_ops.count(ds, sql, params, 2, &err), 3);
    const char *q2 = "SELECT id FROM t WHERE s = $1 AND $$ $1 $$ = ' $1 ' || '' AND E'\\' $1' = E'\\' $1'";
    const char *p2[] = {"E'r\\x61re'"};
    assert_int_equal(source_pg_ops.count(ds, q2, p2, 1, &err), 3); /* $$ $1 $$ kept: equals ' $1 ' */
    const char *q3 = "SELECT id FROM t WHERE s = $1 AND E'\\' $1' = E'\\' $1'";
    assert_int_equal(source_pg_ops.count(ds, q3, p2, 1, &err), 3);
    const char *q4 = "SELECT id FROM t WHERE id = $1";
    const char *p4[] = {"'500'::int8"};
    assert_int_equal(source_pg_ops.count(ds, q4, p4, 1, &err), 1);
    source_pg_ops.close(ds);
}

/* The source's own connection refuses writes, also after a query that tried to turn
 * read-only off; the table is unchanged. */
static void test_writes_refused(void **state)
{
    char *before = checksum(), *err = NULL;
    PGconn *c = source_pg_ops.open(pg_conninfo, &err);
    assert_non_null(c);
    PGresult *r = PQexec(c, "INSERT INTO t VALUES (5000, 1, 'x')");
    assert_int_equal(PQresultStatus(r), PGRES_FATAL_ERROR);
    assert_non_null(strstr(PQresultErrorMessage(r), "read-only transaction"));
    PQclear(r);
    r = PQexec(c, "DELETE FROM t");
    assert_int_equal(PQresultStatus(r), PGRES_FATAL_ERROR);
    PQclear(r);
    /* a SELECT of the program's that sets the session writable: rolled back with its transaction */
    assert_int_equal(
        source_pg_ops.count(c, "SELECT set_config('default_transaction_read_only', 'off', false)", NULL, 0, &err), 1);
    r = PQexec(c, "UPDATE t SET k = 1");
    assert_int_equal(PQresultStatus(r), PGRES_FATAL_ERROR);
    PQclear(r);
    /* RESET ALL keeps the option given at connection start */
    PQclear(PQexec(c, "RESET ALL"));
    r = PQexec(c, "DELETE FROM t");
    assert_int_equal(PQresultStatus(r), PGRES_FATAL_ERROR);
    PQclear(r);
    source_pg_ops.close(c);
    char *after = checksum();
    assert_string_equal(before, after);
    free(before), free(after);
}

static void test_refused_statements(void **state)
{
    assert_true(data_pg_refused("SET default_transaction_read_only = off"));
    assert_true(data_pg_refused("select set_config('transaction_read_only', 'off', true)"));
    assert_true(data_pg_refused("BEGIN READ\n  WRITE"));
    assert_true(data_pg_refused("start transaction isolation level serializable, read write"));
    assert_true(data_pg_refused("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE"));
    assert_false(data_pg_refused("BEGIN"));
    assert_false(data_pg_refused("SELECT id, readwrite FROM t"));
    assert_false(data_pg_refused("INSERT INTO t VALUES (1, 2, 'read')"));
    assert_false(data_pg_refused("SELECT id FROM t WHERE s = 'read write' OR s = 'it''s read  write'"));
    assert_true(data_pg_refused("SELECT 'x' WHERE 1 = 1; BEGIN READ WRITE"));
}

int main(void)
{
    int rc = pg_start();
    if (rc) return rc;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_failures),      cmocka_unit_test(test_estimate_and_count),
        cmocka_unit_test(test_parameters),         cmocka_unit_test(test_writes_refused),
        cmocka_unit_test(test_refused_statements),
    };
    rc = cmocka_run_group_tests(tests, setup_table, NULL);
    PQfinish(admin);
    pg_stop();
    return rc;
}
