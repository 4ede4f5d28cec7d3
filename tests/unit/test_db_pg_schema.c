/* test_db_pg_schema.c: unit tests of the PostgreSQL catalog reader (db_pg_read_schema), the PostgreSQL INSERTs of fixture rows and COUNT(DISTINCT), trim and date operators against the server, on a server the test starts. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include <libpq-fe.h>
#include "pg_test_util.h"

static PGconn *conn;

/* The tables of the test: every mapped type, NOT NULL, composite PRIMARY KEY, UNIQUE, single-column and
 * composite foreign keys, a foreign key to another schema (left out). */
static void make_tables(void)
{
    pg_exec_ok(conn, "CREATE SCHEMA other; CREATE TABLE other.far(id int PRIMARY KEY)");
    pg_exec_ok(conn, "CREATE TABLE authors(id int PRIMARY KEY, name varchar(20) NOT NULL UNIQUE, code char(3), "
                     "small smallint, big bigint, ok boolean, price numeric(10,2), ratio double precision, born date)");
    pg_exec_ok(conn, "CREATE TABLE books(isbn bigint, ed int, author int REFERENCES authors(id), title text, "
                     "far int REFERENCES other.far(id), PRIMARY KEY (isbn, ed))");
    pg_exec_ok(conn, "CREATE TABLE reviews(isbn bigint, ed int, stars int NOT NULL, at timestamptz, "
                     "FOREIGN KEY (isbn, ed) REFERENCES books(isbn, ed) ON DELETE CASCADE)");
}

