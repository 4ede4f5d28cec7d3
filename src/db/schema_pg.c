/* schema_pg.c: the user's PostgreSQL tables read from pg_catalog (read only) as SQLite-style and PostgreSQL DDL, and PostgreSQL INSERTs of fixture rows. */
#define _GNU_SOURCE
#include <libpq-fe.h>
#include "db.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A growing string; `bad` once an allocation failed. */
typedef struct sbuf {
    char *s;
    size_t n;
    int bad;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->bad) return;
    va_list ap;
    va_start(ap, fmt);
    char *add = NULL;
    int k = vasprintf(&add, fmt, ap);
    va_end(ap);
    char *r = k < 0 ? NULL : realloc(b->s, b->n + (size_t)k + 1);
    if (!r) {
        free(add);
        b->bad = 1;
        return;
    }
    memcpy(r + b->n, add, (size_t)k + 1);
    free(add);
    b->s = r;
    b->n += (size_t)k;
}

/* Append the malloc'ed text t (NULL: out of memory) and free it. */
static void put_take(sbuf *b, char *t)
{
    if (t)
        put(b, "%s", t);
    else
        b->bad = 1;
    free(t);
}

/* An identifier quoted (db_sql_ident). */
static void put_ident(sbuf *b, const char *id) { put_take(b, db_sql_ident(id)); }

/* One catalog query with text parameters; NULL and *err when it failed. */
static PGresult *query(PGconn *c, const char *sql, int np, const char *const *params, char **err)
{
    PGresult *r = PQexecParams(c, sql, np, NULL, params, NULL, NULL, 0);
    if (r && PQresultStatus(r) == PGRES_TUPLES_OK) return r;
    const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
    if (asprintf(err, "reading the catalog: %s", m && *m ? m : "unknown error") < 0) *err = NULL;
    PQclear(r);
    return NULL;
}

/* The SQLite-style declared type of a PostgreSQL type (typname of its base type, typmod text). */
static void sqlite_type(sbuf *b, const char *typname, const char *formatted)
{
    int n = 0;
    const char *par = strchr(formatted, '(');
    if (par) n = atoi(par + 1);
    if (!strcmp(typname, "int2"))
        put(b, "SMALLINT");
    else if (!strcmp(typname, "int4"))
        put(b, "INT");
    else if (!strcmp(typname, "int8"))
        put(b, "BIGINT");
    else if (!strcmp(typname, "bool"))
        put(b, "BOOLEAN INT");
    else if (!strcmp(typname, "varchar") && n > 0)
        put(b, "VARCHAR(%d)", n);
    else if (!strcmp(typname, "bpchar") && n > 0)
        put(b, "CHARACTER(%d)", n);
    else if (!strcmp(typname, "float4"))
        put(b, "FLOAT4"); /* k / 4: exact as a float and as its text (REAL affinity, db_column.single) */
    else if (!strcmp(typname, "float8"))
        put(b, "DOUBLE PRECISION"); /* an IEEE double (REAL affinity) */
    else if (!strcmp(typname, "numeric") && par && strchr(par, ',') && atoi(strchr(par, ',') + 1) > 0)
        put(b, "DECIMAL(%d,%d)", n, atoi(strchr(par, ',') + 1)); /* a scaled cell: k / 10^s (db_column.scale) */
    else if (!strcmp(typname, "numeric"))
        put(b, "NUMERIC"); /* numeric and numeric(p[,0]): integer cells (a bare NUMERIC is integer-valued) */
    else if (!strcmp(typname, "date"))
        put(b, "DATE"); /* ISO-8601 text cells (date.c), printed so under DateStyle ISO */
    else if (!strcmp(typname, "timestamp") || !strcmp(typname, "timestamptz"))
        /* 'YYYY-MM-DD HH:MM:SS': fixtures have no fractional seconds, so timestamp(p) prints the same;
         * timestamptz prints '+00' after it, the runs' sessions being in UTC (db_pq_build.c) */
        put(b, "TIMESTAMP");
    else if (!strcmp(typname, "time") && !par)
        put(b, "TIME");
    else
        put(b, "TEXT");
}

/* The action of a foreign key's code (pg_constraint.confdeltype/confupdtype) as SQL ("CASCADE"),
 * NULL for NO ACTION. */
static const char *fk_action(const char *code)
{
    return !strcmp(code, "c")   ? "CASCADE"
           : !strcmp(code, "n") ? "SET NULL"
           : !strcmp(code, "d") ? "SET DEFAULT"
           : !strcmp(code, "r") ? "RESTRICT"
                                : NULL;
}

/* "{1,3}" (an int2[] in text form) -> column numbers; returns how many (at most cap). */
static int parse_keys(const char *text, int *out, int cap)
{
    int n = 0;
    for (const char *p = text; *p && n < cap;) {
        if (isdigit((unsigned char)*p)) {
            out[n++] = (int)strtol(p, (char **)&p, 10);
        } else {
            p++;
        }
    }
    return n;
}

