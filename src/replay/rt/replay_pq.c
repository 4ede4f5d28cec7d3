/* replay_pq.c: native replay of a `sympath data` test on PostgreSQL without a server: the program's SELECTs get the results the test recorded. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include "sympath_env.h" /* src/proto/env.h, copied next to this file in lib/ */

/*
 * Linked with the program and replay.c by `sympath replay` when replay.conf has a
 * "replaypq" line, with -Wl,--wrap= of PQconnectdb, PQconnectdbParams, PQsetdbLogin,
 * PQstatus, PQerrorMessage, PQfinish, PQexec, PQexecParams, PQprepare, PQexecPrepared
 * and PQresultErrorMessage, and -lpq. SYMPATH_REPLAY_RESULTS names the test's results
 * file (written by the explorer from the executor's log, src/data/data.h):
 *
 *   sympath-results 1
 *   result<TAB><site id><TAB><ncols>       one block per SELECT executed, in order
 *   names<TAB><name0><TAB>...              optional: the columns' names ("n" log lines)
 *   error<TAB><message>                    optional: the SELECT failed with this message
 *   row<TAB><v0><TAB><v1>...               values as in the "v" log lines: \N is NULL,
 *   end                                    \\ \t \n \r escaped
 *   fail<TAB><message><TAB><sql>           optional, between blocks: a statement that failed
 *                                          ("w" log lines; sql flattened as data_rt_flat does)
 *   writes<TAB>allowed                     optional: the test ran in fixture mode (`sympath run
 *                                          --db postgresql://...`, db_pq.c), where writes succeed
 *
 * A connection is a real PGconn that never reached a server (PQconnectStart of a socket
 * that does not exist), so libpq functions not wrapped here (PQescapeLiteral, ...) get a
 * valid object; PQstatus says CONNECTION_OK for it. A SELECT (same test as the
 * executor's data_is_select) of site S gets the next recorded block of S, built with
 * libpq's own PQmakeEmptyPGresult / PQsetResultAttrs / PQsetvalue (text columns);
 * when none is left (the replay left the recorded path) an empty result, with a note on
 * stderr. Every other statement gets an empty PGRES_COMMAND_OK result, except one that
 * failed when the test ran: the next unused "fail" entry with its text, or, without one,
 * a statement that writes (INSERT, UPDATE, DELETE, CREATE, ...: data mode refused every
 * write) gets PGRES_FATAL_ERROR with PostgreSQL's read-only message, unless the file says
 * "writes allowed" (fixture mode: the write succeeded, an empty PGRES_COMMAND_OK). Without
 * SYMPATH_REPLAY_RESULTS every function is libpq's own.
 *
 * The site id must equal data_site_id (src/data/data_site.c): FNV-1a 64 of the text
 * without leading and trailing blanks and trailing ';'. This file is compiled alone with
 * the program, so it keeps its own copy of that function and of data_is_select.
 */

PGconn *__real_PQconnectdb(const char *conninfo);
PGconn *__real_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname);
PGconn *__real_PQsetdbLogin(const char *host, const char *port, const char *options, const char *tty,
                            const char *dbname, const char *login, const char *pwd);
ConnStatusType __real_PQstatus(const PGconn *conn);
char *__real_PQerrorMessage(const PGconn *conn);
void __real_PQfinish(PGconn *conn);
PGresult *__real_PQexec(PGconn *conn, const char *query);
PGresult *__real_PQexecParams(PGconn *conn, const char *command, int nparams, const Oid *types,
                              const char *const *values, const int *lengths, const int *formats, int result_format);
PGresult *__real_PQprepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types);
PGresult *__real_PQexecPrepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                                const int *lengths, const int *formats, int result_format);
char *__real_PQresultErrorMessage(const PGresult *res);

/* One recorded result block. */
typedef struct block {
    char site[17];
    int ncols;
    char **names;      /* ncols names or NULL */
    char *error;       /* message of a failed SELECT, or NULL */
    char ***rows;      /* nrows rows of ncols values (NULL: SQL NULL) */
    int nrows;
    int used;
} block;

/* Fake connections, prepared statements, error results. */
typedef struct conn_ent { PGconn *c; char msg[1024]; } conn_ent;
typedef struct stmt_ent { const PGconn *c; char *name, *sql; } stmt_ent;
typedef struct err_ent { const PGresult *r; char *msg; } err_ent;
typedef struct fail_ent { char *msg, *sql; int used; } fail_ent;

