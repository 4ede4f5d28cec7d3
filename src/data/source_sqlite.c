/* source_sqlite.c: the user's SQLite file for `sympath data`: opened read-only; counts (SQLite has no estimates of its own); fixtures of the rows tests ran on. */
#define _GNU_SOURCE
#include "source_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "util/util.h"
#include "db/db.h"

typedef struct sq {
    sqlite3 *db;
} sq;

static char *msg(const char *what, sqlite3 *db)
{
    char *s = NULL;
    if (asprintf(&s, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory") < 0) return NULL;
    return s;
}

static void *sq_open(const char *path, char **err)
{
    FILE *f = fopen(path, "rb");
    char head[16] = {0};
    if (!f || fread(head, 1, 16, f) != 16 || memcmp(head, "SQLite format 3", 16)) {
        if (f) fclose(f);
        if (asprintf(err, "%s: %s", path, f ? "not an SQLite database file" : "cannot open the file") < 0) *err = NULL;
        return NULL;
    }
    fclose(f);
    sq *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    /* read-only twice over: the open flag, and query_only for anything that would write */
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_exec(s->db, "PRAGMA query_only=1", NULL, NULL, NULL) != SQLITE_OK) {
        *err = msg(path, s->db);
        sqlite3_close(s->db);
        free(s);
        return NULL;
    }
    return s;
}

/* Bind params[0..n) (SQL literals) to st: each literal is evaluated by SQLite itself
 * (SELECT <literal>) so that its type and value are exactly what the program bound. */
static int bind_all(sq *s, sqlite3_stmt *st, const char *const *params, int n)
{
    for (int i = 0; i < n && i < sqlite3_bind_parameter_count(st); i++) {
        char *q = NULL;
        sqlite3_stmt *v = NULL;
        if (asprintf(&q, "SELECT %s", params[i] ? params[i] : "NULL") < 0) return -1;
        int rc = sqlite3_prepare_v2(s->db, q, -1, &v, NULL);
        free(q);
        if (rc != SQLITE_OK || sqlite3_step(v) != SQLITE_ROW) {
            sqlite3_finalize(v);
            return -1;
        }
        rc = sqlite3_bind_value(st, i + 1, sqlite3_column_value(v, 0));
        sqlite3_finalize(v);
        if (rc != SQLITE_OK) return -1;
    }
    return 0;
}

/* One integer from `SELECT count(*) FROM (<sql>)`; -1 with *err. */
static int64_t count_of(sq *s, const char *sql, const char *const *params, int n, char **err)
{
    char *q = NULL;
    int r = asprintf(&q, "SELECT count(*) FROM (%s)", sql);
    if (r < 0) return -1;
    sqlite3_stmt *st = NULL;
    int64_t c = -1;
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK && !bind_all(s, st, params, n) &&
        sqlite3_step(st) == SQLITE_ROW)
        c = sqlite3_column_int64(st, 0);
    else
        *err = msg("count", s->db);
    sqlite3_finalize(st);
    free(q);
    return c;
}

static int64_t sq_count(void *h, const char *sql, const char *const *params, int nparams, char **err)
{
    return count_of(h, sql, params, nparams, err);
}

/* Append the malloc'ed text t (NULL: out of memory, b fails) to b and free it. */
static void take(strbuf *b, char *t)
{
    if (t)
        sb_puts(b, t);
    else
        b->failed = 1;
    free(t);
}

/* A value of the current row of st as an SQL literal. */
static void literal(strbuf *b, sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER: take(b, db_sql_int(sqlite3_column_int64(st, i))); break;
    case SQLITE_FLOAT: take(b, db_sql_double(sqlite3_column_double(st, i))); break;
    case SQLITE_TEXT:
        take(b, db_sql_text(false, (const char *)sqlite3_column_text(st, i), (size_t)sqlite3_column_bytes(st, i)));
        break;
    case SQLITE_BLOB: take(b, db_sql_blob(sqlite3_column_blob(st, i), (size_t)sqlite3_column_bytes(st, i))); break;
    default: sb_puts(b, "NULL");
    }
}

/* An identifier quoted for SQL. */
static void ident(strbuf *b, const char *name) { take(b, db_sql_ident(name)); }

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char *sq_fixture(void *h, const char *const *keys, size_t nkeys, char **err)
{
    sq *s = h;
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "-- the rows of the user's database this test ran on (sympath data)\n");
    /* sorted and deduplicated, so each table's rows come together and once */
    char **k = calloc(nkeys + 1, sizeof *k);
    if (!k) return NULL;
    for (size_t i = 0; i < nkeys; i++) k[i] = (char *)keys[i];
    qsort(k, nkeys, sizeof *k, cmp_str);
    char *whole = NULL; /* the last table given whole */
    for (size_t i = 0; i < nkeys; i++) {
        if (i && !strcmp(k[i], k[i - 1])) continue;
        const char *colon = strrchr(k[i], ':');
        if (!colon) continue;
        char *table = strndup(k[i], (size_t)(colon - k[i]));
        if (whole && !strcmp(whole, table)) { /* that table is in whole already ("t:*" sorts first) */
            free(table);
            continue;
        }
        if (!strcmp(colon + 1, "*")) {
            free(whole);
            whole = strdup(table);
        }
        strbuf q = STRBUF_INIT;
        sb_puts(&q, "SELECT rowid, * FROM ");
        ident(&q, table);
        if (strcmp(colon + 1, "*")) /* "<table>:*": every row */
            sb_printf(&q, " WHERE rowid = %lld", atoll(colon + 1));
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(s->db, q.s, -1, &st, NULL) != SQLITE_OK) {
            *err = msg(table, s->db);
            free(table), sb_free(&q), sb_free(&b), free(k), free(whole);
            return NULL;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            sb_puts(&b, "INSERT INTO ");
            ident(&b, table);
            sb_puts(&b, "(rowid");
            for (int c = 1; c < sqlite3_column_count(st); c++) {
                sb_puts(&b, ", ");
                ident(&b, sqlite3_column_name(st, c));
            }
            sb_puts(&b, ") VALUES (");
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                if (c) sb_puts(&b, ", ");
                literal(&b, st, c);
            }
            sb_puts(&b, ");\n");
        }
        sqlite3_finalize(st);
        free(table);
        sb_free(&q);
    }
    free(k);
    free(whole);
    if (b.failed) {
        sb_free(&b);
        *err = strdup("out of memory");
        return NULL;
    }
    return b.s;
}

static void sq_close(void *h)
{
    sq *s = h;
    if (!s) return;
    sqlite3_close(s->db);
    free(s);
}

const source_ops source_sqlite_ops = {sq_open, NULL, sq_count, sq_fixture, sq_close};