/* Column names of one table by attnum (1-based), from the columns query's result. */
typedef struct tcols {
    char *oid, *name;
    int ncols;
    int *attnum;
    char **names;
} tcols;

static const char *col_name(const tcols *t, int attnum)
{
    for (int i = 0; i < t->ncols; i++)
        if (t->attnum[i] == attnum) return t->names[i];
    return NULL;
}

/* ", (a, b)" list of columns by attnum; 0 when one is unknown */
static int put_cols(sbuf *b, const tcols *t, const int *keys, int nkeys)
{
    put(b, "(");
    for (int i = 0; i < nkeys; i++) {
        const char *n = col_name(t, keys[i]);
        if (!n) return 0;
        if (i) put(b, ", ");
        put_ident(b, n);
    }
    put(b, ")");
    return 1;
}

int db_pg_read_schema(PGconn *conn, char **sqlite_ddl, char **pg_ddl, char **err)
{
    *sqlite_ddl = *pg_ddl = NULL;
    *err = NULL;
    PGresult *tabs = query(conn,
                           "SELECT c.oid::text, c.relname, current_schema() FROM pg_class c "
                           "JOIN pg_namespace n ON n.oid = c.relnamespace "
                           "WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname = current_schema() "
                           "ORDER BY c.relname",
                           0, NULL, err);
    if (!tabs) return -1;
    int nt = PQntuples(tabs);
    if (nt == 0) {
        const char *sch = NULL;
        PGresult *r = query(conn, "SELECT current_schema()", 0, NULL, err);
        sch = r && PQntuples(r) ? PQgetvalue(r, 0, 0) : "?";
        free(*err);
        if (asprintf(err, "no tables in schema %s of the database", sch ? sch : "?") < 0) *err = NULL;
        PQclear(r);
        PQclear(tabs);
        return -1;
    }
    tcols *ts = calloc((size_t)nt, sizeof *ts);
    sbuf lite = {0}, pg = {0}, fks = {0}, cks = {0};
    int rc = ts ? 0 : -1;
    for (int i = 0; !rc && i < nt; i++) {
        ts[i].oid = PQgetvalue(tabs, i, 0);
        ts[i].name = PQgetvalue(tabs, i, 1);
    }
    for (int i = 0; !rc && i < nt; i++) {
        tcols *t = &ts[i];
        const char *p[1] = {t->oid};
        PGresult *cols = query(conn,
                               "SELECT a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
                               "COALESCE(bt.typname, ty.typname) FROM pg_attribute a "
                               "JOIN pg_type ty ON ty.oid = a.atttypid "
                               "LEFT JOIN pg_type bt ON ty.typtype = 'd' AND bt.oid = ty.typbasetype "
                               "WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
                               1, p, err);
        PGresult *cons =
            cols ? query(conn,
                         "SELECT contype, conkey::text, confrelid::text, confkey::text, confdeltype, confupdtype "
                         "FROM pg_constraint "
                         "WHERE conrelid = $1::oid AND contype IN ('p', 'u', 'f') ORDER BY contype, conname",
                         1, p, err)
                 : NULL;
        if (!cols || !cons) {
            PQclear(cols), PQclear(cons);
            rc = -1;
            break;
        }
        t->ncols = PQntuples(cols);
        t->attnum = calloc((size_t)t->ncols + 1, sizeof *t->attnum);
        t->names = calloc((size_t)t->ncols + 1, sizeof *t->names);
        if (!t->attnum || !t->names) {
            PQclear(cols), PQclear(cons);
            rc = -1;
            break;
        }
        for (int k = 0; k < t->ncols; k++) {
            t->attnum[k] = atoi(PQgetvalue(cols, k, 0));
            t->names[k] = strdup(PQgetvalue(cols, k, 1));
        }
        put(&lite, "CREATE TABLE ");
        put_ident(&lite, t->name);
        put(&lite, " (\n");
        put(&pg, "CREATE TABLE ");
        put_ident(&pg, t->name);
        put(&pg, " (\n");
        for (int k = 0; k < t->ncols; k++) {
            bool nn = PQgetvalue(cols, k, 3)[0] == 't';
            put(&lite, "%s    ", k ? ",\n" : "");
            put_ident(&lite, PQgetvalue(cols, k, 1));
            put(&lite, " ");
            sqlite_type(&lite, PQgetvalue(cols, k, 4), PQgetvalue(cols, k, 2));
            put(&lite, "%s", nn ? " NOT NULL" : "");
            put(&pg, "%s    ", k ? ",\n" : "");
            put_ident(&pg, PQgetvalue(cols, k, 1));
            put(&pg, " %s%s", PQgetvalue(cols, k, 2), nn ? " NOT NULL" : "");
        }
        for (int k = 0; k < PQntuples(cons); k++) {
            char type = PQgetvalue(cons, k, 0)[0];
            int keys[32], fkeys[32];
            int nk = parse_keys(PQgetvalue(cons, k, 1), keys, 32);
            if (type == 'p' || type == 'u') {
                const char *kw = type == 'p' ? "PRIMARY KEY" : "UNIQUE";
                put(&lite, ",\n    %s ", kw);
                put(&pg, ",\n    %s ", kw);
                if (!put_cols(&lite, t, keys, nk) || !put_cols(&pg, t, keys, nk)) lite.bad = 1;
                continue;
            }
            const tcols *ref = NULL; /* a foreign key to a table of the schema */
            for (int j = 0; j < nt; j++)
                if (!strcmp(ts[j].oid, PQgetvalue(cons, k, 2))) ref = &ts[j];
            int nf = parse_keys(PQgetvalue(cons, k, 3), fkeys, 32);
            if (!ref || nf != nk) continue;
            sbuf rl = {0};
            if (!ref->ncols) { /* referenced table not read yet: its columns by attnum */
                const char *rp[1] = {ref->oid};
                PGresult *rc2 =
                    query(conn, "SELECT attnum, attname FROM pg_attribute WHERE attrelid = $1::oid AND attnum > 0", 1,
                          rp, err);
                if (!rc2) {
                    rc = -1;
                    break;
                }
                tcols tmp = {0};
                tmp.ncols = PQntuples(rc2);
                tmp.attnum = calloc((size_t)tmp.ncols + 1, sizeof *tmp.attnum);
                tmp.names = calloc((size_t)tmp.ncols + 1, sizeof *tmp.names);
                for (int x = 0; tmp.attnum && tmp.names && x < tmp.ncols; x++) {
                    tmp.attnum[x] = atoi(PQgetvalue(rc2, x, 0));
                    tmp.names[x] = PQgetvalue(rc2, x, 1);
                }
                if (!tmp.attnum || !tmp.names || !put_cols(&rl, &tmp, fkeys, nf)) rl.bad = 1;
                free(tmp.attnum), free(tmp.names);
                PQclear(rc2);
            } else if (!put_cols(&rl, ref, fkeys, nf)) {
                rl.bad = 1;
            }
            if (rl.bad) {
                free(rl.s);
                continue;
            }
            put(&lite, ",\n    FOREIGN KEY ");
            put_cols(&lite, t, keys, nk);
            put(&lite, " REFERENCES ");
            put_ident(&lite, ref->name);
            put(&lite, " %s", rl.s);
            if (!strcmp(PQgetvalue(cons, k, 4), "c")) put(&lite, " ON DELETE CASCADE"); /* the model follows it */
            put(&fks, "ALTER TABLE ");
            put_ident(&fks, t->name);
            put(&fks, " ADD FOREIGN KEY ");
            put_cols(&fks, t, keys, nk);
            put(&fks, " REFERENCES ");
            put_ident(&fks, ref->name);
            /* what a program's DELETE or UPDATE of a parent row does to its children (ON DELETE CASCADE, ...) */
            put(&fks, " %s", rl.s);
            const char *on_delete = fk_action(PQgetvalue(cons, k, 4)), *on_update = fk_action(PQgetvalue(cons, k, 5));
            if (on_delete) put(&fks, " ON DELETE %s", on_delete);
            if (on_update) put(&fks, " ON UPDATE %s", on_update);
            put(&fks, " DEFERRABLE INITIALLY DEFERRED;\n");
            free(rl.s);
        }
        /* CHECK constraints: modelled from a comment of the SQLite DDL (check.c), and added to the runs'
         * schemas one by one after DB_PG_OPTIONAL_MARK, so the server rejects a row breaking one sympath does
         * not model (a CHECK calling a function the scratch database lacks is left out there) */
        PGresult *checks = rc ? NULL
                              : query(conn,
                                      "SELECT pg_get_constraintdef(oid), conname FROM pg_constraint "
                                      "WHERE conrelid = $1::oid AND contype = 'c' ORDER BY conname",
                                      1, p, err);
        for (int k = 0; checks && k < PQntuples(checks); k++) {
            const char *def = PQgetvalue(checks, k, 0);
            if (strstr(def, "*/") || strchr(def, '\n')) continue;
            put(&lite, "\n    %s%s */", DB_PG_CHECK_MARK, def);
            put(&cks, "ALTER TABLE ");
            put_ident(&cks, t->name);
            put(&cks, " ADD CONSTRAINT ");
            put_ident(&cks, PQgetvalue(checks, k, 1));
            put(&cks, " %s;\n", def);
        }
        if (!rc && !checks) rc = -1;
        PQclear(checks);
        put(&lite, "\n);\n");
        put(&pg, "\n);\n");
        PQclear(cols), PQclear(cons);
    }
    if (!rc && fks.s) put(&pg, "%s", fks.s);
    if (!rc && cks.s) put(&pg, "%s\n%s", DB_PG_OPTIONAL_MARK, cks.s);
    if (!rc && (lite.bad || pg.bad || fks.bad || cks.bad)) {
        rc = -1;
        *err = strdup("out of memory");
    }
    if (rc && !*err) *err = strdup("out of memory");
    for (int i = 0; ts && i < nt; i++) {
        for (int k = 0; k < ts[i].ncols; k++) free(ts[i].names[k]);
        free(ts[i].attnum), free(ts[i].names);
    }
    free(ts);
    free(fks.s), free(cks.s);
    PQclear(tabs);
    if (rc) {
        free(lite.s), free(pg.s);
        return -1;
    }
    *sqlite_ddl = lite.s;
    *pg_ddl = pg.s;
    return 0;
}

