/* data_pq.c: libpq in data mode: connections to the user's server read-only, statements refused, wrapped per the plan or run, and their log lines (values: data_pq_values.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include "../../db/db.h"
#include "../dbcommon/data_rt.h"
#include "data_pq_int.h"
#include "util/util.h"
#include "../../db/db.h"

/*
 * The program's libpq calls reach sym_PQ* (pq_dispatch.c) through the stubs of pq_models.c;
 * in data mode the dispatcher calls data_pq_* here (protocol in src/data/data.h):
 *
 *  - connect (PQconnectdb, PQconnectdbParams, PQsetdbLogin): whatever the program names,
 *    the connection goes to SYMPATH_DATA_DB, read-only (data_pg_connect).
 *  - a statement that could make the connection writable (data_pg_refused) is not sent:
 *    the program gets the server's error of a DO block that raises "refused by sympath
 *    data" instead, and a "w" line is logged.
 *  - a SELECT (data_is_select; PQexec, PQexecParams, PQexecPrepared of a statement
 *    PQprepare'd here) is described (unnamed prepared statement: its column count, names
 *    and types), logged ("s"), and run as data_wrap_select_at(sql, ncols, the plan's
 *    WHERE, LIMIT and OFFSET for its site) with the program's parameters, its columns renamed back to
 *    the program's names (PQfname/PQfnumber see what they would; logged as "n" for the
 *    replay). libpq fetches every row at once, so each row is logged when the result
 *    arrives: "t" (its key: "pg:" and a hash of its values, see row_key) and one "v" per
 *    column ("symbolic 0", the full-scan run: one "c" line
 *    with the row count instead). A SELECT whose describe fails (syntax error, aborted transaction, several
 *    statements in one PQexec) runs unchanged, as the program wrote it.
 *  - PQgetvalue / PQgetisnull / PQgetlength of a row of such a result (text format) give
 *    data inputs whose SQL terms recompute the value from the wrapped query's columns
 *    cK: the bytes of the text (data_pq_values.c, col_sql), whether it is NULL, its length.
 *  - every other statement runs unchanged; one that fails logs "w" (writes fail there
 *    with PostgreSQL's read-only error).
 *  - PQclear drops the result's shadows (its memory goes back to malloc); PQfinish forgets
 *    the connection's prepared statements.
 *
 * Not intercepted (libpq's own, concrete): the asynchronous API (PQsendQuery...),
 * COPY, binary-format results (no inputs: the bytes are not text), PQfn. Parameters in
 * binary format are logged as NULL (their type's binary form is not decoded), which
 * only makes the explorer's estimates for that site less exact.
 */

/* A statement the program prepared: its text, to be wrapped at each execution. */
typedef struct pq_stmt {
    struct pq_stmt *next;
    const PGconn *conn;
    char *name;
    char *sql;
    int nparams;
    Oid *types; /* nparams entries or NULL */
} pq_stmt;

pq_res *data_pq_results;
static pq_stmt *stmts;

/* ---------------------------------------------------------------- log */

/* "w <message> <sql>" for a statement that failed on conn (res may be NULL). */
static void log_failure(const PGconn *conn, const PGresult *res, const char *sql)
{
    char msg[1024], m2[1024], text[4096];
    data_pg_message(conn, res, msg, sizeof msg);
    proto_flat(m2, sizeof m2, msg);
    proto_flat(text, sizeof text, sql ? sql : "");
    data_rt_log("w\t%s\t%s", m2, text);
}

static bool failed(const PGresult *r)
{
    ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    return s == PGRES_FATAL_ERROR || s == PGRES_BAD_RESPONSE || s == PGRES_NONFATAL_ERROR;
}

/* A SQL literal of a type the server names by oid (the common ones; others stay untyped). */
static const char *type_name(Oid t)
{
    switch (t) {
    case 16: return "boolean";
    case 20: return "int8";
    case 21: return "int2";
    case 23: return "int4";
    case 25: return "text";
    case 700: return "float4";
    case 701: return "float8";
    case 1042: return "bpchar";
    case 1043: return "varchar";
    case 1082: return "date";
    case 1114: return "timestamp";
    case 1184: return "timestamptz";
    case 1700: return "numeric";
    default: return NULL;
    }
}

