/* schema.c: loading a database schema (DDL text or an existing SQLite file, read-only) through SQLite's PRAGMAs. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sqlite3.h>
#include "db.h"
#include "util/util.h"

/* Type affinity from a declared type: the five rules of SQLite "Datatypes" 3.1, in order. */
static db_affinity affinity_of(const char *t)
{
    if (strcasestr(t, "INT")) return DB_AFF_INTEGER;
    if (strcasestr(t, "CHAR") || strcasestr(t, "CLOB") || strcasestr(t, "TEXT")) return DB_AFF_TEXT;
    if (!*t || strcasestr(t, "BLOB")) return DB_AFF_BLOB;
    if (strcasestr(t, "REAL") || strcasestr(t, "FLOA") || strcasestr(t, "DOUB")) return DB_AFF_REAL;
    return DB_AFF_NUMERIC;
}

void db_schema_free(db_schema *s)
{
    if (!s) return;
    for (int i = 0; i < s->ntables; i++) {
        db_table *t = &s->tables[i];
        db_checks_free(t);
        for (int c = 0; c < t->ncols; c++) free(t->cols[c].name), free(t->cols[c].decl_type);
        free(t->cols);
        free(t->keys);
        free(t->fkeys);
        free(t->name);
    }
    for (int i = 0; i < s->nignored; i++) free(s->ignored[i]);
    free(s->ignored);
    free(s->join_rows);
    free(s->tables);
    free(s->ddl);
    free(s);
}

int db_table_index(const db_schema *s, const char *name)
{
    for (int i = 0; i < s->ntables; i++)
        if (!strcasecmp(s->tables[i].name, name)) return i;
    return -1;
}

int db_column_index(const db_table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (!strcasecmp(t->cols[i].name, name)) return i;
    return -1;
}

int db_schema_ignored(db_schema *s, char *what)
{
    if (!what) return -1;
    char **n = realloc(s->ignored, (s->nignored + 1) * sizeof *n);
    if (!n) {
        free(what);
        return -1;
    }
    s->ignored = n;
    s->ignored[s->nignored++] = what;
    return 0;
}