static void test_read_schema(void **st)
{
    (void)st;
    char *lite = NULL, *pg = NULL, *err = NULL;
    assert_int_equal(db_pg_read_schema(conn, &lite, &pg, &err), 0);
    /* the SQLite-style DDL: affinities and kinds, constraints */
    assert_non_null(
        strstr(lite, "CREATE TABLE \"authors\" (\n    \"id\" INT NOT NULL,\n    \"name\" VARCHAR(20) NOT NULL"));
    assert_non_null(strstr(lite, "\"code\" CHARACTER(3),"));
    assert_non_null(strstr(lite, "\"small\" SMALLINT,"));
    assert_non_null(strstr(lite, "\"big\" BIGINT,"));
    assert_non_null(strstr(lite, "\"ok\" BOOLEAN INT,"));
    assert_non_null(strstr(lite, "\"price\" DECIMAL(10,2),")); /* a scaled cell: k / 100 */
    assert_non_null(strstr(lite, "\"ratio\" DOUBLE PRECISION,"));
    assert_non_null(strstr(lite, "\"born\" DATE")); /* an ISO-8601 text cell (date.c) */
    assert_non_null(strstr(lite, "PRIMARY KEY (\"isbn\", \"ed\")"));
    assert_non_null(strstr(lite, "UNIQUE (\"name\")"));
    assert_non_null(strstr(lite, "FOREIGN KEY (\"author\") REFERENCES \"authors\" (\"id\")"));
    assert_null(strstr(lite, "far\" (")); /* the foreign key to other.far is left out */
    /* the schema it gives: tables in name order, keys and the single-column foreign key */
    db_schema *s = NULL;
    assert_int_equal(db_schema_from_ddl(lite, &s, &err), 0);
    assert_int_equal(s->ntables, 3);
    int a = db_table_index(s, "authors"), b = db_table_index(s, "books");
    assert_true(a >= 0 && b >= 0);
    const db_table *ta = &s->tables[a], *tb = &s->tables[b];
    assert_int_equal(ta->ncols, 9);
    assert_int_equal(ta->rowid_alias, -1); /* INT, not INTEGER: no alias of SQLite's rowid */
    assert_true(ta->cols[1].notnull);
    assert_true(db_column_is_text(&ta->cols[1]));
    assert_false(db_column_is_text(&ta->cols[5])); /* boolean: an integer cell */
    assert_true(db_column_is_text(&ta->cols[8]));  /* date: text */
    unsigned n;
    assert_int_equal(db_pg_column_kind(&ta->cols[0], &n), DB_PG_INT4);
    assert_int_equal(db_pg_column_kind(&ta->cols[1], &n), DB_PG_VARCHAR);
    assert_int_equal(n, 20);
    assert_int_equal(db_pg_column_kind(&ta->cols[2], &n), DB_PG_CHAR);
    assert_int_equal(n, 3);
    assert_int_equal(db_pg_column_kind(&ta->cols[3], &n), DB_PG_INT2);
    assert_int_equal(db_pg_column_kind(&ta->cols[4], &n), DB_PG_INT8);
    assert_int_equal(db_pg_column_kind(&ta->cols[5], &n), DB_PG_BOOL);
    assert_int_equal(db_pg_column_kind(&ta->cols[6], &n), DB_PG_FLOAT);
    assert_int_equal(ta->cols[6].scale, 2);
    assert_int_equal(db_pg_column_kind(&ta->cols[7], &n), DB_PG_FLOAT);
    assert_int_equal(ta->cols[7].scale, 0);
    assert_int_equal(tb->cols[2].fk_table, a);
    assert_int_equal(tb->cols[2].fk_column, 0);
    assert_int_equal(tb->cols[4].fk_table, -1);
    assert_true(tb->cols[0].notnull && tb->cols[1].notnull); /* key columns */
    const db_table *tr = &s->tables[db_table_index(s, "reviews")];
    assert_int_equal(tr->nfkeys, 1); /* the composite foreign key */
    assert_int_equal(tr->fkeys[0].ref_table, b);
    assert_int_equal(tr->fkeys[0].ref_cols[1], 1);
    assert_int_equal(tr->cols[3].date, DB_DATE_DATETIME); /* timestamptz: the text before its zone */
    assert_non_null(strstr(pg, "ON DELETE CASCADE DEFERRABLE"));
    /* the PostgreSQL DDL recreates the tables in a fresh schema; fixture rows go in with their ctids */
    assert_non_null(strstr(pg, "\"price\" numeric(10,2)"));
    assert_non_null(strstr(pg, "DEFERRABLE INITIALLY DEFERRED"));
    pg_exec_ok(conn, "CREATE SCHEMA fresh; SET search_path = fresh");
    pg_exec_ok(conn, pg);
    pg_exec_ok(conn, "BEGIN");
    db_cell cells[9];
    memset(cells, 0, sizeof cells);
    cells[0].i = 7;
    cells[1].len = 4, cells[1].text = (const uint8_t *)"a'b\\";
    cells[2].len = 3, cells[2].text = (const uint8_t *)"xyz";
    cells[3].i = -5, cells[4].i = 1ll << 40, cells[5].i = 1;
    cells[6].i = (int64_t)db_scaled_bits(1205, 2); /* 12.05: written exactly */
    double ratio = 0.1;
    memcpy(&cells[7].i, &ratio, sizeof ratio); /* read back as the same double */
    cells[8].null = true;
    char *ins = db_pg_insert_sql(ta, cells, true);
    PGresult *r = PQexec(conn, ins);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_string_equal(PQgetvalue(r, 0, 0), "(0,1)");
    PQclear(r);
    free(ins);
    db_cell bc[5];
    memset(bc, 0, sizeof bc);
    bc[0].i = 1, bc[1].i = 2, bc[2].i = 7, bc[3].null = true, bc[4].null = true;
    ins = db_pg_insert_sql(tb, bc, false);
    pg_exec_ok(conn, ins);
    free(ins);
    pg_exec_ok(conn, "COMMIT");
    r = PQexec(conn, "SELECT name, ok, price, big, ratio FROM authors");
    assert_int_equal(PQntuples(r), 1);
    assert_string_equal(PQgetvalue(r, 0, 0), "a'b\\");
    assert_string_equal(PQgetvalue(r, 0, 1), "t");
    assert_string_equal(PQgetvalue(r, 0, 2), "12.05");
    assert_true(strtod(PQgetvalue(r, 0, 4), NULL) == 0.1);
    assert_string_equal(PQgetvalue(r, 0, 3), "1099511627776");
    PQclear(r);
    pg_exec_ok(conn, "SET search_path = public");
    db_schema_free(s);
    free(lite), free(pg);
}

/* A text cell of constants, for evaluating a CHECK on one value. */
static db_val text_val(expr_ctx *cx, const char *t, expr **bytes)
{
    db_val v = {true, expr_const(cx, 0, 1), NULL, expr_const(cx, strlen(t), 8), 8, bytes, false,
                NULL, DB_DATE_NONE,         NULL};
    for (unsigned i = 0; i < 8; i++) bytes[i] = expr_const(cx, i < strlen(t) ? (uint8_t)t[i] : 0, 8);
    return v;
}

