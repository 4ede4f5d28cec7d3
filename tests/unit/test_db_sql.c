/* test_db_sql.c: SQL parameters, parsing (libpg_query) and WHERE -> expression translation, checked against SQLite itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"

static const char *DDL = "CREATE TABLE t (a INTEGER, b INTEGER NOT NULL, s TEXT, u TEXT UNIQUE);\n";

static db_schema *schema(void)
{
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl(DDL, &s, &err), 0);
    return s;
}

static void test_params_to_pg(void **state)
{
    const char *sql = "SELECT * FROM t WHERE a = ? AND b = ?5 AND s = :x AND u = :x AND a = ? "
                      "AND s <> 'it''s ?' -- a ? comment\n AND b = @y";
    int n = 0;
    char *pg = db_sql_params_to_pg(sql, strlen(sql), &n);
    assert_non_null(pg);
    assert_string_equal(pg, "SELECT * FROM t WHERE a = $1 AND b = $5 AND s = $6 AND u = $6 AND a = $7 "
                            "AND s <> 'it''s ?' -- a ? comment\n AND b = $8");
    assert_int_equal(n, 8);
    free(pg);
    /* SQLite agrees on the numbering */
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_bind_parameter_count(st), 8);
    assert_int_equal(sqlite3_bind_parameter_index(st, ":x"), 6);
    assert_int_equal(sqlite3_bind_parameter_index(st, "@y"), 8);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void expect_unsupported(db_schema *s, const char *sql, const char *kind)
{
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    if (q->understood) fail_msg("understood: %s", sql);
    int found = 0;
    for (int i = 0; i < q->nunsupported; i++) found |= !strcmp(q->unsupported[i], kind);
    if (!found)
        fail_msg("%s: expected unsupported kind '%s' (first: %s)", sql, kind,
                 q->nunsupported ? q->unsupported[0] : "none");
    db_query_free(q);
}

