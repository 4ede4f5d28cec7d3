/* data_sqlite.c: SQLite in data mode: the user's file read-only, the program's SELECTs wrapped per the explorer's plan, values of returned rows as data inputs. */
#define _GNU_SOURCE
#include "data_sqlite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../dbcommon/data_rt.h"
#include "../../db/db.h"
#include "util/util.h"
#include "../../proto/env.h"

/* One prepared statement of the program that data mode wrapped. */
typedef struct dstate {
    struct dstate *next;
    sqlite3_stmt *st;
    char *sql; /* the program's text */
    char site[17];
    int ncols;        /* result columns the program sees */
    int nkeys;        /* hidden rowid columns after them (one per FROM item) */
    char **key_table; /* their tables' names */
    char *tables;     /* without keys: the tables the query reads, tab-separated ("k" line), or NULL */
    int nparams;
    char **params;  /* bound values as SQL literals (NULL: unbound = NULL) */
    bool started;   /* the "s" line of this execution is written */
    uint64_t tuple; /* run-wide number of the current row */
    bool on_row;
    uint64_t unlogged; /* rows returned but not logged one by one ("symbolic 0": a "c" line instead) */
} dstate;

static dstate *dstates;
static void log_counts_at_exit(void);
static db_schema *schema; /* SYMPATH_DATA_SCHEMA, to add rowid columns; NULL: no keys */
static int schema_tried;

static dstate *find(sqlite3_stmt *st)
{
    for (dstate *d = dstates; d; d = d->next)
        if (d->st == st) return d;
    return NULL;
}

static void load_schema(void)
{
    if (schema_tried) return;
    schema_tried = 1;
    const char *p = getenv(SYMPATH_ENV_DATA_SCHEMA);
    char *ddl = p && *p ? util_read_file(p, NULL) : NULL, *err = NULL;
    if (ddl && db_schema_from_ddl(ddl, &schema, &err)) schema = NULL;
    free(ddl), free(err);
}

int data_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)
{
    __sym_ret = NULL;
    const char *path = data_rt_db();
    int rc = sqlite3_open_v2(path ? path : filename, db, SQLITE_OPEN_READONLY, NULL);
    if (rc != SQLITE_OK)
        data_rt_log("w\tcannot open %s read-only: %s\t", path ? path : filename, *db ? sqlite3_errmsg(*db) : "?");
    return rc;
}

static void log_failure(sqlite3 *db, const char *sql, size_t len)
{
    char msg[512], text[4096];
    proto_flat(msg, sizeof msg, sqlite3_errmsg(db));
    char *s = strndup(sql, len);
    proto_flat(text, sizeof text, s ? s : "");
    free(s);
    data_rt_log("w\t%s\t%s", msg, text);
}

