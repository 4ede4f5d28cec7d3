/* test_db_real.c: REAL columns as IEEE doubles (src/db/real.c, translate.c, fixture.c), checked against SQLite itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"

static const char *DDL = "CREATE TABLE r (a REAL, b DOUBLE, i INTEGER, f FLOAT NOT NULL CHECK (f >= 0 AND f < 1e3));";

static db_schema *load(const char *ddl)
{
    db_schema *s = NULL;
    char *err = NULL;
    if (db_schema_from_ddl(ddl, &s, &err)) fail_msg("schema: %s", err);
    return s;
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double double_of(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* doubles where SQLite's conversions and comparisons have their edges */
static const double AWKWARD[] = {0.0,
                                 0.5,
                                 -2.5,
                                 2.0,
                                 7.9,
                                 15.0,
                                 15.000000000000002,
                                 100.0,
                                 1e3,
                                 0.1,
                                 1e300,
                                 -1e300,
                                 4.9406564584124654e-324,
                                 2.2250738585072014e-308,
                                 9007199254740992.0,
                                 9007199254740994.0,
                                 9223372036854775808.0,
                                 -9223372036854775808.0,
                                 9223372036854774784.0,
                                 1e20,
                                 -7.5,
                                 1.0 / 3};

static void test_parse(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    assert_true(db_column_is_real(&s->tables[0].cols[0]));
    assert_true(db_column_is_real(&s->tables[0].cols[1]));
    assert_false(db_column_is_real(&s->tables[0].cols[2]));
    assert_true(db_column_is_real(&s->tables[0].cols[3]));
    const char *sql = "SELECT a FROM r WHERE a > 15.0 AND b BETWEEN 1e3 AND -2.5 OR i = 99999999999999999999";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    const db_sexpr *and = q->where->kids[0];
    assert_int_equal(and->kids[0]->kids[1]->kind, DBX_REAL);
    assert_true(and->kids[0]->kids[1]->rval == 15.0);
    assert_true(and->kids[1]->kids[1]->rval == 1e3);
    assert_true(and->kids[1]->kids[2]->rval == -2.5);
    assert_int_equal(q->where->kids[1]->kids[1]->kind, DBX_REAL); /* beyond 64 bits: REAL, as SQLite */
    db_query_free(q);
    /* the CHECK on a REAL column is modelled */
    assert_int_equal(s->tables[0].nchecks, 1);
    assert_non_null(s->tables[0].checks[0].q);
    assert_int_equal(s->nignored, 0);
    db_schema_free(s);
}

/* Symbols: a (null 0, value 1), b (2, 3), i (4, 5), f (6, 7); parameters ?1 a double (8), ?2 an integer (9). */
static const char *CLAUSES[] = {"a > 15.0",
                                "a BETWEEN ?1 AND 20",
                                "a = i",
                                "a < i",
                                "i >= a",
                                "i <> b",
                                "a + i > 1e3",
                                "a * b <= 100.0",
                                "a - b = 0",
                                "a / b > 2",
                                "-a < b",
                                "a = 2",
                                "a <> 9223372036854775807",
                                "a > 9223372036854775807",
                                "i < 9223372036854775808.0",
                                "a IN (1, 2.5, ?1)",
                                "a NOT BETWEEN -1e300 AND ?1",
                                "a",
                                "NOT b",
                                "a / 0 IS NULL",
                                "(a * b) * 0 IS NULL",
                                "a / i < 0.5",
                                "i * 0.5 = ?2",
                                "?2 < a AND ?1 >= i",
                                "b - a * 2 >= -a",
                                "f >= 0 AND f < 1e3",
                                "a + 1 > a",
                                "-a < i"};

static void bind_row(sqlite3_stmt *st, const uint64_t *in)
{
    for (int c = 0; c < 4; c++) {
        const uint64_t *v = in + 2 * c;
        if (v[0])
            sqlite3_bind_null(st, c + 1);
        else if (c == 2)
            sqlite3_bind_int64(st, c + 1, (int64_t)v[1]);
        else
            sqlite3_bind_double(st, c + 1, double_of(v[1]));
    }
}