db_pg_kind db_pg_column_kind(const db_column *c, unsigned *n)
{
    const char *d = c->decl_type ? c->decl_type : "";
    *n = 0;
    if (!strcasecmp(d, "SMALLINT")) return DB_PG_INT2;
    if (!strcasecmp(d, "INT")) return DB_PG_INT4;
    if (!strcasecmp(d, "BOOLEAN INT")) return DB_PG_BOOL;
    if (!strcasecmp(d, "NUMERIC")) return DB_PG_NUMERIC;
    if (db_column_is_real(c)) return DB_PG_FLOAT;
    if (!strncasecmp(d, "VARCHAR(", 8)) {
        *n = (unsigned)atoi(d + 8);
        return DB_PG_VARCHAR;
    }
    if (!strncasecmp(d, "CHARACTER(", 10)) {
        *n = (unsigned)atoi(d + 10);
        return DB_PG_CHAR;
    }
    return db_column_is_text(c) ? DB_PG_TEXT : DB_PG_INT8;
}

/* Cell c of a row as a PostgreSQL literal (quoted, converted by the column type's input function). */
static void put_cell(sbuf *b, const db_table *t, int c, const db_cell *v)
{
    unsigned n;
    if (v->null)
        put(b, "NULL");
    else if (db_pg_column_kind(&t->cols[c], &n) == DB_PG_BOOL)
        put(b, "'%s'", v->i ? "t" : "f");
    else if (db_column_is_real(&t->cols[c])) { /* %.17g reads back as the same double; k / 10^s exactly */
        char num[48];
        double d;
        memcpy(&d, &v->i, sizeof d);
        if (isinf(d))
            put(b, "'%s'", d < 0 ? "-Infinity" : "Infinity");
        else if (t->cols[c].scale)
            db_scaled_text((uint64_t)v->i, t->cols[c].scale, num, sizeof num), put(b, "'%s'", num);
        else
            db_real_text((uint64_t)v->i, num, sizeof num), put(b, "'%s'", num);
    } else if (!db_column_is_text(&t->cols[c]))
        put(b, "'%lld'", (long long)v->i);
    else
        put_take(b, db_sql_text(true, v->len ? (const char *)v->text : "", v->len));
}

