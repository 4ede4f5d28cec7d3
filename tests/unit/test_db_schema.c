/* test_db_schema.c: schema loading (DDL, read-only database files, errors), fixture layout and INSERT text, slot constraints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"

static const char *DDL =
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, age INT);\n"
    "CREATE TABLE orders (oid INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),\n"
    "                     amount REAL, note, code NUMERIC, CHECK (amount >= 0));\n"
    "CREATE TABLE pairs (x TEXT, y TEXT, PRIMARY KEY (x, y)) WITHOUT ROWID;\n";

static void test_from_ddl(void **state)
{
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl(DDL, &s, &err), 0);
    assert_int_equal(s->ntables, 3);
    const db_table *u = &s->tables[0], *o = &s->tables[1], *p = &s->tables[2];
    assert_string_equal(u->name, "users");
    assert_int_equal(u->ncols, 3);
    assert_int_equal(u->rowid_alias, 0);
    assert_int_equal(u->cols[0].aff, DB_AFF_INTEGER);
    assert_int_equal(u->cols[1].aff, DB_AFF_TEXT);
    assert_true(u->cols[1].notnull);
    assert_false(u->cols[2].notnull);
    assert_true(u->cols[0].notnull); /* primary key */
    /* keys: the primary key and UNIQUE(name) */
    assert_int_equal(u->nkeys, 2);
    assert_int_equal(u->keys[0].ncols, 1);
    assert_int_equal(u->keys[0].cols[0], 0);
    assert_int_equal(u->keys[1].cols[0], 1);
    assert_int_equal(o->cols[1].fk_table, 0);
    assert_int_equal(o->cols[1].fk_column, 0);
    assert_int_equal(o->cols[2].aff, DB_AFF_REAL);
    assert_int_equal(o->cols[3].aff, DB_AFF_BLOB);
    assert_int_equal(o->cols[4].aff, DB_AFF_NUMERIC);
    assert_true(p->without_rowid);
    assert_int_equal(p->rowid_alias, -1);
    assert_int_equal(p->keys[0].ncols, 2);
    assert_int_equal(s->nignored, 0); /* the CHECK constraint is modelled (check.c) */
    assert_int_equal(o->nchecks, 1);
    assert_non_null(o->checks[0].q);
    assert_string_equal(o->checks[0].text, "amount >= 0");
    assert_int_equal(db_table_index(s, "ORDERS"), 1);
    assert_int_equal(db_column_index(o, "Amount"), 2);
    db_schema_free(s);
}

static void test_errors(void **state)
{
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl("CREATE TABLE a (x INT);\n\nCREATE TABLE b (y INT,, z);\n", &s, &err), -1);
    assert_null(s);
    assert_non_null(strstr(err, "line 3"));
    assert_non_null(strstr(err, "syntax error"));
    free(err);
    assert_int_equal(db_schema_from_ddl("-- nothing\n", &s, &err), -1);
    assert_non_null(strstr(err, "no table"));
    free(err);
    assert_int_equal(db_schema_load("/nonexistent/schema.sql", &s, &err), -1);
    assert_non_null(strstr(err, "/nonexistent/schema.sql"));
    free(err);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 20);
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* An existing database file: its schema is read, its bytes never change. */
static void test_database_file_read_only(void **state)
{
    char path[] = "/tmp/sympath-test-db-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "INSERT INTO users VALUES (1, 'ann', 30)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    size_t n1, n2;
    char *before = slurp(path, &n1);
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_load(path, &s, &err), 0);
    assert_int_equal(s->ntables, 3);
    assert_non_null(strstr(s->ddl, "CREATE TABLE orders"));
    assert_null(strstr(s->ddl, "ann")); /* the schema, not the data */
    char *after = slurp(path, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(before), free(after);
    db_schema_free(s);
    unlink(path);
}