int data_sqlite3_prepare(int version, sqlite3 *db, const char *sql, int nbyte, unsigned flags, sqlite3_stmt **pp,
                         const char **tail)
{
    __sym_ret = NULL;
    const char *t = NULL;
    int rc = version == 1   ? sqlite3_prepare(db, sql, nbyte, pp, &t)
             : version == 2 ? sqlite3_prepare_v2(db, sql, nbyte, pp, &t)
                            : sqlite3_prepare_v3(db, sql, nbyte, flags, pp, &t);
    if (tail) *tail = t;
    size_t len = t ? (size_t)(t - sql) : strlen(sql);
    if (rc != SQLITE_OK) {
        log_failure(db, sql, len);
        return rc;
    }
    if (!*pp || !sqlite3_stmt_readonly(*pp) || sqlite3_column_count(*pp) == 0 || !data_is_select(sql, len)) return rc;
    dstate *d = calloc(1, sizeof *d);
    if (!d) return rc;
    d->sql = strndup(sql, len);
    d->ncols = sqlite3_column_count(*pp);
    data_site_id(sql, len, d->site);
    /* the rowid of each FROM item, for the replay fixture, when the schema layer understands the query */
    load_schema();
    char *body = NULL;
    db_query *q = NULL;
    char *err = NULL;
    bool parsed = schema && d->sql && !db_query_parse(schema, d->sql, len, &q, &err);
    if (parsed && q->kind == DBQ_SELECT && q->nfrom > 0) { /* for a fixture of whole tables, if no keys */
        size_t n = 1;
        for (int f = 0; f < q->nfrom; f++) n += strlen(schema->tables[q->from_table[f]].name) + 1;
        for (int j = 0; j < q->nsub; j++) n += strlen(schema->tables[q->sub_table[j]].name) + 1;
        d->tables = calloc(n, 1);
        for (int f = 0; d->tables && f < q->nfrom; f++) {
            if (f) strcat(d->tables, "\t");
            strcat(d->tables, schema->tables[q->from_table[f]].name);
        }
        for (int j = 0; d->tables && j < q->nsub; j++) { /* the tables its subqueries read, once */
            bool seen = false;
            for (int f = 0; f < q->nfrom; f++) seen |= q->from_table[f] == q->sub_table[j];
            for (int k = 0; k < j; k++) seen |= q->sub_table[k] == q->sub_table[j];
            if (seen) continue;
            strcat(d->tables, "\t");
            strcat(d->tables, schema->tables[q->sub_table[j]].name);
        }
    }
    if (parsed && db_query_rows_are_keys(q) && q->nresult == d->ncols) {
        body = db_query_with_rowid(q, d->sql, len);
        if (body) {
            d->nkeys = q->nfrom;
            d->key_table = calloc((size_t)q->nfrom, sizeof *d->key_table);
            for (int f = 0; d->key_table && f < q->nfrom; f++)
                d->key_table[f] = strdup(schema->tables[q->from_table[f]].name);
            if (!d->key_table) d->nkeys = 0;
        }
    }
    db_query_free(q);
    free(err);
    const data_plan_site *ps = data_rt_plan_for(d->site);
    const char *src = body ? body : d->sql;
    char *wrapped = data_wrap_select_at(src, strlen(src), d->ncols + d->nkeys, ps ? ps->cond : NULL,
                                        ps ? ps->limit : data_rt_default_limit(), ps ? ps->offset : 0);
    sqlite3_stmt *st2 = NULL;
    if (wrapped &&
        (version == 3 ? sqlite3_prepare_v3(db, wrapped, -1, flags, &st2, NULL)
                      : sqlite3_prepare_v2(db, wrapped, -1, &st2, NULL)) == SQLITE_OK &&
        st2) {
        sqlite3_finalize(*pp);
        *pp = st2;
    } else {
        log_failure(db, wrapped ? wrapped : "", wrapped ? strlen(wrapped) : 0);
        sqlite3_finalize(st2);
        d->nkeys = 0; /* the program's own statement, unchanged */
    }
    free(wrapped);
    free(body);
    d->st = *pp;
    d->nparams = sqlite3_bind_parameter_count(*pp);
    if (d->nparams > 0) d->params = calloc((size_t)d->nparams, sizeof *d->params);
    d->next = dstates;
    if (!dstates) atexit(log_counts_at_exit);
    dstates = d;
    return rc;
}

/* Remember a bound parameter (as an SQL literal, malloc'ed text taken over) for the "s" line. */
static void bound(sqlite3_stmt *st, int idx, char *literal)
{
    dstate *d = find(st);
    if (!d || idx < 1 || idx > d->nparams || !d->params) {
        free(literal);
        return;
    }
    free(d->params[idx - 1]);
    d->params[idx - 1] = literal;
}

int data_sqlite3_bind_int(sqlite3_stmt *st, int idx, int v)
{
    bound(st, idx, db_sql_int(v));
    __sym_ret = NULL;
    return sqlite3_bind_int(st, idx, v);
}

int data_sqlite3_bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v)
{
    bound(st, idx, db_sql_int(v));
    __sym_ret = NULL;
    return sqlite3_bind_int64(st, idx, v);
}

int data_sqlite3_bind_null(sqlite3_stmt *st, int idx)
{
    bound(st, idx, NULL);
    __sym_ret = NULL;
    return sqlite3_bind_null(st, idx);
}