/* CHECK constraints from the catalog (pg_get_constraintdef: casts, = ANY (ARRAY[...]), ~~) go
 * through the same parser and translation as SQLite's; a function is named as not modelled. */
static void test_checks(void **st)
{
    (void)st;
    pg_exec_ok(conn, "CREATE SCHEMA chk; SET search_path = chk");
    pg_exec_ok(conn, "CREATE TABLE acc(id int PRIMARY KEY, role varchar(10) NOT NULL CHECK (role IN ('user', 'admin', "
                     "'auditor')), inventory int CHECK (inventory >= 0), lo int, hi int, name text CHECK (length(name) "
                     "BETWEEN 1 AND 6), sku text CHECK (sku LIKE 'SK%' AND sku NOT IN ('SKx')), CHECK (lo <= hi), "
                     "CHECK (mod(lo, 7) < 100))");
    char *lite = NULL, *pg = NULL, *err = NULL;
    assert_int_equal(db_pg_read_schema(conn, &lite, &pg, &err), 0);
    pg_exec_ok(conn, "SET search_path = public");
    db_schema *s = NULL;
    if (db_schema_from_ddl(lite, &s, &err)) fail_msg("%s: %s", lite, err);
    const db_table *t = &s->tables[0];
    assert_int_equal(t->nchecks, 6);
    int modelled = 0, role = -1, sku = -1;
    for (int i = 0; i < t->nchecks; i++) {
        modelled += t->checks[i].q != NULL;
        if (strstr(t->checks[i].text, "role")) role = i;
        if (strstr(t->checks[i].text, "sku")) sku = i;
    }
    if (modelled != 5) fail_msg("%d of 6 CHECKs modelled: %s", modelled, lite);
    assert_int_equal(s->nignored, 1);
    assert_non_null(strstr(s->ignored[0], "function mod()"));
    assert_true(role >= 0 && sku >= 0);
    expr_ctx *cx = expr_ctx_new();
    expr *b[7][8];
    db_val row[7];
    for (int c = 0; c < 7; c++) row[c] = text_val(cx, "", b[c]);
    for (int c = 2; c < 5; c++) /* inventory, lo, hi */
        row[c] = (db_val){false, expr_const(cx, 0, 1), expr_const(cx, 1, 64), NULL, 0, NULL, false, NULL, DB_DATE_NONE,
                          NULL};
    row[0] = row[2];
    static const struct {
        const char *role;
        int ok;
    } roles[] = {{"admin", 1}, {"auditor", 1}, {"user", 1}, {"root", 0}, {"Admin", 0}};
    const char *why;
    for (size_t i = 0; i < sizeof roles / sizeof *roles; i++) {
        row[1] = text_val(cx, roles[i].role, b[1]);
        expr *e = db_check_expr(cx, &t->checks[role], row, &why);
        if (!e) fail_msg("CHECK (%s): %s", t->checks[role].text, why);
        assert_int_equal(e->op, EXPR_CONST);
        assert_int_equal(e->value, roles[i].ok);
    }
    static const struct {
        const char *sku;
        int ok;
    } skus[] = {{"SK1", 1}, {"sk1", 0}, {"SKx", 0}, {"S", 0}};
    for (size_t i = 0; i < sizeof skus / sizeof *skus; i++) {
        row[6] = text_val(cx, skus[i].sku, b[6]);
        expr *e = db_check_expr(cx, &t->checks[sku], row, &why);
        assert_non_null(e);
        assert_int_equal(e->value, skus[i].ok); /* LIKE is exact on PostgreSQL */
    }
    expr_ctx_free(cx);
    db_schema_free(s);
    free(lite), free(pg);
}

/* Column defaults: literals for the model (SQLite's spelling), the rest named as not modelled; on the runs' tables a
 * serial or identity column is an identity BY DEFAULT and other defaults are set as they are, so an INSERT that
 * omits them works there as on the user's server. */
