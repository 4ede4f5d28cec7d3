/* test_db_date.c: DATE/TIMESTAMP columns as ISO-8601 text cells (src/db/date.c, fixture.c, translate.c), checked against a calendar reference and SQLite. */
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
#include "solver/solver.h"

static db_schema *load(const char *ddl)
{
    db_schema *s = NULL;
    char *err = NULL;
    if (db_schema_from_ddl(ddl, &s, &err)) fail_msg("schema: %s", err);
    return s;
}

/* Which columns are date cells, and how many inputs they take whatever --db-text says. */
static void test_layout(void **state)
{
    (void)state;
    db_schema *s = load("CREATE TABLE t (id INTEGER PRIMARY KEY, d DATE, ts TIMESTAMP, dt DATETIME, tm TIME, "
                        "name TEXT, n NUMERIC, tz TIMESTAMP WITH TIME ZONE, di DATEINT, price DECIMAL(8,2));");
    const db_table *t = &s->tables[0];
    static const db_date_kind kinds[] = {DB_DATE_NONE, DB_DATE_DATE, DB_DATE_DATETIME, DB_DATE_DATETIME, DB_DATE_TIME,
                                         DB_DATE_NONE, DB_DATE_NONE, DB_DATE_DATETIME, DB_DATE_NONE,     DB_DATE_NONE};
    static const unsigned inputs[] = {2, 12, 21, 21, 10, 6, 2, 21, 2, 2}; /* --db-text 4 */
    db_limits l = {3, 4};
    assert_int_equal(t->ncols, 10);
    size_t row = 0;
    for (int c = 0; c < t->ncols; c++) {
        assert_int_equal(t->cols[c].date, kinds[c]);
        assert_int_equal(db_column_is_text(&t->cols[c]), kinds[c] != DB_DATE_NONE || c == 5);
        assert_int_equal(db_cell_ninputs(&t->cols[c], &l), inputs[c]);
        row += inputs[c];
    }
    assert_int_equal(db_table_ninputs(t, &l), 1 + 3 * row);
    l.text = 64; /* date cells keep their size */
    assert_int_equal(db_cell_ninputs(&t->cols[1], &l), 12);
    assert_int_equal(db_cell_ninputs(&t->cols[5], &l), 66);
    db_schema_free(s);
}

static const char *DDL = "CREATE TABLE t (d DATE NOT NULL, ts TIMESTAMP);";
#define NIN 34 /* count; d: null, len, 10 bytes; ts: null, len, 19 bytes */

/* The cells d and ts of one row of DDL's table over symbols first..first+NIN-2 (the layout vector() fills
 * from in[1]); their bytes are calloc'ed. */
static void row_cells(expr_ctx *cx, db_schema *s, db_val *cells, uint32_t first)
{
    db_limits l = {1, 8};
    memset(cells, 0, 2 * sizeof *cells);
    uint32_t idx = first;
    for (int c = 0; c < 2; c++) {
        unsigned n = db_column_text_cap(&s->tables[0].cols[c], &l);
        cells[c].is_text = true;
        cells[c].null = expr_symbol(cx, idx++, 1, 0);
        cells[c].len = expr_symbol(cx, idx++, 8, 0);
        cells[c].nbytes = n;
        cells[c].bytes = calloc(n, sizeof *cells[c].bytes);
        for (unsigned i = 0; i < n; i++) cells[c].bytes[i] = expr_symbol(cx, idx++, 8, 0);
    }
    assert_int_equal(idx, first + NIN - 1);
}

/* The slot constraints of slot 0 of DDL's table over symbols 0..NIN-1. */
static expr *slot0(expr_ctx *cx, db_schema *s, db_val *cells)
{
    db_limits l = {1, 8};
    row_cells(cx, s, cells, 1);
    expr *counts[1] = {expr_symbol(cx, 0, 8, 0)};
    db_val *all[1] = {cells};
    return db_slot_constraints(cx, s, &l, 0, 0, counts, all);
}

/* The input vector of one present row: d and ts as texts (ts NULL when NULL). */
static void vector(uint64_t *in, const char *d, const char *ts)
{
    memset(in, 0, NIN * sizeof *in);
    in[0] = 1;
    in[2] = strlen(d);
    for (size_t i = 0; i < strlen(d) && i < 10; i++) in[3 + i] = (uint8_t)d[i];
    in[13] = ts == NULL;
    in[14] = ts ? strlen(ts) : 0;
    for (size_t i = 0; ts && i < strlen(ts) && i < 19; i++) in[15 + i] = (uint8_t)ts[i];
}

