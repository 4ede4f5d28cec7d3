/* test_data_sql.c: branch conditions translated to SQL (data_sql.c) agree with the expressions' own values, evaluated by SQLite; site ids, wrapping and literals. */
#define _GNU_SOURCE
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

#include "data/data.h"
#include "db/db.h"

/* input 0: an integer column c0 (64-bit signed); input 1: a REAL column c1 */
static const char *term(void *ctx, uint32_t index, bool *is_real)
{
    (void)ctx;
    if (index == 0) {
        *is_real = false;
        return "c0";
    }
    if (index == 1) {
        *is_real = true;
        return "c1";
    }
    if (index == 3) { /* byte 2 (1-based position 2) of the text column c2, as data_sqlite.c names it */
        *is_real = false;
        return "(instr('0123456789ABCDEF',substr(hex(substr(CAST(c2 AS BLOB),2,1)),1,1))*16+"
               "instr('0123456789ABCDEF',substr(hex(substr(CAST(c2 AS BLOB),2,1)),2,1))-17)";
    }
    return NULL;
}

/* The SQL of cond evaluated by SQLite with c0 = v (and c1 = d): 1, 0, or -1 for SQL NULL. */
static int eval(sqlite3 *db, const char *sql, int64_t v, double d)
{
    char *q = NULL;
    char *lit = db_sql_int(v), *dl = db_sql_double(d);
    assert_true(asprintf(&q,
                         "SELECT CASE WHEN %s THEN 1 WHEN NOT %s THEN 0 ELSE -1 END FROM (SELECT %s AS c0, %s AS c1)",
                         sql, sql, lit, dl) > 0);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, q, -1, &st, NULL);
    if (rc != SQLITE_OK) fail_msg("SQLite rejects %s: %s", q, sqlite3_errmsg(db));
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int r = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    free(q), free(lit), free(dl);
    return r;
}

typedef expr *(*build_fn)(expr_ctx *cx, expr *x, expr *d);

static void check_all(build_fn f, const char *what)
{
    static const int64_t vals[] = {0,
                                   1,
                                   -1,
                                   2,
                                   3,
                                   7,
                                   99,
                                   100,
                                   101,
                                   253,
                                   255,
                                   256,
                                   -3,
                                   -100,
                                   5000,
                                   65535,
                                   65536,
                                   2147483647LL,
                                   2147483648LL,
                                   -2147483648LL,
                                   -2147483649LL,
                                   4294967295LL,
                                   4294967296LL,
                                   4294967293LL,
                                   INT64_MAX,
                                   INT64_MIN,
                                   INT64_MIN + 1,
                                   0x123456789LL};
    static const double dvals[] = {0.0, 2.5, -1.25, 1e10, 3.0000000000000004};
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    int translated = 0;
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        expr_ctx *cx = expr_ctx_new();
        double dv = dvals[i % (sizeof dvals / sizeof *dvals)];
        uint64_t bits;
        memcpy(&bits, &dv, sizeof bits);
        expr *x = expr_symbol(cx, 0, 64, (uint64_t)vals[i]);
        expr *d = expr_symbol(cx, 1, 64, bits);
        expr *c = f(cx, x, d);
        const char *why = NULL;
        char *sql = data_expr_sql(DATA_SQLITE, c, term, NULL, &why);
        if (sql) {
            translated++;
            int got = eval(db, sql, vals[i], dv);
            if (got != (int)(c->value & 1))
                fail_msg("%s with c0 = %lld: expression says %d, SQL (%s) says %d", what, (long long)vals[i],
                         (int)(c->value & 1), sql, got);
        }
        free(sql);
        expr_ctx_free(cx);
    }
    sqlite3_close(db);
    if (!translated) fail_msg("%s: never translated", what);
}

static expr *lo32(expr_ctx *cx, expr *x) { return expr_extract(cx, x, 0, 32); }
static expr *k(expr_ctx *cx, uint64_t v, unsigned w) { return expr_const(cx, v & expr_mask(w), w); }