static void test_fixture_layout_and_sql(void **state)
{
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl(DDL, &s, &err), 0);
    db_limits l = {2, 4};
    /* users: 1 + 2 * (2 + (2 + 4) + 2); orders: 1 + 2 * (2 + 2 + 2 + 6 + 2); pairs: 1 + 2 * 12 */
    assert_int_equal(db_table_ninputs(&s->tables[0], &l), 21);
    assert_int_equal(db_table_ninputs(&s->tables[1], &l), 29);
    assert_int_equal(db_fixture_ninputs(s, &l), 21 + 29 + 25 + 1); /* + db:fault */
    uint64_t v[3 + 76] = {0};                                      /* the last: db:fault 0 */
    size_t start = 3;                                              /* three program inputs before the fixture */
    uint64_t *u = v + start;
    u[0] = 1;           /* one user */
    u[1] = 0, u[2] = 7; /* id 7 */
    u[3] = 0, u[4] = 3; /* name "O'B" */
    u[5] = 'O', u[6] = '\'', u[7] = 'B';
    u[9] = 1; /* age NULL */
    uint64_t *o = u + 21;
    o[0] = 5;                                      /* clamped to 2 rows */
    o[2] = 1, o[4] = 7, o[6] = 0x4028000000000000; /* oid 1, user 7, amount 12.0 (REAL: a double's bits) */
    o[7] = 0, o[8] = 2, o[9] = 0x01, o[10] = 'x';  /* note: a non-printable byte */
    o[16] = 2, o[18] = 7;                          /* second order: oid 2, user 7, amount 0, note empty */
    char *sql = db_fixture_sql(s, &l, v, sizeof v / sizeof *v, start);
    assert_non_null(sql);
    const char *want =
        "-- fixture written by sympath: load after the schema\n"
        "INSERT INTO \"users\"(\"id\", \"name\", \"age\") VALUES(7, 'O''B', NULL);\n"
        "INSERT INTO \"orders\"(\"oid\", \"user_id\", \"amount\", \"note\", \"code\") VALUES(1, 7, 12.0, CAST(X'0178' "
        "AS TEXT), 0);\n"
        "INSERT INTO \"orders\"(\"oid\", \"user_id\", \"amount\", \"note\", \"code\") VALUES(2, 7, 0.0, '', 0);\n";
    assert_string_equal(sql, want);
    /* laid out for 4 slots of 6-byte texts (the exploration's grown layout): the same fixture, the inputs after it
     * moved; the count of 5 was read as 2 */
    db_limits big = {4, 6};
    size_t nbig = db_fixture_ninputs(s, &big);
    assert_int_equal(nbig, (1 + 4 * 12) + (1 + 4 * 16) + (1 + 4 * 16) + 1);
    uint64_t *w = calloc(start + nbig + 1, sizeof *w);
    assert_non_null(w);
    memcpy(w, v, start * sizeof *w);
    assert_int_equal(db_fixture_relayout(s, &l, u, &big, w + start), nbig);
    assert_int_equal(w[start + 49], 2); /* orders' count */
    char *sql2 = db_fixture_sql(s, &big, w, start + nbig, start);
    assert_non_null(sql2);
    assert_string_equal(sql2, want);
    free(sql2);
    free(w);
    /* SQLite takes it */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    free(sql);
    db_schema_free(s);
}

/* Slot constraints under concrete assignments: NOT NULL, UNIQUE, increasing INTEGER
 * PRIMARY KEY, FOREIGN KEY, text shape. */
/* A schema's fixture as symbols, in test-vector order (per table a count, then per slot and column a NULL flag
 * and the value: 64 bits, or a length and l.text bytes), for db_slot_constraints. */
typedef struct sym_fixture {
    db_limits l;
    expr_ctx *cx;
    int ntables;
    expr *counts[4];
    db_val *cells[4];
    expr *bytes[64];
} sym_fixture;

static void sym_fixture_init(sym_fixture *f, const db_schema *s)
{
    f->l = (db_limits){2, 3};
    f->cx = expr_ctx_new();
    f->ntables = s->ntables;
    size_t nb = 0;
    uint32_t sym = 0;
    for (int t = 0; t < s->ntables; t++) {
        const db_table *tb = &s->tables[t];
        f->counts[t] = expr_symbol(f->cx, sym++, 8, 0);
        f->cells[t] = calloc((size_t)f->l.rows * tb->ncols, sizeof **f->cells);
        for (unsigned k = 0; k < f->l.rows; k++)
            for (int c = 0; c < tb->ncols; c++) {
                db_val *v = &f->cells[t][k * tb->ncols + c];
                v->null = expr_symbol(f->cx, sym++, 1, 0);
                if (db_column_is_text(&tb->cols[c])) {
                    v->is_text = true;
                    v->len = expr_symbol(f->cx, sym++, 8, 0);
                    v->nbytes = f->l.text;
                    v->bytes = f->bytes + nb;
                    for (unsigned i = 0; i < f->l.text; i++) f->bytes[nb++] = expr_symbol(f->cx, sym++, 8, 0);
                } else {
                    v->v = expr_symbol(f->cx, sym++, 64, 0);
                }
            }
    }
}

static void sym_fixture_free(sym_fixture *f)
{
    for (int t = 0; t < f->ntables; t++) free(f->cells[t]);
    expr_ctx_free(f->cx);
}