/* Run a PRAGMA-style query with one text parameter; calls row() per result row. */
static int each_row(sqlite3 *db, const char *sql, const char *arg, int (*row)(sqlite3_stmt *, void *), void *ctx,
                    char **err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        *err = util_strf("reading the schema (%s): %s", sql, sqlite3_errmsg(db));
        return -1;
    }
    if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (row(st, ctx)) {
            sqlite3_finalize(st);
            *err = util_strf("out of memory");
            return -1;
        }
    if (rc != SQLITE_DONE) {
        *err = util_strf("reading the schema (%s): %s", sql, sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

static int add_table(sqlite3_stmt *st, void *ctx)
{
    db_schema *s = ctx;
    db_table *n = realloc(s->tables, (s->ntables + 1) * sizeof *n);
    if (!n) return -1;
    s->tables = n;
    db_table *t = &s->tables[s->ntables];
    memset(t, 0, sizeof *t);
    t->rowid_alias = -1;
    if (!(t->name = strdup(col_text(st, 0)))) return -1;
    s->ntables++;
    return 0;
}

/* PRAGMA table_info: cid, name, type, notnull, dflt_value, pk */
static int add_column(sqlite3_stmt *st, void *ctx)
{
    db_table *t = ctx;
    db_column *n = realloc(t->cols, (t->ncols + 1) * sizeof *n);
    if (!n) return -1;
    t->cols = n;
    db_column *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->name = strdup(col_text(st, 1));
    c->decl_type = strdup(col_text(st, 2));
    if (!c->name || !c->decl_type) return -1;
    c->aff = affinity_of(c->decl_type);
    /* DECIMAL, DECIMAL(p,s) and NUMERIC(p,s) hold prices and amounts: doubles, not integers. A bare
     * NUMERIC stays integer-valued: it is what the PostgreSQL reader writes for integer cells
     * (schema_pg.c); BOOLEAN (NUMERIC affinity too) stays integer. */
    c->decimal = c->aff == DB_AFF_NUMERIC &&
                 (strcasestr(c->decl_type, "DEC") || (strcasestr(c->decl_type, "NUM") && strchr(c->decl_type, '(')));
    c->int_digits = -1;
    /* DATE, TIME, DATETIME, TIMESTAMP: programs store ISO-8601 text there, which SQLite keeps as
     * TEXT (it is no number) and compares as text: text cells of the format's length (date.c) */
    c->date = c->aff == DB_AFF_NUMERIC && !c->decimal ? db_date_kind_of(c->decl_type) : DB_DATE_NONE;
    const char *par = strchr(c->decl_type, '(');
    int prec, scale = 0;
    if (c->decimal && par && sscanf(par, "( %d , %d", &prec, &scale) >= 1 && prec > 0 && scale >= 0 && scale <= prec &&
        prec - scale <= 300) {
        c->int_digits = prec - scale;
        if (scale >= 1 && scale <= 15) c->scale = scale; /* fixtures keep |k| < 10^min(p, 15) < 2^53 */
    }
    c->single = !strcasecmp(c->decl_type, "FLOAT4");
    c->notnull = sqlite3_column_int(st, 3) != 0;
    c->pk = sqlite3_column_int(st, 5);
    c->fk_table = c->fk_column = -1;
    t->ncols++;
    if (sqlite3_column_type(st, 4) != SQLITE_NULL && !(c->dflt = strdup(col_text(st, 4)))) return -1;
    return 0;
}

typedef struct index_ctx {
    db_table *t;
    char **names; /* unique indexes' names */
    int n;
} index_ctx;

/* PRAGMA index_list: seq, name, unique, origin, partial */
static int add_index(sqlite3_stmt *st, void *ctx)
{
    index_ctx *x = ctx;
    if (!sqlite3_column_int(st, 2) || sqlite3_column_int(st, 4)) /* not unique, or partial */
        return 0;
    char **n = realloc(x->names, (x->n + 1) * sizeof *n);
    if (!n) return -1;
    x->names = n;
    return (x->names[x->n++] = strdup(col_text(st, 1))) ? 0 : -1;
}

/* PRAGMA index_info: seqno, cid, name */
static int add_key_col(sqlite3_stmt *st, void *ctx)
{
    db_key *k = ctx;
    int cid = sqlite3_column_int(st, 1);
    if (k->ncols < 8 && cid >= 0) k->cols[k->ncols++] = cid;
    return 0;
}

static int push_key(db_table *t, const db_key *k)
{
    db_key *n = realloc(t->keys, (t->nkeys + 1) * sizeof *n);
    if (!n) return -1;
    t->keys = n;
    t->keys[t->nkeys++] = *k;
    return 0;
}

/* The FOREIGN KEY being read (PRAGMA foreign_key_list gives one row per column, by id then seq). */
typedef struct fk_ctx {
    db_schema *s;
    int ti;
    int id;          /* the key's id, -1 before the first row */
    db_fkey key;     /* its columns so far (ref_table -1: to an unknown table) */
    bool ref_pk;     /* it references the parent's primary key (no column named) */
    const char *bad; /* why it cannot be modelled (static), NULL when it can */
} fk_ctx;

/* The key read so far becomes a constraint: one column in db_column.fk_table/fk_column, several
 * in db_table.fkeys; one that cannot be modelled is listed in the schema's ignored constraints. */
static int flush_fk(fk_ctx *x)
{
    db_table *t = &x->s->tables[x->ti];
    db_fkey *k = &x->key;
    if (x->id < 0) return 0;
    x->id = -1;
    if (!x->bad && x->ref_pk) { /* the parent's primary key columns, in key order */
        const db_table *p = &x->s->tables[k->ref_table];
        for (int i = 0; i < k->ncols; i++) k->ref_cols[i] = -1;
        for (int c = 0; c < p->ncols; c++)
            if (p->cols[c].pk >= 1 && p->cols[c].pk <= k->ncols) k->ref_cols[p->cols[c].pk - 1] = c;
        for (int i = 0; i < k->ncols; i++)
            if (k->ref_cols[i] < 0) x->bad = "referenced column not found";
    }
    if (x->bad) return db_schema_ignored(x->s, util_strf("FOREIGN KEY of %s: %s", t->name, x->bad));
    if (k->ncols == 1) {
        t->cols[k->cols[0]].fk_table = k->ref_table;
        t->cols[k->cols[0]].fk_column = k->ref_cols[0];
        t->cols[k->cols[0]].fk_cascade = k->cascade;
        return 0;
    }
    db_fkey *n = realloc(t->fkeys, (t->nfkeys + 1) * sizeof *n);
    if (!n) return -1;
    t->fkeys = n;
    t->fkeys[t->nfkeys++] = *k;
    return 0;
}

/* PRAGMA foreign_key_list: id, seq, table, from, to, ... */
static int add_fk(sqlite3_stmt *st, void *ctx)
{
    fk_ctx *x = ctx;
    db_table *t = &x->s->tables[x->ti];
    int id = sqlite3_column_int(st, 0);
    if (id != x->id) {
        if (flush_fk(x)) return -1;
        x->id = id;
        memset(&x->key, 0, sizeof x->key);
        x->key.ref_table = db_table_index(x->s, col_text(st, 2));
        x->key.cascade = !strcasecmp(col_text(st, 6), "CASCADE"); /* on_delete */
        x->ref_pk = sqlite3_column_type(st, 4) == SQLITE_NULL;
        x->bad = x->key.ref_table < 0 ? "referenced table not found" : NULL;
    }
    if (x->bad) return 0;
    int from = db_column_index(t, col_text(st, 3));
    int to = x->ref_pk ? 0 : db_column_index(&x->s->tables[x->key.ref_table], col_text(st, 4));
    if (from < 0 || to < 0) {
        x->bad = "column not found";
        return 0;
    }
    if (x->key.ncols == 8) {
        x->bad = "more than 8 columns";
        return 0;
    }
    x->key.cols[x->key.ncols] = from;
    x->key.ref_cols[x->key.ncols++] = to;
    return 0;
}

static int is_without_rowid(sqlite3_stmt *st, void *ctx)
{
    *(bool *)ctx = sqlite3_column_int(st, 0) != 0;
    return 0;
}

/* Read tables, columns and constraints of the database db into s. */
static int read_catalog(sqlite3 *db, db_schema *s, char **err)
{
    if (each_row(db, "SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
                 NULL, add_table, s, err))
        return -1;
    if (!s->ntables) {
        *err = util_strf("the schema defines no table");
        return -1;
    }
    for (int i = 0; i < s->ntables; i++) {
        db_table *t = &s->tables[i];
        if (each_row(db, "SELECT * FROM pragma_table_info(?1)", t->name, add_column, t, err)) return -1;
        bool wr = false;
        if (each_row(db, "SELECT wr FROM pragma_table_list WHERE name = ?1", t->name, is_without_rowid, &wr, err))
            return -1;
        t->without_rowid = wr;
        int npk = 0, pkcol = -1;
        db_key pk = {0};
        for (int c = 0; c < t->ncols; c++)
            if (t->cols[c].pk) {
                npk++, pkcol = c;
                t->cols[c].notnull = true;
                if (t->cols[c].pk - 1 < 8) {
                    pk.cols[t->cols[c].pk - 1] = c;
                    if (pk.ncols < t->cols[c].pk) pk.ncols = t->cols[c].pk;
                }
            }
        if (npk == 1 && !wr && !strcasecmp(t->cols[pkcol].decl_type, "INTEGER")) t->rowid_alias = pkcol;
        if (npk && push_key(t, &pk)) {
            *err = util_strf("out of memory");
            return -1;
        }
        index_ctx x = {t, NULL, 0};
        int rc = each_row(db, "SELECT * FROM pragma_index_list(?1)", t->name, add_index, &x, err);
        for (int k = 0; !rc && k < x.n; k++) {
            db_key key = {0};
            rc = each_row(db, "SELECT * FROM pragma_index_info(?1)", x.names[k], add_key_col, &key, err);
            /* the primary key's own index (WITHOUT ROWID or non-INTEGER key) is already there */
            bool same = key.ncols == pk.ncols && npk && !memcmp(key.cols, pk.cols, sizeof(int) * (size_t)key.ncols);
            if (!rc && key.ncols && !same && push_key(t, &key)) {
                *err = util_strf("out of memory");
                rc = -1;
            }
        }
        for (int k = 0; k < x.n; k++) free(x.names[k]);
        free(x.names);
        if (rc) return -1;
    }
    for (int i = 0; i < s->ntables; i++) {
        fk_ctx f = {.s = s, .ti = i, .id = -1};
        if (each_row(db, "SELECT * FROM pragma_foreign_key_list(?1) ORDER BY id, seq", s->tables[i].name, add_fk, &f,
                     err) ||
            flush_fk(&f))
            return -1;
    }
    /* CHECK constraints and DEFAULTs (check.c), from each table's CREATE TABLE text */
    for (int i = 0; i < s->ntables; i++) {
        sqlite3_stmt *st = NULL;
        char *sql = NULL;
        if (sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_schema WHERE type='table' AND name = ?1", -1, &st, NULL) ==
            SQLITE_OK) {
            sqlite3_bind_text(st, 1, s->tables[i].name, -1, SQLITE_TRANSIENT);
            if (sqlite3_step(st) == SQLITE_ROW) sql = strdup(col_text(st, 0));
            sqlite3_finalize(st);
        }
        int rc = db_checks_load(s, i, sql);
        free(sql);
        if (rc) {
            *err = util_strf("out of memory");
            return -1;
        }
    }
    return 0;
}

/* Line (1-based) of byte offset off in text. */
static int line_of(const char *text, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off && text[i]; i++) line += text[i] == '\n';
    return line;
}

int db_schema_from_ddl(const char *ddl, db_schema **out, char **err)
{
    *out = NULL;
    *err = NULL;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        *err = util_strf("cannot open an in-memory SQLite database");
        sqlite3_close(db);
        return -1;
    }
    /* statement by statement, so that an error names its line */
    const char *p = ddl;
    while (*p) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(db, p, -1, &st, &tail) != SQLITE_OK) {
            int off = sqlite3_error_offset(db);
            size_t at = off >= 0 ? (size_t)(p - ddl) + (size_t)off : (size_t)(p - ddl);
            while (off < 0 && (ddl[at] == ' ' || ddl[at] == '\n' || ddl[at] == '\t' || ddl[at] == '\r')) at++;
            *err = util_strf("line %d: %s", line_of(ddl, at), sqlite3_errmsg(db));
            sqlite3_close(db);
            return -1;
        }
        if (!st) /* only blanks or comments left */
            break;
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
            *err = util_strf("line %d: %s", line_of(ddl, (size_t)(p - ddl)), sqlite3_errmsg(db));
            sqlite3_close(db);
            return -1;
        }
        p = tail;
    }
    db_schema *s = calloc(1, sizeof *s);
    if (!s || !(s->ddl = strdup(ddl))) {
        free(s);
        sqlite3_close(db);
        *err = util_strf("out of memory");
        return -1;
    }
    int rc = read_catalog(db, s, err);
    sqlite3_close(db);
    if (rc) {
        db_schema_free(s);
        return -1;
    }
    db_text_needs_from_marks(s, ddl); /* the program's needs (setup.c: db_setup_program_sql) */
    db_date_needs_from_marks(s, ddl);
    *out = s;
    return 0;
}

