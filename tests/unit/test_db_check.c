/* test_db_check.c: CHECK constraints and DEFAULT values (src/db/check.c): parsing, translation checked against SQLite itself. */
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

#define COLS "a INTEGER, b INTEGER, s TEXT, u TEXT"
/* every CHECK of this table is one the translation models */
static const char *DDL =
    "CREATE TABLE t (a INTEGER CHECK (a BETWEEN -1 AND 3), b INTEGER CHECK (b IN (0, 2, 4) OR b * 2 > a + 5),\n"
    "  s TEXT CHECK (s LIKE 'a%' OR length(s) < 2), u TEXT CONSTRAINT u_ok CHECK (u IS NULL OR NOT (u IN ('ab', "
    "'c'))),\n"
    "  CHECK (a <= b OR a % 2 == 1), CHECK (s <> u AND NOT (s NOT LIKE '%b')), -- CHECK (ignored in a comment)\n"
    "  CONSTRAINT pair CHECK ((a - b) / 2 <> 1 OR s IS NOT NULL) /* CHECK (nor here) */, CHECK ('x)' <> u));\n";

static db_schema *load(const char *ddl)
{
    db_schema *s = NULL;
    char *err = NULL;
    if (db_schema_from_ddl(ddl, &s, &err)) fail_msg("schema: %s", err);
    return s;
}

static void test_parse(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    const db_table *t = &s->tables[0];
    assert_int_equal(t->nchecks, 8);
    assert_string_equal(t->checks[0].text, "a BETWEEN -1 AND 3");
    assert_string_equal(t->checks[3].text, "u IS NULL OR NOT (u IN ('ab', 'c'))");
    assert_string_equal(t->checks[7].text, "'x)' <> u");
    for (int i = 0; i < t->nchecks; i++)
        if (!t->checks[i].q) fail_msg("CHECK (%s) not modelled: %s", t->checks[i].text, t->checks[i].why);
    assert_int_equal(s->nignored, 0);
    db_schema_free(s);

    /* what the translation does not model is named by kind */
    s = load("CREATE TABLE w (a INTEGER CHECK (hex(a) < 5), s TEXT CHECK (s GLOB 'a*'), r REAL CHECK (r > 0.5),\n"
             "  n INTEGER CHECK (n > 0), CHECK (s = a))");
    t = &s->tables[0];
    assert_int_equal(t->nchecks, 5);
    assert_null(t->checks[0].q);
    assert_null(t->checks[1].q);
    assert_non_null(t->checks[2].q); /* REAL columns and literals are modelled (real.c) */
    assert_non_null(t->checks[3].q);
    assert_null(t->checks[4].q);
    assert_int_equal(s->nignored, 3);
    assert_non_null(strstr(s->ignored[0], "function hex()"));
    assert_non_null(strstr(s->ignored[0], "of w"));
    assert_non_null(strstr(s->ignored[2], "comparison of a text with a number"));
    db_schema_free(s);
}

/* Text cells are as long as the longest text a column's CHECKs or DEFAULT name (db_column.text_need),
 * --db-text at least and DB_TEXT_MAX at most; other columns keep --db-text. */