/* Parameter i as an SQL literal, malloc'ed ("NULL" for NULL and binary values). */
static char *param_literal(int i, const Oid *types, const char *const *values, const int *lengths, const int *formats)
{
    if (!values || !values[i] || (formats && formats[i])) return strdup("NULL");
    char *lit = db_sql_text(true, values[i], strlen(values[i]));
    const char *tn = types && types[i] ? type_name(types[i]) : NULL;
    if (lit && tn) {
        char *t = NULL;
        if (asprintf(&t, "%s::%s", lit, tn) < 0) t = NULL;
        free(lit);
        lit = t;
    }
    return lit;
}

/* The "s" line (data_rt_log_site) with the parameters as literals. */
static void log_site(const char *site, int ncols, const char *sql, int nparams, const Oid *types,
                     const char *const *values, const int *lengths, const int *formats)
{
    char **lits = nparams > 0 ? calloc((size_t)nparams, sizeof *lits) : NULL;
    for (int i = 0; lits && i < nparams; i++) lits[i] = param_literal(i, types, values, lengths, formats);
    data_rt_log_site(site, ncols, "pg", sql, lits ? nparams : 0, lits);
    for (int i = 0; lits && i < nparams; i++) free(lits[i]);
    free(lits);
}

/* "n <site> <name>..." the result columns' names, for the replay's results */
static void log_names(const char *site, const PGresult *desc, int ncols)
{
    const char **f = calloc((size_t)ncols + 1, sizeof *f);
    char head[32];
    if (!f) return;
    snprintf(head, sizeof head, "n\t%s", site);
    for (int i = 0; i < ncols; i++) f[i] = PQfname(desc, i);
    data_rt_log_fields(head, f, ncols, 1024);
    free(f);
}

/* The "v" form of a value: \N for NULL, else the text escaped as in .results (results_put_value). */
static void log_value(uint64_t tuple, int col, const PGresult *r, int row)
{
    strbuf b = STRBUF_INIT;
    int null = PQgetisnull(r, row, col);
    results_put_value(&b, null ? NULL : PQgetvalue(r, row, col), null ? 0 : (size_t)PQgetlength(r, row, col));
    if (!b.failed) data_rt_log("v\t%llu\t%d\t%.7990s", (unsigned long long)tuple, col, b.s);
    sb_free(&b);
}

/* ---------------------------------------------------------------- connect */

static PGconn *connect_ro(const char *program_conninfo)
{
    const char *db = data_rt_db();
    char err[1024] = "";
    PGconn *c = data_pg_connect(db ? db : program_conninfo ? program_conninfo : "", err, sizeof err);
    if (c && PQstatus(c) != CONNECTION_OK) log_failure(c, NULL, "connect");
    if (!c) { /* connected, but not read-only: never hand that out; a connection that failed instead */
        char m[1100];
        snprintf(m, sizeof m, "cannot make the connection read-only: %s", err);
        data_rt_log("w\t%s\tconnect", m);
        c = PQconnectdb("host=/nonexistent/sympath-read-only-setup-failed connect_timeout=1");
    }
    return c;
}

PGconn *data_pq_connect(const char *conninfo)
{
    __sym_ret = NULL;
    return connect_ro(conninfo);
}

/* ---------------------------------------------------------------- statements */

/* The error result of a refused statement: the server's own error of a DO block, so that
 * PQerrorMessage and PQresultErrorMessage say why. */
static PGresult *refuse(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, "DO $sympath$BEGIN RAISE EXCEPTION 'refused by sympath data: the statement could "
                               "make the connection writable'; END$sympath$");
    log_failure(conn, r, sql);
    return r;
}

pq_res *data_pq_find_res(const PGresult *r)
{
    for (pq_res *p = data_pq_results; p; p = p->next)
        if (p->res == r) return p;
    return NULL;
}

/* `wrapped` (data_wrap_select's text) with "SELECT * FROM sympath_q" replaced by a select
 * list that gives the columns the program's names back; malloc'ed, NULL when out of memory. */
