/* test_db_union.c: SELECT ... UNION [ALL] SELECT ... parsed into arms (sql_union.c), what stays concrete, and the order of its result rows (db_order_le over result values) against SQLite. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"

static const char *DDL = "CREATE TABLE t (a INTEGER, b INTEGER NOT NULL, s TEXT);\n"
                         "CREATE TABLE u (x INTEGER, name TEXT, y INTEGER);\n";

static db_schema *schema(void)
{
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl(DDL, &s, &err), 0);
    return s;
}

static db_query *parse(db_schema *s, const char *sql)
{
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    return q;
}

static void expect_unsupported(db_schema *s, const char *sql, const char *kind)
{
    db_query *q = parse(s, sql);
    assert_false(q->understood);
    int found = 0;
    for (int i = 0; i < q->nunsupported; i++) found |= !strcmp(q->unsupported[i], kind);
    if (!found)
        fail_msg("%s: expected unsupported kind '%s' (first: %s)", sql, kind,
                 q->nunsupported ? q->unsupported[0] : "none");
    db_query_free(q);
}

static void test_parse_union(void **state)
{
    (void)state;
    db_schema *s = schema();
    /* three arms over two tables, a parameter in the last one, ORDER BY a name and a position, LIMIT */
    db_query *q = parse(s, "SELECT a, s FROM t WHERE b > 1 UNION SELECT x, name FROM u WHERE y = ? "
                           "UNION SELECT b, s FROM t WHERE s LIKE 'z%' ORDER BY s DESC, 1 LIMIT 3");
    assert_true(q->understood);
    assert_int_equal(q->kind, DBQ_SELECT);
    assert_int_equal(q->narms, 3);
    assert_false(q->union_all);
    assert_int_equal(q->nfrom, 0);
    assert_int_equal(q->nresult, 2);
    assert_int_equal(q->table, 0);
    assert_int_equal(q->result_col[0], 0);
    assert_int_equal(q->result_col[1], 2);
    assert_int_equal(q->arms[1]->table, 1);
    assert_int_equal(q->arms[1]->result_col[0], 0);
    assert_int_equal(q->arms[1]->result_col[1], 1);
    assert_int_equal(q->arms[2]->result_col[0], 1);
    assert_int_equal(q->arms[1]->nparams, 1);
    assert_int_equal(q->nparams, 1);
    assert_int_equal(q->norder, 2);
    assert_int_equal(q->order_col[0], 1);
    assert_true(q->order_desc[0]);
    assert_int_equal(q->order_col[1], 0);
    assert_false(q->order_implicit);
    assert_true(q->order_window);
    assert_int_equal(q->limit, 3);
    assert_false(db_query_rows_are_keys(q));
    db_query_free(q);
    /* UNION ALL, * of one table; without ORDER BY its LIMIT is in arm then slot order */
    q = parse(s, "SELECT * FROM u UNION ALL SELECT a, s, b FROM t LIMIT 2 OFFSET 1");
    assert_true(q->understood);
    assert_true(q->union_all);
    assert_int_equal(q->narms, 2);
    assert_int_equal(q->norder, 0);
    assert_false(q->order_window);
    assert_int_equal(q->limit, 2);
    assert_int_equal(q->offset, 1);
    db_query_free(q);
    /* UNION without ORDER BY: SQLite's order, every column ascending; with it a LIMIT is a window */
    q = parse(s, "SELECT s, a FROM t UNION SELECT name, x FROM u LIMIT 1");
    assert_true(q->understood);
    assert_true(q->order_implicit);
    assert_int_equal(q->norder, 2);
    assert_int_equal(q->order_col[1], 1);
    assert_false(q->order_desc[0]);
    assert_true(q->order_window);
    db_query_free(q);
    /* arms that join tables: the result's column types are arm 0's items' (its second item's name here) */
    q = parse(s, "SELECT u.name, t.a FROM t JOIN u ON u.x = t.a WHERE t.b > ? UNION SELECT s, b FROM t ORDER BY 1");
    assert_true(q->understood);
    assert_int_equal(q->narms, 2);
    assert_int_equal(q->arms[0]->nfrom, 2);
    assert_int_equal(q->nparams, 1);
    assert_int_equal(q->from_table[q->result_from[0]], 1);
    assert_int_equal(q->result_col[0], 1);
    assert_int_equal(q->from_table[q->result_from[1]], 0);
    assert_int_equal(q->norder, 1);
    db_query_free(q);
    /* a computed column, a literal naming the arm */
    q = parse(s, "SELECT s, 't' FROM t UNION ALL SELECT name, 'u' FROM u");
    assert_true(q->understood);
    assert_int_equal(q->result_col[1], DB_RESULT_EXPR);
    db_query_free(q);
    /* what stays concrete, by construct */
    expect_unsupported(s, "SELECT a FROM t INTERSECT SELECT x FROM u", "INTERSECT/EXCEPT");
    expect_unsupported(s, "SELECT a FROM t EXCEPT SELECT x FROM u", "INTERSECT/EXCEPT");
    expect_unsupported(s, "SELECT a FROM t UNION SELECT x FROM u UNION ALL SELECT b FROM t",
                       "UNION mixed with UNION ALL");
    expect_unsupported(s, "SELECT a FROM t UNION SELECT count(*) FROM u",
                       "UNION arm other than plain columns of a table or an inner join");
    expect_unsupported(s, "SELECT a FROM t UNION SELECT x + ? FROM u",
                       "UNION arm other than plain columns of a table or an inner join");
    expect_unsupported(s, "SELECT a FROM t UNION SELECT t.a FROM t LEFT JOIN u ON u.x = t.a",
                       "UNION arm other than plain columns of a table or an inner join");
    expect_unsupported(s, "SELECT a, b FROM t UNION SELECT x FROM u", "UNION of SELECTs of different widths");
    expect_unsupported(s, "SELECT a FROM t UNION SELECT x FROM nosuch", "unknown table");
    expect_unsupported(s, "SELECT a FROM t UNION (SELECT x FROM u ORDER BY x LIMIT 1)",
                       "ORDER BY, LIMIT or WITH inside a UNION arm");
    expect_unsupported(s, "SELECT a FROM t UNION SELECT x FROM u ORDER BY a + 1 LIMIT 1",
                       "LIMIT/OFFSET on a UNION with ORDER BY of an expression");
    db_schema_free(s);
}