/* The CREATE statements of an existing database file, opened read-only. */
static char *ddl_of_file(const char *path, char **err)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        *err = util_strf("%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_stmt *st = NULL;
    char *ddl = strdup("");
    if (sqlite3_prepare_v2(db,
                           "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
                           "ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK) {
        *err = util_strf("%s: %s", path, sqlite3_errmsg(db));
        free(ddl);
        sqlite3_close(db);
        return NULL;
    }
    int rc;
    while (ddl && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        char *n = util_strf("%s%s;\n", ddl, col_text(st, 0));
        free(ddl);
        ddl = n;
    }
    if (ddl && rc != SQLITE_DONE) {
        *err = util_strf("%s: %s", path, sqlite3_errmsg(db));
        free(ddl);
        ddl = NULL;
    } else if (!ddl) {
        *err = util_strf("out of memory");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ddl;
}

int db_schema_load(const char *path, db_schema **out, char **err)
{
    *out = NULL;
    *err = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = util_strf("%s: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            char *t = realloc(text, cap = cap * 2 + 8192);
            if (!t) {
                free(text);
                fclose(f);
                *err = util_strf("out of memory");
                return -1;
            }
            text = t;
        }
        size_t k = fread(text + n, 1, 4096, f);
        n += k;
        if (k < 4096) break;
    }
    int ioerr = ferror(f);
    fclose(f);
    if (ioerr) {
        free(text);
        *err = util_strf("%s: read error", path);
        return -1;
    }
    text[n] = 0;
    if (n >= 16 && !memcmp(text, "SQLite format 3", 16)) {
        free(text);
        char *ddl = ddl_of_file(path, err);
        if (!ddl) return -1;
        int rc = db_schema_from_ddl(ddl, out, err);
        free(ddl);
        if (rc) {
            char *e = util_strf("%s: %s", path, *err);
            free(*err);
            *err = e;
        }
        return rc;
    }
    if (memchr(text, 0, n)) {
        free(text);
        *err = util_strf("%s: neither an SQLite database nor SQL text", path);
        return -1;
    }
    int rc = db_schema_from_ddl(text, out, err);
    free(text);
    if (rc) {
        char *e = util_strf("%s: %s", path, *err ? *err : "?");
        free(*err);
        *err = e;
    }
    return rc;
}