static char *rename_columns(const char *wrapped, const PGresult *desc, int ncols)
{
    static const char tail[] = "\n) SELECT * FROM sympath_q";
    const char *at = NULL;
    for (const char *p = strstr(wrapped, tail); p; p = strstr(p + 1, tail))
        at = p; /* the last one: the condition after it holds no newline */
    if (!at) return strdup(wrapped);
    size_t cap = strlen(wrapped) + 64;
    for (int i = 0; i < ncols; i++) cap += strlen(PQfname(desc, i)) * 2 + 24;
    char *s = malloc(cap);
    if (!s) return NULL;
    size_t o = (size_t)(at - wrapped);
    memcpy(s, wrapped, o);
    o += (size_t)snprintf(s + o, cap - o, "\n) SELECT ");
    for (int i = 0; i < ncols; i++) {
        o += (size_t)snprintf(s + o, cap - o, "%sc%d AS \"", i ? ", " : "", i);
        for (const char *n = PQfname(desc, i); *n; n++) {
            if (*n == '"') s[o++] = '"';
            s[o++] = *n;
        }
        s[o++] = '"';
    }
    snprintf(s + o, cap - o, " FROM sympath_q%s", at + sizeof tail - 1);
    return s;
}

/* Run the original statement as the program asked (params NULL: PQexec). */
static PGresult *run_plain(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                           const char *const *values, const int *lengths, const int *formats, int result_format)
{
    PGresult *r = with_params ? PQexecParams(conn, sql, nparams, types, values, lengths, formats, result_format)
                              : PQexec(conn, sql);
    if (failed(r)) log_failure(conn, r, sql);
    return r;
}

/* The key of a returned row for the explorer's count of distinct tuples: FNV-1a 64 of its
 * values (PostgreSQL gives no row identity through an arbitrary query; rows equal in every
 * column the program sees count once, which only delays the "table exhausted" stop). */
static uint64_t row_key(const PGresult *r, int row)
{
    uint64_t h = 14695981039346656037ull;
    for (int c = 0; c < PQnfields(r); c++) {
        const char *p = PQgetisnull(r, row, c) ? NULL : PQgetvalue(r, row, c);
        int len = p ? PQgetlength(r, row, c) : 0;
        h = (h ^ (p ? 1u : 2u)) * 1099511628211ull;
        for (int k = 0; k < len; k++) h = (h ^ (uint8_t)p[k]) * 1099511628211ull;
        h = (h ^ 0xffu) * 1099511628211ull; /* column separator */
    }
    return h;
}