static void test_text_need(void **state)
{
    (void)state;
    db_schema *s =
        load("CREATE TABLE o (status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', "
             "'processing', 'completed')),\n  code TEXT CHECK (code LIKE 'SKU-%-XYZ%' AND length(code) >= 12),"
             "\n  note TEXT DEFAULT 'nothing to say', tag TEXT CHECK (length(tag) <= 30 AND tag <> 'x'),\n"
             "  huge TEXT CHECK (length(huge) > 100), day DATE CHECK (day > '2024-01-01'))");
    const db_table *t = &s->tables[0];
    db_limits l = {2, 8};
    assert_int_equal(t->cols[0].text_need, 10); /* 'processing' */
    assert_int_equal(db_column_text_cap(&t->cols[0], &l), 10);
    assert_int_equal(t->cols[1].text_need, 12);               /* length(code) >= 12; the pattern's 'SKU--XYZ' is 8 */
    assert_int_equal(t->cols[2].text_need, 14);               /* the DEFAULT */
    assert_int_equal(db_column_text_cap(&t->cols[3], &l), 8); /* an upper bound needs nothing */
    assert_int_equal(t->cols[4].text_need, 101);
    assert_int_equal(db_column_text_cap(&t->cols[4], &l), DB_TEXT_MAX);
    assert_int_equal(db_column_text_cap(&t->cols[5], &l), 10); /* a DATE keeps its format's length */
    l.text = 16;
    assert_int_equal(db_column_text_cap(&t->cols[0], &l), 16);
    db_schema_free(s);

    /* the program's SQL: literals and length() bounds of WHERE (and subqueries), carried to the executors as
     * comments of the schema copy that db_schema_from_ddl applies */
    const char *ddl = "CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT, body TEXT, day DATE);\n"
                      "CREATE TABLE q (pid INTEGER, tag TEXT);\n";
    s = load(ddl);
    static const char sqls[] =
        "SELECT id FROM p WHERE name = 'a-long-name' AND day > '2024-01-01'\0"
        "SELECT id FROM p WHERE length(body) > 40 OR body LIKE '%%refund%%'\0"
        "SELECT id FROM p WHERE EXISTS (SELECT 1 FROM q WHERE q.pid = p.id AND tag = 'urgent-2')\0"
        "not sql at all\0";
    char *marks = db_text_needs_from_program(s, sqls);
    assert_non_null(marks);
    assert_int_equal(s->tables[0].cols[1].text_need, 11);
    assert_int_equal(s->tables[0].cols[2].text_need, 41);
    assert_int_equal(s->tables[0].cols[3].text_need, 0); /* a date keeps its format's length */
    assert_int_equal(s->tables[1].cols[1].text_need, 8);
    assert_non_null(strstr(marks, DB_TEXT_NEED_MARK "p\tname\t11 */"));
    assert_null(strstr(marks, "\tday\t"));
    char *again = malloc(strlen(ddl) + strlen(marks) + 1);
    sprintf(again, "%s%s", ddl, marks);
    db_schema *s2 = load(again);
    assert_int_equal(s2->tables[0].cols[1].text_need, 11);
    assert_int_equal(s2->tables[0].cols[2].text_need, 41);
    assert_int_equal(s2->tables[1].cols[1].text_need, 8);
    char *none = db_text_needs_from_program(s2, sqls); /* nothing grows twice */
    assert_string_equal(none, "");
    free(none), free(again), free(marks);
    db_schema_free(s2);
    db_schema_free(s);

    /* the joins' most row slots per table within 64 combinations (a grown layout keeps them enumerable): two tables
     * 8, a LEFT JOIN's optional side one more (8 * 7 <= 64), three tables 4 */
    s = load(ddl);
    static const char joins[] = "SELECT p.id FROM p JOIN q ON q.pid = p.id\0"
                                "SELECT p.id FROM p LEFT JOIN q ON q.pid = p.id\0"
                                "SELECT a.id FROM p a JOIN p b ON b.id = a.id JOIN q ON q.pid = a.id\0"
                                "SELECT id FROM p\0";
    marks = db_text_needs_from_program(s, joins);
    assert_non_null(marks);
    assert_int_equal(s->njoin_rows, 3);
    assert_int_equal(s->join_rows[0], 8);
    assert_int_equal(s->join_rows[1], 7);
    assert_int_equal(s->join_rows[2], 4);
    free(marks);
    db_schema_free(s);
}

/* Rows are random; each modelled CHECK alone must accept exactly the rows SQLite accepts
 * into a table with only that CHECK (NULL passes, as in SQL). */
#define TB 4
enum { SYM_PER_COL = 2 + TB };