static void test_parse(void **state)
{
    db_schema *s = schema();
    const char *sql = "SELECT b, s FROM t x WHERE x.a > ? AND s LIKE 'CS%' OR u IS NULL ORDER BY b";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->kind, DBQ_SELECT);
    assert_int_equal(q->table, 0);
    assert_int_equal(q->nresult, 2);
    assert_int_equal(q->result_col[0], 1);
    assert_int_equal(q->result_col[1], 2);
    assert_int_equal(q->nparams, 1);
    assert_int_equal(q->where->kind, DBX_OR);
    char *with = db_query_with_rowid(q, sql, strlen(sql));
    assert_string_equal(with,
                        "SELECT b, s , \"x\".rowid FROM t x WHERE x.a > ? AND s LIKE 'CS%' OR u IS NULL ORDER BY b");
    free(with);
    db_query_free(q);

    sql = "select * from T";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nresult, 4);
    assert_null(q->where);
    db_query_free(q);

    expect_unsupported(s, "SELECT * FROM t FULL JOIN t t2 ON t.a = t2.a", "FULL or other outer join");
    expect_unsupported(s, "SELECT * FROM t LEFT JOIN (t t2 JOIN t t3 ON t2.a = t3.a) ON t.a = t2.a",
                       "outer join of a join");
    /* LEFT/RIGHT JOIN: the optional side is nullable, its ON condition kept apart from WHERE */
    sql = "SELECT t.a, t2.b FROM t LEFT JOIN t t2 ON t2.a = t.b WHERE t.a > 1";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nfrom, 2);
    assert_false(q->nullable[0]);
    assert_true(q->nullable[1]);
    assert_non_null(q->on[1]);
    assert_int_equal(q->where->kind, DBX_CMP);
    assert_int_equal(q->where->op, DB_GT);
    db_query_free(q);
    sql = "SELECT t.a FROM t RIGHT JOIN t t2 ON t2.a = t.b";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->nullable[0]);
    assert_false(q->nullable[1]);
    assert_null(q->where);
    db_query_free(q);
    expect_unsupported(s, "SELECT * FROM t, t", "table named twice without alias");
    expect_unsupported(s, "SELECT a FROM t, t AS t2", "ambiguous column");
    expect_unsupported(s, "SELECT DISTINCT hex(a) FROM t", "expression in the result");
    expect_unsupported(s, "SELECT a, unnest(ARRAY[1, 2]) FROM t", "expression in the result");
    expect_unsupported(s, "SELECT a, sum(DISTINCT b) FROM t", "aggregates beside plain columns without GROUP BY");
    expect_unsupported(s, "SELECT a, count(*) FROM t", "aggregates beside plain columns without GROUP BY");
    expect_unsupported(s, "SELECT a, sum(b) FROM t GROUP BY u", "result column not in GROUP BY");
    expect_unsupported(s, "SELECT b FROM t GROUP BY b + 1", "result column not in GROUP BY");
    expect_unsupported(s, "SELECT b + 1 FROM t GROUP BY b + ?",
                       "GROUP BY of an expression with a parameter, an aggregate or an unknown construct");
    expect_unsupported(s, "SELECT b FROM t GROUP BY 2", "GROUP BY position out of range");
    expect_unsupported(s, "SELECT k AS k FROM t GROUP BY k", "unknown column or rowid"); /* no alias loop */
    /* GROUP BY of an expression, also through the alias or position of a result column */
    static const char *by_expr[] = {"SELECT b + 1, count(*) FROM t GROUP BY b + 1",
                                    "SELECT b + 1 AS k, count(*) FROM t GROUP BY k",
                                    "SELECT b + 1, count(*) FROM t GROUP BY 1"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(db_query_parse(s, by_expr[i], strlen(by_expr[i]), &q, &err), 0);
        assert_true(q->understood);
        assert_int_equal(q->ngroup, 1);
        assert_non_null(q->group_expr[0]);
        assert_int_equal(q->group_expr[0]->kind, DBX_ARITH);
        db_query_free(q);
    }
    sql = "SELECT b AS a, count(*) FROM t GROUP BY a"; /* a column of the table before an alias, as SQL reads it */
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_null(q->group_expr[0]);
    assert_int_equal(q->group_col[0], 0);
    assert_false(q->understood); /* b is no key */
    db_query_free(q);
    expect_unsupported(s, "SELECT t.b FROM t GROUP BY a, b, s, u, a", "GROUP BY of more than 4 keys");
    expect_unsupported(s, "SELECT b FROM t GROUP BY b LIMIT 1 OFFSET 1", "OFFSET with aggregates or GROUP BY");
    /* GROUP BY keys, aggregates beside them, HAVING's aggregates over the group */
    sql = "SELECT b, count(*), max(a) FROM t GROUP BY b HAVING count(*) > 2 AND sum(a) < 10";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_false(q->aggregate);
    assert_int_equal(q->ngroup, 1);
    assert_int_equal(q->group_col[0], 1);
    assert_int_equal(q->result_agg[1], DB_AGG_COUNT);
    assert_int_equal(q->result_agg[2], DB_AGG_MAX);
    assert_int_equal(q->having->kind, DBX_AND);
    assert_int_equal(q->having->kids[0]->kids[0]->kind, DBX_GROUPAGG);
    assert_int_equal(q->having->kids[0]->kids[0]->column, -1);
    assert_int_equal(q->having->kids[1]->kids[0]->op, DB_AGG_SUM);
    db_query_free(q);
    sql = "PRAGMA foreign_keys = ON"; /* SQLite's own: run as it is, no row changed */
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->kind, DBQ_OTHER);
    assert_int_equal(q->txn, DB_TXN_NONE);
    db_query_free(q);
    expect_unsupported(s, "SELECT count(*) FROM t LIMIT 1 OFFSET ?", "OFFSET with aggregates or GROUP BY");
    /* a LIMIT over groups: understood (the runtime checks it is no smaller than the groups there can be) */
    sql = "SELECT b, count(*) AS n FROM t GROUP BY b ORDER BY n DESC LIMIT 3";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->limit, 3);
    assert_false(q->order_window);
    /* its ORDER BY keys as result columns: the alias n, then the key b (db_query.group_window) */
    assert_true(q->group_window);
    assert_int_equal(q->ngroup_order, 1);
    assert_int_equal(q->group_order[0], 1);
    assert_true(q->group_order_desc[0]);
    db_query_free(q);
    static const struct {
        const char *sql;
        int n, key0, key1;
    } orders[] = {
        {"SELECT b, sum(a) FROM t GROUP BY b ORDER BY 2, b DESC LIMIT 1", 2, 1, 0},
        {"SELECT b, count(*) FROM t GROUP BY b ORDER BY count(*) DESC LIMIT 1", 1, 1, -1},
        {"SELECT b, coalesce(sum(a), 0) AS v FROM t GROUP BY b ORDER BY coalesce(sum(a), 0) LIMIT 1", 1, 1, -1},
        {"SELECT b, max(a) FROM t GROUP BY b ORDER BY min(a) LIMIT 1", 0, -1, -1},             /* not a result column */
        {"SELECT lower(s), count(*) FROM t GROUP BY lower(s) ORDER BY 1 LIMIT 1", 0, -1, -1}}; /* computed */
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
        assert_int_equal(db_query_parse(s, orders[i].sql, strlen(orders[i].sql), &q, &err), 0);
        assert_true(q->understood);
        assert_int_equal(q->group_window, orders[i].n > 0);
        assert_int_equal(q->ngroup_order, orders[i].n);
        if (orders[i].n > 0) assert_int_equal(q->group_order[0], orders[i].key0);
        if (orders[i].n > 1) assert_int_equal(q->group_order[1], orders[i].key1);
        db_query_free(q);
    }
    expect_unsupported(s, "SELECT a FROM t ORDER BY a + ? LIMIT 3", "LIMIT/OFFSET with ORDER BY of an expression");
    /* ORDER BY an expression of the row, also by a result column's alias or position: a key of its own */
    static const char *exprs[] = {"SELECT a FROM t ORDER BY a + 1 LIMIT 3",
                                  "SELECT a, b * 2 AS twice FROM t ORDER BY twice DESC, a LIMIT 3",
                                  "SELECT a, lower(s) FROM t ORDER BY 2 LIMIT 1 OFFSET 1"};
    for (size_t i = 0; i < sizeof exprs / sizeof *exprs; i++) {
        assert_int_equal(db_query_parse(s, exprs[i], strlen(exprs[i]), &q, &err), 0);
        if (!q->understood) fail_msg("not understood: %s", exprs[i]);
        assert_true(q->order_window);
        assert_non_null(q->order_expr[0]);
        assert_int_equal(q->order_desc[0], i == 1);
        if (i == 1) assert_null(q->order_expr[1]); /* a: a plain column key */
        db_query_free(q);
    }
    expect_unsupported(s, "SELECT t.a FROM t, t t2 LIMIT 3", "LIMIT/OFFSET on a join without ORDER BY");
    expect_unsupported(s, "SELECT a FROM t LIMIT 1 + 1", "LIMIT/OFFSET of an expression");
    /* LIMIT/OFFSET in ORDER BY order (literals or parameters) and in scan order */
    sql = "SELECT a FROM t ORDER BY b DESC LIMIT 3 OFFSET ?";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->order_window);
    assert_int_equal(q->limit, 3);
    assert_int_equal(q->offset_param, 1);
    db_query_free(q);
    sql = "SELECT a FROM t LIMIT 3 OFFSET 1";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_false(q->order_window);
    assert_int_equal(q->limit, 3);
    assert_int_equal(q->offset, 1);
    db_query_free(q);
    sql = "SELECT a FROM t WHERE b = ? LIMIT 1";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->limit, 1);
    db_query_free(q);
    expect_unsupported(s, "SELECT a FROM t WHERE hex(a) = 1", "function call");
    expect_unsupported(s, "SELECT a FROM t WHERE substr(s, a) = 'x'",
                       "substr() with positions that are not small literals");
    expect_unsupported(s, "SELECT a FROM t WHERE a IN (SELECT b FROM t LIMIT 1)",
                       "subquery with a join, GROUP BY, LIMIT or a set operation");
    expect_unsupported(s, "SELECT a FROM t WHERE a IN (SELECT b + 1 FROM t)",
                       "IN subquery whose result is not one column of its table");
    expect_unsupported(s, "SELECT a FROM t WHERE a > (SELECT b FROM t)",
                       "scalar subquery that is not one COUNT/SUM/MIN/MAX/AVG of a column, nor a column of the row a "
                       "unique key picks");
    /* subqueries: sub items after DB_MAX_FROM; inner names first, outer columns correlated */
    sql = "SELECT a FROM t x WHERE NOT EXISTS (SELECT 1 FROM t y WHERE y.b = x.a) AND a IN (SELECT b FROM t) "
          "AND (SELECT max(a) FROM t WHERE b = 2) > 3";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nsub, 3);
    assert_int_equal(q->where->kind, DBX_AND);
    const db_sexpr *ne = q->where->kids[0];
    assert_int_equal(ne->kind, DBX_NOT);
    assert_int_equal(ne->kids[0]->kind, DBX_EXISTS);
    assert_int_equal(ne->kids[0]->from, DB_MAX_FROM + 0);
    const db_sexpr *corr = ne->kids[0]->kids[0]; /* y.b = x.a */
    assert_int_equal(corr->kids[0]->from, DB_MAX_FROM + 0);
    assert_int_equal(corr->kids[1]->from, 0);
    assert_int_equal(q->where->kids[1]->kind, DBX_IN_SUB);
    assert_int_equal(q->where->kids[1]->column, 1);
    assert_int_equal(q->where->kids[2]->kids[0]->kind, DBX_SUBAGG);
    assert_int_equal(q->where->kids[2]->kids[0]->op, DB_AGG_MAX);
    db_query_free(q);
    sql = "SELECT COUNT(*) FROM t WHERE a > (SELECT AVG(a) FROM t) * 2";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->where->kids[1]->kids[0]->kind, DBX_SUBAGG);
    assert_int_equal(q->where->kids[1]->kids[0]->op, DB_AGG_AVG);
    db_query_free(q);
    /* COALESCE of a scalar subquery's aggregate with a literal (no row: the literal) */
    sql = "SELECT a FROM t WHERE b >= (SELECT COALESCE(AVG(b), 0) FROM t WHERE a > 1) OR a < ifnull((SELECT "
          "MAX(b) FROM t), -1)";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    const db_sexpr *co = q->where->kids[0]->kids[1];
    assert_int_equal(co->kind, DBX_FUNC);
    assert_int_equal(co->op, DBF_COALESCE);
    assert_int_equal(co->kids[0]->kind, DBX_SUBAGG);
    assert_int_equal(co->kids[0]->op, DB_AGG_AVG);
    assert_int_equal(co->kids[1]->kind, DBX_INT);
    db_query_free(q);
    sql = "SELECT a FROM t WHERE b >= (SELECT ifnull(SUM(b), 7) FROM t)";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->where->kids[1]->kids[0]->kind, DBX_SUBAGG);
    db_query_free(q);
    expect_unsupported(s, "SELECT a FROM t WHERE b >= (SELECT COALESCE(SUM(b), a) FROM t)",
                       "COALESCE of a scalar subquery's aggregate with a column");
    /* arithmetic around a scalar subquery's aggregate (SELECT AVG(salary) * 2 FROM players) */
    sql = "SELECT a FROM t WHERE b > (SELECT AVG(b) * 2 FROM t)";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->where->kids[1]->kind, DBX_ARITH);
    assert_int_equal(q->where->kids[1]->op, '*');
    assert_int_equal(q->where->kids[1]->kids[0]->kind, DBX_SUBAGG);
    assert_int_equal(q->where->kids[1]->kids[1]->kind, DBX_INT);
    db_query_free(q);
    expect_unsupported(s, "SELECT a FROM t x WHERE b > (SELECT MAX(b) + x.a FROM t)",
                       "arithmetic of a scalar subquery's aggregate with a column");
    /* WITH queries: inlined when one table's columns and WHERE (their FROM keyword found in the text) */
    sql = "WITH r AS (SELECT a, b FROM t WHERE a > ?) SELECT r.b, x.s FROM r JOIN t x ON x.a = r.b WHERE r.a < ?";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nfrom, 2);
    assert_int_equal(q->nparams, 2);
    assert_int_equal(q->cte_from_at[0], (size_t)(strstr(sql, "FROM t WHERE") - sql) + 1);
    assert_int_equal(q->cte_from_at[1], 0);
    char *hidden = db_query_with_rowid(q, sql, strlen(sql));
    assert_string_equal(hidden, "WITH r AS (SELECT a, b , rowid AS sympath_hidden_0 FROM t WHERE a > ?) SELECT r.b, "
                                "x.s , \"r\".sympath_hidden_0, \"x\".rowid FROM r JOIN t x ON x.a = r.b WHERE r.a < ?");
    sqlite3 *mem;
    sqlite3_stmt *hst = NULL;
    assert_int_equal(sqlite3_open(":memory:", &mem), SQLITE_OK);
    assert_int_equal(sqlite3_exec(mem, DDL, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(mem, hidden, -1, &hst, NULL), SQLITE_OK); /* SQLite takes it */
    assert_int_equal(sqlite3_column_count(hst), 4);
    sqlite3_finalize(hst);
    sqlite3_close(mem);
    free(hidden);
    db_query_free(q);
    sql = "WITH r AS (SELECT * FROM t WHERE s = 'a') SELECT t.a FROM t LEFT JOIN r ON r.b = t.a";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->nullable[1]);
    assert_int_equal(q->on[1]->kind, DBX_AND); /* the ON condition, and the WITH query's WHERE */
    db_query_free(q);
    expect_unsupported(s, "WITH RECURSIVE r AS (SELECT a FROM t) SELECT a FROM r", "WITH RECURSIVE");
    expect_unsupported(s, "WITH r AS (SELECT a, COUNT(*) FROM t GROUP BY a) SELECT a FROM r",
                       "WITH query that is not one table's columns and WHERE");
    /* a column list and renamed columns: the item names its columns by them alone; the hidden column's name joins the
     * list, which SQLite requires to name every column */
    sql = "WITH r(x, y) AS (SELECT a, b FROM t WHERE a > ?) SELECT r.y FROM r WHERE x < ? ORDER BY y";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->result_col[0], 1);
    assert_int_equal(q->where->kind, DBX_AND);
    assert_int_equal(q->cte_cols_at[0], (size_t)(strstr(sql, ") AS") - sql) + 1);
    hidden = db_query_with_rowid(q, sql, strlen(sql));
    assert_string_equal(hidden,
                        "WITH r(x, y, sympath_hidden_0) AS (SELECT a, b , rowid AS sympath_hidden_0 FROM t WHERE a "
                        "> ?) SELECT r.y , \"r\".sympath_hidden_0 FROM r WHERE x < ? ORDER BY y");
    assert_int_equal(sqlite3_open(":memory:", &mem), SQLITE_OK);
    assert_int_equal(sqlite3_exec(mem, DDL, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(mem, hidden, -1, &hst, NULL), SQLITE_OK);
    sqlite3_finalize(hst);
    sqlite3_close(mem);
    free(hidden);
    db_query_free(q);
    sql = "WITH r AS (SELECT a AS x, s FROM t) SELECT x FROM r WHERE s = 'q'";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->result_col[0], 0);
    assert_int_equal(q->cte_cols_at[0], 0);
    db_query_free(q);
    expect_unsupported(s, "WITH r(x) AS (SELECT a FROM t) SELECT a FROM r", "unknown column or rowid");
    expect_unsupported(s, "WITH r AS (SELECT a FROM t) SELECT * FROM r", "* of a WITH query or subquery");
    /* subqueries in FROM of that shape: inlined the same way, their FROM keyword found after the statement's (an IN
     * subquery of an ON condition before them is not one); SQLite runs the text with the hidden columns */
    sql = "SELECT x.b, y.a FROM t x JOIN (SELECT a, s FROM t WHERE a IN (SELECT b FROM t)) y ON y.a IN (SELECT a FROM "
          "t) JOIN (SELECT b, s FROM t WHERE s <> 'q') z ON z.b = x.a WHERE y.s = ?";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nfrom, 3);
    assert_int_equal(q->cte_from_at[0], 0);
    assert_int_equal(q->cte_from_at[1], (size_t)(strstr(sql, "FROM t WHERE a IN") - sql) + 1);
    assert_int_equal(q->cte_from_at[2], (size_t)(strstr(sql, "FROM t WHERE s <>") - sql) + 1);
    hidden = db_query_with_rowid(q, sql, strlen(sql));
    assert_string_equal(hidden,
                        "SELECT x.b, y.a , \"x\".rowid, \"y\".sympath_hidden_1, \"z\".sympath_hidden_2 FROM t x JOIN "
                        "(SELECT a, s , rowid AS sympath_hidden_1 FROM t WHERE a IN (SELECT b FROM t)) y ON y.a IN "
                        "(SELECT a FROM t) JOIN (SELECT b, s , rowid AS sympath_hidden_2 FROM t WHERE s <> 'q') z "
                        "ON z.b = x.a WHERE y.s = ?");
    assert_int_equal(sqlite3_open(":memory:", &mem), SQLITE_OK);
    assert_int_equal(sqlite3_exec(mem, DDL, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(mem, hidden, -1, &hst, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_column_count(hst), 5);
    sqlite3_finalize(hst);
    sqlite3_close(mem);
    free(hidden);
    db_query_free(q);
    sql = "SELECT t.a FROM t LEFT JOIN (SELECT * FROM t WHERE s = 'a') r ON r.b = t.a";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->nullable[1]);
    assert_int_equal(q->on[1]->kind, DBX_AND); /* the ON condition, and the subquery's WHERE */
    db_query_free(q);
    expect_unsupported(s, "SELECT m FROM (SELECT a, MAX(b) AS m FROM t GROUP BY a) g",
                       "subquery in FROM that is not one table's columns and WHERE");
    expect_unsupported(s, "SELECT * FROM (SELECT a FROM t) r", "* of a WITH query or subquery");
    expect_unsupported(s, "SELECT a FROM nosuch", "unknown table");
    expect_unsupported(s, "SELECT DISTINCT ON (a) a FROM t", "DISTINCT ON");
    expect_unsupported(s, "SELECT DISTINCT count(*) FROM t", "DISTINCT of aggregates or of more than 4 columns");
    /* DISTINCT over a join: grouped by the result columns of both items */
    sql = "SELECT DISTINCT t.a, t2.s FROM t JOIN t t2 ON t2.b = t.a";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->ngroup, 2);
    assert_int_equal(q->group_from[1], 1);
    db_query_free(q);
    /* DISTINCT of an expression: a group key of its own (a copy of the result's expression) */
    sql = "SELECT DISTINCT upper(substr(s, 1, 1)), a FROM t";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->ngroup, 2);
    assert_int_equal(q->group_expr[0]->kind, DBX_FUNC);
    assert_int_equal(q->group_expr[0]->op, DBF_UPPER);
    assert_ptr_not_equal(q->group_expr[0], q->result_expr[0]);
    assert_null(q->group_expr[1]);
    db_query_free(q);
    /* PostgreSQL: ILIKE (a LIKE ignoring case on either engine), parameters cast to a date or a number */
    sql = "SELECT a FROM t WHERE s ILIKE $1 AND u NOT ILIKE 'x%' AND b = $2::numeric AND s = $3::date";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->where->kids[0]->kind, DBX_LIKE);
    assert_int_equal(q->where->kids[0]->op, 1);
    assert_false(q->where->kids[0]->negated);
    assert_true(q->where->kids[1]->negated);
    assert_int_equal(q->where->kids[2]->kids[1]->kind, DBX_PARAM);
    db_query_free(q);
    /* PostgreSQL's date +- interval of a literal or the clock: a constant text (months clamp the day) */
    static const struct {
        const char *expr, *text;
    } iv[] = {{"DATE '2024-01-31' + interval '1 month'", "2024-02-29"},
              {"'2024-03-01'::date - INTERVAL '1 day'", "2024-02-29"},
              {"'2023-12-31'::date + interval '2 weeks'", "2024-01-14"},
              {"'2024-06-30 10:00:00'::timestamp + interval '1 hour 30 minutes'", "2024-06-30 11:30:00"},
              {"'2024-02-29'::date - interval '1 year'", "2023-02-28"}};
    for (size_t i = 0; i < sizeof iv / sizeof *iv; i++) {
        char buf[200];
        snprintf(buf, sizeof buf, "SELECT a FROM t WHERE s >= %s", iv[i].expr);
        assert_int_equal(db_query_parse(s, buf, strlen(buf), &q, &err), 0);
        assert_true(q->understood);
        assert_int_equal(q->where->kids[1]->kind, DBX_TEXT);
        assert_string_equal(q->where->kids[1]->text, iv[i].text);
        db_query_free(q);
    }
    sql = "SELECT a FROM t WHERE s >= CURRENT_DATE - INTERVAL '7 days' AND u < now() - interval '1 hour'";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(strlen(q->where->kids[0]->kids[1]->text), 10); /* a date */
    assert_int_equal(strlen(q->where->kids[1]->kids[1]->text), 19); /* a timestamp */
    db_query_free(q);
    /* PostgreSQL's GREATEST/LEAST leave NULLs out (a CASE whose first arm tests the first argument for NULL) */
    sql = "SELECT a FROM t WHERE greatest(a, b) > 2 AND least(a, b, 3) < 1";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->where->kids[0]->kids[0]->kind, DBX_CASE);
    assert_int_equal(q->where->kids[0]->kids[0]->kids[1]->kind, DBX_COLUMN); /* a NULL: b */
    db_query_free(q);
    expect_unsupported(s, "SELECT a FROM t WHERE greatest(a, b, 1, 2) > 2",
                       "GREATEST/LEAST or max()/min() of more than 3 values");
    /* PostgreSQL's left(s, n) is substr(s, 1, n) */
    sql = "SELECT a FROM t WHERE left(s, 2) = 'ab'";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->where->kids[0]->op, DBF_SUBSTR);
    assert_int_equal(q->where->kids[0]->kids[2]->ival, 2);
    db_query_free(q);
    /* PostgreSQL's to_char of a date in strftime's words; other patterns are not modelled */
    static const char *ddl_d = "CREATE TABLE d (id INTEGER PRIMARY KEY, day DATE, at TIMESTAMP);";
    db_schema *sd = NULL;
    assert_int_equal(db_schema_from_ddl(ddl_d, &sd, &err), 0);
    sql = "SELECT to_char(day, 'DD/MM/YYYY'), to_char(at, 'YYYY-MM-DD HH24:MI:SS') FROM d";
    assert_int_equal(db_query_parse(sd, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->result_expr[0]->op, DBF_STRFTIME);
    assert_string_equal(q->result_expr[0]->kids[0]->text, "%d/%m/%Y");
    assert_string_equal(q->result_expr[1]->kids[0]->text, "%Y-%m-%d %H:%M:%S");
    db_query_free(q);
    expect_unsupported(sd, "SELECT 1 FROM d WHERE to_char(day, 'Mon YYYY') = 'x'", "date function");
    expect_unsupported(sd, "SELECT 1 FROM d WHERE to_char(day, 'HH12') = '01'", "date function");
    db_schema_free(sd);
    /* a write's RETURNING list: the write is modelled, db_query.returning says its values come back */
    sql = "DELETE FROM t WHERE a = 1 RETURNING b";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->returning);
    db_query_free(q);
    /* HAVING names a result column by its alias (SQLite): the alias's aggregate */
    sql = "SELECT b, count(*) AS n, sum(a) AS total FROM t GROUP BY b HAVING n > 2 AND total < 10";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->having->kind, DBX_AND);
    assert_int_equal(q->having->kids[0]->kids[0]->kind, DBX_GROUPAGG);
    assert_int_equal(q->having->kids[0]->kids[0]->op, DB_AGG_COUNT);
    assert_int_equal(q->having->kids[1]->kids[0]->op, DB_AGG_SUM);
    db_query_free(q);
    /* GROUP BY: a result computed from key columns only is one value per group */
    sql = "SELECT upper(s), coalesce(s, '-') || 'x', COUNT(*) FROM t GROUP BY s";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    db_query_free(q);
    expect_unsupported(s, "SELECT upper(s), COUNT(*) FROM t GROUP BY a",
                       "computed result column in GROUP BY that is no key");
    sql = "SELECT DISTINCT b, a, b FROM t WHERE a > 1";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->distinct);
    assert_int_equal(q->ngroup, 2); /* b and a, once each */
    db_query_free(q);
    /* computed result columns: an expression of the row, or with aggregates in it */
    sql = "SELECT a + 1, lower(s) FROM t";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nresult, 2);
    assert_int_equal(q->result_col[0], DB_RESULT_EXPR);
    assert_int_equal(q->result_agg[0], DB_AGG_NONE);
    assert_non_null(q->result_expr[0]);
    assert_false(q->aggregate);
    db_query_free(q);
    sql = "SELECT COALESCE(SUM(a), 0), AVG(b), SUM(a * b), COUNT(*) FROM t";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->aggregate);
    assert_int_equal(q->result_agg[0], DB_AGG_EXPR);
    assert_int_equal(q->result_agg[1], DB_AGG_EXPR);
    assert_int_equal(q->result_agg[2], DB_AGG_EXPR);
    assert_int_equal(q->result_agg[3], DB_AGG_COUNT);
    db_query_free(q);
    sql = "SELECT b, SUM(a * 2) FROM t GROUP BY b HAVING AVG(a) > 1.5";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->ngroup, 1);
    db_query_free(q);
    expect_unsupported(s, "SELECT b + 1 FROM t GROUP BY a", "computed result column in GROUP BY that is no key");
    /* result columns sympath does not model are read concretely: which rows (or groups) come back is still modelled */
    static const struct {
        const char *sql;
        int agg, aggregate;
    } concrete[] = {{"SELECT a, hex(a) FROM t WHERE b > 1", DB_AGG_NONE, 0},
                    {"SELECT a, row_number() OVER (ORDER BY b) FROM t", DB_AGG_NONE, 0},
                    {"SELECT sum(DISTINCT a) FROM t", DB_AGG_CONCRETE, 1},
                    {"SELECT coalesce(group_concat(s, ','), '') FROM t", DB_AGG_CONCRETE, 1},
                    {"SELECT a, string_agg(s, ',' ORDER BY s), count(*) FROM t GROUP BY a", DB_AGG_CONCRETE, 0}};
    for (size_t i = 0; i < sizeof concrete / sizeof *concrete; i++) {
        const char *c = concrete[i].sql;
        assert_int_equal(db_query_parse(s, c, strlen(c), &q, &err), 0);
        if (!q->understood) fail_msg("not understood: %s (%s)", c, q->nunsupported ? q->unsupported[0] : "");
        int r = concrete[i].aggregate ? 0 : 1;
        assert_int_equal(q->result_col[r], DB_RESULT_CONCRETE);
        assert_int_equal(q->result_agg[r], concrete[i].agg);
        assert_null(q->result_expr[r]);
        assert_int_equal(q->aggregate, concrete[i].aggregate);
        assert_string_equal(q->unsupported[0], "result column read concretely");
        db_query_free(q);
    }
    /* ... but not as an ORDER BY key of a LIMIT over groups (the runtime then runs such a LIMIT concretely) */
    const char *top = "SELECT a, group_concat(s) AS g FROM t GROUP BY a ORDER BY g LIMIT 1";
    assert_int_equal(db_query_parse(s, top, strlen(top), &q, &err), 0);
    assert_false(q->group_window);
    db_query_free(q);

    /* joins: comma and JOIN ... ON; the ON condition joins the WHERE clause */
    sql = "SELECT t.a, t2.* FROM t JOIN t AS t2 ON t.a = t2.b WHERE t2.s = 'x'";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nfrom, 2);
    assert_string_equal(q->from_name[1], "t2");
    assert_int_equal(q->nresult, 5);
    assert_int_equal(q->result_from[0], 0);
    assert_int_equal(q->result_from[1], 1);
    assert_int_equal(q->result_col[4], 3);
    assert_int_equal(q->where->kind, DBX_AND);
    with = db_query_with_rowid(q, sql, strlen(sql));
    assert_string_equal(
        with, "SELECT t.a, t2.* , \"t\".rowid, \"t2\".rowid FROM t JOIN t AS t2 ON t.a = t2.b WHERE t2.s = 'x'");
    free(with);
    db_query_free(q);

    sql = "UPDATE t SET a = a + ?, s = 'x' WHERE b = 2";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->kind, DBQ_UPDATE);
    assert_int_equal(q->table, 0);
    assert_true(q->understood);
    assert_int_equal(q->nset, 2);
    assert_int_equal(q->set_col[1], 2);
    assert_int_equal(q->set_val[0]->kind, DBX_ARITH);
    db_query_free(q);
    sql = "DELETE FROM t WHERE s LIKE 'a%'";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->kind, DBQ_DELETE);
    assert_true(q->understood);
    assert_int_equal(q->nfrom, 1);
    db_query_free(q);
    expect_unsupported(s, "UPDATE t SET a = hex(b)", "SET value");

    /* transaction statements, SQLite's BEGIN IMMEDIATE too */
    static const struct {
        const char *sql;
        db_txn t;
    } txns[] = {{"BEGIN", DB_TXN_BEGIN},
                {"BEGIN IMMEDIATE TRANSACTION", DB_TXN_BEGIN},
                {"begin exclusive", DB_TXN_BEGIN},
                {"COMMIT", DB_TXN_COMMIT},
                {"END", DB_TXN_COMMIT},
                {"ROLLBACK", DB_TXN_ROLLBACK},
                {"SAVEPOINT a", DB_TXN_SAVEPOINT},
                {"RELEASE SAVEPOINT a", DB_TXN_RELEASE},
                {"ROLLBACK TO a", DB_TXN_ROLLBACK_TO}};
    for (size_t i = 0; i < sizeof txns / sizeof *txns; i++) {
        assert_int_equal(db_query_parse(s, txns[i].sql, strlen(txns[i].sql), &q, &err), 0);
        if (q->txn != txns[i].t) fail_msg("%s: txn %d, expected %d", txns[i].sql, (int)q->txn, (int)txns[i].t);
        assert_int_equal(q->kind, DBQ_OTHER);
        db_query_free(q);
    }

    sql = "SELEKT nonsense";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), -1);
    assert_non_null(err);
    free(err);
    db_schema_free(s);
}