static void test_defaults(void **st)
{
    (void)st;
    pg_exec_ok(conn, "CREATE SCHEMA dflt; SET search_path = dflt");
    pg_exec_ok(conn, "CREATE TABLE orders(id serial PRIMARY KEY, status text NOT NULL DEFAULT 'open', qty int "
                     "DEFAULT 1, paid boolean NOT NULL DEFAULT false, at timestamptz DEFAULT now(), code int "
                     "GENERATED ALWAYS AS IDENTITY)");
    char *lite = NULL, *pg = NULL, *err = NULL;
    assert_int_equal(db_pg_read_schema(conn, &lite, &pg, &err), 0);
    pg_exec_ok(conn, "SET search_path = public");
    assert_non_null(strstr(lite, "\"id\" INT NOT NULL DEFAULT (sympath_pg_default())"));
    assert_non_null(strstr(lite, "\"status\" TEXT NOT NULL DEFAULT 'open'"));
    assert_non_null(strstr(lite, "\"qty\" INT DEFAULT 1"));
    assert_non_null(strstr(lite, "\"paid\" BOOLEAN INT NOT NULL DEFAULT 0"));
    assert_non_null(strstr(lite, "\"at\" TIMESTAMP DEFAULT (sympath_pg_default())"));
    assert_non_null(strstr(lite, "\"code\" INT NOT NULL DEFAULT (sympath_pg_default())"));
    const char *opt = strstr(pg, DB_PG_OPTIONAL_MARK);
    assert_non_null(opt);
    assert_non_null(strstr(opt, "ALTER TABLE \"orders\" ALTER COLUMN \"id\" ADD GENERATED BY DEFAULT AS IDENTITY;"));
    assert_non_null(strstr(opt, "ALTER TABLE \"orders\" ALTER COLUMN \"code\" ADD GENERATED BY DEFAULT AS IDENTITY;"));
    assert_non_null(strstr(opt, "ALTER COLUMN \"at\" SET DEFAULT now();"));
    /* the model: literal defaults modelled, the others not */
    db_schema *s = NULL;
    if (db_schema_from_ddl(lite, &s, &err)) fail_msg("%s: %s", lite, err);
    const db_table *t = &s->tables[0];
    assert_null(t->cols[0].dflt_q);
    assert_non_null(t->cols[1].dflt_q);
    assert_non_null(t->cols[2].dflt_q);
    assert_non_null(t->cols[3].dflt_q);
    assert_null(t->cols[4].dflt_q);
    db_schema_free(s);
    /* the runs' tables: the DDL, then each optional statement; a fixture row with its key given, then the
     * program's INSERT without it */
    pg_exec_ok(conn, "CREATE SCHEMA dflt_run; SET search_path = dflt_run");
    char *body = strndup(pg, (size_t)(opt - pg));
    pg_exec_ok(conn, body);
    free(body);
    char *lines = strdup(opt + strlen(DB_PG_OPTIONAL_MARK));
    for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n")) pg_exec_ok(conn, line);
    free(lines);
    pg_exec_ok(conn, "INSERT INTO orders(id, status, qty, paid, code) VALUES (7, 'done', 2, true, 7)");
    pg_exec_ok(conn, "SELECT setval(pg_get_serial_sequence('orders', 'id'), 8, false)");
    pg_exec_ok(conn, "INSERT INTO orders(qty) VALUES (3)");
    PGresult *r = PQexec(conn, "SELECT id, status, paid, at IS NOT NULL FROM orders WHERE qty = 3");
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_int_equal(PQntuples(r), 1);
    assert_string_equal(PQgetvalue(r, 0, 0), "8");
    assert_string_equal(PQgetvalue(r, 0, 1), "open");
    assert_string_equal(PQgetvalue(r, 0, 2), "f");
    assert_string_equal(PQgetvalue(r, 0, 3), "t");
    PQclear(r);
    pg_exec_ok(conn, "SET search_path = public");
    free(lite), free(pg);
}

static void test_no_tables(void **st)
{
    (void)st;
    pg_exec_ok(conn, "CREATE SCHEMA empty; SET search_path = empty");
    char *lite = NULL, *pg = NULL, *err = NULL;
    assert_int_equal(db_pg_read_schema(conn, &lite, &pg, &err), -1);
    assert_non_null(strstr(err, "no tables in schema empty"));
    free(err);
    pg_exec_ok(conn, "SET search_path = public");
}

/* COUNT(DISTINCT x) (DB_AGG_COUNT_DISTINCT, translate.c) of an integer and a text column, and trim()/ltrim()/rtrim()/
 * btrim(), against PostgreSQL on random rows with repeated values, NULLs, spaces and empty texts. */