static void test_slot_constraints(void **state)
{
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl(DDL, &s, &err), 0);
    sym_fixture f;
    sym_fixture_init(&f, s);
    /* symbol indexes: users count 0; slot 0: id null 1, id 2, name null 3, len 4, bytes 5-7,
     * age null 8, age 9; slot 1: 10..18; orders count 19; slot 0: oid null 20, oid 21,
     * user null 22, user 23, ... */
    expr *u1 = db_slot_constraints(f.cx, s, &f.l, 0, 1, f.counts, f.cells);
    expr *o0 = db_slot_constraints(f.cx, s, &f.l, 1, 0, f.counts, f.cells);
    uint64_t in[200] = {0};
    in[0] = 2;
    in[2] = 1, in[4] = 1, in[5] = 'a';    /* user 1 "a" */
    in[11] = 2, in[13] = 1, in[14] = 'b'; /* user 2 "b" */
    assert_int_equal(expr_eval(u1, in, 200), 1);
    in[14] = 'a'; /* same name: UNIQUE violated */
    assert_int_equal(expr_eval(u1, in, 200), 0);
    in[14] = 'b', in[11] = 1; /* id not increasing */
    assert_int_equal(expr_eval(u1, in, 200), 0);
    in[11] = 2, in[12] = 1, in[13] = 0, in[14] = 0; /* name NULL: NOT NULL violated */
    assert_int_equal(expr_eval(u1, in, 200), 0);
    in[12] = 0, in[13] = 1, in[14] = 'b', in[15] = 'c'; /* byte past the length not 0 */
    assert_int_equal(expr_eval(u1, in, 200), 0);
    in[15] = 0, in[14] = 0x07; /* not printable */
    assert_int_equal(expr_eval(u1, in, 200), 0);
    in[14] = 'b';
    assert_int_equal(expr_eval(u1, in, 200), 1);
    in[0] = 1; /* slot 1 absent: no constraint */
    in[14] = 'a';
    assert_int_equal(expr_eval(u1, in, 200), 1);
    /* orders slot 0 references users.id */
    in[19] = 1, in[21] = 1, in[23] = 1; /* user_id 1 exists (users count 1, id 1) */
    assert_int_equal(expr_eval(o0, in, 200), 1);
    in[23] = 2; /* user 2 is in slot 1, absent */
    assert_int_equal(expr_eval(o0, in, 200), 0);
    in[0] = 2, in[14] = 'b'; /* now present */
    assert_int_equal(expr_eval(o0, in, 200), 1);
    sym_fixture_free(&f);
    db_schema_free(s);
}

/* A FOREIGN KEY of two columns (in another order than the parent's key, and one naming no column):
 * read as one key, and a child row needs a present parent row with both values equal unless a key
 * column is NULL. */
static void test_composite_foreign_key(void **state)
{
    (void)state;
    static const char *ddl = "CREATE TABLE parent (a INT, b INT, PRIMARY KEY (a, b));\n"
                             "CREATE TABLE child (id INTEGER PRIMARY KEY, x INT, y INT,\n"
                             "    FOREIGN KEY (y, x) REFERENCES parent (b, a) ON DELETE CASCADE,\n"
                             "    FOREIGN KEY (x, y) REFERENCES parent);\n";
    db_schema *s = NULL;
    char *err = NULL;
    assert_int_equal(db_schema_from_ddl(ddl, &s, &err), 0);
    assert_int_equal(s->nignored, 0);
    const db_table *c = &s->tables[1];
    assert_int_equal(c->nfkeys, 2);
    assert_int_equal(c->cols[1].fk_table, -1);               /* no single-column reference */
    assert_true(c->fkeys[0].cascade != c->fkeys[1].cascade); /* one is ON DELETE CASCADE */
    for (int k = 0; k < 2; k++) {
        const db_fkey *fk = &c->fkeys[k];
        assert_int_equal(fk->ncols, 2);
        assert_int_equal(fk->ref_table, 0);
        for (int i = 0; i < 2; i++) assert_int_equal(fk->ref_cols[i], fk->cols[i] - 1); /* x -> a, y -> b */
    }
    sym_fixture f;
    sym_fixture_init(&f, s);
    /* symbols: parent count 0; slot 0: a null 1, a 2, b null 3, b 4; slot 1: 5..8; child count 9;
     * slot 0: id null 10, id 11, x null 12, x 13, y null 14, y 15 */
    expr *c0 = db_slot_constraints(f.cx, s, &f.l, 1, 0, f.counts, f.cells);
    uint64_t in[32] = {0};
    in[0] = 2, in[2] = 1, in[4] = 2, in[6] = 3, in[8] = 4; /* parents (1, 2) and (3, 4) */
    in[9] = 1, in[11] = 1, in[13] = 3, in[15] = 4;         /* child (3, 4) */
    assert_int_equal(expr_eval(c0, in, 32), 1);
    in[15] = 2; /* (3, 2): each value has a parent, not the pair */
    assert_int_equal(expr_eval(c0, in, 32), 0);
    in[14] = 1, in[15] = 0; /* y NULL: exempt */
    assert_int_equal(expr_eval(c0, in, 32), 1);
    in[14] = 0, in[15] = 4, in[0] = 1; /* (3, 4) is in slot 1, absent */
    assert_int_equal(expr_eval(c0, in, 32), 0);
    sym_fixture_free(&f);
    db_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_ddl),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_database_file_read_only),
        cmocka_unit_test(test_fixture_layout_and_sql),
        cmocka_unit_test(test_slot_constraints),
        cmocka_unit_test(test_composite_foreign_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