static void test_slot_constraints(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[2];
    expr *e = slot0(cx, s, cells);
    uint64_t in[NIN];
    static const char *good[] = {"2024-02-28", "2024-02-29", "2000-02-29", "1000-01-01",
                                 "9999-12-31", "2023-04-30", "2023-01-31"};
    static const char *bad[] = {"2024-13-01", "2024-02-30",  "abcd-ef-gh", "2023-02-29", "1900-02-29",
                                "0999-12-31", "2024-04-31",  "2024-00-10", "2024-01-00", "2024-4-30",
                                "2024/01/01", "2024-01-01 ", "24-01-01",   "2024-01-32", "2024-1a-01"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        vector(in, good[i], NULL);
        if (expr_eval(e, in, NIN) != 1) fail_msg("%s rejected", good[i]);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        vector(in, bad[i], NULL);
        if (expr_eval(e, in, NIN) != 0) fail_msg("%s accepted", bad[i]);
    }
    static const char *good_ts[] = {"2024-03-15 10:30:00", "2024-02-29 23:59:59", "1999-12-31 00:00:00"};
    static const char *bad_ts[] = {"2024-03-15 24:00:00", "2024-03-15 23:60:00", "2024-03-15 23:00:60",
                                   "2024-03-15T10:30:00", "2024-03-15 10:30",    "2023-02-29 10:30:00"};
    for (size_t i = 0; i < sizeof good_ts / sizeof *good_ts; i++) {
        vector(in, "2024-03-15", good_ts[i]);
        if (expr_eval(e, in, NIN) != 1) fail_msg("%s rejected", good_ts[i]);
    }
    for (size_t i = 0; i < sizeof bad_ts / sizeof *bad_ts; i++) {
        vector(in, "2024-03-15", bad_ts[i]);
        if (expr_eval(e, in, NIN) != 0) fail_msg("%s accepted", bad_ts[i]);
    }
    vector(in, "2024-03-15", NULL); /* a NULL TIMESTAMP: length 0 */
    assert_int_equal(expr_eval(e, in, NIN), 1);
    in[1] = 1; /* d is NOT NULL */
    assert_int_equal(expr_eval(e, in, NIN), 0);
    vector(in, "2024-13-45", "not a time at all!!");
    in[0] = 0; /* absent: anything goes */
    assert_int_equal(expr_eval(e, in, NIN), 1);
    for (int c = 0; c < 2; c++) free(cells[c].bytes);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* A reference written from the calendar: 'YYYY-MM-DD' with year 1000..9999, a real day. */
static int ref_date(const char *d)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (strlen(d) != 10 || d[4] != '-' || d[7] != '-') return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9')) return 0;
    int y = atoi(d), m = atoi(d + 5), day = atoi(d + 8);
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1000 || m < 1 || m > 12 || day < 1) return 0;
    return day <= mdays[m - 1] + (m == 2 && leap);
}

/* 'YYYY-MM-DD HH:MM:SS' */
static int ref_datetime(const char *t)
{
    char d[11];
    if (strlen(t) != 19 || t[10] != ' ' || t[13] != ':' || t[16] != ':') return 0;
    memcpy(d, t, 10), d[10] = 0;
    for (int i = 11; i < 19; i++)
        if (i != 13 && i != 16 && (t[i] < '0' || t[i] > '9')) return 0;
    return ref_date(d) && atoi(t + 11) < 24 && atoi(t + 14) < 60 && atoi(t + 17) < 60;
}