static void test_count_distinct(void **st)
{
    (void)st;
    enum { R = 4, PER = 5 }; /* per row: a null, a, b, s null, s length + 2 bytes as 3 symbols */
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl("CREATE TABLE cd (a INT, b INT NOT NULL, s TEXT);", &s, &err), 0);
    const char *sql = "SELECT count(DISTINCT a), count(DISTINCT s) FROM cd WHERE b > 0";
    db_query *q = NULL;
    assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
    assert_true(q->understood);
    q->like_exact = true;
    expr_ctx *cx = expr_ctx_new();
    db_val cells[R][3];
    expr *bytes[R][2], *sel[R];
    for (int r = 0; r < R; r++) {
        uint32_t base = (uint32_t)r * (PER + 2);
        memset(cells[r], 0, sizeof cells[r]);
        cells[r][0].null = expr_symbol(cx, base, 1, 0);
        cells[r][0].v = expr_symbol(cx, base + 1, 64, 0);
        cells[r][1].null = expr_const(cx, 0, 1);
        cells[r][1].v = expr_symbol(cx, base + 2, 64, 0);
        cells[r][2].is_text = true;
        cells[r][2].null = expr_symbol(cx, base + 3, 1, 0);
        cells[r][2].len = expr_symbol(cx, base + 4, 8, 0);
        cells[r][2].nbytes = 2;
        cells[r][2].bytes = bytes[r];
        for (int i = 0; i < 2; i++) bytes[r][i] = expr_symbol(cx, base + 5 + (uint32_t)i, 8, 0);
        const db_val *rows[1] = {cells[r]};
        const char *why = NULL;
        assert_non_null(sel[r] = db_where_expr(cx, q, rows, NULL, 0, &why));
    }
    /* trim(s) is btrim(s) in PostgreSQL's grammar: rows it keeps, counted */
    const char *tsql =
        "SELECT count(*) FROM cd WHERE trim(s) = 'a' OR ltrim(s, ' a') = rtrim(s) OR btrim(s, 'b') = ' '";
    db_query *tq = NULL;
    assert_int_equal(db_query_parse(s, tsql, strlen(tsql), &tq, &err), 0);
    assert_true(tq->understood);
    tq->like_exact = true;
    expr *tcount = expr_const(cx, 0, 64);
    for (int r = 0; r < R; r++) {
        const db_val *rows[1] = {cells[r]};
        const char *why = NULL;
        expr *w = db_where_expr(cx, tq, rows, NULL, 0, &why);
        assert_non_null(w);
        tcount = expr_binary(cx, EXPR_ADD, tcount, expr_zext(cx, w, 64));
    }
    db_val agg[2];
    for (int i = 0; i < 2; i++) {
        const db_val *vals[R];
        for (int r = 0; r < R; r++) vals[r] = &cells[r][i ? 2 : 0];
        const char *why = NULL;
        assert_int_equal(db_aggregate(cx, DB_AGG_COUNT_DISTINCT, R, sel, vals, &agg[i], NULL, &why), 0);
    }
    pg_exec_ok(conn, "CREATE SCHEMA cdist; SET search_path = cdist; CREATE TABLE cd (a int, b int NOT NULL, s text)");
    srand(3);
    for (int iter = 0; iter < 100; iter++) {
        uint64_t in[R * (PER + 2)] = {0};
        char ins[512] = "DELETE FROM cd; INSERT INTO cd VALUES ";
        for (int r = 0; r < R; r++) {
            uint64_t *v = in + r * (PER + 2);
            v[0] = rand() % 4 == 0;
            v[1] = v[0] ? 0 : (uint64_t)(int64_t)(rand() % 3 - 1);
            v[2] = (uint64_t)(int64_t)(rand() % 4 - 1);
            v[3] = rand() % 4 == 0;
            char txt[3] = {0};
            int len = v[3] ? 0 : rand() % 3;
            for (int i = 0; i < len; i++) txt[i] = "ab "[rand() % 3];
            v[4] = (uint64_t)len;
            for (int i = 0; i < len; i++) v[5 + i] = (uint8_t)txt[i];
            char row[64], a[24], t[16];
            snprintf(a, sizeof a, "%lld", (long long)(int64_t)v[1]);
            snprintf(t, sizeof t, "'%s'", txt);
            snprintf(row, sizeof row, "%s(%s, %lld, %s)", r ? ", " : "", v[0] ? "NULL" : a, (long long)(int64_t)v[2],
                     v[3] ? "NULL" : t);
            strcat(ins, row);
        }
        pg_exec_ok(conn, ins);
        PGresult *res = PQexec(conn, sql);
        assert_int_equal(PQresultStatus(res), PGRES_TUPLES_OK);
        for (int i = 0; i < 2; i++) {
            long long want = atoll(PQgetvalue(res, 0, i));
            long long got = (long long)expr_eval(agg[i].v, in, sizeof in / sizeof *in);
            if (got != want) fail_msg("count(DISTINCT) %d: PostgreSQL %lld, the model %lld (%s)", i, want, got, ins);
        }
        PQclear(res);
        res = PQexec(conn, tsql);
        assert_int_equal(PQresultStatus(res), PGRES_TUPLES_OK);
        long long want = atoll(PQgetvalue(res, 0, 0)), got = (long long)expr_eval(tcount, in, sizeof in / sizeof *in);
        if (got != want) fail_msg("trim: PostgreSQL %lld rows, the model %lld (%s)", want, got, ins);
        PQclear(res);
    }
    db_query_free(tq);
    pg_exec_ok(conn, "SET search_path = public");
    expr_ctx_free(cx);
    db_query_free(q);
    db_schema_free(s);
}