/*
 * Differential test of the translation: for many rows, whether SQLite returns the
 * row must equal the value of db_where_expr's expression under the row's input
 * values. Symbols: per column, null flag, then value (integers) or length + 4 bytes.
 */
#define TB 4
enum { SYM_PER_COL = 2 + TB };

/* Row `row`'s cells of t over symbols: column c's are inputs (row * ncols + c) * SYM_PER_COL onwards (null, then
 * the value or the length and TB bytes); bytes holds the row's 4 * TB byte expressions. */
static void make_cells(expr_ctx *cx, const db_table *t, db_val *cells, expr **bytes, int row)
{
    for (int c = 0; c < t->ncols; c++) {
        uint32_t base = (uint32_t)(row * t->ncols + c) * SYM_PER_COL;
        db_val *v = &cells[c];
        memset(v, 0, sizeof *v);
        v->null = expr_symbol(cx, base, 1, 0);
        if (db_column_is_text(&t->cols[c])) {
            v->is_text = true;
            v->len = expr_symbol(cx, base + 1, 8, 0);
            v->nbytes = TB;
            v->bytes = bytes + c * TB;
            for (int i = 0; i < TB; i++) v->bytes[i] = expr_symbol(cx, base + 2 + (uint32_t)i, 8, 0);
        } else {
            v->v = expr_symbol(cx, base + 1, 64, 0);
        }
    }
}