static expr *b_slt32(expr_ctx *cx, expr *x, expr *d) { return expr_cmp(cx, PRED_SLT, lo32(cx, x), k(cx, 100, 32)); }
static expr *b_sgt32(expr_ctx *cx, expr *x, expr *d)
{
    return expr_cmp(cx, PRED_SGT, lo32(cx, x), k(cx, (uint64_t)-5, 32));
}
static expr *b_ult32(expr_ctx *cx, expr *x, expr *d) { return expr_cmp(cx, PRED_ULT, lo32(cx, x), k(cx, 100, 32)); }
static expr *b_add32(expr_ctx *cx, expr *x, expr *d)
{
    return expr_cmp(cx, PRED_EQ, expr_binary(cx, EXPR_ADD, lo32(cx, x), k(cx, 1, 32)), k(cx, 0, 32));
}
static expr *b_sext8(expr_ctx *cx, expr *x, expr *d)
{
    return expr_cmp(cx, PRED_EQ, expr_sext(cx, expr_extract(cx, x, 0, 8), 32), k(cx, (uint64_t)-3, 32));
}
static expr *b_mul16(expr_ctx *cx, expr *x, expr *d)
{
    expr *m = expr_binary(cx, EXPR_MUL, expr_extract(cx, x, 0, 16), k(cx, 3, 16));
    return expr_cmp(cx, PRED_ULT, m, k(cx, 300, 16));
}
static expr *b_div(expr_ctx *cx, expr *x, expr *d)
{
    expr *a = expr_binary(cx, EXPR_UDIV, lo32(cx, x), k(cx, 7, 32));
    expr *b = expr_binary(cx, EXPR_SREM, lo32(cx, x), k(cx, (uint64_t)-3, 32));
    return expr_and1(cx, expr_cmp(cx, PRED_UGT, a, k(cx, 10, 32)), expr_cmp(cx, PRED_SLT, b, k(cx, 1, 32)));
}
static expr *b_shift(expr_ctx *cx, expr *x, expr *d)
{
    expr *a = expr_binary(cx, EXPR_ASHR, lo32(cx, x), k(cx, 4, 32));
    expr *b = expr_binary(cx, EXPR_SHL, lo32(cx, x), k(cx, 3, 32));
    expr *c = expr_binary(cx, EXPR_LSHR, x, k(cx, 60, 64));
    expr *l = expr_cmp(cx, PRED_SLT, a, k(cx, 2, 32));
    expr *r = expr_and1(cx, expr_cmp(cx, PRED_UGT, b, k(cx, 1000, 32)), expr_cmp(cx, PRED_EQ, c, k(cx, 0, 64)));
    return expr_binary(cx, EXPR_OR, l, r);
}
static expr *b_xor(expr_ctx *cx, expr *x, expr *d)
{
    expr *a = expr_binary(cx, EXPR_XOR, expr_extract(cx, x, 0, 16), k(cx, 0x00ff, 16));
    return expr_cmp(cx, PRED_ULT, a, k(cx, 0x0100, 16));
}
static expr *b_concat_ite(expr_ctx *cx, expr *x, expr *d)
{
    expr *c = expr_concat(cx, expr_extract(cx, x, 0, 8), expr_extract(cx, x, 8, 8));
    expr *t = expr_ite(cx, expr_cmp(cx, PRED_SLT, x, k(cx, 0, 64)), c, k(cx, 7, 16));
    return expr_cmp(cx, PRED_UGE, t, k(cx, 256, 16));
}
static expr *b_ult64(expr_ctx *cx, expr *x, expr *d)
{
    return expr_cmp(cx, PRED_ULT, x, k(cx, 0x8000000000000005ull, 64));
}
static expr *b_ult64b(expr_ctx *cx, expr *x, expr *d) { return expr_cmp(cx, PRED_ULT, k(cx, 100, 64), x); }
static expr *b_sle64(expr_ctx *cx, expr *x, expr *d) { return expr_cmp(cx, PRED_SLE, x, k(cx, 2147483648ull, 64)); }
static expr *b_double(expr_ctx *cx, expr *x, expr *d)
{
    double two = 2.0;
    uint64_t b;
    memcpy(&b, &two, sizeof b);
    expr *s = expr_fp(cx, EXPR_FADD, 64, 0, d, expr_const(cx, b, 64), NULL);
    return expr_fcmp(cx, FPRED_OLT, s, expr_const(cx, 0x4012000000000000ull /* 4.5 */, 64));
}
static expr *b_itof(expr_ctx *cx, expr *x, expr *d)
{
    expr *f = expr_fp(cx, EXPR_SITOF, 64, 0, lo32(cx, x), NULL, NULL);
    return expr_fcmp(cx, FPRED_OGE, f, d);
}