int data_sqlite3_bind_double(sqlite3_stmt *st, int idx, double v)
{
    bound(st, idx, db_sql_double(v));
    __sym_ret = NULL;
    return sqlite3_bind_double(st, idx, v);
}

int data_sqlite3_bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *))
{
    bound(st, idx, text ? db_sql_text(false, text, n < 0 ? strlen(text) : (size_t)n) : NULL);
    __sym_ret = NULL;
    return sqlite3_bind_text(st, idx, text, n, destructor);
}

/* The "s" line of an execution (data_rt_log_site) and, for a query without keys, its "k" line. */
static void log_site(dstate *d)
{
    data_rt_log_site(d->site, d->ncols, "sqlite", d->sql, d->nparams, d->params);
    if (!d->nkeys && d->tables) data_rt_log("k\t%s\t%s", d->site, d->tables);
}

int data_sqlite3_step(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    dstate *d = find(st);
    if (d && !d->started) {
        d->started = true;
        log_site(d);
    }
    int rc = sqlite3_step(st);
    if (!d) {
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            const char *sql = sqlite3_sql(st);
            log_failure(sqlite3_db_handle(st), sql ? sql : "", sql ? strlen(sql) : 0);
        }
        return rc;
    }
    d->on_row = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW && !data_rt_symbolic()) {
        d->unlogged++; /* the full-scan run: only the count (a line per row would flood the log) */
    } else if (rc == SQLITE_ROW) {
        d->tuple = data_rt_next_tuple();
        char keys[1024] = "";
        size_t o = 0;
        for (int f = 0; f < d->nkeys && o < sizeof keys - 64; f++)
            o += (size_t)snprintf(keys + o, sizeof keys - o, "%s%s:%lld", f ? "\t" : "", d->key_table[f],
                                  (long long)sqlite3_column_int64(st, d->ncols + f));
        data_rt_log("t\t%s\t%llu\t%s", d->site, (unsigned long long)d->tuple, d->nkeys ? keys : "-");
    } else if (rc != SQLITE_DONE) {
        log_failure(sqlite3_db_handle(st), d->sql ? d->sql : "", d->sql ? strlen(d->sql) : 0);
    }
    return rc;
}

/* The "c" line of rows returned but not logged one by one. */
static void log_count(dstate *d)
{
    if (d->unlogged) data_rt_log("c\t%s\t%llu", d->site, (unsigned long long)d->unlogged);
    d->unlogged = 0;
}

static void log_counts_at_exit(void)
{
    for (dstate *d = dstates; d; d = d->next) log_count(d);
}

int data_sqlite3_reset(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    dstate *d = find(st);
    if (d) log_count(d);
    if (d) d->started = d->on_row = false;
    return sqlite3_reset(st);
}

int data_sqlite3_finalize(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    for (dstate **pp = &dstates; *pp; pp = &(*pp)->next)
        if ((*pp)->st == st) {
            dstate *d = *pp;
            log_count(d);
            *pp = d->next;
            for (int i = 0; i < d->nparams && d->params; i++) free(d->params[i]);
            for (int f = 0; f < d->nkeys; f++) free(d->key_table[f]);
            free(d->key_table), free(d->params), free(d->sql), free(d->tables), free(d);
            break;
        }
    return sqlite3_finalize(st);
}

int data_sqlite3_column_count(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    dstate *d = find(st);
    return d ? d->ncols : sqlite3_column_count(st);
}

int data_sqlite3_data_count(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    dstate *d = find(st);
    int n = sqlite3_data_count(st);
    return d && n > 0 ? d->ncols : n;
}

/* The statement when column i of its current row is a value the explorer can name. */
static dstate *row_of(sqlite3_stmt *st, int i)
{
    dstate *d = find(st);
    return d && d->on_row && i >= 0 && i < d->ncols ? d : NULL;
}

/* The input of column i of d's current row: an SQL term over the column (pre "c<i>" post)
 * of the given width and type, whose value in this run is v. */