/* Random texts of the formats, near the edges of every field, against the reference. */
static void test_against_reference(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[2];
    expr *e = slot0(cx, s, cells);
    srand(7);
    int valid = 0;
    uint64_t in[NIN];
    for (int iter = 0; iter < 20000; iter++) {
        char d[48], ts[64];
        static const int years[] = {2024, 2023, 1900, 2000, 2100, 1600, 999, 1000, 9999, 1996};
        int y = rand() % 2 ? years[rand() % 10] : rand() % 10000;
        snprintf(d, sizeof d, "%04d-%02d-%02d", y, rand() % 14, rand() % 33);
        snprintf(ts, sizeof ts, "%04d-%02d-%02d %02d:%02d:%02d", rand() % 2 ? y : 2024, rand() % 13 + 1,
                 rand() % 32 + 1, rand() % 26, rand() % 62, rand() % 62);
        if (rand() % 50 == 0) d[rand() % 10] = "x-: 0"[rand() % 5];
        if (rand() % 50 == 0) ts[rand() % 19] = "x-: 0"[rand() % 5];
        vector(in, d, ts);
        int want = ref_date(d) && ref_datetime(ts);
        int got = (int)expr_eval(e, in, NIN);
        if (got != want) fail_msg("%s / %s: reference %d, constraints %d", d, ts, want, got);
        if (db_date_text_valid(DB_DATE_DATE, d) != ref_date(d) ||
            db_date_text_valid(DB_DATE_DATETIME, ts) != ref_datetime(ts))
            fail_msg("%s / %s: db_date_text_valid differs from the reference", d, ts);
        valid += got;
    }
    assert_true(valid > 1000);
    for (int c = 0; c < 2; c++) free(cells[c].bytes);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* A fixture's date texts load as TEXT into the DATE/TIMESTAMP columns and compare as dates. */
static void test_fixture(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    db_limits l = {1, 8};
    uint64_t in[NIN + 1] = {0}; /* + db:fault, 0 */
    vector(in, "2024-03-15", "2024-03-15 10:30:00");
    assert_int_equal(db_fixture_ninputs(s, &l), NIN + 1);
    char *sql = db_fixture_sql(s, &l, in, NIN + 1, 0);
    assert_non_null(sql);
    assert_non_null(strstr(sql, "'2024-03-15', '2024-03-15 10:30:00'"));
    assert_null(strstr(sql, DB_FAULT_COMMENT)); /* db:fault 0: no injected fault */
    in[NIN] = 3; /* the run's third fallible database call fails: said in a comment the fixture still loads with */
    char *faulty = db_fixture_sql(s, &l, in, NIN + 1, 0);
    assert_non_null(faulty);
    assert_non_null(strstr(faulty, DB_FAULT_COMMENT ": the program's database call number 3 "));
    assert_non_null(strstr(faulty, "'2024-03-15', '2024-03-15 10:30:00'"));
    free(faulty);
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT typeof(d) || typeof(ts), d < '2024-04-01', ts >= '2024-03-15', "
                                        "d < ?1 FROM t",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, "2024-12-31", -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "texttext");
    assert_int_equal(sqlite3_column_int(st, 1), 1);
    assert_int_equal(sqlite3_column_int(st, 2), 1);
    assert_int_equal(sqlite3_column_int(st, 3), 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
    free(sql);
    db_schema_free(s);
}

/* A DATE column against a text literal: compared as text, unless the literal looks like a number
 * (SQLite then compares a number, below every text: not modelled). */
static void test_parse(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    static const char *ok[] = {"SELECT d FROM t WHERE d < '2024-01-01'", "SELECT d FROM t WHERE ts >= ?",
                               "SELECT d FROM t WHERE d BETWEEN '2024-01-01' AND '2024-12-31' ORDER BY d"};
    static const char *no[] = {"SELECT d FROM t WHERE d < '2025'", "SELECT d FROM t WHERE d IN ('1', 'x')",
                               "SELECT d FROM t WHERE d BETWEEN ' 1e3' AND 'z'"};
    for (size_t i = 0; i < 3; i++) {
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, ok[i], strlen(ok[i]), &q, &err), 0);
        if (!q->understood || q->date_loose_literal) fail_msg("%s: not understood", ok[i]);
        db_query_free(q);
        assert_int_equal(db_query_parse(s, no[i], strlen(no[i]), &q, &err), 0);
        if (q->understood) fail_msg("%s: understood", no[i]);
        db_query_free(q);
    }
    /* understood, but on PostgreSQL (which reads it as a date) a literal not in ISO form is not modelled */
    const char *loose = "SELECT d FROM t WHERE d < '2024-1-5' OR ts = '2024-01-05'";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, loose, strlen(loose), &q, &err), 0);
    assert_true(q->understood && q->date_loose_literal);
    db_query_free(q);
    /* date() and datetime() of a literal with modifiers: constants, as SQLite computes them */
    const char *lit = "SELECT d FROM t WHERE d >= date('2024-03-31', '-1 month') AND ts < datetime('2024-12-31 "
                      "23:00:00', '+2 hours', 'start of day')";
    assert_int_equal(db_query_parse(s, lit, strlen(lit), &q, &err), 0);
    assert_true(q->understood);
    assert_false(q->sqlite_dates);
    assert_string_equal(q->where->kids[0]->kids[1]->text, "2024-03-02"); /* Feb 31 is March 2, as in SQLite */
    assert_string_equal(q->where->kids[1]->kids[1]->text, "2025-01-01 00:00:00");
    db_query_free(q);
    db_schema_free(s);
}