/* A SELECT of the program in data mode (see the top of the file). */
static PGresult *run_select(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                            const char *const *values, const int *lengths, const int *formats, int result_format)
{
    size_t len = strlen(sql);
    PGresult *prep = PQprepare(conn, "", sql, nparams, types);
    bool ok = prep && PQresultStatus(prep) == PGRES_COMMAND_OK;
    PQclear(prep);
    PGresult *desc = ok ? PQdescribePrepared(conn, "") : NULL;
    int ncols = desc && PQresultStatus(desc) == PGRES_COMMAND_OK ? PQnfields(desc) : 0;
    if (ncols <= 0) {
        PQclear(desc);
        return run_plain(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    }
    char site[17];
    data_site_id(sql, len, site);
    const data_plan_site *p = data_rt_plan_for(site);
    char *wrapped = data_wrap_select_at(sql, len, ncols, p ? p->cond : NULL, p ? p->limit : data_rt_default_limit(),
                                        p ? p->offset : 0);
    char *named = wrapped ? rename_columns(wrapped, desc, ncols) : NULL;
    free(wrapped);
    if (!named) {
        PQclear(desc);
        return run_plain(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    }
    log_site(site, ncols, sql, nparams, types, values, lengths, formats);
    log_names(site, desc, ncols);
    PQclear(desc);
    PGresult *r = PQexecParams(conn, named, nparams, types, values, lengths, formats, result_format);
    if (failed(r)) {
        log_failure(conn, r, sql);
    } else if (r && PQresultStatus(r) == PGRES_TUPLES_OK && !data_rt_symbolic()) {
        /* the full-scan comparison run: rows counted, no inputs, no values recorded */
        data_rt_log("c\t%s\t%d", site, PQntuples(r));
    } else if (r && PQresultStatus(r) == PGRES_TUPLES_OK) {
        pq_res *pr = calloc(1, sizeof *pr);
        int n = PQntuples(r);
        for (int row = 0; row < n; row++) {
            uint64_t t = data_rt_next_tuple();
            if (row == 0 && pr) pr->first_tuple = t;
            data_rt_log("t\t%s\t%llu\tpg:%016llx", site, (unsigned long long)t, (unsigned long long)row_key(r, row));
            for (int c = 0; c < ncols && c < PQnfields(r); c++) log_value(t, c, r, row);
        }
        if (pr) {
            pr->res = r;
            memcpy(pr->site, site, sizeof site);
            pr->nrows = n;
            const char *enc = PQparameterStatus(conn, "server_encoding");
            pr->utf8_server = enc && !strcmp(enc, "UTF8");
            pr->next = data_pq_results;
            data_pq_results = pr;
        }
    }
    free(named);
    return r;
}

/* Any statement of the program in data mode: refused, wrapped or plain. */
static PGresult *run(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                     const char *const *values, const int *lengths, const int *formats, int result_format)
{
    if (!sql) return run_plain(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    if (data_pg_refused(sql)) return refuse(conn, sql);
    if (data_is_select(sql, strlen(sql)))
        return run_select(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    return run_plain(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
}

PGresult *data_pq_exec(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                       const char *const *values, const int *lengths, const int *formats, int result_format)
{
    __sym_ret = NULL;
    return run(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
}

static pq_stmt *find_stmt(const PGconn *conn, const char *name)
{
    for (pq_stmt *s = stmts; s; s = s->next)
        if (s->conn == conn && !strcmp(s->name, name ? name : "")) return s;
    return NULL;
}

PGresult *data_pq_prepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types)
{
    __sym_ret = NULL;
    if (query && data_pg_refused(query)) return refuse(conn, query);
    PGresult *r = PQprepare(conn, name, query, nparams, types);
    if (failed(r)) {
        log_failure(conn, r, query);
        return r;
    }
    pq_stmt *s = find_stmt(conn, name);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s) return r;
        s->conn = conn;
        s->name = strdup(name ? name : "");
        s->next = stmts;
        stmts = s;
    }
    free(s->sql);
    free(s->types);
    s->sql = strdup(query);
    s->nparams = nparams;
    s->types = NULL;
    if (types && nparams > 0 && (s->types = malloc((size_t)nparams * sizeof *s->types)))
        memcpy(s->types, types, (size_t)nparams * sizeof *s->types);
    return r;
}

/* A prepared SELECT is run as the wrapped SELECT through PQexecParams with the types it was
 * prepared with; an unnamed statement too (the describe of run_select reuses the unnamed
 * slot, so its server-side copy may be gone); other named statements as prepared. */
PGresult *data_pq_exec_prepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                                const int *lengths, const int *formats, int result_format)
{
    __sym_ret = NULL;
    pq_stmt *s = find_stmt(conn, name);
    if (s && s->sql && (data_is_select(s->sql, strlen(s->sql)) || !*s->name))
        return run(conn, s->sql, true, nparams, nparams <= s->nparams ? s->types : NULL, values, lengths, formats,
                   result_format);
    PGresult *r = PQexecPrepared(conn, name, nparams, values, lengths, formats, result_format);
    if (failed(r)) log_failure(conn, r, s && s->sql ? s->sql : name);
    return r;
}

/* The statements prepared on conn die with it (a later connection may get its address). */
void data_pq_finish(PGconn *conn)
{
    __sym_ret = NULL;
    for (pq_stmt **pp = &stmts; *pp;) {
        pq_stmt *s = *pp;
        if (s->conn == conn) {
            *pp = s->next;
            free(s->name), free(s->sql), free(s->types), free(s);
        } else {
            pp = &s->next;
        }
    }
    PQfinish(conn);
}