static void test_against_sqlite(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    const db_table *t = &s->tables[0];
    expr_ctx *cx = expr_ctx_new();
    db_val row[4];
    expr *bytes[4 * TB];
    for (int c = 0; c < 4; c++) {
        uint32_t base = (uint32_t)c * SYM_PER_COL;
        memset(&row[c], 0, sizeof row[c]);
        row[c].null = expr_symbol(cx, base, 1, 0);
        if (db_column_is_text(&t->cols[c])) {
            row[c].is_text = true;
            row[c].len = expr_symbol(cx, base + 1, 8, 0);
            row[c].nbytes = TB;
            row[c].bytes = bytes + c * TB;
            for (int i = 0; i < TB; i++) row[c].bytes[i] = expr_symbol(cx, base + 2 + (uint32_t)i, 8, 0);
        } else {
            row[c].v = expr_symbol(cx, base + 1, 64, 0);
        }
    }
    expr *all = db_row_checks(cx, t, row);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    expr *e[16];
    char sql[512];
    for (int k = 0; k < t->nchecks; k++) {
        const char *why = NULL;
        e[k] = db_check_expr(cx, &t->checks[k], row, &why);
        if (!e[k]) fail_msg("CHECK (%s): %s", t->checks[k].text, why);
        snprintf(sql, sizeof sql, "CREATE TABLE c%d (" COLS ", CHECK (%s))", k, t->checks[k].text);
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(11);
    static const char alphabet[] = "abcAB)";
    int accepted_all = 0;
    for (int iter = 0; iter < 400; iter++) {
        uint64_t in[4 * SYM_PER_COL] = {0};
        char txt[4][TB + 1];
        for (int c = 0; c < 4; c++) {
            uint64_t *v = in + c * SYM_PER_COL;
            v[0] = rand() % 6 == 0;
            memset(txt[c], 0, sizeof txt[c]);
            if (db_column_is_text(&t->cols[c])) {
                int len = rand() % (TB + 1);
                for (int i = 0; i < len; i++) txt[c][i] = alphabet[rand() % 6];
                v[1] = v[0] ? 0 : (uint64_t)len;
                for (int i = 0; i < TB; i++) v[2 + i] = v[0] ? 0 : (uint8_t)txt[c][i];
            } else {
                v[1] = v[0] ? 0 : (uint64_t)(int64_t)(rand() % 9 - 3);
            }
        }
        for (int k = -1; k < t->nchecks; k++) {
            char name[8];
            snprintf(name, sizeof name, k < 0 ? "t" : "c%d", k);
            snprintf(sql, sizeof sql, "DELETE FROM %s", name);
            assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
            snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (?, ?, ?, ?)", name);
            sqlite3_stmt *ins;
            assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &ins, NULL), SQLITE_OK);
            for (int c = 0; c < 4; c++) {
                const uint64_t *v = in + c * SYM_PER_COL;
                if (v[0])
                    sqlite3_bind_null(ins, c + 1);
                else if (db_column_is_text(&t->cols[c]))
                    sqlite3_bind_text(ins, c + 1, txt[c], (int)v[1], SQLITE_TRANSIENT);
                else
                    sqlite3_bind_int64(ins, c + 1, (int64_t)v[1]);
            }
            int rc = sqlite3_step(ins);
            sqlite3_finalize(ins);
            int ok = rc == SQLITE_DONE;
            if (!ok) assert_int_equal(sqlite3_extended_errcode(db), SQLITE_CONSTRAINT_CHECK);
            uint64_t got = expr_eval(k < 0 ? all : e[k], in, sizeof in / sizeof *in);
            if ((int)got != ok)
                fail_msg("CHECK (%s): SQLite %s the row, the expression says %d (iteration %d)",
                         k < 0 ? "all" : t->checks[k].text, ok ? "accepts" : "rejects", (int)got, iter);
            if (k < 0) accepted_all += ok;
        }
    }
    assert_true(accepted_all > 0); /* the conjunction is not trivially false */
    sqlite3_close(db);
    expr_ctx_free(cx);
    db_schema_free(s);
}

static void test_defaults(void **state)
{
    (void)state;
    db_schema *s = load("CREATE TABLE d (id INTEGER PRIMARY KEY, role TEXT NOT NULL DEFAULT 'user',\n"
                        "  quota INTEGER DEFAULT (3 + 4), n INTEGER DEFAULT -2, z TEXT, nul TEXT DEFAULT NULL);\n"
                        "CREATE TABLE e (x INTEGER, ts TEXT DEFAULT CURRENT_TIMESTAMP);");
    const db_table *t = &s->tables[0];
    assert_non_null(t->cols[1].dflt_q);
    assert_non_null(t->cols[2].dflt_q);
    assert_non_null(t->cols[3].dflt_q);
    assert_null(t->cols[4].dflt);
    assert_int_equal(s->nignored, 1);
    assert_non_null(strstr(s->ignored[0], "CURRENT_TIMESTAMP"));
    expr_ctx *cx = expr_ctx_new();
    const char *sql = "INSERT INTO d (z) VALUES ('hi')";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->ninsert, 1);
    db_val cells[6];
    memset(cells, 0, sizeof cells);
    for (int c = 0; c < 6; c++) cells[c].null = expr_const(cx, 1, 1);
    assert_int_equal(db_insert_defaults(cx, t, q, cells, NULL), 0);
    assert_true(cells[1].is_text);
    assert_int_equal(cells[1].null->value, 0);
    assert_int_equal(cells[1].len->value, 4);
    assert_int_equal(cells[1].bytes[0]->value, 'u');
    assert_int_equal(cells[1].bytes[3]->value, 'r');
    assert_int_equal(cells[2].null->value, 0);
    assert_int_equal(cells[2].v->value, 7);
    assert_int_equal((int64_t)cells[3].v->value, -2);
    assert_int_equal(cells[5].null->value, 1); /* DEFAULT NULL */
    assert_int_equal(cells[4].null->value, 1); /* untouched: the INSERT gives it */
    free(cells[1].bytes);
    db_query_free(q);
    /* an omitted column whose default is not modelled: the row is left concrete */
    sql = "INSERT INTO e (x) VALUES (1)";
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    db_val ec[2];
    memset(ec, 0, sizeof ec);
    assert_int_equal(db_insert_defaults(cx, &s->tables[1], q, ec, NULL), -1);
    db_query_free(q);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* Odd tables: WITHOUT ROWID, a quoted name with a blank, quoted columns, CHECK text with
 * parentheses inside literals; SQLite's `==`. */