/* How random_cell draws: NULL one time in null_one_in (0: never), a text of 0..maxlen bytes of alphabet, or an
 * integer in lo..hi. */
typedef struct cell_draw {
    int null_one_in;
    const char *alphabet;
    int maxlen, lo, hi;
} cell_draw;

/* A random value for a cell (a text one unless is_text is false; fixed, when not NULL, is the text instead of a
 * drawn one), bound to parameter param of ins and written to the cell's inputs v (SYM_PER_COL of them, in
 * make_cells's order). */
static void random_cell(sqlite3_stmt *ins, int param, bool is_text, const cell_draw *d, const char *fixed, uint64_t *v)
{
    v[0] = d->null_one_in && rand() % d->null_one_in == 0;
    if (is_text) {
        char txt[TB + 1] = {0};
        int len = fixed ? (int)strlen(fixed) : rand() % (d->maxlen + 1);
        for (int i = 0; i < len; i++) txt[i] = fixed ? fixed[i] : d->alphabet[rand() % (int)strlen(d->alphabet)];
        v[1] = v[0] ? 0 : (uint64_t)len;
        for (int i = 0; i < TB; i++) v[2 + i] = v[0] ? 0 : (uint8_t)txt[i];
        if (v[0])
            sqlite3_bind_null(ins, param);
        else
            sqlite3_bind_text(ins, param, txt, len, SQLITE_TRANSIENT);
    } else {
        int64_t x = d->lo + rand() % (d->hi - d->lo + 1);
        v[1] = v[0] ? 0 : (uint64_t)x;
        if (v[0])
            sqlite3_bind_null(ins, param);
        else
            sqlite3_bind_int64(ins, param, x);
    }
}

static void test_where_against_sqlite(void **state)
{
    static const char *queries[] = {
        "SELECT * FROM t WHERE a > 2 AND b <= 5",
        "SELECT * FROM t WHERE NOT (a = b) OR s = 'ab'",
        "SELECT * FROM t WHERE a + b * 2 - 1 >= 3",
        "SELECT * FROM t WHERE b / a = 2",
        "SELECT * FROM t WHERE b % a <> 0",
        "SELECT * FROM t WHERE -a < b",
        "SELECT * FROM t WHERE a IN (1, 3, NULL)",
        "SELECT * FROM t WHERE a NOT IN (1, 3)",
        "SELECT * FROM t WHERE b BETWEEN a AND 4",
        "SELECT * FROM t WHERE b NOT BETWEEN 1 AND 3",
        "SELECT * FROM t WHERE a IS NULL OR s IS NOT NULL",
        "SELECT * FROM t WHERE s LIKE 'C%'",
        "SELECT * FROM t WHERE s LIKE '_b%' AND u NOT LIKE '%a'",
        "SELECT * FROM t WHERE s LIKE 'ab'",
        "SELECT * FROM t WHERE s < u",
        "SELECT * FROM t WHERE s >= 'b' AND s <> u",
        "SELECT * FROM t WHERE s = ?1 OR a = ?2",
        "SELECT * FROM t WHERE a",
        "SELECT * FROM t WHERE NOT a",
        "SELECT * FROM t WHERE (a > 1) = (b > 1)",
        "SELECT * FROM t WHERE a IS DISTINCT FROM b",
        "SELECT * FROM t WHERE s = u COLLATE NOCASE OR s COLLATE NOCASE < 'B'",
        "SELECT * FROM t WHERE max(a, b) > 2 OR min(a, b, 1) = b",
        "SELECT * FROM t WHERE max(s, u) = 'b' OR min(s, 'a') IS NULL",
        "SELECT * FROM t WHERE s IS NOT DISTINCT FROM u OR a IS NOT DISTINCT FROM 2",
        /* scalar functions */
        "SELECT * FROM t WHERE abs(a) > 2",
        "SELECT * FROM t WHERE coalesce(a, b) = 3",
        "SELECT * FROM t WHERE ifnull(s, u) = 'ab'",
        "SELECT * FROM t WHERE coalesce(s, u, 'zz') < 'b'",
        "SELECT * FROM t WHERE lower(s) = 'ab'",
        "SELECT * FROM t WHERE upper(s) LIKE 'A%' AND lower(u) <> u",
        "SELECT * FROM t WHERE substr(s, 2) = 'b'",
        "SELECT * FROM t WHERE substr(s, 1, 2) = 'ab' OR substr(u, 3, 1) = 'c'",
        "SELECT * FROM t WHERE length(substr(s, 2, 2)) = 1",
        /* trim of spaces or of a set of characters (alphabet "abcAB " below) */
        "SELECT * FROM t WHERE trim(s) = 'a'",
        "SELECT * FROM t WHERE ltrim(s) = u OR rtrim(u) LIKE '%b'",
        "SELECT * FROM t WHERE length(trim(s)) = 1 AND trim(u, 'aB') >= 'b'",
        "SELECT * FROM t WHERE ltrim(s, ' a') = rtrim(u, 'c ')",
        /* CASE: searched and simple, with and without ELSE (NULL), texts and numbers */
        "SELECT * FROM t WHERE CASE WHEN a > 2 THEN b ELSE a END = 3",
        "SELECT * FROM t WHERE CASE WHEN a IS NULL THEN 'x' WHEN b > 1 THEN s END = 'ab'",
        "SELECT * FROM t WHERE CASE a WHEN 1 THEN 'one' WHEN 2 THEN u ELSE s END LIKE 'a%'",
        "SELECT * FROM t WHERE (CASE WHEN s < u THEN 1 END) IS NULL",
        "SELECT * FROM t WHERE CASE WHEN a > b THEN a > 0 ELSE b < 3 END",
        /* concatenation: a search pattern around a bound text, a literal before a column */
        "SELECT * FROM t WHERE s LIKE '%' || ?1 || '%'",
        "SELECT * FROM t WHERE 'x' || s = 'xab' OR 'a' || u LIKE 'aa%'",
        /* the run's clock as a text constant */
        "SELECT * FROM t WHERE s < date('now', '-7 days') OR s > datetime('now', 'start of month', '+1 month')",
        "SELECT * FROM t WHERE s > CURRENT_DATE",
        /* instr(), replace() with literals of one length, CASTs that change the value */
        "SELECT * FROM t WHERE instr(s, 'b') = 2 OR instr(u, 'ab') > 1",
        "SELECT * FROM t WHERE instr(s, 'a') = 0 AND instr(upper(u), 'A') IS NOT NULL",
        "SELECT * FROM t WHERE replace(s, 'a', 'c') = 'cb' OR replace(u, 'aa', 'ba') LIKE 'bab%'",
        "SELECT * FROM t WHERE replace(s, ' ', '_') < replace(u, 'ab', 'AB')",
        "SELECT * FROM t WHERE CAST(a AS REAL) / 2 > 0.5",
        "SELECT * FROM t WHERE CAST(a / 2.0 AS INTEGER) = 1 OR CAST(b * 1.5 AS INTEGER) < -1",
        "SELECT * FROM t WHERE CAST(a + b AS INTEGER) = 3",
        /* a WITH query inlined: its WHERE joins the outer one */
        "WITH r AS (SELECT a, b FROM t WHERE a > 1) SELECT b FROM r WHERE b < 3",
        "WITH r AS (SELECT * FROM t x WHERE x.s LIKE 'a%' OR u IS NULL) SELECT r.a FROM r WHERE r.b > 0",
        /* renamed: by a column list, by aliases */
        "WITH r(x, y) AS (SELECT a, b FROM t WHERE a > 1) SELECT y FROM r WHERE x < 3 AND r.y > 0",
        "SELECT z.k FROM (SELECT b AS k, s FROM t WHERE b > 0) z WHERE z.k < 3 OR s = 'ab'",
    };
    db_schema *s = schema();
    const db_table *t = &s->tables[0];
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(7);
    for (size_t qi = 0; qi < sizeof queries / sizeof *queries; qi++) {
        const char *sql = queries[qi];
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
        if (!q->understood) fail_msg("not understood: %s (%s)", sql, q->nunsupported ? q->unsupported[0] : "?");
        expr_ctx *cx = expr_ctx_new();
        db_val cells[4];
        expr *bytes[4 * TB];
        make_cells(cx, t, cells, bytes, 0);
        /* parameters: ?1 = 'ab' (constant text), ?2 = 2 */
        expr *pb[2] = {expr_const(cx, 'a', 8), expr_const(cx, 'b', 8)};
        db_val params[2] = {
            {true, expr_const(cx, 0, 1), NULL, expr_const(cx, 2, 8), 2, pb, false, NULL, DB_DATE_NONE, NULL},
            {false, expr_const(cx, 0, 1), expr_const(cx, 2, 64), NULL, 0, NULL, false, NULL, DB_DATE_NONE, NULL},
        };
        const char *why = NULL;
        const db_val *rows[1] = {cells};
        expr *w = db_where_expr(cx, q, rows, params, 2, &why);
        if (!w) fail_msg("no expression for %s: %s", sql, why);
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        for (int iter = 0; iter < 300; iter++) {
            uint64_t in[4 * SYM_PER_COL] = {0};
            assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL), SQLITE_OK);
            sqlite3_stmt *ins;
            assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t VALUES(?,?,?,?)", -1, &ins, NULL), SQLITE_OK);
            for (int c = 0; c < 4; c++) {
                cell_draw d = {c != 1 ? 6 : 0, "abcAB ", TB, -2, 4}; /* b is NOT NULL */
                random_cell(ins, c + 1, db_column_is_text(&t->cols[c]), &d, NULL, in + c * SYM_PER_COL);
            }
            assert_int_equal(sqlite3_step(ins), SQLITE_DONE);
            sqlite3_finalize(ins);
            sqlite3_reset(st);
            sqlite3_bind_text(st, 1, "ab", 2, SQLITE_STATIC);
            sqlite3_bind_int(st, 2, 2);
            int returned = sqlite3_step(st) == SQLITE_ROW;
            uint64_t got = expr_eval(w, in, sizeof in / sizeof *in);
            if ((int)got != returned)
                fail_msg("%s: SQLite %s the row, the expression says %d (iteration %d)", sql,
                         returned ? "returns" : "does not return", (int)got, iter);
        }
        sqlite3_finalize(st);
        expr_ctx_free(cx);
        db_query_free(q);
    }
    sqlite3_close(db);
    db_schema_free(s);
}