/* Z3 under the slot constraints: February 29 only in a leap year, no month 13, no 31st of April. */
static void test_solver(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    expr_ctx *cx = expr_ctx_new();
    solver *sv = solver_new(10000);
    assert_non_null(sv);
    db_val cells[2];
    expr *e = slot0(cx, s, cells);
    const db_val *d = &cells[0];
    expr *present = expr_cmp(cx, PRED_EQ, expr_symbol(cx, 0, 8, 0), expr_const(cx, 1, 8));
    /* the date's bytes 5..9 are "02-29", optionally the year's too */
    expr *feb29 = expr_const(cx, 1, 1);
    for (unsigned i = 0; i < 5; i++)
        feb29 = expr_and1(cx, feb29, expr_cmp(cx, PRED_EQ, d->bytes[5 + i], expr_const(cx, (uint8_t) "02-29"[i], 8)));
    expr *cs[3] = {present, e, feb29};
    uint64_t *out = NULL;
    size_t n = 0;
    assert_int_equal(solver_solve(sv, cs, 3, NULL, 0, &out, &n), SOLVE_SAT);
    assert_true(n >= 13);
    char text[11] = {0};
    for (int i = 0; i < 10; i++) text[i] = (char)out[3 + i];
    if (!ref_date(text) || strcmp(text + 4, "-02-29")) fail_msg("Z3's Feb 29: %s", text);
    free(out);
    static const char *years[] = {"2023", "1900", "2100"};
    for (int y = 0; y < 3; y++) {
        expr *year = feb29;
        for (unsigned i = 0; i < 4; i++)
            year = expr_and1(cx, year, expr_cmp(cx, PRED_EQ, d->bytes[i], expr_const(cx, (uint8_t)years[y][i], 8)));
        expr *c3[3] = {present, e, year};
        out = NULL;
        if (solver_solve(sv, c3, 3, NULL, 0, &out, &n) != SOLVE_UNSAT) fail_msg("%s-02-29 satisfiable", years[y]);
    }
    static const char *bad[] = {"13", "04-31", "00"}; /* month (and day) prefixes that never hold */
    for (int b = 0; b < 3; b++) {
        expr *c = expr_const(cx, 1, 1);
        for (unsigned i = 0; i < strlen(bad[b]); i++)
            c = expr_and1(cx, c, expr_cmp(cx, PRED_EQ, d->bytes[5 + i], expr_const(cx, (uint8_t)bad[b][i], 8)));
        expr *c3[3] = {present, e, c};
        out = NULL;
        if (solver_solve(sv, c3, 3, NULL, 0, &out, &n) != SOLVE_UNSAT) fail_msg("month-day %s satisfiable", bad[b]);
    }
    solver_free(sv);
    for (int c = 0; c < 2; c++) free(cells[c].bytes);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* A text db_val of the C string t (bytes owned by the caller's array). */
static db_val text_val(expr_ctx *cx, const char *t, expr **bytes)
{
    db_val v = {0};
    v.is_text = true;
    v.null = expr_const(cx, 0, 1);
    v.len = expr_const(cx, strlen(t), 8);
    v.nbytes = (unsigned)strlen(t);
    v.bytes = bytes;
    for (unsigned i = 0; i < v.nbytes; i++) bytes[i] = expr_const(cx, (uint8_t)t[i], 8);
    return v;
}

/* A bound text that looks like a number, compared with a DATE column, is not modelled; a date is.
 * The same for a text stored into a DATE column (db_val_store). */
static void test_number_like_values(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[2];
    (void)slot0(cx, s, cells);
    const char *sql = "SELECT d FROM t WHERE d < ?";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_int_equal(q->date_param[0], DB_DATE_DATE);
    expr *b1[32], *b2[32];
    db_val date = text_val(cx, "2025-01-01", b1), num = text_val(cx, " 2025 ", b2);
    const db_val *rows[1] = {cells};
    const char *why = NULL;
    assert_non_null(db_where_expr(cx, q, rows, &date, 1, &why));
    assert_null(db_where_expr(cx, q, rows, &num, 1, &why));
    assert_string_equal(why, "number-like text compared with a DATE column");
    expr *b3[32];
    db_val loose = text_val(cx, "2025-1-5", b3);
    assert_non_null(db_where_expr(cx, q, rows, &loose, 1, &why)); /* SQLite: a text comparison */
    q->like_exact = true; /* PostgreSQL compares dates: only ISO texts are modelled */
    assert_null(db_where_expr(cx, q, rows, &loose, 1, &why));
    assert_non_null(db_where_expr(cx, q, rows, &date, 1, &why));
    assert_true(db_date_text_valid(DB_DATE_DATETIME, "2024-02-29 23:59:59"));
    assert_false(db_date_text_valid(DB_DATE_DATE, "2024-02-29 23:59:59"));
    assert_false(db_date_text_valid(DB_DATE_DATE, "2100-02-29"));
    assert_true(db_date_text_valid(DB_DATE_TIME, "00:00:00"));
    db_val out;
    assert_int_equal(db_val_store(cx, &s->tables[0].cols[0], &date, &out), 0);
    assert_int_equal(db_val_store(cx, &s->tables[0].cols[0], &num, &out), -1);
    assert_true(db_text_is_number("-1.5e3"));
    assert_false(db_text_is_number("2024-03-15"));
    assert_false(db_text_is_number("0x10"));
    assert_false(db_text_is_number("inf"));
    db_query_free(q);
    for (int c = 0; c < 2; c++) free(cells[c].bytes);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* A random date text: years around the leap-year rules, any month, days up to the 31st (the
 * invalid ones SQLite reads differently are left out: fixture cells are valid). */
static void random_date(char *buf)
{
    static const int years[] = {1000, 1900, 1999, 2000, 2023, 2024, 2100, 9999};
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y = years[rand() % 8], m = rand() % 12 + 1;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int d = rand() % (mdays[m - 1] + (m == 2 && leap)) + 1;
    snprintf(buf, 16, "%04d-%02d-%02d", y % 10000, m % 100, d % 100);
}

/* SQLite's date functions of DATE and TIMESTAMP columns (db_date_format, db_julianday through
 * the SQL translation) against SQLite on random rows: which rows WHERE returns, and the value of
 * julianday() (its double's bits) and of strftime() as a result column. */
static void test_functions_against_sqlite(void **state)
{
    (void)state;
    static const char *where[] = {
        "date(ts) = d",
        "date(ts) IS NULL",
        "strftime('%Y', d) = '2024'",
        "strftime('%m', ts) BETWEEN '02' AND '03'",
        "strftime('%Y-%m', d) = strftime('%Y-%m', ts)",
        "strftime('%d/%m/%Y %H', ts) LIKE '29/02/%'",
        "strftime('%Y-%m-%d %H:%M:%S %%', d) > '2000'",
        "datetime(d) < ts",
        "datetime(ts) = ts",
        "strftime('%H:%M:%S', ts) >= '12:00:00'",
        "strftime('%H:%M:%S', d) = '00:00:00'",
        "julianday(ts) - julianday(d) > 30",
        "julianday(d) - julianday(ts) >= -1.5",
        "julianday(d) < 2451545",
        "julianday(ts) > julianday(d)",
        "julianday(d) - julianday(d) = 0",
        "julianday(ts) IS NULL",
        "date(d, '+7 days') > ts",
        "date(ts, '-30 days') = date(d, '-1 day')",
        "date(d, '+400 days') BETWEEN '2000-01-01' AND '2024-12-31'",
        "date(d, length(ts) || ' days') > ts",
        "strftime('%w', d) IN ('0', '6')",
        "strftime('%w', ts) = '3'",
    };
    static const char *values[] = {"julianday(ts)",
                                   "julianday(d)",
                                   "julianday(ts) - julianday(d)",
                                   "julianday(d) + julianday(d)",
                                   "strftime('%Y-%m', ts)",
                                   "datetime(d)",
                                   "date(d, '+59 days')",
                                   "date(ts, '-366 days')",
                                   "date(d, '-1 day')",
                                   "julianday('2024-06-01') - julianday(d)",
                                   "julianday('2024-02-29 12:30:00')",
                                   "julianday('2024-02-29', '+1 day') - julianday(d)",
                                   "date(d, '+' || length(ts) || ' days')",
                                   "date(d, '-' || length(ts) || ' day')",
                                   "strftime('%w', ts)",
                                   "strftime('%Y %w', d)"};
    db_schema *s = load(DDL);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(11);
    size_t nw = sizeof where / sizeof *where, nq = nw + sizeof values / sizeof *values;
    for (size_t qi = 0; qi < nq; qi++) {
        char sql[200];
        if (qi < nw)
            snprintf(sql, sizeof sql, "SELECT 1 FROM t WHERE %s", where[qi]);
        else
            snprintf(sql, sizeof sql, "SELECT %s FROM t", values[qi - nw]);
        db_query *q = NULL;
        char *err = NULL;
        if (db_query_parse(s, sql, strlen(sql), &q, &err)) fail_msg("%s: %s", sql, err);
        if (!q->understood) fail_msg("not understood: %s (%s)", sql, q->nunsupported ? q->unsupported[0] : "?");
        assert_true(q->sqlite_dates);
        expr_ctx *cx = expr_ctx_new();
        db_val cells[2], v;
        slot0(cx, s, cells);
        const db_val *rows[1] = {cells};
        const char *why = NULL;
        expr *w = NULL;
        if (qi < nw && !(w = db_where_expr(cx, q, rows, NULL, 0, &why))) fail_msg("%s: %s", sql, why);
        if (qi >= nw && db_value_expr(cx, q, q->result_expr[0], rows, NULL, 0, &v, &why)) fail_msg("%s: %s", sql, why);
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        for (int iter = 0; iter < 300; iter++) {
            char d[16], ts[32];
            random_date(d);
            random_date(ts);
            int kind = rand() % 5; /* ts: a datetime, a date alone, NULL, a text no date function reads */
            if (kind < 2)
                snprintf(ts + 10, 22, " %02d:%02d:%02d", rand() % 24, rand() % 60, rand() % 60);
            else if (kind == 4)
                strcpy(ts, rand() % 2 ? "soon" : "2024-05-0x");
            uint64_t in[NIN];
            vector(in, d, kind == 3 ? NULL : ts);
            char ins[160];
            snprintf(ins, sizeof ins, "DELETE FROM t; INSERT INTO t VALUES('%s', %s%s%s)", d, kind == 3 ? "" : "'",
                     kind == 3 ? "NULL" : ts, kind == 3 ? "" : "'");
            assert_int_equal(sqlite3_exec(db, ins, NULL, NULL, NULL), SQLITE_OK);
            sqlite3_reset(st);
            int row = sqlite3_step(st) == SQLITE_ROW;
            if (w) {
                if (expr_eval(w, in, NIN) != (uint64_t)row)
                    fail_msg("%s on ('%s', '%s'): SQLite %d, the model %d", sql, d, ts, row, !row);
                continue;
            }
            assert_true(row);
            int null = sqlite3_column_type(st, 0) == SQLITE_NULL;
            if (expr_eval(v.null, in, NIN) != (uint64_t)null) fail_msg("%s on '%s': NULL differs", sql, ts);
            if (null) continue;
            if (v.is_real) {
                double got = sqlite3_column_double(st, 0), model;
                uint64_t bits = expr_eval(v.v, in, NIN);
                memcpy(&model, &bits, sizeof model);
                if (memcmp(&got, &model, sizeof got))
                    fail_msg("%s on ('%s', '%s'): SQLite %.17g, the model %.17g", sql, d, ts, got, model);
            } else {
                const char *got = (const char *)sqlite3_column_text(st, 0);
                char model[32] = {0};
                unsigned n = (unsigned)expr_eval(v.len, in, NIN);
                for (unsigned i = 0; i < n && i < 31; i++) model[i] = (char)expr_eval(v.bytes[i], in, NIN);
                if (strcmp(got, model)) fail_msg("%s on '%s': SQLite '%s', the model '%s'", sql, ts, got, model);
            }
        }
        sqlite3_finalize(st);
        for (int c = 0; c < 2; c++) free(cells[c].bytes);
        expr_ctx_free(cx);
        db_query_free(q);
    }
    /* date(?, '+N days') of a bound text (a booking window: d BETWEEN date(?) AND date(?, '+7 days')) */
    {
        const char *sql = "SELECT 1 FROM t WHERE d BETWEEN date(?1) AND date(?1, '+7 days')";
        db_query *q = NULL;
        char *err = NULL;
        if (db_query_parse(s, sql, strlen(sql), &q, &err)) fail_msg("%s: %s", sql, err);
        if (!q->understood) fail_msg("not understood: %s (%s)", sql, q->nunsupported ? q->unsupported[0] : "?");
        static const char *from[] = {"2024-02-25", "2023-12-28 10:00:00", "2024-13-01", "soon"};
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
        for (size_t fi = 0; fi < sizeof from / sizeof *from; fi++) {
            expr_ctx *cx = expr_ctx_new();
            db_val cells[2], p = {0};
            slot0(cx, s, cells);
            const db_val *rows[1] = {cells};
            size_t n = strlen(from[fi]);
            expr *pb[32];
            for (size_t i = 0; i < n; i++) pb[i] = expr_const(cx, (uint8_t)from[fi][i], 8);
            p.is_text = true;
            p.null = expr_const(cx, 0, 1);
            p.len = expr_const(cx, n, 8);
            p.nbytes = (unsigned)n;
            p.bytes = pb;
            const char *why = NULL;
            expr *w = db_where_expr(cx, q, rows, &p, 1, &why);
            if (!w) fail_msg("%s: %s", sql, why);
            for (int iter = 0; iter < 300; iter++) {
                char d[16], ts[16];
                random_date(d);
                if (iter % 3 == 0) snprintf(d, sizeof d, "%.8s%02d", from[fi], 1 + rand() % 28); /* near it */
                random_date(ts);
                uint64_t in[NIN];
                vector(in, d, ts);
                char ins[160];
                snprintf(ins, sizeof ins, "DELETE FROM t; INSERT INTO t VALUES('%s', '%s')", d, ts);
                assert_int_equal(sqlite3_exec(db, ins, NULL, NULL, NULL), SQLITE_OK);
                sqlite3_reset(st);
                sqlite3_bind_text(st, 1, from[fi], -1, SQLITE_STATIC);
                int row = sqlite3_step(st) == SQLITE_ROW;
                if (expr_eval(w, in, NIN) != (uint64_t)row)
                    fail_msg("%s with '%s' on '%s': SQLite %d, the model %d", sql, from[fi], d, row, !row);
            }
            for (int c = 0; c < 2; c++) free(cells[c].bytes);
            expr_ctx_free(cx);
        }
        sqlite3_finalize(st);
        db_query_free(q);
    }
    /* not modelled: modifiers, a column that is no date column, PostgreSQL (db_pq marks it) */
    static const char *no[] = {
        "SELECT 1 FROM t WHERE date(d, '+1 month') = ts", "SELECT 1 FROM t WHERE strftime('%W', d) = '01'",
        "SELECT 1 FROM t WHERE julianday('soon') > 0", "SELECT 1 FROM t WHERE EXTRACT(hour FROM d) = 0"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, no[i], strlen(no[i]), &q, &err), 0);
        if (q->understood) fail_msg("understood: %s", no[i]);
        db_query_free(q);
    }
    sqlite3_close(db);
    db_schema_free(s);
}

/* Z3 under the slot constraints: two DATEs more than a month apart, in March, quickly (no division,
 * no floating point: julianday() of a date is an exact half). */
static void test_julianday_solver(void **state)
{
    (void)state;
    db_schema *s = load("CREATE TABLE r (a DATE NOT NULL, b DATE NOT NULL);");
    expr_ctx *cx = expr_ctx_new();
    solver *sv = solver_new(10000);
    db_limits l = {1, 8};
    db_val cells[2] = {{0}};
    expr *bytes[2][10];
    uint32_t idx = 1;
    for (int c = 0; c < 2; c++) {
        cells[c].is_text = true;
        cells[c].null = expr_symbol(cx, idx++, 1, 0);
        cells[c].len = expr_symbol(cx, idx++, 8, 0);
        cells[c].nbytes = 10;
        cells[c].bytes = bytes[c];
        for (unsigned i = 0; i < 10; i++) bytes[c][i] = expr_symbol(cx, idx++, 8, 0);
    }
    expr *counts[1] = {expr_symbol(cx, 0, 8, 0)};
    db_val *all[1] = {cells};
    expr *e = db_slot_constraints(cx, s, &l, 0, 0, counts, all);
    const char *sql = "SELECT 1 FROM r WHERE julianday(b) - julianday(a) > 40 AND strftime('%m', b) = '03'";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    const db_val *rows[1] = {cells};
    const char *why = NULL;
    expr *w = db_where_expr(cx, q, rows, NULL, 0, &why);
    assert_non_null(w);
    expr *present = expr_cmp(cx, PRED_EQ, counts[0], expr_const(cx, 1, 8));
    expr *cs[3] = {present, e, w};
    uint64_t *out = NULL;
    size_t n = 0;
    assert_int_equal(solver_solve(sv, cs, 3, NULL, 0, &out, &n), SOLVE_SAT);
    assert_int_equal(expr_eval(w, out, n), 1);
    assert_int_equal(expr_eval(e, out, n), 1);
    free(out);
    db_query_free(q);
    solver_free(sv);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* Casts to date types as PostgreSQL reads them (DATE '2024-06-01', '...'::timestamp, a date column cast to date):
 * modelled with PostgreSQL's meaning, evaluated on rows; on SQLite (CAST AS DATE is NUMERIC affinity there) the
 * query is not modelled; a literal that is not an ISO date is not understood. */
static void test_date_casts(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[2];
    (void)slot0(cx, s, cells);
    const db_val *rows[1] = {cells};
    static const struct {
        const char *sql, *d, *ts;
        int want;
    } cases[] = {
        {"SELECT d FROM t WHERE d < DATE '2024-06-01'", "2024-05-31", NULL, 1},
        {"SELECT d FROM t WHERE d < DATE '2024-06-01'", "2024-06-01", NULL, 0},
        /* a date literal as a timestamp is its midnight */
        {"SELECT d FROM t WHERE ts >= TIMESTAMP '2024-06-01'", "2000-01-01", "2024-06-01 00:00:00", 1},
        {"SELECT d FROM t WHERE ts > '2024-06-01'::timestamp", "2000-01-01", "2024-06-01 00:00:00", 0},
        {"SELECT d FROM t WHERE CAST(d AS date) = '2024-02-29'", "2024-02-29", NULL, 1},
    };
    uint64_t in[NIN];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, cases[i].sql, strlen(cases[i].sql), &q, &err), 0);
        if (!q->understood) fail_msg("%s: not understood", cases[i].sql);
        assert_true(q->date_cast);
        const char *why = NULL;
        assert_null(db_where_expr(cx, q, rows, NULL, 0, &why)); /* SQLite: not modelled */
        assert_string_equal(why, "cast to a date type (SQLite: NUMERIC affinity)");
        q->like_exact = true;
        expr *e = db_where_expr(cx, q, rows, NULL, 0, &why);
        if (!e) fail_msg("%s: %s", cases[i].sql, why);
        vector(in, cases[i].d, cases[i].ts);
        if ((int)(expr_eval(e, in, NIN) & 1) != cases[i].want)
            fail_msg("%s on %s: not %d", cases[i].sql, cases[i].d, cases[i].want);
        db_query_free(q);
    }
    static const char *no[] = {"SELECT d FROM t WHERE d < DATE 'tomorrow'", "SELECT d FROM t WHERE ts < d::timestamp"};
    for (size_t i = 0; i < 2; i++) {
        db_query *q = NULL;
        char *err = NULL;
        assert_int_equal(db_query_parse(s, no[i], strlen(no[i]), &q, &err), 0);
        if (q->understood) fail_msg("%s: understood", no[i]);
        db_query_free(q);
    }
    for (int c = 0; c < 2; c++) free(cells[c].bytes);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* GROUP BY of an expression (by its alias): two rows fall into one group (db_group_eq) exactly when SQLite
 * makes one group of them, on random dates, datetimes, NULLs and texts no date function reads; and the
 * same for fixture cells (valid_date: the validity test left to the slot constraints) on valid texts. */