static expr *column_input(dstate *d, int i, const char *pre, const char *post, unsigned width, input_type it,
                          uint64_t v)
{
    char term[192];
    snprintf(term, sizeof term, "%sc%d%s", pre, i, post);
    return data_rt_input(width, it, d->site, d->tuple, term, v);
}

/* The 64-bit integer input of column i (what sqlite3_column_int64 returns). */
static expr *int_input(dstate *d, int i, int64_t v)
{
    return column_input(d, i, "COALESCE(CAST(", " AS INTEGER),0)", 64, IT_S64, (uint64_t)v);
}

int data_sqlite3_column_int(sqlite3_stmt *st, int i)
{
    int v = sqlite3_column_int(st, i);
    dstate *d = row_of(st, i);
    expr *e = d ? int_input(d, i, sqlite3_column_int64(st, i)) : NULL;
    __sym_ret = e ? rt_norm(expr_extract(rt_cx(), e, 0, 32)) : NULL;
    return v;
}

sqlite3_int64 data_sqlite3_column_int64(sqlite3_stmt *st, int i)
{
    sqlite3_int64 v = sqlite3_column_int64(st, i);
    dstate *d = row_of(st, i);
    __sym_ret = d ? int_input(d, i, v) : NULL;
    return v;
}

double data_sqlite3_column_double(sqlite3_stmt *st, int i)
{
    double v = sqlite3_column_double(st, i);
    dstate *d = row_of(st, i);
    __sym_ret = NULL;
    if (d) {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        __sym_ret = column_input(d, i, "COALESCE(CAST(", " AS REAL),0.0)", 64, IT_DOUBLE, bits);
    }
    return v;
}

/* Shadows on the n bytes at p (and the NUL after them when nul): byte k of column i as SQLite
 * converts it to a blob, as an unsigned 8-bit value computed in SQL from hex(). */
static void shadow_bytes(dstate *d, int i, const unsigned char *p, int n, bool nul)
{
    for (int k = 0; k < n + (int)nul && k < 256 && !rt.trace_full; k++) {
        char term[256];
        snprintf(term, sizeof term,
                 "(instr('0123456789ABCDEF',substr(hex(substr(CAST(c%d AS BLOB),%d,1)),1,1))*16+"
                 "instr('0123456789ABCDEF',substr(hex(substr(CAST(c%d AS BLOB),%d,1)),2,1))-17)",
                 i, k + 1, i, k + 1);
        expr *e = data_rt_input(8, IT_U8, d->site, d->tuple, term, k < n ? p[k] : 0);
        if (e) rt_shadow_put((uintptr_t)(p + k), &e, 1);
    }
}

const unsigned char *data_sqlite3_column_text(sqlite3_stmt *st, int i)
{
    const unsigned char *p = sqlite3_column_text(st, i);
    dstate *d = row_of(st, i);
    __sym_ret = NULL;
    if (d && p) shadow_bytes(d, i, p, sqlite3_column_bytes(st, i), true);
    return p;
}

const void *data_sqlite3_column_blob(sqlite3_stmt *st, int i)
{
    const void *p = sqlite3_column_blob(st, i);
    dstate *d = row_of(st, i);
    __sym_ret = NULL;
    if (d && p) /* a blob has no terminating NUL: only its bytes */
        shadow_bytes(d, i, p, sqlite3_column_bytes(st, i), false);
    return p;
}

int data_sqlite3_column_bytes(sqlite3_stmt *st, int i)
{
    int n = sqlite3_column_bytes(st, i);
    dstate *d = row_of(st, i);
    __sym_ret = d ? column_input(d, i, "COALESCE(length(CAST(", " AS BLOB)),0)", 32, IT_S32, (uint32_t)n) : NULL;
    return n;
}

int data_sqlite3_column_type(sqlite3_stmt *st, int i)
{
    int t = sqlite3_column_type(st, i);
    dstate *d = row_of(st, i);
    __sym_ret = d ? column_input(d, i, "(CASE typeof(",
                                 ") WHEN 'integer' THEN 1 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'blob' THEN 4 "
                                 "ELSE 5 END)",
                                 32, IT_S32, (uint32_t)t)
                  : NULL;
    return t;
}