/* A result value: an integer, a text or NULL (kind 0, 1, 2). */
typedef struct rv {
    int kind;
    int64_t i;
    char t[4];
} rv;

static void to_val(expr_ctx *cx, const rv *r, db_val *v, expr **bytes)
{
    memset(v, 0, sizeof *v);
    v->null = expr_const(cx, r->kind == 2, 1);
    v->is_text = r->kind == 1;
    v->v = expr_const(cx, r->kind == 0 ? (uint64_t)r->i : 0, 64);
    if (v->is_text) {
        size_t n = strlen(r->t);
        v->len = expr_const(cx, n, 8);
        v->nbytes = 3;
        v->bytes = bytes;
        for (unsigned k = 0; k < 3; k++) bytes[k] = expr_const(cx, k < n ? (uint8_t)r->t[k] : 0, 8);
    }
}

/* Aggregates over a UNION ALL inside WITH and over a UNION in FROM (sql_groups.c): the statement is the UNION with
 * nouter aggregates of its result columns; other outer shapes stay concrete. */
static void test_parse_aggregates_over_union(void **state)
{
    (void)state;
    db_schema *s = schema();
    db_query *q = parse(s, "WITH w AS (SELECT a, s FROM t WHERE b = ? UNION ALL SELECT y, name FROM u) "
                           "SELECT COUNT(*), MIN(s), SUM(w.a) FROM w");
    assert_true(q->understood);
    assert_int_equal(q->narms, 2);
    assert_true(q->union_all);
    assert_int_equal(q->nouter, 3);
    assert_int_equal(q->outer_agg[0], DB_AGG_COUNT);
    assert_int_equal(q->outer_res[0], -1);
    assert_int_equal(q->outer_agg[1], DB_AGG_MIN);
    assert_int_equal(q->outer_res[1], 1);
    assert_int_equal(q->outer_agg[2], DB_AGG_SUM);
    assert_int_equal(q->outer_res[2], 0);
    assert_int_equal(q->nparams, 1);
    db_query_free(q);
    q = parse(s, "WITH w AS (SELECT a FROM t UNION ALL SELECT x FROM u) SELECT coalesce(SUM(a), 0), ifnull(AVG(a), "
                 "2.5), MAX(a) FROM w");
    assert_true(q->understood);
    assert_int_equal(q->nouter, 3);
    assert_int_equal(q->outer_agg[0], DB_AGG_SUM);
    assert_int_equal(q->outer_dflt[0], 1);
    assert_int_equal(q->outer_dflt_i[0], 0);
    assert_int_equal(q->outer_agg[1], DB_AGG_AVG);
    assert_int_equal(q->outer_dflt[1], 2);
    assert_true(q->outer_dflt_r[1] == 2.5);
    assert_int_equal(q->outer_dflt[2], 0);
    db_query_free(q);
    /* a text default: coalesce(MAX(s), 'never') */
    q = parse(s, "WITH w AS (SELECT s FROM t UNION ALL SELECT name FROM u) SELECT coalesce(MAX(s), 'never'), "
                 "ifnull(MIN(w.s), 'x') FROM w");
    assert_true(q->understood);
    assert_int_equal(q->nouter, 2);
    assert_int_equal(q->outer_agg[0], DB_AGG_MAX);
    assert_int_equal(q->outer_dflt[0], 3);
    assert_string_equal(q->outer_dflt_s[0], "never");
    assert_int_equal(q->outer_dflt[1], 3);
    assert_string_equal(q->outer_dflt_s[1], "x");
    db_query_free(q);
    q = parse(s, "SELECT MAX(x) FROM (SELECT b AS x FROM t UNION SELECT x FROM u) v");
    assert_true(q->understood);
    assert_false(q->union_all);
    assert_int_equal(q->nouter, 1);
    assert_int_equal(q->norder, 0); /* UNION's implicit order changes no aggregate */
    db_query_free(q);
    /* a column list after the WITH query's name names its columns */
    q = parse(s, "WITH w(k) AS (SELECT a FROM t UNION ALL SELECT x FROM u) SELECT COUNT(k) FROM w");
    assert_true(q->understood);
    assert_int_equal(q->nouter, 1);
    assert_int_equal(q->outer_agg[0], DB_AGG_COUNT);
    assert_int_equal(q->outer_res[0], 0);
    db_query_free(q);
    /* aggregates under a WHERE outside, a column the UNION lacks */
    expect_unsupported(s, "WITH w AS (SELECT a FROM t UNION ALL SELECT x FROM u) SELECT COUNT(*) FROM w WHERE a > 1",
                       "WITH query that is not one table's columns and WHERE");
    q = parse(s, "WITH w AS (SELECT a FROM t UNION ALL SELECT x FROM u) SELECT MAX(zz) FROM w");
    assert_false(q->understood);
    db_query_free(q);
    db_schema_free(s);
}