/*
 * Subqueries against SQLite: the table's SUBQ_ROWS rows are both the outer rows and the subquery's slots (a fixture
 * view over symbolic cells, row k's symbols after row k-1's); for random contents, whether SQLite returns row k must
 * equal the WHERE expression over row k (u, UNIQUE, names the row).
 */
#define SUBQ_ROWS 3
static db_val subq_cells[SUBQ_ROWS][4];
static expr *subq_true;
static const db_val *subq_row(int ti, unsigned k) { return (void)ti, subq_cells[k]; }
static expr *subq_alive(int ti, unsigned k) { return (void)ti, (void)k, subq_true; }
static bool subq_changed(int ti) { return (void)ti, false; }
static unsigned subq_nextra; /* the last rows stand for rows the program inserted (the view's extra rows) */
static unsigned subq_extra(int ti) { return (void)ti, subq_nextra; }

static void test_subqueries_against_sqlite(void **state)
{
    (void)state;
    static const char *queries[] = {
        "SELECT u FROM t WHERE b >= (SELECT COALESCE(SUM(a * 2), 0) FROM t WHERE a > 0)",
        "SELECT u FROM t x WHERE b < (SELECT MAX(a + b) FROM t y WHERE y.s = x.s) OR a IS NULL",
        "SELECT u FROM t WHERE a <= ifnull((SELECT MIN(b - 1) FROM t WHERE s LIKE 'a%'), -1)",
        "SELECT u FROM t x WHERE (SELECT COUNT(*) FROM t y WHERE y.b > x.b) = 1",
        /* arithmetic around the aggregate */
        "SELECT u FROM t WHERE b > (SELECT MAX(a) - 1 FROM t WHERE a < 100)",
        "SELECT u FROM t x WHERE a * 3 < (SELECT 1 + COUNT(*) * 2 FROM t y WHERE y.b > x.b)",
        "SELECT u FROM t WHERE a >= (SELECT 10 - COALESCE(SUM(b), 0) / 2 FROM t WHERE s LIKE 'a%')",
        /* a column of the row a UNIQUE key picks (u): its value, or NULL when no row has the key */
        "SELECT u FROM t x WHERE a < (SELECT y.b FROM t y WHERE y.u = x.s)",
        "SELECT u FROM t x WHERE b > coalesce((SELECT y.a FROM t y WHERE y.u = 'b' AND y.b > 0), 0) * 2",
    };
    db_schema *s = schema();
    const db_table *t = &s->tables[0];
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(11);
    for (size_t qi = 0; qi < sizeof queries / sizeof *queries; qi++) {
        const char *sql = queries[qi];
        expr_ctx *cx = expr_ctx_new();
        subq_true = expr_const(cx, 1, 1);
        expr *bytes[SUBQ_ROWS][4 * TB];
        for (int k = 0; k < SUBQ_ROWS; k++) make_cells(cx, t, subq_cells[k], bytes[k], k);
        /* every other query sees its last row as one the program inserted: enumerated after the slots */
        subq_nextra = qi % 2;
        db_fixture_view view = {SUBQ_ROWS - subq_nextra, subq_row, subq_alive, subq_changed, subq_extra};
        db_set_fixture_view(&view);
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
        if (!q->understood) fail_msg("not understood: %s (%s)", sql, q->nunsupported ? q->unsupported[0] : "?");
        expr *w[SUBQ_ROWS];
        for (int k = 0; k < SUBQ_ROWS; k++) {
            const char *why = NULL;
            const db_val *rows[1] = {subq_cells[k]};
            if (!(w[k] = db_where_expr(cx, q, rows, NULL, 0, &why))) fail_msg("no expression for %s: %s", sql, why);
        }
        for (int iter = 0; iter < 200; iter++) {
            uint64_t in[SUBQ_ROWS * 4 * SYM_PER_COL] = {0};
            assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL), SQLITE_OK);
            for (int k = 0; k < SUBQ_ROWS; k++) {
                sqlite3_stmt *ins;
                assert_int_equal(
                    sqlite3_prepare_v2(db, "INSERT INTO t(rowid, a, b, s, u) VALUES(?,?,?,?,?)", -1, &ins, NULL),
                    SQLITE_OK);
                sqlite3_bind_int(ins, 1, k + 1);
                for (int c = 0; c < 4; c++) {
                    /* b NOT NULL; u UNIQUE: never NULL, k's own one letter */
                    cell_draw d = {c != 1 && c != 3 ? 5 : 0, "abcAB ", TB, -2, 4};
                    char own[2] = {(char)('a' + k), 0};
                    random_cell(ins, c + 2, db_column_is_text(&t->cols[c]), &d, c == 3 ? own : NULL,
                                in + (k * 4 + c) * SYM_PER_COL);
                }
                assert_int_equal(sqlite3_step(ins), SQLITE_DONE);
                sqlite3_finalize(ins);
            }
            bool returned[SUBQ_ROWS] = {false};
            sqlite3_stmt *st;
            assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
            while (sqlite3_step(st) == SQLITE_ROW) returned[sqlite3_column_text(st, 0)[0] - 'a'] = true;
            sqlite3_finalize(st);
            for (int k = 0; k < SUBQ_ROWS; k++)
                if ((expr_eval(w[k], in, sizeof in / sizeof *in) & 1) != returned[k])
                    fail_msg("%s: row %d: SQLite %s it (iteration %d)", sql, k + 1,
                             returned[k] ? "returns" : "does not return", iter);
        }
        db_set_fixture_view(NULL);
        db_query_free(q);
        expr_ctx_free(cx);
    }
    sqlite3_close(db);
    db_schema_free(s);
}

/* db_order_le against SQLite's ORDER BY: for random pairs of rows, "a sorts no later than
 * b" must hold exactly when SQLite returns a first or the keys tie. */
static void test_order_against_sqlite(void **state)
{
    static const char *queries[] = {
        "SELECT * FROM t ORDER BY a",
        "SELECT * FROM t ORDER BY a DESC",
        "SELECT * FROM t ORDER BY s, b DESC",
        "SELECT * FROM t ORDER BY u DESC NULLS FIRST",
        "SELECT * FROM t ORDER BY a NULLS LAST, s",
        "SELECT * FROM t ORDER BY length(s) DESC, b", /* expression keys (db_query.order_expr) */
        "SELECT a, b, lower(s) AS ls FROM t ORDER BY ls, 2 DESC",
    };
    db_schema *s = schema();
    const db_table *t = &s->tables[0];
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(11);
    for (size_t qi = 0; qi < sizeof queries / sizeof *queries; qi++) {
        const char *sql = queries[qi];
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
        assert_true(q->norder > 0);
        expr_ctx *cx = expr_ctx_new();
        /* row a: symbols 0.., row b: symbols offset by 4 * SYM_PER_COL */
        db_val ca[4], cb[4];
        expr *ba[4 * TB], *bb[4 * TB];
        make_cells(cx, t, ca, ba, 0);
        make_cells(cx, t, cb, bb, 1);
        const db_val *ra[1] = {ca}, *rb[1] = {cb};
        expr *le = db_order_le(cx, q, ra, rb);
        int checked = 0;
        for (int iter = 0; iter < 300; iter++) {
            uint64_t in[8 * SYM_PER_COL] = {0};
            assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL), SQLITE_OK);
            for (int r = 0; r < 2; r++) {
                sqlite3_stmt *ins;
                assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t VALUES(?,?,?,?)", -1, &ins, NULL), SQLITE_OK);
                for (int c = 0; c < 4; c++) {
                    cell_draw d = {c != 1 ? 4 : 0, "abB", 2, -1, 1};
                    random_cell(ins, c + 1, ca[c].is_text, &d, NULL, in + (r * 4 + c) * SYM_PER_COL);
                }
                int rc = sqlite3_step(ins);
                sqlite3_finalize(ins);
                if (rc != SQLITE_DONE) /* u is UNIQUE: a clash, try other rows */
                    goto next;
            }
            {
                uint64_t ab = expr_eval(le, in, sizeof in / sizeof *in);
                uint64_t swapped[8 * SYM_PER_COL];
                memcpy(swapped, in + 4 * SYM_PER_COL, sizeof in / 2);
                memcpy(swapped + 4 * SYM_PER_COL, in, sizeof in / 2);
                uint64_t ba_ = expr_eval(le, swapped, sizeof in / sizeof *in);
                sqlite3_stmt *st;
                assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
                assert_int_equal(sqlite3_step(st), SQLITE_ROW);
                /* column b (NOT NULL) tells the rows apart when they differ on it */
                const size_t b_of_a = 1 * SYM_PER_COL + 1, b_of_b = 5 * SYM_PER_COL + 1;
                int first_is_a = sqlite3_column_int64(st, 1) == (int64_t)in[b_of_a];
                sqlite3_finalize(st);
                if (ab && ba_) goto next;                /* a tie: SQLite may return either */
                if (in[b_of_a] == in[b_of_b]) goto next; /* b does not tell the rows apart */
                checked++;
                if ((int)ab != first_is_a)
                    fail_msg("%s: SQLite returns %s first, db_order_le(a, b) = %d (iteration %d)", sql,
                             first_is_a ? "a" : "b", (int)ab, iter);
            }
        next:;
        }
        if (checked < 50) fail_msg("%s: only %d informative pairs", sql, checked);
        expr_ctx_free(cx);
        db_query_free(q);
    }
    sqlite3_close(db);
    db_schema_free(s);
}

/* nrows candidate rows of t with their own symbols (row r's start at r * 4 * SYM_PER_COL), and sel[r], whether
 * row r satisfies q's WHERE. */
static void candidate_rows(expr_ctx *cx, const db_table *t, const db_query *q, int nrows, db_val (*cells)[4],
                           expr *(*bytes)[4 * TB], expr **sel)
{
    for (int r = 0; r < nrows; r++) {
        make_cells(cx, t, cells[r], bytes[r], r);
        const db_val *rows[1] = {cells[r]};
        const char *why = NULL;
        sel[r] = db_where_expr(cx, q, rows, NULL, 0, &why);
        assert_non_null(sel[r]);
    }
}