static void test_integers(void **state)
{
    check_all(b_slt32, "32-bit signed <");
    check_all(b_sgt32, "32-bit signed > -5");
    check_all(b_ult32, "32-bit unsigned <");
    check_all(b_add32, "32-bit wrap-around +");
    check_all(b_sext8, "sign-extended byte");
    check_all(b_mul16, "16-bit *");
    check_all(b_div, "division and remainder by constants");
    check_all(b_shift, "shifts");
    check_all(b_xor, "xor");
    check_all(b_concat_ite, "concat and ite");
    check_all(b_ult64, "64-bit unsigned <");
    check_all(b_ult64b, "64-bit unsigned > 100");
    check_all(b_sle64, "64-bit signed <=");
}

static void test_doubles(void **state)
{
    check_all(b_double, "double + and <");
    check_all(b_itof, "int -> double");
}

/* Conditions on byte 1 of a text column (the fast blob comparisons of data_sql.c), checked
 * for texts of every relevant shape: shorter than the byte, with the byte below, equal to and
 * above the constants, and bytes above 0x7f. */
static void test_text_bytes(void **state)
{
    static const char *const texts[] = {"", "a", "ab", "ac", "aa", "a\x7f", "a\xc3\xa9", "fraud", "zz"};
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        size_t len = strlen(texts[i]);
        uint8_t byte = len > 1 ? (uint8_t)texts[i][1] : 0;
        for (int form = 0; form < 7; form++) {
            expr_ctx *cx = expr_ctx_new();
            expr *b = expr_symbol(cx, 3, 8, byte);
            expr *c = form == 0   ? expr_cmp(cx, PRED_EQ, b, k(cx, 'b', 8))
                      : form == 1 ? expr_cmp(cx, PRED_EQ, b, k(cx, 0, 8))
                      : form == 2 ? expr_cmp(cx, PRED_ULT, b, k(cx, 'c', 8))
                      : form == 3 ? expr_cmp(cx, PRED_ULT, k(cx, 'a', 8), b)
                      : form == 4 ? expr_cmp(cx, PRED_EQ, expr_zext(cx, b, 32), k(cx, 'b', 32))
                      : form == 5 ? expr_cmp(cx, PRED_ULT, b, k(cx, 0x80, 8))
                                  : expr_cmp(cx, PRED_SLT, b, k(cx, 0, 8)); /* signed char < 0: the slow form */
            const char *why = NULL;
            char *sql = data_expr_sql(DATA_SQLITE, c, term, NULL, &why);
            assert_non_null(sql);
            char *lit = db_sql_text(false, texts[i], len), *q = NULL;
            assert_true(asprintf(&q, "SELECT CASE WHEN %s THEN 1 ELSE 0 END FROM (SELECT 0 AS c0, 0.0 AS c1, %s AS c2)",
                                 sql, lit) > 0);
            sqlite3_stmt *st = NULL;
            if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
                fail_msg("SQLite rejects %s: %s", q, sqlite3_errmsg(db));
            assert_int_equal(sqlite3_step(st), SQLITE_ROW);
            int got = sqlite3_column_int(st, 0);
            if (got != (int)(c->value & 1))
                fail_msg("form %d on text #%zu: expression says %d, SQL (%s) says %d", form, i, (int)(c->value & 1),
                         sql, got);
            sqlite3_finalize(st);
            free(q), free(lit), free(sql);
            expr_ctx_free(cx);
        }
    }
    sqlite3_close(db);
}