static void test_where_against_sqlite(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    const db_table *t = &s->tables[0];
    expr_ctx *cx = expr_ctx_new();
    db_val row[4], params[2];
    memset(row, 0, sizeof row);
    memset(params, 0, sizeof params);
    for (int c = 0; c < 4; c++) {
        row[c].null = expr_symbol(cx, 2 * (uint32_t)c, 1, 0);
        row[c].v = expr_symbol(cx, 2 * (uint32_t)c + 1, 64, 0);
        row[c].is_real = db_column_is_real(&t->cols[c]);
    }
    params[0].null = expr_const(cx, 0, 1);
    params[0].v = expr_symbol(cx, 8, 64, 0);
    params[0].is_real = true;
    params[1].null = expr_const(cx, 0, 1);
    params[1].v = expr_symbol(cx, 9, 64, 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE r (a REAL, b DOUBLE, i INTEGER, f FLOAT)", NULL, NULL, NULL),
                     SQLITE_OK);
    size_t nclauses = sizeof CLAUSES / sizeof *CLAUSES;
    expr *e[sizeof CLAUSES / sizeof *CLAUSES];
    sqlite3_stmt *st[sizeof CLAUSES / sizeof *CLAUSES];
    for (size_t k = 0; k < nclauses; k++) {
        char sql[256];
        snprintf(sql, sizeof sql, "SELECT a FROM r WHERE %s", CLAUSES[k]);
        db_query *q = NULL;
        char *err = NULL;
        if (db_query_parse(s, sql, strlen(sql), &q, &err) || !q->understood) fail_msg("%s: not understood", sql);
        const db_val *rows[1] = {row};
        const char *why = NULL;
        e[k] = db_where_expr(cx, q, rows, params, 2, &why);
        if (!e[k]) fail_msg("%s: %s", sql, why);
        db_query_free(q);
        /* SQLite's numbering of ?1 ?2 is kept: the row's values come from a table */
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st[k], NULL), SQLITE_OK);
    }
    const int nawk = (int)(sizeof AWKWARD / sizeof *AWKWARD);
    static const int64_t INTS[] = {0, 2, 7, -3, 15, 1000, 9007199254740993, INT64_MAX, INT64_MIN, 9223372036854774784};
    srand(5);
    int returned = 0;
    for (int iter = 0; iter < 1500; iter++) {
        uint64_t in[10] = {0};
        for (int c = 0; c < 4; c++) {
            in[2 * c] = c != 3 && rand() % 7 == 0;
            if (in[2 * c]) continue;
            if (c == 2)
                in[5] = (uint64_t)INTS[rand() % 10];
            else {
                double d = rand() % 4 == 0 ? (double)(rand() % 41 - 20) / 4 : AWKWARD[rand() % nawk];
                if (rand() % 3 == 0) d = -d;
                if (d == 0) d = 0.0; /* never -0.0 (stored as 0.0) */
                if (c == 3) d = fabs(d) < 1e3 ? fabs(d) : 1.5;
                in[2 * c + 1] = bits_of(d);
            }
        }
        in[8] = bits_of(AWKWARD[rand() % nawk] * (rand() % 2 ? 1 : -1));
        in[9] = (uint64_t)INTS[rand() % 10];
        assert_int_equal(sqlite3_exec(db, "DELETE FROM r", NULL, NULL, NULL), SQLITE_OK);
        sqlite3_stmt *ins;
        assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO r VALUES (?, ?, ?, ?)", -1, &ins, NULL), SQLITE_OK);
        bind_row(ins, in);
        assert_int_equal(sqlite3_step(ins), SQLITE_DONE);
        sqlite3_finalize(ins);
        for (size_t k = 0; k < nclauses; k++) {
            sqlite3_reset(st[k]);
            sqlite3_bind_double(st[k], 1, double_of(in[8]));
            sqlite3_bind_int64(st[k], 2, (int64_t)in[9]);
            int got = sqlite3_step(st[k]) == SQLITE_ROW;
            int model = (int)expr_eval(e[k], in, 10);
            if (got != model)
                fail_msg("WHERE %s: SQLite %d, model %d (a %s%.17g, b %s%.17g, i %s%lld, ?1 %.17g, ?2 %lld)",
                         CLAUSES[k], got, model, in[0] ? "NULL " : "", double_of(in[1]), in[2] ? "NULL " : "",
                         double_of(in[3]), in[4] ? "NULL " : "", (long long)in[5], double_of(in[8]), (long long)in[9]);
            returned += got;
        }
    }
    assert_true(returned > 1000);
    for (size_t k = 0; k < nclauses; k++) sqlite3_finalize(st[k]);
    sqlite3_close(db);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* A fixture's REAL text reads back in SQLite as the same double; column_int64 of it is
 * db_real_to_int's value; an INTEGER stored into a REAL column is db_val_store's double. */