/* COUNT/SUM/MIN/MAX over three candidate rows, against SQLite on the rows that satisfy WHERE. */
static void test_aggregates_against_sqlite(void **state)
{
    db_schema *s = schema();
    const db_table *t = &s->tables[0];
    const char *sql = "SELECT count(*), count(a), sum(a), min(a), max(b) FROM t WHERE b > 0";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->aggregate);
    assert_int_equal(q->nresult, 5);
    assert_int_equal(q->result_agg[0], DB_AGG_COUNT);
    assert_int_equal(q->result_col[0], -1);
    assert_int_equal(q->result_agg[4], DB_AGG_MAX);
    expr_ctx *cx = expr_ctx_new();
    enum { R = 3 };
    db_val cells[R][4];
    expr *bytes[R][4 * TB];
    expr *sel[R];
    candidate_rows(cx, t, q, R, cells, bytes, sel);
    db_val agg[5];
    for (int i = 0; i < 5; i++) {
        const db_val *vals[R];
        for (int r = 0; r < R; r++) vals[r] = q->result_col[i] < 0 ? NULL : &cells[r][q->result_col[i]];
        const char *why = NULL;
        assert_int_equal(
            db_aggregate(cx, q->result_agg[i], R, sel, q->result_col[i] < 0 ? NULL : vals, &agg[i], NULL, &why), 0);
    }
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(5);
    for (int iter = 0; iter < 300; iter++) {
        uint64_t in[R * 4 * SYM_PER_COL] = {0};
        assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL), SQLITE_OK);
        for (int r = 0; r < R; r++) {
            uint64_t *a = in + (r * 4 + 0) * SYM_PER_COL, *b = in + (r * 4 + 1) * SYM_PER_COL;
            a[0] = rand() % 4 == 0;
            a[1] = a[0] ? 0 : (uint64_t)(int64_t)(rand() % 9 - 4);
            b[1] = (uint64_t)(int64_t)(rand() % 5 - 2);
            char ins[128];
            if (a[0])
                snprintf(ins, sizeof ins, "INSERT INTO t(a, b) VALUES(NULL, %lld)", (long long)(int64_t)b[1]);
            else
                snprintf(ins, sizeof ins, "INSERT INTO t(a, b) VALUES(%lld, %lld)", (long long)(int64_t)a[1],
                         (long long)(int64_t)b[1]);
            assert_int_equal(sqlite3_exec(db, ins, NULL, NULL, NULL), SQLITE_OK);
        }
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        for (int i = 0; i < 5; i++) {
            int is_null = sqlite3_column_type(st, i) == SQLITE_NULL;
            int64_t want = sqlite3_column_int64(st, i);
            uint64_t got_null = expr_eval(agg[i].null, in, sizeof in / sizeof *in);
            int64_t got = (int64_t)expr_eval(agg[i].v, in, sizeof in / sizeof *in);
            if ((int)got_null != is_null || got != want)
                fail_msg("column %d: SQLite %s%lld, expression %s%lld (iteration %d)", i, is_null ? "NULL " : "",
                         (long long)want, got_null ? "NULL " : "", (long long)got, iter);
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

/* The one result row of `sql` against SQLite on `iters` random tables of R rows of t (a: NULL a quarter of the
 * time, else -1..3; b: -2..2; s: NULL a fifth of the time, else 0..2 letters of "ab"), whose cells are the
 * symbols candidate_rows made: each column i's NULL flag and value (its bytes and length when out[i] is a
 * text) must be SQLite's. */
static void result_row_against_sqlite(const char *sql, const db_val *out, int n, int R, unsigned seed, int iters)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(seed);
    uint64_t in[8 * 4 * SYM_PER_COL];
    assert_true(R <= 8);
    size_t nin = (size_t)R * 4 * SYM_PER_COL;
    for (int iter = 0; iter < iters; iter++) {
        memset(in, 0, sizeof in);
        assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL), SQLITE_OK);
        sqlite3_stmt *ins;
        assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t(a, b, s) VALUES(?, ?, ?)", -1, &ins, NULL), SQLITE_OK);
        for (int r = 0; r < R; r++) {
            uint64_t *a = in + (r * 4 + 0) * SYM_PER_COL, *b = in + (r * 4 + 1) * SYM_PER_COL;
            uint64_t *st = in + (r * 4 + 2) * SYM_PER_COL;
            a[0] = rand() % 4 == 0;
            a[1] = a[0] ? 0 : (uint64_t)(int64_t)(rand() % 5 - 1);
            b[1] = (uint64_t)(int64_t)(rand() % 5 - 2);
            st[0] = rand() % 5 == 0;
            char txt[3] = {0};
            int len = st[0] ? 0 : rand() % 3;
            for (int i = 0; i < len; i++) txt[i] = "ab"[rand() % 2];
            st[1] = (uint64_t)len;
            for (int i = 0; i < len; i++) st[2 + i] = (uint8_t)txt[i];
            sqlite3_reset(ins);
            if (a[0])
                sqlite3_bind_null(ins, 1);
            else
                sqlite3_bind_int64(ins, 1, (int64_t)a[1]);
            sqlite3_bind_int64(ins, 2, (int64_t)b[1]);
            if (st[0])
                sqlite3_bind_null(ins, 3);
            else
                sqlite3_bind_text(ins, 3, txt, len, SQLITE_TRANSIENT);
            assert_int_equal(sqlite3_step(ins), SQLITE_DONE);
        }
        sqlite3_finalize(ins);
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        for (int i = 0; i < n; i++) {
            bool null = sqlite3_column_type(st, i) == SQLITE_NULL;
            if (expr_eval(out[i].null, in, nin) != null)
                fail_msg("column %d: SQLite %sNULL, the model not (iteration %d)", i, null ? "" : "not ", iter);
            if (null) continue;
            if (out[i].is_text) {
                const unsigned char *want = sqlite3_column_text(st, i);
                int wl = sqlite3_column_bytes(st, i);
                char got[8] = {0};
                int gl = (int)expr_eval(out[i].len, in, nin);
                for (int k = 0; k < gl && k < 7 && (unsigned)k < out[i].nbytes; k++)
                    got[k] = (char)expr_eval(out[i].bytes[k], in, nin);
                if (gl != wl || memcmp(got, want, (size_t)wl))
                    fail_msg("column %d: SQLite '%s', the model '%s' (iteration %d)", i, want, got, iter);
            } else if ((int64_t)expr_eval(out[i].v, in, nin) != sqlite3_column_int64(st, i)) {
                fail_msg("column %d: SQLite %lld, the model %lld (iteration %d)", i,
                         (long long)sqlite3_column_int64(st, i), (long long)(int64_t)expr_eval(out[i].v, in, nin),
                         iter);
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
}

/* Aggregates with FILTER (WHERE ...) (agg(CASE WHEN f THEN x END), COUNT(*) of THEN 1) and NULLIF around an
 * aggregate, over the one row of aggregates, against SQLite (which has both) on random rows with NULLs. */
static void test_filter_against_sqlite(void **state)
{
    db_schema *s = schema();
    const db_table *t = &s->tables[0];
    const char *sql =
        "SELECT count(*) FILTER (WHERE a > 1), sum(b) FILTER (WHERE s = 'ab'), max(a) FILTER (WHERE b < 1), "
        "nullif(count(*), 2) FROM t WHERE b > -2";
    enum { N = 4, R = 3 };
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_true(q->aggregate);
    assert_int_equal(q->nresult, N);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[R][4];
    expr *bytes[R][4 * TB];
    expr *sel[R];
    candidate_rows(cx, t, q, R, cells, bytes, sel);
    const db_val *rowp[R][1];
    const db_val *const *group_rows[R];
    for (int r = 0; r < R; r++) rowp[r][0] = cells[r], group_rows[r] = rowp[r];
    db_val agg[N];
    for (int i = 0; i < N; i++) {
        assert_int_equal(q->result_agg[i], DB_AGG_EXPR);
        const char *why = NULL;
        if (db_group_value(cx, q, q->result_expr[i], group_rows[0], R, sel, group_rows, NULL, 0, &agg[i], &why))
            fail_msg("column %d: %s", i, why);
    }
    result_row_against_sqlite(sql, agg, N, R, 13, 300);
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

/* db_aggregate of op ops[i] over column cols[i] of R = 4 candidate rows of t, for the n result columns of sql, checked
 * against SQLite by result_row_against_sqlite; MIN/MAX of a text are texts, and MAX of a text beside a number is
 * not modelled (SQLite orders numbers first). */
static void column_aggregates_against_sqlite(const char *sql, const int *ops, const int *cols, int n, unsigned seed)
{
    db_schema *s = schema();
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    expr_ctx *cx = expr_ctx_new();
    enum { R = 4 };
    db_val cells[R][4];
    expr *bytes[R][4 * TB];
    expr *sel[R];
    candidate_rows(cx, &s->tables[0], q, R, cells, bytes, sel);
    db_val agg[4];
    for (int i = 0; i < n && i < 4; i++) {
        const db_val *vals[R];
        for (int r = 0; r < R; r++) vals[r] = &cells[r][cols[i]];
        const char *why = NULL;
        assert_int_equal(db_aggregate(cx, ops[i], R, sel, vals, &agg[i], NULL, &why), 0);
        if (ops[i] == DB_AGG_MIN || ops[i] == DB_AGG_MAX) assert_int_equal(agg[i].is_text, cells[0][cols[i]].is_text);
        assert_non_null(agg[i].v); /* a symbolic value, not "read concretely" */
    }
    const db_val *mixed[2] = {&cells[0][2], &cells[1][0]};
    db_val out;
    const char *why = NULL;
    assert_int_equal(db_aggregate(cx, DB_AGG_MAX, 2, sel, mixed, &out, NULL, &why), -1);
    assert_non_null(why);
    result_row_against_sqlite(sql, agg, n, R, seed, 300);
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

/* COUNT(DISTINCT x) (DB_AGG_COUNT_DISTINCT) of an integer and of a text column against SQLite on
 * random rows with many repeated values and NULLs; the parse gives DBX_GROUPAGG nodes of it. */
static void test_count_distinct_against_sqlite(void **state)
{
    db_schema *s = schema();
    const char *sql = "SELECT count(DISTINCT a), count(DISTINCT s) FROM t WHERE b > 0";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(q->result_agg[i], DB_AGG_EXPR);
        assert_int_equal(q->result_expr[i]->kind, DBX_GROUPAGG);
        assert_int_equal(q->result_expr[i]->op, DB_AGG_COUNT_DISTINCT);
    }
    db_query_free(q);
    db_schema_free(s);
    static const int ops[2] = {DB_AGG_COUNT_DISTINCT, DB_AGG_COUNT_DISTINCT}, cols[2] = {0, 2}; /* a, s */
    column_aggregates_against_sqlite(sql, ops, cols, 2, 9);
}

/* MIN and MAX of a text column (dates kept as text) against SQLite on random rows of short texts
 * with repeated values, NULLs and prefixes of each other: bytes, length and NULL flag. */
static void test_text_min_max_against_sqlite(void **state)
{
    (void)state;
    static const int ops[2] = {DB_AGG_MIN, DB_AGG_MAX}, cols[2] = {2, 2};
    column_aggregates_against_sqlite("SELECT min(s), max(s) FROM t WHERE b > 0", ops, cols, 2, 11);
}

/* COUNT(x) of a text column (a date kept as text: PostgreSQL's count(delivered)) beside COUNT of an integer, against
 * SQLite on random rows with NULLs: the non-NULL rows counted, whatever the column's type. */
static void test_text_count_against_sqlite(void **state)
{
    (void)state;
    static const int ops[2] = {DB_AGG_COUNT, DB_AGG_COUNT}, cols[2] = {2, 0};
    column_aggregates_against_sqlite("SELECT count(s), count(a) FROM t WHERE b > 0", ops, cols, 2, 13);
}

/* round(x[, n]) (DBF_ROUND) against SQLite, the result's double bits: of an INTEGER, of a DECIMAL(8,2)
 * to 1, 2 and 3 decimals, of a REAL to 0, 1 and 2 (ties, 2^52 + 1, tiny and huge values among them; a REAL
 * whose x * 10^d is within 1e-6 of a half is left out for d > 0: SQLite's printf rounds the first 16
 * significant digits half away, the model the double x * 10^d: -73.975 (-73.974999999999994) gives
 * -73.98 in SQLite, -73.97 in the model, a mismatch the run reports). */
static void test_round_against_sqlite(void **state)
{
    (void)state;
    static const char *ddl = "CREATE TABLE r (x REAL, k INTEGER, p DECIMAL(8,2));";
    static const char *values[] = {"round(k)", "round(k, 2)", "round(p, 2)", "round(p, 3)",
                                   "round(x)", "round(x, 2)", "round(x, 1)", "round(p, 1)"};
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl(ddl, &s, &err), 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, ddl, NULL, NULL, NULL), SQLITE_OK);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[3] = {{0}};
    for (int c = 0; c < 3; c++) cells[c].null = expr_symbol(cx, (uint32_t)(2 * c), 1, 0);
    cells[0].is_real = true;
    cells[0].v = expr_symbol(cx, 1, 64, 0);
    cells[1].v = expr_symbol(cx, 3, 64, 0);
    cells[2].is_real = true;
    cells[2].scaled = expr_symbol(cx, 5, 64, 0);
    cells[2].v = db_scaled_value(cx, cells[2].scaled, 2);
    const db_val *rows[1] = {cells};
    srand(17);
    for (size_t qi = 0; qi < sizeof values / sizeof *values; qi++) {
        char sql[80];
        snprintf(sql, sizeof sql, "SELECT %s FROM r", values[qi]);
        db_query *q = NULL;
        assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
        if (!q->understood) fail_msg("not understood: %s", sql);
        db_val v;
        const char *why = NULL;
        if (db_value_expr(cx, q, q->result_expr[0], rows, NULL, 0, &v, &why)) fail_msg("%s: %s", sql, why);
        assert_true(v.is_real);
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        for (int iter = 0; iter < 400; iter++) {
            static const double special[] = {
                0.5,  -0.5,  1.5,     -2.5, 0.49999999999999994, -0.3, 0.3, 4503599627370497.0, -4503599627370497.0,
                1e17, -1e17, 2.5e-300};
            double x = rand() % 3 ? (rand() % 2001 - 1000) / 8.0 + (rand() % 7) * 0.1 : special[rand() % 12];
            int64_t k = rand() % 2001 - 1000, p = rand() % 200001 - 100000;
            int xnull = rand() % 8 == 0;
            uint64_t in[6] = {(uint64_t)xnull, 0, 0, (uint64_t)k, 0, (uint64_t)p};
            if (!xnull) memcpy(&in[1], &x, sizeof x);
            char ins[200];
            snprintf(ins, sizeof ins, "DELETE FROM r; INSERT INTO r VALUES (%s, %lld, %lld.%02lld)",
                     xnull ? "NULL" : "?", (long long)k, (long long)(p / 100), (long long)llabs(p % 100));
            if (p < 0 && p > -100) /* -0.05: the integer part's sign is lost in "%lld" */
                snprintf(ins, sizeof ins, "DELETE FROM r; INSERT INTO r VALUES (%s, %lld, -0.%02lld)",
                         xnull ? "NULL" : "?", (long long)k, (long long)-p);
            sqlite3_stmt *w;
            char *semi = strchr(ins, ';');
            assert_int_equal(sqlite3_exec(db, "DELETE FROM r", NULL, NULL, NULL), SQLITE_OK);
            assert_int_equal(sqlite3_prepare_v2(db, semi + 2, -1, &w, NULL), SQLITE_OK);
            if (!xnull) sqlite3_bind_double(w, 1, x);
            assert_int_equal(sqlite3_step(w), SQLITE_DONE);
            sqlite3_finalize(w);
            sqlite3_reset(st);
            assert_int_equal(sqlite3_step(st), SQLITE_ROW);
            int null = sqlite3_column_type(st, 0) == SQLITE_NULL;
            if (expr_eval(v.null, in, 6) != (uint64_t)null) fail_msg("%s of %.17g: NULL differs", sql, x);
            if (null) continue;
            if (!strncmp(values[qi], "round(x, ", 9)) { /* SQLite's printf rounds 16 digits: near-ties differ */
                double t = x * pow(10, values[qi][9] - '0'), f = fabs(t - trunc(t));
                if (fabs(f - 0.5) < 1e-6 && fabs(x) < 4503599627370496.0) continue;
            }
            double got = sqlite3_column_double(st, 0), model;
            uint64_t bits = expr_eval(v.v, in, 6);
            memcpy(&model, &bits, sizeof model);
            if (memcmp(&got, &model, sizeof got))
                fail_msg("%s of x %.17g, k %lld, p %lld: SQLite %.17g, the model %.17g", sql, x, (long long)k,
                         (long long)p, got, model);
        }
        sqlite3_finalize(st);
        db_query_free(q);
    }
    expr_ctx_free(cx);
    sqlite3_close(db);
    db_schema_free(s);
}