/* A UNION's rows under a WHERE, ORDER BY or LIMIT outside, in FROM or WITH (sql_groups.c): the UNION with the outer
 * WHERE in each arm over that arm's result columns, the outer ORDER BY and LIMIT its own. */
static void test_parse_rows_over_union(void **state)
{
    (void)state;
    db_schema *s = schema();
    db_query *q =
        parse(s, "SELECT kind, n FROM (SELECT 'a' AS kind, b * 10 AS n FROM t WHERE s = ?1 UNION ALL "
                 "SELECT 'x', y FROM u WHERE name = ?1) m WHERE n > 50 AND m.kind <> ? ORDER BY n DESC LIMIT 2");
    assert_true(q->understood);
    assert_int_equal(q->narms, 2);
    assert_true(q->union_all);
    assert_int_equal(q->nresult, 2);
    assert_int_equal(q->nparams, 2);
    assert_int_equal(q->norder, 1);
    assert_int_equal(q->order_col[0], 1);
    assert_true(q->order_desc[0]);
    assert_int_equal(q->limit, 2);
    assert_true(q->order_window);
    /* each arm's WHERE: its own condition AND the outer one over its result columns (b * 10, y) */
    for (int a = 0; a < 2; a++) {
        const db_sexpr *w = q->arms[a]->where;
        assert_non_null(w);
        assert_int_equal(w->kind, DBX_AND);
    }
    db_query_free(q);
    /* a WITH column list names the columns; UNION (not ALL) keeps SQLite's implicit order without an outer ORDER BY */
    q = parse(s, "WITH p(who, num) AS (SELECT s, b FROM t UNION SELECT name, x FROM u) SELECT * FROM p WHERE num >= 3");
    assert_true(q->understood);
    assert_false(q->union_all);
    assert_true(q->order_implicit);
    assert_non_null(q->arms[1]->where);
    db_query_free(q);
    q = parse(
        s, "WITH p(who, num) AS (SELECT s, b FROM t UNION SELECT name, x FROM u) SELECT who, num FROM p ORDER BY who "
           "LIMIT 3");
    assert_true(q->understood);
    assert_int_equal(q->norder, 1);
    assert_int_equal(q->order_col[0], 0);
    assert_true(q->order_window);
    db_query_free(q);
    /* not the UNION's columns in their order, a column it lacks, a subquery in the outer WHERE: concrete */
    q = parse(s, "SELECT n FROM (SELECT a AS n, s FROM t UNION SELECT x, name FROM u) m WHERE n > 1");
    assert_false(q->understood);
    db_query_free(q);
    expect_unsupported(s, "SELECT n FROM (SELECT a AS n FROM t UNION SELECT x FROM u) m WHERE zz > 1",
                       "column of a UNION in FROM or WITH");
    q = parse(s, "SELECT n FROM (SELECT a AS n FROM t UNION SELECT x FROM u) m WHERE n IN (SELECT b FROM t)");
    assert_false(q->understood);
    db_query_free(q);
    db_schema_free(s);
}