static void test_not_expressible(void **state)
{
    expr_ctx *cx = expr_ctx_new();
    expr *x = expr_symbol(cx, 0, 64, 5), *y = expr_symbol(cx, 2, 64, 3); /* input 2 is not a data input */
    const char *why = NULL;
    char *sql = data_expr_sql(DATA_SQLITE, expr_cmp(cx, PRED_EQ, x, y), term, NULL, &why);
    assert_null(sql);
    assert_non_null(why);
    expr *q = expr_binary(cx, EXPR_UDIV, k(cx, 100, 64), x); /* division by a value from the data */
    sql = data_expr_sql(DATA_SQLITE, expr_cmp(cx, PRED_EQ, q, k(cx, 20, 64)), term, NULL, &why);
    assert_null(sql);
    assert_non_null(strstr(why, "division"));
    expr_ctx_free(cx);
}

static void test_pg_share_terms(void **state)
{
    const char *cond =
        "((CASE WHEN octet_length(c1::text) > 0 THEN get_byte(convert_to(c1::text,'UTF8'),0) ELSE 0 END) = 52"
        " AND (CASE WHEN octet_length(c1::text) > 1 THEN get_byte(convert_to(c1::text,'UTF8'),1) ELSE 0 END)"
        " = 50 AND c2 <> 'octet_length(x)')";
    char *s = data_pg_share_terms(cond);
    assert_string_equal(s, "EXISTS (SELECT 1 FROM (SELECT octet_length(c1::text) AS sympath_t0, "
                           "convert_to(c1::text,'UTF8') AS sympath_t1 OFFSET 0) sympath_x WHERE "
                           "((CASE WHEN sympath_t0 > 0 THEN get_byte(sympath_t1,0) ELSE 0 END) = 52 AND "
                           "(CASE WHEN sympath_t0 > 1 THEN get_byte(sympath_t1,1) ELSE 0 END) = 50 AND "
                           "c2 <> 'octet_length(x)'))");
    free(s);
    s = data_pg_share_terms("(c0 > 5)"); /* nothing to share */
    assert_string_equal(s, "(c0 > 5)");
    free(s);
}

static void test_site_and_wrap(void **state)
{
    char a[17], b[17];
    data_site_id("  SELECT a FROM t;  ", 20, a);
    data_site_id("SELECT a FROM t", 15, b);
    assert_string_equal(a, b);
    assert_true(data_is_select("  -- c\n select 1", 16));
    assert_true(data_is_select("WITH x AS (SELECT 1) SELECT * FROM x", 36));
    assert_false(data_is_select("INSERT INTO t VALUES (1)", 24));
    char *w = data_wrap_select("SELECT a, b FROM t WHERE a > ?;", 31, 2, "c0 > 5", 3);
    assert_string_equal(
        w, "WITH sympath_q(c0,c1) AS (SELECT a, b FROM t WHERE a > ?\n) SELECT * FROM sympath_q WHERE c0 > 5 LIMIT 3");
    free(w);
    char *l = db_sql_text(false, "it's", 4);
    assert_string_equal(l, "'it''s'");
    free(l);
    l = db_sql_text(true, "a\tb", 3);
    assert_string_equal(l, "E'a\\x09b'");
    free(l);
    l = db_sql_double(3.0);
    assert_string_equal(l, "3.0");
    free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),       cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_text_bytes),     cmocka_unit_test(test_not_expressible),
        cmocka_unit_test(test_pg_share_terms), cmocka_unit_test(test_site_and_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