static void test_fixture_round_trip(void **state)
{
    (void)state;
    db_schema *s = load("CREATE TABLE p (x REAL, n INTEGER);");
    const db_table *t = &s->tables[0];
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE p (x REAL, n INTEGER);", NULL, NULL, NULL), SQLITE_OK);
    expr_ctx *cx = expr_ctx_new();
    expr *sym = expr_symbol(cx, 0, 64, 0);
    expr *toint = db_real_to_int(cx, sym);
    const int nawk = (int)(sizeof AWKWARD / sizeof *AWKWARD);
    for (int k = 0; k < 2 * nawk + 4; k++) {
        double d = k < 2 * nawk        ? (k % 2 ? -AWKWARD[k / 2] : AWKWARD[k / 2])
                   : k == 2 * nawk     ? INFINITY
                   : k == 2 * nawk + 1 ? -INFINITY
                   : k == 2 * nawk + 2 ? -0.0
                                       : 123456789.125;
        db_cell cells[2] = {{false, (int64_t)bits_of(d), 0, NULL}, {false, 1, 0, NULL}};
        char *ins = db_insert_sql(t, cells);
        assert_non_null(ins);
        assert_int_equal(sqlite3_exec(db, "DELETE FROM p", NULL, NULL, NULL), SQLITE_OK);
        if (sqlite3_exec(db, ins, NULL, NULL, NULL) != SQLITE_OK) fail_msg("%s: %s", ins, sqlite3_errmsg(db));
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, "SELECT x, typeof(x) FROM p", -1, &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(st, 1), "real");
        double back = sqlite3_column_double(st, 0);
        double want = d == 0 ? 0.0 : d; /* -0.0 is stored as 0.0 (the model never picks it) */
        if (bits_of(back) != bits_of(want)) fail_msg("%s read back as %.17g", ins, back);
        if (!isinf(d)) {
            uint64_t in[1] = {bits_of(d)};
            int64_t model = (int64_t)expr_eval(toint, in, 1);
            if (model != sqlite3_column_int64(st, 0))
                fail_msg("column_int64(%.17g): SQLite %lld, model %lld", d, (long long)sqlite3_column_int64(st, 0),
                         (long long)model);
        }
        sqlite3_finalize(st);
        free(ins);
    }
    /* an integer stored into a REAL column becomes its double; -0.0 stored becomes 0.0 */
    db_val v = {false, expr_const(cx, 0, 1), expr_symbol(cx, 1, 64, 0), NULL, 0, NULL, false, NULL, DB_DATE_NONE, NULL},
           out;
    assert_int_equal(db_val_store(cx, &t->cols[0], &v, &out), 0);
    assert_true(out.is_real);
    uint64_t in[2] = {0, (uint64_t)9007199254740993ll};
    assert_true(double_of(expr_eval(out.v, in, 2)) == 9007199254740992.0);
    v.is_real = true;
    assert_int_equal(db_val_store(cx, &t->cols[1], &v, &out), -1); /* REAL into INTEGER: not modelled */
    assert_int_equal(db_val_store(cx, &t->cols[0], &v, &out), 0);
    in[1] = bits_of(-0.0);
    assert_int_equal(expr_eval(out.v, in, 2), 0);
    expr_ctx_free(cx);
    sqlite3_close(db);
    db_schema_free(s);
}

/* Slot constraints: a present REAL cell is never NaN nor -0.0; the CHECK on f holds. */
static void test_slot_constraints(void **state)
{
    (void)state;
    db_schema *s = load(DDL);
    db_limits l = {1, 4};
    expr_ctx *cx = expr_ctx_new();
    db_val cells[4];
    memset(cells, 0, sizeof cells);
    for (int c = 0; c < 4; c++) {
        cells[c].null = expr_symbol(cx, 1 + 2 * (uint32_t)c, 1, 0);
        cells[c].v = expr_symbol(cx, 2 + 2 * (uint32_t)c, 64, 0);
        cells[c].is_real = db_column_is_real(&s->tables[0].cols[c]);
    }
    expr *counts[1] = {expr_symbol(cx, 0, 8, 0)};
    db_val *all[1] = {cells};
    expr *e = db_slot_constraints(cx, s, &l, 0, 0, counts, all);
    uint64_t in[9] = {1, 0, bits_of(2.5), 0, bits_of(-1e300), 0, 5, 0, bits_of(999.5)};
    assert_int_equal(expr_eval(e, in, 9), 1);
    in[2] = bits_of(NAN);
    assert_int_equal(expr_eval(e, in, 9), 0);
    in[2] = bits_of(-0.0);
    assert_int_equal(expr_eval(e, in, 9), 0);
    in[2] = 0;
    in[8] = bits_of(1e3); /* CHECK (f < 1e3) */
    assert_int_equal(expr_eval(e, in, 9), 0);
    in[0] = 0; /* absent: anything goes */
    assert_int_equal(expr_eval(e, in, 9), 1);
    expr_ctx_free(cx);
    db_schema_free(s);
}