static void test_group_by_expression_against_sqlite(void **state)
{
    (void)state;
    static const char *sql = "SELECT strftime('%Y-%m', ts) AS month, COUNT(*) FROM t GROUP BY month";
    db_schema *s = load(DDL);
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->ngroup, 1);
    assert_non_null(q->group_expr[0]);
    expr_ctx *cx = expr_ctx_new();
    db_val a[2], b[2];
    row_cells(cx, s, a, 1);
    row_cells(cx, s, b, NIN + 1);
    const db_val *ra[1] = {a}, *rb[1] = {b};
    expr *same = db_group_eq(cx, q, ra, rb);
    assert_non_null(same);
    a[1].valid_date = b[1].valid_date = DB_DATE_DATETIME;
    expr *same_fixture = db_group_eq(cx, q, ra, rb);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    srand(12);
    for (int iter = 0; iter < 400; iter++) {
        char d[16], ts[2][32];
        int kind[2];
        uint64_t in[2 * NIN];
        random_date(d);
        assert_int_equal(sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL), SQLITE_OK);
        for (int r = 0; r < 2; r++) {
            random_date(ts[r]);
            if (r == 1 && rand() % 2) { /* often the same month (on a day every month has) */
                memcpy(ts[1], ts[0], 8);
                if (strcmp(ts[1] + 8, "28") > 0) memcpy(ts[1] + 8, "28", 2);
            }
            kind[r] = rand() % 6; /* a datetime, a date alone, NULL, a text no date function reads */
            if (kind[r] < 3)
                snprintf(ts[r] + 10, 22, " %02d:%02d:%02d", rand() % 24, rand() % 60, rand() % 60);
            else if (kind[r] == 5)
                strcpy(ts[r], rand() % 2 ? "soon" : "2024-05-0x");
            vector(in + r * NIN, d, kind[r] == 4 ? NULL : ts[r]);
            char ins[160];
            snprintf(ins, sizeof ins, "INSERT INTO t VALUES('%s', %s%s%s)", d, kind[r] == 4 ? "" : "'",
                     kind[r] == 4 ? "NULL" : ts[r], kind[r] == 4 ? "" : "'");
            assert_int_equal(sqlite3_exec(db, ins, NULL, NULL, NULL), SQLITE_OK);
        }
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM (SELECT 1 FROM t GROUP BY strftime('%Y-%m', ts))",
                                            -1, &st, NULL),
                         SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        uint64_t one_group = sqlite3_column_int(st, 0) == 1;
        sqlite3_finalize(st);
        if (expr_eval(same, in, 2 * NIN) != one_group)
            fail_msg("'%s' and '%s': SQLite %s, the model differs", ts[0], ts[1], one_group ? "one group" : "two");
        bool valid = kind[0] < 3 && kind[1] < 3; /* both datetimes, as fixture cells of a TIMESTAMP column are */
        if (valid && expr_eval(same_fixture, in, 2 * NIN) != one_group)
            fail_msg("fixture cells '%s' and '%s': the model differs from SQLite", ts[0], ts[1]);
    }
    sqlite3_close(db);
    for (int c = 0; c < 2; c++) free(a[c].bytes), free(b[c].bytes);
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_slot_constraints),
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_solver),
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_number_like_values),
        cmocka_unit_test(test_functions_against_sqlite),
        cmocka_unit_test(test_group_by_expression_against_sqlite),
        cmocka_unit_test(test_julianday_solver),
        cmocka_unit_test(test_date_casts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