static int state;       /* 0 not read, 1 replaying from results, -1 plain libpq */
static block *blocks;
static int nblocks;
static conn_ent conns[64];
static stmt_ent *stmts;
static int nstmts;
static err_ent errs[256];
static fail_ent *fails;
static int nfails;
static int warned;
static int writes_ok;   /* "writes allowed": a fixture-mode test, whose writes succeeded */

/* ---------------------------------------------------------------- results file */

/* Unescape a "v" field in place; returns NULL for \N. */
static char *unescape(char *s)
{
    if (!strcmp(s, "\\N"))
        return NULL;
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            *o++ = *p == 't' ? '\t' : *p == 'n' ? '\n' : *p == 'r' ? '\r' : *p;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
    return s;
}

/* Split line at tabs (in place) into a malloc'ed array of n fields. */
static char **fields(char *line, int *n)
{
    int cap = 1;
    for (char *p = line; *p; p++)
        cap += *p == '\t';
    char **f = malloc((size_t)cap * sizeof *f);
    if (!f)
        exit(3);
    *n = 0;
    for (char *p = line;;) {
        f[(*n)++] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = 0;
    }
    return f;
}

static void read_results(void)
{
    if (state)
        return;
    const char *path = getenv(SYMPATH_ENV_REPLAY_RESULTS);
    state = path && *path ? 1 : -1;
    if (state < 0)
        return;
    FILE *f = fopen(path, "r");
    if (!f) /* no SELECT was executed in that test: every SELECT is empty */
        return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    block *b = NULL;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = 0;
        char *copy = strdup(line);
        if (!copy)
            exit(3);
        int n;
        char **fl = fields(copy, &n);
        if (!strcmp(fl[0], "result") && n >= 3) {
            block *nb = realloc(blocks, (size_t)(nblocks + 1) * sizeof *nb);
            if (!nb)
                exit(3);
            blocks = nb;
            b = &blocks[nblocks++];
            memset(b, 0, sizeof *b);
            snprintf(b->site, sizeof b->site, "%s", fl[1]);
            b->ncols = atoi(fl[2]);
            free(fl);
        } else if (b && !strcmp(fl[0], "names")) {
            b->names = calloc((size_t)b->ncols + 1, sizeof *b->names);
            for (int i = 0; b->names && i < b->ncols; i++)
                b->names[i] = i + 1 < n ? fl[i + 1] : "?column?";
            free(fl);
        } else if (b && !strcmp(fl[0], "error")) {
            b->error = n > 1 ? fl[1] : "error";
            free(fl);
        } else if (b && !strcmp(fl[0], "row")) {
            char ***nr = realloc(b->rows, (size_t)(b->nrows + 1) * sizeof *nr);
            char **row = calloc((size_t)b->ncols + 1, sizeof *row);
            if (!nr || !row)
                exit(3);
            b->rows = nr;
            for (int i = 0; i < b->ncols; i++)
                row[i] = i + 1 < n ? unescape(fl[i + 1]) : NULL;
            b->rows[b->nrows++] = row;
            free(fl);
        } else if (!strcmp(fl[0], "writes") && n >= 2) {
            writes_ok = !strcmp(fl[1], "allowed");
            free(fl);
            free(copy);
        } else if (!strcmp(fl[0], "fail") && n >= 3) {
            fail_ent *nf = realloc(fails, (size_t)(nfails + 1) * sizeof *nf);
            if (!nf)
                exit(3);
            fails = nf;
            fails[nfails].msg = fl[1];
            fails[nfails].sql = fl[2];
            fails[nfails++].used = 0;
            free(fl);
        } else {
            if (!strcmp(fl[0], "end"))
                b = NULL;
            free(fl);
            free(copy);
        }
    }
    free(line);
    fclose(f);
}

/* ---------------------------------------------------------------- statements */

static const char *trim(const char *sql, size_t *len)
{
    size_t n = *len;
    while (n && isspace((unsigned char)*sql))
        sql++, n--;
    while (n && (isspace((unsigned char)sql[n - 1]) || sql[n - 1] == ';'))
        n--;
    *len = n;
    return sql;
}