/* db_text_default: a text with its NULL read as a literal, longer or shorter than the text's bytes. */
static void test_text_default(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    expr *bytes[3] = {expr_symbol(cx, 2, 8, 0), expr_symbol(cx, 3, 8, 0), expr_symbol(cx, 4, 8, 0)};
    db_val v = {.is_text = true,
                .null = expr_symbol(cx, 0, 1, 0),
                .v = expr_const(cx, 0, 64),
                .len = expr_symbol(cx, 1, 8, 0),
                .nbytes = 3,
                .bytes = bytes};
    assert_int_equal(db_text_default(cx, &v, "never"), 0);
    assert_int_equal(v.nbytes, 5);
    uint64_t isnull[5] = {1, 0, 0, 0, 0}, ab[5] = {0, 2, 'a', 'b', 0};
    assert_int_equal(expr_eval(v.null, isnull, 5), 0);
    assert_int_equal(expr_eval(v.len, isnull, 5), 5);
    for (unsigned i = 0; i < 5; i++) assert_int_equal(expr_eval(v.bytes[i], isnull, 5), (uint64_t) "never"[i]);
    assert_int_equal(expr_eval(v.len, ab, 5), 2);
    assert_int_equal(expr_eval(v.bytes[0], ab, 5), 'a');
    assert_int_equal(expr_eval(v.bytes[1], ab, 5), 'b');
    assert_int_equal(expr_eval(v.bytes[3], ab, 5), 0);
    db_val n = {.is_text = false, .null = expr_const(cx, 1, 1), .v = expr_const(cx, 0, 64)};
    assert_int_equal(db_text_default(cx, &n, "x"), -1);
    expr_ctx_free(cx);
}