static void test_insert_parse(void **state)
{
    db_schema *s = schema();
    const char *sql = "INSERT INTO t(s, b) VALUES (:name, ? + 1)";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->kind, DBQ_INSERT);
    assert_int_equal(q->ninsert, 2);
    assert_int_equal(q->insert_col[0], 2);
    assert_int_equal(q->insert_col[1], 1);
    assert_int_equal(q->insert_val[0]->kind, DBX_PARAM);
    assert_int_equal(q->insert_val[1]->kind, DBX_ARITH);
    db_query_free(q);
    /* SQLite's INSERT OR IGNORE and PostgreSQL's ON CONFLICT DO NOTHING: tracked as inserts (the runtime
     * tracks the rows the database says it added); so is DO UPDATE of one row (an upsert: test_upsert_parse);
     * INSERT ... SELECT with a conflict clause is not */
    static const struct {
        const char *sql;
        int ninsert;
    } ignores[] = {{"INSERT OR IGNORE INTO t(a, b) VALUES (1, 2);", 2},
                   {"insert  or ignore into t(a, b) values (?, 2)", 2},
                   {"INSERT INTO t(a, b) VALUES ($1, 2) ON CONFLICT DO NOTHING", 2},
                   {"INSERT INTO t(a, b) VALUES ($1, 2) ON CONFLICT (a) DO UPDATE SET b = 3", 2},
                   {"INSERT INTO t(a, b) VALUES ($1, 2), (3, 4) ON CONFLICT (a) DO UPDATE SET b = 3", 0},
                   {"INSERT INTO t(a, b) VALUES ($1, 2) ON CONFLICT ON CONSTRAINT k DO UPDATE SET b = 3", 0},
                   {"INSERT OR IGNORE INTO t(a, b) SELECT a, b FROM t", 0}};
    for (size_t i = 0; i < sizeof ignores / sizeof *ignores; i++) {
        assert_int_equal(db_query_parse(s, ignores[i].sql, strlen(ignores[i].sql), &q, &err), 0);
        assert_int_equal(q->kind, DBQ_INSERT);
        assert_int_equal(q->ninsert, ignores[i].ninsert);
        assert_null(q->insert_src);
        db_query_free(q);
    }
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->nparams, 2);
    expr_ctx *cx = expr_ctx_new();
    db_val params[2] = {
        {false, expr_const(cx, 0, 1), expr_const(cx, 5, 64), NULL, 0, NULL, false, NULL, DB_DATE_NONE, NULL},
        {false, expr_const(cx, 0, 1), expr_symbol(cx, 0, 64, 41), NULL, 0, NULL, false, NULL, DB_DATE_NONE, NULL},
    };
    db_val v;
    const char *why = NULL;
    assert_int_equal(db_value_expr(cx, q, q->insert_val[1], NULL, params, 2, &v, &why), 0);
    uint64_t in[1] = {41};
    assert_int_equal(expr_eval(v.v, in, 1), 42);
    expr_ctx_free(cx);
    db_query_free(q);
    /* several rows: ninsert values each, row by row */
    sql = "INSERT INTO t(b, a) VALUES (1, ?), (2, 3), (?2 * 2, NULL)";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 2);
    assert_int_equal(q->ninsert_rows, 3);
    assert_int_equal(q->insert_col[0], 1);
    assert_int_equal(q->insert_col[1], 0);
    assert_int_equal(q->insert_val[1]->kind, DBX_PARAM);
    assert_int_equal(q->insert_val[3]->ival, 3);
    assert_int_equal(q->insert_val[4]->kind, DBX_ARITH);
    assert_int_equal(q->insert_val[5]->kind, DBX_NULL);
    assert_int_equal(q->nparams, 2);
    db_query_free(q);
    /* INSERT ... SELECT of one table's plain columns: the SELECT, its result column i into insert_col[i] */
    sql = "INSERT INTO t(s, b) SELECT u, a FROM t WHERE a > ?";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 2);
    assert_int_equal(q->ninsert_rows, 0);
    assert_non_null(q->insert_src);
    assert_int_equal(q->insert_col[0], 2);
    assert_int_equal(q->insert_src->result_col[0], 3);
    assert_int_equal(q->insert_src->result_col[1], 0);
    assert_int_equal(q->insert_src->where->kind, DBX_CMP);
    assert_int_equal(q->nparams, 1);
    db_query_free(q);
    /* ... and of expressions of the source row and parameters */
    sql = "INSERT INTO t(a, b, s) SELECT ?, b * 2, s || '!' FROM t WHERE a > ?";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 3);
    assert_non_null(q->insert_src);
    assert_int_equal(q->insert_src->result_expr[0]->kind, DBX_PARAM);
    assert_int_equal(q->insert_src->result_expr[1]->kind, DBX_ARITH);
    assert_non_null(q->insert_src->result_expr[2]);
    assert_int_equal(q->nparams, 2);
    db_query_free(q);
    /* ... and of an inner join's rows: one candidate row per slot combination (the runtime's track_insert_select) */
    sql = "INSERT INTO t(a, s) SELECT x.a * y.b, y.s FROM t x JOIN t y ON y.b = x.a WHERE x.s = 'k'";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 2);
    assert_non_null(q->insert_src);
    assert_int_equal(q->insert_src->nfrom, 2);
    assert_int_equal(q->insert_src->result_from[1], 1);
    db_query_free(q);
    /* ... and of a GROUP BY query's keys and aggregates: one candidate row per group */
    sql = "INSERT INTO t(s, a) SELECT s, SUM(b) FROM t WHERE b > 0 GROUP BY s";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 2);
    assert_non_null(q->insert_src);
    assert_int_equal(q->insert_src->ngroup, 1);
    assert_int_equal(q->insert_src->result_agg[1], DB_AGG_SUM);
    db_query_free(q);
    /* not tracked: a column reference in VALUES (also in a later row), INSERT ... SELECT of an aggregate, with
     * ORDER BY/LIMIT, of an outer join, of another width, of a column read concretely */
    const char *untracked[] = {"INSERT INTO t(a) VALUES (b)",
                               "INSERT INTO t(a, b) VALUES (1, 2), (3, b)",
                               "INSERT INTO t(a) SELECT count(*) FROM t",
                               "INSERT INTO t(a) SELECT b FROM t ORDER BY b LIMIT 1",
                               "INSERT INTO t(a) SELECT y.b FROM t x LEFT JOIN t y ON y.a = x.a",
                               "INSERT INTO t(a) SELECT a, b FROM t",
                               "INSERT INTO t(s) SELECT hex(a) FROM t"};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(db_query_parse(s, untracked[i], strlen(untracked[i]), &q, &err), 0);
        assert_int_equal(q->ninsert, 0);
        db_query_free(q);
    }
    db_schema_free(s);
}