/* data_site_id of src/data/data_site.c */
static void site_id(const char *sql, char out[17])
{
    size_t len = strlen(sql);
    sql = trim(sql, &len);
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)sql[i]) * 1099511628211ull;
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* data_is_select of src/data/data_site.c */
static int is_select(const char *sql)
{
    size_t i = 0, len = strlen(sql);
    for (;;) {
        while (i < len && isspace((unsigned char)sql[i]))
            i++;
        if (i + 1 < len && sql[i] == '-' && sql[i + 1] == '-') {
            while (i < len && sql[i] != '\n')
                i++;
        } else if (i + 1 < len && sql[i] == '/' && sql[i + 1] == '*') {
            const char *e = strstr(sql + i + 2, "*/");
            i = e ? (size_t)(e - sql) + 2 : len;
        } else {
            break;
        }
    }
    if (i < len && sql[i] == '(')
        return 1;
    static const char *const kw[] = {"select", "with", "values"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(kw[k]);
        if (len - i >= n && !strncasecmp(sql + i, kw[k], n) && (len - i == n || !isalnum((unsigned char)sql[i + n])))
            return 1;
    }
    return 0;
}

static conn_ent *fake(const PGconn *c)
{
    for (int i = 0; c && i < 64; i++)
        if (conns[i].c == c)
            return &conns[i];
    return NULL;
}

static PGconn *new_conn(void)
{
    read_results();
    PGconn *c = PQconnectStart("host=/nonexistent/sympath-replay port=5432 dbname=replay connect_timeout=1");
    for (int i = 0; c && i < 64; i++)
        if (!conns[i].c) {
            conns[i].c = c;
            conns[i].msg[0] = 0;
            return c;
        }
    fputs("replay: more than 64 PostgreSQL connections\n", stderr);
    exit(3);
}

/* A PGRES_FATAL_ERROR result whose message (PQresultErrorMessage, and PQerrorMessage of
 * the connection) is msg. */
static PGresult *error_result(conn_ent *ce, const char *msg)
{
    PGresult *r = PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
    snprintf(ce->msg, sizeof ce->msg, "%s\n", msg);
    char *copy = strdup(ce->msg);
    for (int i = 0; i < 256; i++)
        if (!errs[i].r || i == 255) {
            errs[i].r = r;
            errs[i].msg = copy;
            break;
        }
    return r;
}

/* The next recorded result of the SELECT `sql`, as a PGresult. */
static PGresult *serve(conn_ent *ce, const char *sql)
{
    char id[17];
    site_id(sql, id);
    block *b = NULL;
    for (int i = 0; i < nblocks && !b; i++)
        if (!blocks[i].used && !strcmp(blocks[i].site, id))
            b = &blocks[i];
    if (!b) {
        if (!warned++)
            fprintf(stderr, "replay: no recorded result left for the SELECT of site %s: an empty one\n", id);
        PGresult *r = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
        return r;
    }
    b->used = 1;
    if (b->error)
        return error_result(ce, b->error);
    PGresult *r = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
    PGresAttDesc *att = calloc((size_t)b->ncols + 1, sizeof *att);
    char (*dflt)[16] = calloc((size_t)b->ncols + 1, sizeof *dflt);
    if (!r || !att || !dflt)
        exit(3);
    for (int i = 0; i < b->ncols; i++) {
        snprintf(dflt[i], sizeof dflt[i], "c%d", i);
        att[i].name = b->names ? b->names[i] : dflt[i];
        att[i].typid = 25; /* text: the values are their text forms */
        att[i].typlen = -1;
        att[i].atttypmod = -1;
        att[i].format = 0;
    }
    if (!PQsetResultAttrs(r, b->ncols, att))
        exit(3);
    for (int k = 0; k < b->nrows; k++)
        for (int i = 0; i < b->ncols; i++) {
            const char *v = b->rows[k][i];
            if (!PQsetvalue(r, k, i, (char *)(v ? v : ""), v ? (int)strlen(v) : -1))
                exit(3);
        }
    free(att);
    free(dflt);
    ce->msg[0] = 0;
    return r;
}

/* The first word of sql in upper case into buf (NULL when it is not a statement that
 * writes, as far as a read-only transaction is concerned). */
static const char *writing_command(const char *sql, char *buf, size_t cap)
{
    static const char *const writes[] = {"INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER",
                                         "TRUNCATE", "COPY", "GRANT", "REVOKE", "COMMENT", "CLUSTER", "REINDEX",
                                         "REFRESH", "SECURITY", "IMPORT"};
    while (isspace((unsigned char)*sql))
        sql++;
    size_t n = 0;
    while (isalpha((unsigned char)sql[n]) && n + 1 < cap) {
        buf[n] = (char)toupper((unsigned char)sql[n]);
        n++;
    }
    buf[n] = 0;
    for (size_t k = 0; k < sizeof writes / sizeof *writes; k++)
        if (!strcmp(buf, writes[k]))
            return buf;
    return NULL;
}