/*
 * The order of a UNION's rows as db_order_le says over result values (keys: result positions) is the
 * order SQLite returns them in: random rows of two tables (texts in one column, integers with NULLs in
 * the other), each compound query's result read from SQLite and checked pairwise "no later than".
 */
static void test_order_against_sqlite(void **state)
{
    (void)state;
    db_schema *s = schema();
    const char *sqls[] = {
        "SELECT s, a FROM t UNION SELECT name, x FROM u",                    /* implicit: every column ascending */
        "SELECT s, a FROM t UNION SELECT name, x FROM u ORDER BY 2 DESC, s", /* by position and by name */
        "SELECT s, a FROM t UNION ALL SELECT name, x FROM u ORDER BY a NULLS LAST, 1 DESC",
    };
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(7);
    for (int iter = 0; iter < 40; iter++) {
        sqlite3_exec(db, "DELETE FROM t; DELETE FROM u", NULL, NULL, NULL);
        for (int k = 0; k < 6; k++) {
            char ins[160];
            int a = rand() % 4 - 1;
            char txt[2] = {(char)('a' + rand() % 3), 0};
            snprintf(ins, sizeof ins, "INSERT INTO %s VALUES (%s%d, '%s', 0)", k % 2 ? "u(x, name, y)" : "t(a, s, b)",
                     a < 0 ? "NULL+" : "", a, txt);
            assert_int_equal(sqlite3_exec(db, ins, NULL, NULL, NULL), SQLITE_OK);
        }
        for (size_t qi = 0; qi < sizeof sqls / sizeof *sqls; qi++) {
            db_query *q = parse(s, sqls[qi]);
            assert_true(q->understood);
            sqlite3_stmt *st;
            assert_int_equal(sqlite3_prepare_v2(db, sqls[qi], -1, &st, NULL), SQLITE_OK);
            rv rows[12][2];
            int n = 0;
            while (sqlite3_step(st) == SQLITE_ROW && n < 12) {
                for (int c = 0; c < 2; c++) {
                    rv *r = &rows[n][c];
                    memset(r, 0, sizeof *r);
                    if (sqlite3_column_type(st, c) == SQLITE_NULL)
                        r->kind = 2;
                    else if (c == 0)
                        r->kind = 1, snprintf(r->t, sizeof r->t, "%s", (const char *)sqlite3_column_text(st, c));
                    else
                        r->i = sqlite3_column_int64(st, c);
                }
                n++;
            }
            sqlite3_finalize(st);
            expr_ctx *cx = expr_ctx_new();
            for (int k = 0; k + 1 < n; k++) {
                db_val va[2], vb[2];
                expr *ba[2][3], *bb[2][3];
                for (int c = 0; c < 2; c++)
                    to_val(cx, &rows[k][c], &va[c], ba[c]), to_val(cx, &rows[k + 1][c], &vb[c], bb[c]);
                const db_val *a[1] = {va}, *b[1] = {vb};
                if (!(db_order_le(cx, q, a, b)->value & 1))
                    fail_msg("%s: row %d sorts after row %d (iteration %d)", sqls[qi], k, k + 1, iter);
            }
            expr_ctx_free(cx);
            db_query_free(q);
        }
    }
    sqlite3_close(db);
    db_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_union),           cmocka_unit_test(test_parse_aggregates_over_union),
        cmocka_unit_test(test_parse_rows_over_union), cmocka_unit_test(test_text_default),
        cmocka_unit_test(test_order_against_sqlite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