/* Aggregates over the groups of a subquery in FROM (sql_groups.c): the statement is the subquery's GROUP BY query,
 * with the outer aggregates of its result columns; SQLite's subquery without an alias parses too. Other shapes are
 * not. */
static void test_over_groups_parse(void **state)
{
    (void)state;
    db_schema *s = schema();
    db_query *q = NULL;
    char *err = NULL;
    const char *sql =
        "SELECT MAX(n), COUNT(*), min(d.b) FROM (SELECT b, COUNT(*) AS n FROM t WHERE a > ? GROUP BY b) d";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->ngroup, 1);
    assert_int_equal(q->nouter, 3);
    assert_int_equal(q->outer_agg[0], DB_AGG_MAX);
    assert_int_equal(q->outer_res[0], 1);
    assert_int_equal(q->outer_agg[1], DB_AGG_COUNT);
    assert_int_equal(q->outer_res[1], -1);
    assert_int_equal(q->outer_agg[2], DB_AGG_MIN);
    assert_int_equal(q->outer_res[2], 0);
    assert_int_equal(q->nparams, 1);
    db_query_free(q);
    /* without an alias (a parse error for PostgreSQL's grammar before 16) */
    sql = "SELECT SUM(c) FROM (SELECT s, COUNT(*) c FROM t GROUP BY s)";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nouter, 1);
    assert_int_equal(q->outer_agg[0], DB_AGG_SUM);
    db_query_free(q);
    /* the alias goes after the FROM item only: not after a subquery of IN, a scalar one, or one that has an alias */
    sql = "SELECT MAX(c) FROM (SELECT s, COUNT(*) c FROM t WHERE a IN (SELECT b FROM (SELECT b FROM t) x "
          "WHERE b = (SELECT 1)) GROUP BY s) ORDER BY 1";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    db_query_free(q);
    /* not this shape: an outer WHERE, an aggregate of an expression, a subquery without GROUP BY */
    const char *other[] = {"SELECT MAX(n) FROM (SELECT b, COUNT(*) AS n FROM t GROUP BY b) d WHERE n > 1",
                           "SELECT MAX(n + 1) FROM (SELECT b, COUNT(*) AS n FROM t GROUP BY b) d",
                           "SELECT MAX(a) FROM (SELECT a FROM t WHERE b > 1) d"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(db_query_parse(s, other[i], strlen(other[i]), &q, &err), 0);
        assert_int_equal(q->nouter, 0);
        db_query_free(q);
    }
    db_schema_free(s);
}

/* ON CONFLICT (cols) DO UPDATE: the target, the assignments over the existing row (item 0) and the proposed one
 * (item 1, excluded), the WHERE; SQLite's INSERT OR REPLACE / REPLACE INTO; RETURNING of plain columns. */
static void test_upsert_parse(void **state)
{
    (void)state;
    db_schema *s = schema();
    db_query *q = NULL;
    char *err = NULL;
    const char *sql = "INSERT INTO t(a, b, u) VALUES (?1, ?2, 'x') ON CONFLICT(u) DO UPDATE SET b = b + excluded.b, "
                      "s = 'again' WHERE t.b < 10 RETURNING b, t.a";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->upsert);
    assert_false(q->or_replace);
    assert_int_equal(q->ninsert, 3);
    assert_int_equal(q->ninsert_rows, 1);
    assert_int_equal(q->nconflict, 1);
    assert_int_equal(q->conflict_col[0], 3);
    assert_int_equal(q->nset, 2);
    assert_int_equal(q->set_col[0], 1);
    const db_sexpr *v = q->set_val[0];
    assert_int_equal(v->kind, DBX_ARITH);
    assert_int_equal(v->kids[0]->kind, DBX_COLUMN);
    assert_int_equal(v->kids[0]->from, 0); /* b: the existing row's */
    assert_int_equal(v->kids[1]->from, 1); /* excluded.b: the proposed row's */
    assert_int_equal(v->kids[1]->column, 1);
    assert_int_equal(q->set_col[1], 2);
    assert_non_null(q->upsert_where);
    assert_int_equal(q->upsert_where->kids[0]->from, 0);
    assert_int_equal(q->nreturn, 2);
    assert_int_equal(q->return_col[0], 1);
    assert_int_equal(q->return_col[1], 0);
    db_query_free(q);
    /* PostgreSQL's spelling with an alias for the target */
    sql = "INSERT INTO t AS x (a, b) VALUES ($1, 2) ON CONFLICT (a) DO UPDATE SET b = x.b + excluded.b RETURNING *";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->upsert);
    assert_int_equal(q->set_val[0]->kids[0]->from, 0);
    assert_int_equal(q->set_val[0]->kids[1]->from, 1);
    assert_int_equal(q->nreturn, 4);
    db_query_free(q);
    /* not modelled: a SET value of an unknown item, RETURNING of expressions only */
    sql = "INSERT INTO t(a, b) VALUES (1, 2) ON CONFLICT (a) DO UPDATE SET b = y.b";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 0);
    db_query_free(q);
    sql = "INSERT INTO t(a, b) VALUES (1, 2) RETURNING b + 1";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 2);
    assert_int_equal(q->nreturn, 0); /* no column: nothing to model */
    db_query_free(q);
    sql = "INSERT INTO t(a, b) VALUES (1, 2) RETURNING b, (b > 3)::boolean"; /* the column modelled, the rest not */
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->nreturn, 2);
    assert_int_equal(q->return_col[0], 1);
    assert_int_equal(q->return_col[1], -1);
    db_query_free(q);
    /* SQLite's INSERT OR REPLACE and REPLACE INTO: one row tracked, or none */
    static const struct {
        const char *sql;
        int ninsert;
    } replaces[] = {{"INSERT OR REPLACE INTO t(a, b) VALUES (?, 2)", 2},
                    {"  replace into t(a, b, u) values (1, 2, 'k');", 3},
                    {"REPLACE INTO t(a, b) VALUES (1, 2), (3, 4)", 0},
                    {"INSERT OR REPLACE INTO t(a, b) SELECT a, b FROM t", 0}};
    for (size_t i = 0; i < sizeof replaces / sizeof *replaces; i++) {
        assert_int_equal(db_query_parse(s, replaces[i].sql, strlen(replaces[i].sql), &q, &err), 0);
        assert_int_equal(q->kind, DBQ_INSERT);
        assert_true(q->or_replace);
        assert_false(q->upsert);
        assert_int_equal(q->ninsert, replaces[i].ninsert);
        db_query_free(q);
    }
    db_schema_free(s);
}

/* UPDATE/DELETE ... RETURNING of plain columns (the runtime reads the rows hit); a GROUP BY query with a scalar
 * subquery in its result list parses (its own columns once crashed the check for one value per group). */
static void test_returning_parse(void **state)
{
    (void)state;
    db_schema *s = schema();
    db_query *q = NULL;
    char *err = NULL;
    const char *sql = "UPDATE t SET b = b - ?1 WHERE a = ?2 AND b >= ?1 RETURNING b, t.s, b * 2";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->kind, DBQ_UPDATE);
    assert_true(q->understood);
    assert_true(q->returning);
    assert_int_equal(q->nreturn, 3);
    assert_int_equal(q->return_col[0], 1);
    assert_int_equal(q->return_col[1], 2);
    assert_int_equal(q->return_col[2], -1);
    db_query_free(q);
    sql = "DELETE FROM t x WHERE x.b = 0 RETURNING *;";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->kind, DBQ_DELETE);
    assert_true(q->understood);
    assert_int_equal(q->nreturn, 4);
    db_query_free(q);
    sql = "SELECT t.a, (SELECT COUNT(*) FROM t t3 WHERE t3.b = t.a) AS n, COUNT(t2.b) FROM t "
          "LEFT JOIN t t2 ON t2.b = t.a WHERE t.a > 0 GROUP BY t.a";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ngroup, 1);
    db_query_free(q);
    db_schema_free(s);
}

static void test_where_unsupported(void **state)
{
    db_schema *s = schema();
    const char *sql = "SELECT * FROM t WHERE s = 3";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[4];
    expr *bytes[4 * TB];
    make_cells(cx, &s->tables[0], cells, bytes, 0);
    const char *why = NULL;
    const db_val *rows[1] = {cells};
    assert_null(db_where_expr(cx, q, rows, NULL, 0, &why));
    assert_string_equal(why, "comparison of a text with a number");
    /* a text column against an unbound parameter (a bind that failed): NULL, as SQLite: no row, understood */
    db_query *q2 = NULL;
    const char *sql2 = "SELECT * FROM t WHERE s = ?1";
    assert_int_equal(db_query_parse(s, sql2, strlen(sql2), &q2, &err), 0);
    why = NULL;
    expr *w = db_where_expr(cx, q2, rows, NULL, 0, &why);
    assert_non_null(w);
    assert_null(why);
    assert_int_equal(w->op, EXPR_CONST);
    assert_int_equal(w->value, 0);
    db_query_free(q2);
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_to_pg),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_returning_parse),
        cmocka_unit_test(test_where_against_sqlite),
        cmocka_unit_test(test_order_against_sqlite),
        cmocka_unit_test(test_aggregates_against_sqlite),
        cmocka_unit_test(test_count_distinct_against_sqlite),
        cmocka_unit_test(test_filter_against_sqlite),
        cmocka_unit_test(test_text_min_max_against_sqlite),
        cmocka_unit_test(test_text_count_against_sqlite),
        cmocka_unit_test(test_round_against_sqlite),
        cmocka_unit_test(test_insert_parse),
        cmocka_unit_test(test_over_groups_parse),
        cmocka_unit_test(test_upsert_parse),
        cmocka_unit_test(test_subqueries_against_sqlite),
        cmocka_unit_test(test_where_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