/* sql with tabs and newlines as blanks, at most cap - 1 bytes (data_rt_flat of the runtime) */
static void flat(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = src[i] == '\t' || src[i] == '\n' || src[i] == '\r' ? ' ' : src[i];
    dst[i] = 0;
}

static PGresult *statement(conn_ent *ce, const char *sql)
{
    if (sql && is_select(sql))
        return serve(ce, sql);
    static char text[4096];
    flat(text, sizeof text, sql ? sql : "");
    for (int i = 0; i < nfails; i++)
        if (!fails[i].used && !strcmp(fails[i].sql, text)) {
            fails[i].used = 1;
            return error_result(ce, fails[i].msg);
        }
    char cmd[32], msg[128];
    if (!writes_ok && sql && writing_command(sql, cmd, sizeof cmd)) {
        snprintf(msg, sizeof msg, "ERROR:  cannot execute %s in a read-only transaction", cmd);
        return error_result(ce, msg);
    }
    ce->msg[0] = 0;
    return PQmakeEmptyPGresult(NULL, PGRES_COMMAND_OK);
}

/* ---------------------------------------------------------------- the wrapped functions */

PGconn *__wrap_PQconnectdb(const char *conninfo)
{
    read_results();
    return state > 0 ? new_conn() : __real_PQconnectdb(conninfo);
}

PGconn *__wrap_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname)
{
    read_results();
    return state > 0 ? new_conn() : __real_PQconnectdbParams(keywords, values, expand_dbname);
}

PGconn *__wrap_PQsetdbLogin(const char *host, const char *port, const char *options, const char *tty,
                            const char *dbname, const char *login, const char *pwd)
{
    read_results();
    return state > 0 ? new_conn() : __real_PQsetdbLogin(host, port, options, tty, dbname, login, pwd);
}

ConnStatusType __wrap_PQstatus(const PGconn *conn)
{
    return fake(conn) ? CONNECTION_OK : __real_PQstatus(conn);
}

char *__wrap_PQerrorMessage(const PGconn *conn)
{
    conn_ent *ce = fake(conn);
    return ce ? ce->msg : __real_PQerrorMessage(conn);
}

void __wrap_PQfinish(PGconn *conn)
{
    conn_ent *ce = fake(conn);
    if (ce)
        ce->c = NULL;
    for (int i = 0; i < nstmts; i++)
        if (stmts[i].c == conn)
            stmts[i].c = NULL;
    __real_PQfinish(conn);
}

PGresult *__wrap_PQexec(PGconn *conn, const char *query)
{
    conn_ent *ce = fake(conn);
    return ce ? statement(ce, query) : __real_PQexec(conn, query);
}

PGresult *__wrap_PQexecParams(PGconn *conn, const char *command, int nparams, const Oid *types,
                              const char *const *values, const int *lengths, const int *formats, int result_format)
{
    conn_ent *ce = fake(conn);
    return ce ? statement(ce, command)
              : __real_PQexecParams(conn, command, nparams, types, values, lengths, formats, result_format);
}

PGresult *__wrap_PQprepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types)
{
    conn_ent *ce = fake(conn);
    if (!ce)
        return __real_PQprepare(conn, name, query, nparams, types);
    stmt_ent *ns = realloc(stmts, (size_t)(nstmts + 1) * sizeof *ns);
    if (!ns)
        exit(3);
    stmts = ns;
    stmts[nstmts].c = conn;
    stmts[nstmts].name = strdup(name ? name : "");
    stmts[nstmts].sql = strdup(query ? query : "");
    nstmts++;
    ce->msg[0] = 0;
    return PQmakeEmptyPGresult(NULL, PGRES_COMMAND_OK);
}

PGresult *__wrap_PQexecPrepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                                const int *lengths, const int *formats, int result_format)
{
    conn_ent *ce = fake(conn);
    if (!ce)
        return __real_PQexecPrepared(conn, name, nparams, values, lengths, formats, result_format);
    const char *sql = NULL;
    for (int i = nstmts - 1; i >= 0 && !sql; i--) /* the latest statement of that name */
        if (stmts[i].c == conn && !strcmp(stmts[i].name, name ? name : ""))
            sql = stmts[i].sql;
    return statement(ce, sql);
}

char *__wrap_PQresultErrorMessage(const PGresult *res)
{
    for (int i = 0; res && i < 256; i++)
        if (errs[i].r == res)
            return errs[i].msg;
    return __real_PQresultErrorMessage(res);
}
