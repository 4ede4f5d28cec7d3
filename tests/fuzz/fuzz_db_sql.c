/* fuzz_db_sql.c (links sympath_db): SQL text through parameter rewriting, libpg_query parsing, name resolution and translation into expressions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"

/*
 * The input is one statement as a program passes it to sqlite3_prepare, against a
 * fixed schema (the tables of tests/db and of test_db_sql). Whatever parses is taken
 * through what the runtime does with a query: the rowid-extended SELECT text, the
 * WHERE clause over one symbolic row per FROM item (SQLite's and PostgreSQL's LIKE),
 * the ORDER BY comparison, aggregates over two row combinations, and the values of an
 * INSERT's VALUES row and an UPDATE's SET list. Every built expression is evaluated
 * once (all inputs 0) to check that it is well formed.
 */
static const char SCHEMA[] =
    "CREATE TABLE t (a INTEGER, b INTEGER NOT NULL, s TEXT, u TEXT UNIQUE);\n"
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, role TEXT NOT NULL, age INTEGER);\n"
    "CREATE TABLE orders (oid INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), amount INTEGER NOT "
    "NULL);\n"
    "CREATE TABLE books (isbn INTEGER PRIMARY KEY, title TEXT, publisher TEXT NOT NULL, subject TEXT, price REAL, note "
    "BLOB);\n";

#define TEXT_BYTES 4
#define MAX_PARAMS 64

static db_schema *schema;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char *err = NULL;
    if (db_schema_from_ddl(SCHEMA, &schema, &err) != 0) {
        fprintf(stderr, "fuzz_db_sql: %s\n", err);
        abort();
    }
    return 0;
}

static void check(const expr *e)
{
    static const uint64_t zeros[1];
    if (e) (void)expr_eval(e, zeros, 0);
}

/* Symbolic values for n cells (columns of table t, or parameters when t is NULL). */
static void make_vals(expr_ctx *cx, const db_table *t, int n, db_val *v, expr **bytes, uint32_t *sym)
{
    for (int c = 0; c < n; c++) {
        memset(&v[c], 0, sizeof v[c]);
        v[c].null = expr_symbol(cx, (*sym)++, 1, 0);
        if (t ? db_column_is_text(&t->cols[c]) : c % 2 == 1) {
            v[c].is_text = true;
            v[c].len = expr_symbol(cx, (*sym)++, 8, 0);
            v[c].nbytes = TEXT_BYTES;
            v[c].bytes = bytes + (size_t)c * TEXT_BYTES;
            for (int i = 0; i < TEXT_BYTES; i++) v[c].bytes[i] = expr_symbol(cx, (*sym)++, 8, 0);
        } else {
            v[c].v = expr_symbol(cx, (*sym)++, 64, 0);
        }
    }
}

static void translate(expr_ctx *cx, db_query *q)
{
    /* two rows per FROM item (a and b), and the parameters */
    db_val *cells[2][DB_MAX_FROM];
    expr **bytes[2][DB_MAX_FROM];
    const db_val *rows_a[DB_MAX_FROM], *rows_b[DB_MAX_FROM];
    uint32_t sym = 0;
    for (int r = 0; r < 2; r++)
        for (int f = 0; f < q->nfrom; f++) {
            const db_table *t = &schema->tables[q->from_table[f]];
            cells[r][f] = calloc((size_t)t->ncols, sizeof(db_val));
            bytes[r][f] = calloc((size_t)t->ncols * TEXT_BYTES, sizeof(expr *));
            make_vals(cx, t, t->ncols, cells[r][f], bytes[r][f], &sym);
            (r ? rows_b : rows_a)[f] = cells[r][f];
        }
    db_val params[MAX_PARAMS];
    expr *pbytes[MAX_PARAMS * TEXT_BYTES];
    make_vals(cx, NULL, q->nparams, params, pbytes, &sym);

    const char *why = NULL;
    expr *sel[2];
    sel[0] = db_where_expr(cx, q, rows_a, params, q->nparams, &why);
    sel[1] = db_where_expr(cx, q, rows_b, params, q->nparams, &why);
    check(sel[0]);
    check(sel[1]);
    check(db_order_le(cx, q, rows_a, rows_b));
    if (q->kind == DBQ_SELECT && q->aggregate && sel[0] && sel[1]) {
        for (int i = 0; i < q->nresult; i++) {
            if (q->result_agg[i] == DB_AGG_EXPR) continue; /* an expression with aggregates: db_group_value */
            int f = q->result_from[i], c = q->result_col[i];
            const db_val *vals[2] = {c >= 0 ? &cells[0][f][c] : NULL, c >= 0 ? &cells[1][f][c] : NULL};
            db_val out;
            expr *overflow = NULL;
            if (db_aggregate(cx, q->result_agg[i], 2, sel, c >= 0 ? vals : NULL, &out, &overflow, &why) == 0) {
                check(out.null);
                check(out.v);
                check(overflow);
            }
        }
    }
    for (int i = 0; i < q->ninsert; i++) {
        db_val out;
        if (db_value_expr(cx, q, q->insert_val[i], NULL, params, q->nparams, &out, &why) == 0)
            check(out.is_text ? out.len : out.v);
    }
    for (int i = 0; i < q->nset; i++) {
        db_val out;
        if (db_value_expr(cx, q, q->set_val[i], rows_a, params, q->nparams, &out, &why) == 0)
            check(out.is_text ? out.len : out.v);
    }
    for (int r = 0; r < 2; r++)
        for (int f = 0; f < q->nfrom; f++) {
            free(cells[r][f]);
            free(bytes[r][f]);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *sql = (const char *)data;
    int n = 0;
    char *pg = db_sql_params_to_pg(sql, size, &n);
    free(pg);
    db_query *q = NULL;
    char *err = NULL;
    if (db_query_parse(schema, sql, size, &q, &err) != 0) {
        if (!err) abort(); /* a failure comes with its message */
        free(err);
        return 0;
    }
    if (q->understood && q->kind == DBQ_SELECT) {
        free(db_query_with_rowid(q, sql, size));
        free(db_query_with_hidden(q, sql, size, "ctid"));
    }
    if (q->understood && q->nparams <= MAX_PARAMS) {
        expr_ctx *cx = expr_ctx_new();
        q->like_exact = false;
        translate(cx, q);
        q->like_exact = true;
        translate(cx, q);
        expr_ctx_free(cx);
    }
    db_query_free(q);
    return 0;
}