char *db_pg_insert_sql(const db_table *t, const db_cell *cells, bool returning)
{
    sbuf b = {0};
    put(&b, "INSERT INTO ");
    put_ident(&b, t->name);
    put(&b, " (");
    for (int c = 0; c < t->ncols; c++) {
        if (c) put(&b, ", ");
        put_ident(&b, t->cols[c].name);
    }
    put(&b, ") VALUES (");
    for (int c = 0; c < t->ncols; c++) {
        if (c) put(&b, ", ");
        put_cell(&b, t, c, &cells[c]);
    }
    put(&b, ")%s;", returning ? " RETURNING ctid" : "");
    if (b.bad) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

char *db_pg_find_row_sql(const db_table *t, const db_cell *cells, const char *not_in)
{
    sbuf b = {0};
    put(&b, "SELECT ctid::text FROM ");
    put_ident(&b, t->name);
    put(&b, " WHERE true");
    for (int c = 0; c < t->ncols; c++) {
        put(&b, " AND ");
        put_ident(&b, t->cols[c].name);
        put(&b, " IS NOT DISTINCT FROM ");
        put_cell(&b, t, c, &cells[c]);
    }
    if (not_in && *not_in) put(&b, " AND ctid::text NOT IN (%s)", not_in);
    put(&b, " LIMIT 1");
    if (b.bad) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

static char *insert_plain(const db_table *t, const db_cell *cells) { return db_pg_insert_sql(t, cells, false); }

char *db_pg_fixture_sql(const db_schema *s, const db_limits *l, const uint64_t *vals, size_t n, size_t start)
{
    return db_fixture_sql_by(s, l, vals, n, start, insert_plain);
}