static void test_odd_tables(void **state)
{
    (void)state;
    db_schema *s = load("CREATE TABLE \"my t\" (\"a b\" INTEGER CHECK (\"a b\" == 2 OR \"a b\" IS NULL), c TEXT,\n"
                        "  CHECK(c <> '(' || 'x')) ;\n"
                        "CREATE TABLE k (x TEXT PRIMARY KEY, n INT CHECK (n > 0)) WITHOUT ROWID;");
    assert_int_equal(s->tables[0].nchecks, 2);
    assert_non_null(s->tables[0].checks[0].q);
    assert_non_null(s->tables[0].checks[1].q); /* '(' || 'x': a concatenation of literals */
    assert_int_equal(s->nignored, 0);
    assert_int_equal(s->tables[1].nchecks, 1);
    assert_non_null(s->tables[1].checks[0].q);
    db_schema_free(s);
}

/* Arithmetic that overflows 64 bits: SQLite computes it in REAL; the model keeps such rows
 * out of fixtures, so every row the model accepts SQLite accepts too. */
static void test_overflow(void **state)
{
    (void)state;
    const char *ddl =
        "CREATE TABLE o (a INTEGER CHECK (a * 4611686018427387904 < 10 AND a + 9223372036854775800 > 0));";
    db_schema *s = load(ddl);
    assert_non_null(s->tables[0].checks[0].q);
    expr_ctx *cx = expr_ctx_new();
    db_val row = {false, expr_symbol(cx, 0, 1, 0), expr_symbol(cx, 1, 64, 0), NULL, 0, NULL, false, NULL, DB_DATE_NONE,
                  NULL};
    const char *why = NULL;
    expr *e = db_check_expr(cx, &s->tables[0].checks[0], &row, &why);
    assert_non_null(e);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, ddl, NULL, NULL, NULL), SQLITE_OK);
    int accepted = 0;
    for (int64_t a = -12; a <= 12; a++) {
        uint64_t in[2] = {0, (uint64_t)a};
        char sql[128];
        snprintf(sql, sizeof sql, "INSERT INTO o VALUES (%lld)", (long long)a);
        int ok = sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
        if (expr_eval(e, in, 2)) {
            accepted++;
            if (!ok) fail_msg("a = %lld: the model accepts, SQLite rejects", (long long)a);
        }
    }
    assert_true(accepted > 0);
    sqlite3_close(db);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* PostgreSQL's spelling (its catalog's CHECK text): no-op casts and = ANY (ARRAY[...]). */
static void test_pg_spelling(void **state)
{
    (void)state;
    db_schema *s = load("CREATE TABLE t (" COLS ")");
    static const struct {
        const char *where;
        int understood;
    } cases[] = {
        {"a = ANY (ARRAY[1, 2])", 1},
        {"(s)::text = ANY ((ARRAY['ab'::character varying, 'c'::character varying])::text[])", 1},
        {"a <> ALL (ARRAY[1, 2])", 1},
        {"a = '12'::integer AND b = (3)::bigint", 1},
        {"(a)::text = 'x'", 0},       /* an integer column as text: not modelled */
        {"s = 'abc'::varchar(2)", 0}, /* a cast that truncates */
        {"a < ANY (ARRAY[1, 2])", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char sql[256];
        snprintf(sql, sizeof sql, "SELECT * FROM t WHERE %s", cases[i].where);
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
        if (q->understood != (cases[i].understood != 0))
            fail_msg("%s: understood %d (%s)", sql, q->understood, q->nunsupported ? q->unsupported[0] : "");
        if (q->understood) assert_int_equal(q->where->kind == DBX_IN || q->where->kind == DBX_AND, 1);
        db_query_free(q);
    }
    /* = ANY as IN: evaluated */
    const char *sql = "SELECT * FROM t WHERE a <> ALL (ARRAY[1, 2])";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    expr_ctx *cx = expr_ctx_new();
    db_val row[4] = {
        {false, expr_const(cx, 0, 1), expr_symbol(cx, 0, 64, 0), NULL, 0, NULL, false, NULL, DB_DATE_NONE, NULL}};
    const db_val *rows[1] = {row};
    const char *why = NULL;
    expr *w = db_where_expr(cx, q, rows, NULL, 0, &why);
    assert_non_null(w);
    uint64_t in[1] = {2};
    assert_int_equal(expr_eval(w, in, 1), 0);
    in[0] = 3;
    assert_int_equal(expr_eval(w, in, 1), 1);
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),      cmocka_unit_test(test_against_sqlite), cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_odd_tables), cmocka_unit_test(test_overflow),       cmocka_unit_test(test_pg_spelling),
        cmocka_unit_test(test_text_need),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