/* Two DECIMAL(p,2) values compare by their integers (no floating-point operator in the condition), and agree with
 * the doubles k / 100 on every pair near and far; a scaled value against a double of another shape stays FP. */
static void test_scaled_compare(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    expr *ka = expr_symbol(cx, 0, 64, 0), *kb = expr_symbol(cx, 1, 64, 0);
    db_val a = {0}, b = {0};
    a.is_real = b.is_real = true;
    a.null = b.null = expr_const(cx, 0, 1);
    a.scaled = ka, a.v = db_scaled_value(cx, ka, 2);
    b.scaled = kb, b.v = db_scaled_value(cx, kb, 2);
    expr *lt, *eq;
    db_num_cmp(cx, &a, &b, &lt, &eq);
    assert_false(lt->flags & EXPR_FLAG_FP);
    assert_false(eq->flags & EXPR_FLAG_FP);
    static const int64_t ks[] = {0, 1, -1, 99, 100, 101, 1999, 2000, 123456789, -123456789, 99999999999999LL};
    size_t n = sizeof ks / sizeof *ks;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            uint64_t in[2] = {(uint64_t)ks[i], (uint64_t)ks[j]};
            double da = (double)ks[i] / 100.0, db = (double)ks[j] / 100.0;
            assert_int_equal(expr_eval(lt, in, 2) & 1, da < db);
            assert_int_equal(expr_eval(eq, in, 2) & 1, da == db);
        }
    db_val r = {0}; /* a plain REAL: compared as doubles */
    r.is_real = true;
    r.null = expr_const(cx, 0, 1);
    r.v = expr_symbol(cx, 2, 64, 0);
    db_num_cmp(cx, &a, &r, &lt, &eq);
    assert_true(lt->flags & EXPR_FLAG_FP);
    expr_ctx_free(cx);
}

/* PostgreSQL's balance - $1 of a numeric(12,2) column and a decimal the program wrote ("250.00", which
 * db_pq_params.c gives as the constant k = 25000 beside its double 250.0) is exact, a scaled value again: in
 * doubles 250.01 - 250.00 is 0.0099999999999909, where the server reads back 0.01 (a model mismatch). "250.0"
 * (k = 2500, a tenth) is brought to hundredths. */
static void test_scaled_minus_decimal_param(void **state)
{
    (void)state;
    db_schema *s = load("CREATE TABLE acc (id INTEGER PRIMARY KEY, balance NUMERIC(12,2) NOT NULL);");
    assert_int_equal(s->tables[0].cols[1].scale, 2);
    const char *sql = "UPDATE acc SET balance = balance - $1 WHERE id = $2";
    db_query *q = NULL;
    char *err = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    assert_int_equal(q->nset, 1);
    q->like_exact = true;
    expr_ctx *cx = expr_ctx_new();
    db_val row[2] = {{0}};
    row[0].null = row[1].null = expr_const(cx, 0, 1);
    row[0].v = expr_symbol(cx, 0, 64, 0);
    row[1].is_real = true;
    row[1].scaled = expr_symbol(cx, 1, 64, 0);
    row[1].v = db_scaled_value(cx, row[1].scaled, 2);
    static const struct {
        double d;
        int64_t k;
    } params[] = {{250.0, 25000}, {250.0, 2500}};
    for (size_t i = 0; i < sizeof params / sizeof *params; i++) {
        db_val p[2] = {{0}};
        p[0].null = p[1].null = expr_const(cx, 0, 1);
        p[0].is_real = true;
        p[0].v = expr_const(cx, bits_of(params[i].d), 64);
        p[0].scaled = expr_const(cx, (uint64_t)params[i].k, 64);
        p[1].v = expr_const(cx, 1, 64);
        const db_val *rows[1] = {row};
        const char *why = NULL;
        db_val out;
        assert_int_equal(db_value_expr(cx, q, q->set_val[0], rows, p, 2, &out, &why), 0);
        assert_true(out.is_real);
        assert_non_null(out.scaled);
        uint64_t in[2] = {1, 25001}; /* 250.01 */
        assert_int_equal((int64_t)expr_eval(out.scaled, in, 2), 1);
        assert_true(double_of(expr_eval(out.v, in, 2)) == 0.01);
    }
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_where_against_sqlite),
        cmocka_unit_test(test_fixture_round_trip),
        cmocka_unit_test(test_slot_constraints),
        cmocka_unit_test(test_scaled_compare),
        cmocka_unit_test(test_scaled_minus_decimal_param),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