/* A random valid date text 'YYYY-MM-DD' into buf (years around the leap-year rules). */
static void random_date(char *buf)
{
    static const int years[] = {1000, 1900, 1999, 2000, 2023, 2024, 2100, 9999};
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y = years[rand() % 8], m = rand() % 12 + 1;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int d = rand() % (mdays[m - 1] + (m == 2 && leap)) + 1;
    snprintf(buf, 16, "%04d-%02d-%02d", y % 10000, m % 100, d % 100);
}

/* PostgreSQL's date - date, date +- integer, EXTRACT/date_part and date_trunc of DATE and TIMESTAMP
 * columns (DBF_DAYS, DBF_DATE_ADD, DBF_DATE_PART, DBF_STRFTIME: date.c) against the server (in UTC, as the runs' sessions): which random
 * rows each WHERE clause keeps. */
static void test_date_operators(void **st)
{
    (void)st;
    static const char *where[] = {
        "d - e > 7",
        "e - d BETWEEN -40 AND 40",
        "d - '2000-03-01' < 0",
        "EXTRACT(YEAR FROM d) = 2024 OR date_part('month', e) = 2",
        "EXTRACT(day FROM ts) = 29 OR EXTRACT(hour FROM ts) >= 12",
        "EXTRACT(MINUTE FROM ts) < 30 AND date_part('day', d) > 15",
        "EXTRACT(DOW FROM d) IN (0, 6) OR date_part('dow', ts) = 3",
        "ts::date = d OR CAST(ts AS date) > '2024-02-28'",
        "ts - d > interval '36 hours' OR interval '1 day 2 hours' >= e - ts",
        "ts - d < INTERVAL '90 minutes' OR e - ts <> interval '3 days'",
        "date_trunc('month', d) = date_trunc('month', e)",
        "date_trunc('hour', ts) >= '2024-01-01 12:00:00' AND date_trunc('minute', ts) <> ts",
        "date_trunc('year', ts) < '2000-01-01 00:00:00' OR date_trunc('day', d) = date_trunc('day', ts)",
        "ts >= '2024-01-01' AND ts < '2100-07-01' OR date_trunc('day', ts) = '2000-02-29'", /* dates at midnight */
        "d < '9999-01-01' AND d + 7 > e",                   /* date + integer (DBF_DATE_ADD) */
        "d + 400 > DATE '9999-06-30' OR e + 300 < d - 200", /* past the year 9999: PostgreSQL's five-digit years */
        "d + 400 = DATE '9999-12-31' + 36 OR e - 10 + 500 >= d + 480",
        "e - 30 <= d OR 2 * 7 + d = '2024-03-01'",
        "(d - 1) - e = 0 OR e - 366 = DATE '1999-03-01'",
    };
    enum { PER = 1 + 2 + 10 + 2 + 10 + 2 + 19 }; /* count, then each cell's null, length, bytes */
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl("CREATE TABLE dd (d DATE NOT NULL, e DATE, ts TIMESTAMP);", &s, &err), 0);
    expr_ctx *cx = expr_ctx_new();
    db_val cells[3] = {{0}};
    expr *bytes[3][19];
    static const unsigned nb[3] = {10, 10, 19};
    uint32_t idx = 1;
    for (int c = 0; c < 3; c++) {
        cells[c].is_text = true;
        cells[c].valid_date = c < 2 ? DB_DATE_DATE : DB_DATE_DATETIME; /* as fixture cells: the rows are valid */
        cells[c].null = expr_symbol(cx, idx++, 1, 0);
        cells[c].len = expr_symbol(cx, idx++, 8, 0);
        cells[c].nbytes = nb[c];
        cells[c].bytes = bytes[c];
        for (unsigned i = 0; i < nb[c]; i++) bytes[c][i] = expr_symbol(cx, idx++, 8, 0);
    }
    assert_int_equal(idx, PER);
    pg_exec_ok(conn, "CREATE SCHEMA dates; SET search_path = dates; SET TimeZone = 'UTC'; "
                     "CREATE TABLE dd (d date NOT NULL, e date, ts timestamp)");
    srand(13);
    for (size_t qi = 0; qi < sizeof where / sizeof *where; qi++) {
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM dd WHERE %s", where[qi]);
        db_query *q = NULL;
        assert_int_equal(db_query_parse(s, sql, strlen(sql), &q, &err), 0);
        if (!q->understood) fail_msg("not understood: %s (%s)", sql, q->nunsupported ? q->unsupported[0] : "?");
        assert_true(q->pg_dates);
        q->like_exact = true;
        const db_val *rows[1] = {cells};
        const char *why = NULL;
        expr *w = db_where_expr(cx, q, rows, NULL, 0, &why);
        if (!w) fail_msg("%s: %s", sql, why);
        for (int iter = 0; iter < 60; iter++) {
            char d[16], e[16], ts[32];
            random_date(d), random_date(e), random_date(ts);
            snprintf(ts + 10, 22, " %02d:%02d:%02d", rand() % 24, rand() % 60, rand() % 60);
            bool enull = rand() % 5 == 0, tnull = rand() % 5 == 0;
            uint64_t in[PER] = {1};
            const char *txt[3] = {d, enull ? NULL : e, tnull ? NULL : ts};
            for (int c = 0, at = 1; c < 3; at += 2 + (int)nb[c], c++) {
                in[at] = !txt[c];
                in[at + 1] = txt[c] ? strlen(txt[c]) : 0;
                for (unsigned i = 0; txt[c] && i < nb[c]; i++) in[at + 2 + i] = (uint8_t)txt[c][i];
            }
            char ins[200];
            snprintf(ins, sizeof ins, "DELETE FROM dd; INSERT INTO dd VALUES ('%s', %s%s%s, %s%s%s)", d,
                     enull ? "" : "'", enull ? "NULL" : e, enull ? "" : "'", tnull ? "" : "'", tnull ? "NULL" : ts,
                     tnull ? "" : "'");
            pg_exec_ok(conn, ins);
            PGresult *res = PQexec(conn, sql);
            assert_int_equal(PQresultStatus(res), PGRES_TUPLES_OK);
            long long want = atoll(PQgetvalue(res, 0, 0));
            PQclear(res);
            if ((long long)expr_eval(w, in, PER) != want)
                fail_msg("%s on (%s, %s, %s): PostgreSQL %lld, the model %lld", sql, d, txt[1] ? e : "NULL",
                         txt[2] ? ts : "NULL", want, 1 - want);
        }
        db_query_free(q);
    }
    pg_exec_ok(conn, "SET search_path = public");
    expr_ctx_free(cx);
    db_schema_free(s);
}

int main(void)
{
    int rc = pg_start();
    if (rc) return rc;
    conn = PQconnectdb(pg_conninfo);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "cannot connect: %s", PQerrorMessage(conn));
        return 1;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_read_schema),    cmocka_unit_test(test_checks),
                                       cmocka_unit_test(test_no_tables),      cmocka_unit_test(test_count_distinct),
                                       cmocka_unit_test(test_date_operators), cmocka_unit_test(test_defaults)};
    make_tables();
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    PQfinish(conn);
    return rc;
}
