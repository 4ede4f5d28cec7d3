/* replay_pq.c: native replay of a `sympath data` test on PostgreSQL without a server: the program's SELECTs get the results the test recorded. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libpq-fe.h>
#include "sympath_env.h" /* src/proto/env.h, copied next to this file in lib/ */

#include "data/data.h"
#include "proto/proto.h"

/*
 * Linked with the program and replay.c by `sympath replay` when replay.conf has a
 * "replaypq" line, with -Wl,--wrap= of PQconnectdb, PQconnectdbParams, PQsetdbLogin,
 * PQstatus, PQerrorMessage, PQfinish, PQexec, PQexecParams, PQprepare, PQexecPrepared,
 * PQresultErrorMessage, PQcmdTuples and PQclear, and -lpq. SYMPATH_REPLAY_RESULTS names the test's results
 * file (format and its one reader in src/proto/proto.h, read with results_read):
 * the recorded blocks of the SELECTs and the statements that failed.
 *
 * A connection is a real PGconn that never reached a server (PQconnectStart of a socket
 * that does not exist), so libpq functions not wrapped here (PQescapeLiteral, ...) get a
 * valid object; PQstatus says CONNECTION_OK for it. A SELECT (same test as the
 * executor's data_is_select) of site S gets the next recorded block of S, built with
 * libpq's own PQmakeEmptyPGresult / PQsetResultAttrs / PQsetvalue (text columns);
 * when none is left (the replay left the recorded path) an empty result, with a note on
 * stderr. Every other statement takes the first unused "fail" or "done" entry with its
 * text (execution order): a failed one its error, a done one an empty PGRES_COMMAND_OK
 * result whose PQcmdTuples is the recorded count (a write with RETURNING: the rows recorded for its site
 * before that entry, served as a SELECT's). Without one, a statement that writes
 * (INSERT, UPDATE, DELETE, CREATE, ...: data mode refused every write) gets
 * PGRES_FATAL_ERROR with PostgreSQL's read-only message, unless the file says "writes
 * allowed" (fixture mode: the write succeeded, an empty PGRES_COMMAND_OK whose PQcmdTuples
 * is "", as every write's in a file older than the done entries); any other statement an
 * empty PGRES_COMMAND_OK. PQcmdTuples of a served SELECT is its row count, as libpq's. Without
 * SYMPATH_REPLAY_RESULTS every function is libpq's own.
 *
 * A fixture-mode test's vector starts its fixture at the first connect: its
 * SYMPATH_REPLAY_DB_INPUTS values are skipped there, the last read as the test's injected
 * fault (db:fault, runtime/dbcommon/db_fault.c). The connects and the four statement
 * functions are counted as the executor counts them, and the call with that number fails as
 * it did (runtime/pq/db_pq_fault.c): a connection to a socket that cannot exist, or
 * PGRES_FATAL_ERROR with the server's message for "SELECT sympath_injected_fault()".
 *
 * Site ids, the SELECT test and the flattening of a failed statement are the executor's
 * own (data_site_id, data_is_select, proto_flat), from lib/libsympath-replay.a, which the
 * replay builder links after this file; a results file it cannot read stops the test
 * (exit code 3, the reason on stderr).
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
char *__real_PQcmdTuples(PGresult *res);
void __real_PQclear(PGresult *res);

/* Fake connections, prepared statements, error results. */
typedef struct conn_ent {
    PGconn *c;
    char msg[1024];
} conn_ent;
typedef struct stmt_ent {
    const PGconn *c;
    char *name, *sql;
} stmt_ent;
/* What a fake result says that libpq's own functions on it would not: its error message
 * (PQresultErrorMessage), its row count (PQcmdTuples). */
typedef struct res_note {
    const PGresult *r;
    char *msg;                           /* NULL: libpq's */
    char tuples[RESULTS_MAX_TUPLES + 1]; /* "": libpq's */
} res_note;

static int state;        /* 0 not read, 1 replaying from results, -1 plain libpq */
static results recorded; /* the test's results file (items[i].is_fail: a "fail" entry) */
static char *used;       /* used[i]: recorded.items[i] was served */
static conn_ent conns[64];
static stmt_ent *stmts;
static int nstmts;
static res_note notes[256];
static int warned;
static int writes_ok; /* "writes allowed": a fixture-mode test, whose writes succeeded */
static int fault_read;
static unsigned long long fault, counted; /* the fallible call that fails (0 none), calls so far */

void __sym_replay_skip_inputs(unsigned long n);
unsigned long long __sym_replay_next_int(void);

/* ---------------------------------------------------------------- results file */

static void read_results(void)
{
    if (state) return;
    const char *path = getenv(SYMPATH_ENV_REPLAY_RESULTS);
    state = path && *path ? 1 : -1;
    if (state < 0 || access(path, F_OK)) /* no file: no SELECT was executed in that test, every SELECT is empty */
        return;
    char *err = NULL;
    if (results_read(path, &recorded, &err)) {
        fprintf(stderr, "replay: %s\n", err ? err : "out of memory");
        exit(3);
    }
    writes_ok = recorded.writes_allowed;
    used = calloc(recorded.nitems + 1, 1);
    if (!used) exit(3);
}

static conn_ent *fake(const PGconn *c)
{
    for (int i = 0; c && i < 64; i++)
        if (conns[i].c == c) return &conns[i];
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

/* The note of r, NULL when it has none. */
static res_note *note_of(const PGresult *r)
{
    for (int i = 0; r && i < 256; i++)
        if (notes[i].r == r) return &notes[i];
    return NULL;
}

/* A new note for r (the last entry is reused when more than 256 noted results are alive). */
static res_note *new_note(const PGresult *r)
{
    int i = 0;
    while (i < 255 && notes[i].r) i++;
    free(notes[i].msg);
    notes[i] = (res_note){r, NULL, ""};
    return &notes[i];
}

/* Forget r's note (PQclear; a new result at the address of a result freed otherwise). */
static void forget_note(const PGresult *r)
{
    res_note *n = note_of(r);
    if (n) {
        free(n->msg);
        *n = (res_note){NULL, NULL, ""};
    }
}

/* A new empty result of status st (without a note). */
static PGresult *empty_result(ExecStatusType st)
{
    PGresult *r = PQmakeEmptyPGresult(NULL, st);
    forget_note(r);
    return r;
}

/* A PGRES_FATAL_ERROR result whose message (PQresultErrorMessage, and PQerrorMessage of
 * the connection) is msg. */
static PGresult *error_result(conn_ent *ce, const char *msg)
{
    PGresult *r = empty_result(PGRES_FATAL_ERROR);
    snprintf(ce->msg, sizeof ce->msg, "%s\n", msg);
    if (r) new_note(r)->msg = strdup(ce->msg);
    return r;
}

/* A successful result of status st whose PQcmdTuples is tuples (at most RESULTS_MAX_TUPLES
 * bytes; "" keeps libpq's). */
static PGresult *counted_result(ExecStatusType st, const char *tuples)
{
    PGresult *r = empty_result(st);
    if (r && *tuples) snprintf(new_note(r)->tuples, RESULTS_MAX_TUPLES + 1, "%s", tuples);
    return r;
}

/* The next recorded result of the SELECT `sql`, as a PGresult. */
static PGresult *serve(conn_ent *ce, const char *sql)
{
    char id[17];
    data_site_id(sql, strlen(sql), id);
    results_item *b = NULL;
    for (size_t i = 0; i < recorded.nitems && !b; i++)
        if (!used[i] && !recorded.items[i].is_fail && !recorded.items[i].is_done && !strcmp(recorded.items[i].site, id))
            b = &recorded.items[i], used[i] = 1;
    if (!b) {
        if (!warned++) fprintf(stderr, "replay: no recorded result left for the SELECT of site %s: an empty one\n", id);
        PGresult *r = empty_result(PGRES_TUPLES_OK);
        return r;
    }
    if (b->error) return error_result(ce, b->error);
    char count[RESULTS_MAX_TUPLES + 1]; /* libpq's PQcmdTuples of a SELECT: its rows */
    snprintf(count, sizeof count, "%zu", b->nrows);
    PGresult *r = counted_result(PGRES_TUPLES_OK, count);
    PGresAttDesc *att = calloc((size_t)b->ncols + 1, sizeof *att);
    char(*dflt)[16] = calloc((size_t)b->ncols + 1, sizeof *dflt);
    if (!r || !att || !dflt) exit(3);
    for (int i = 0; i < b->ncols; i++) {
        snprintf(dflt[i], sizeof dflt[i], "c%d", i);
        att[i].name = b->names ? b->names[i] : dflt[i];
        att[i].typid = 25; /* text: the values are their text forms */
        att[i].typlen = -1;
        att[i].atttypmod = -1;
        att[i].format = 0;
    }
    if (!PQsetResultAttrs(r, b->ncols, att)) exit(3);
    for (size_t k = 0; k < b->nrows; k++)
        for (int i = 0; i < b->ncols; i++) {
            const char *v = b->rows[k][i];
            if (!PQsetvalue(r, (int)k, i, (char *)(v ? v : ""), v ? (int)strlen(v) : -1)) exit(3);
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
    static const char *const writes[] = {"INSERT",  "UPDATE",   "DELETE",  "MERGE",    "CREATE", "DROP",
                                         "ALTER",   "TRUNCATE", "COPY",    "GRANT",    "REVOKE", "COMMENT",
                                         "CLUSTER", "REINDEX",  "REFRESH", "SECURITY", "IMPORT"};
    while (isspace((unsigned char)*sql)) sql++;
    size_t n = 0;
    while (isalpha((unsigned char)sql[n]) && n + 1 < cap) {
        buf[n] = (char)toupper((unsigned char)sql[n]);
        n++;
    }
    buf[n] = 0;
    for (size_t k = 0; k < sizeof writes / sizeof *writes; k++)
        if (!strcmp(buf, writes[k])) return buf;
    return NULL;
}

static PGresult *statement(conn_ent *ce, const char *sql)
{
    if (sql && data_is_select(sql, strlen(sql))) return serve(ce, sql);
    static char text[4096]; /* flattened and cut as the executor recorded it (db_pq_record.c) */
    proto_flat(text, sizeof text, sql);
    for (size_t i = 0; i < recorded.nitems; i++) {
        const results_item *it = &recorded.items[i];
        if (used[i] || !(it->is_fail || it->is_done) || strcmp(it->sql, text)) continue;
        used[i] = 1;
        if (it->is_fail) return error_result(ce, it->msg);
        ce->msg[0] = 0;
        /* INSERT/UPDATE/DELETE ... RETURNING: its rows were recorded as a block of its site before the
         * done entry (db_pq.c); PQcmdTuples of that result is its row count, as libpq's */
        char id[17];
        data_site_id(sql, strlen(sql), id);
        for (size_t j = 0; j < i; j++)
            if (!used[j] && !recorded.items[j].is_fail && !recorded.items[j].is_done &&
                !strcmp(recorded.items[j].site, id))
                return serve(ce, sql);
        return counted_result(PGRES_COMMAND_OK, it->tuples);
    }
    char cmd[32], msg[128];
    if (!writes_ok && sql && writing_command(sql, cmd, sizeof cmd)) {
        snprintf(msg, sizeof msg, "ERROR:  cannot execute %s in a read-only transaction", cmd);
        return error_result(ce, msg);
    }
    ce->msg[0] = 0;
    return empty_result(PGRES_COMMAND_OK);
}

/* ---------------------------------------------------------------- injected faults */

/* At the first connect of a replay from results: skip the fixture's inputs, keep db:fault. */
static void read_fault(void)
{
    if (fault_read || state <= 0) return;
    fault_read = 1;
    const char *n = getenv(SYMPATH_ENV_REPLAY_DB_INPUTS);
    unsigned long k = n ? strtoul(n, NULL, 10) : 0;
    if (k) {
        __sym_replay_skip_inputs(k - 1);
        fault = __sym_replay_next_int() & 0xffff;
        const char *on = getenv(SYMPATH_ENV_DB_FAULTS); /* --no-db-faults: the run injected none */
        if (on && !strcmp(on, "0")) fault = 0;
    }
}

/* Count one fallible call; true when it is the one that fails. */
static int fails(void)
{
    if (state <= 0 || !fault || counted >= fault) return 0;
    return ++counted == fault;
}

static PGconn *fault_conn(void) { return __real_PQconnectdb("host=" SYMPATH_FAULT_NO_FILE " connect_timeout=1"); }

static PGresult *fault_result(PGconn *conn)
{
    conn_ent *ce = fake(conn);
    if (!ce) return __real_PQexec(conn, "SELECT sympath_injected_fault()");
    return error_result(ce, "ERROR:  function sympath_injected_fault() does not exist");
}

/* ---------------------------------------------------------------- the wrapped functions */

PGconn *__wrap_PQconnectdb(const char *conninfo)
{
    read_results();
    read_fault();
    if (fails()) return fault_conn();
    return state > 0 ? new_conn() : __real_PQconnectdb(conninfo);
}

PGconn *__wrap_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname)
{
    read_results();
    read_fault();
    if (fails()) return fault_conn();
    return state > 0 ? new_conn() : __real_PQconnectdbParams(keywords, values, expand_dbname);
}

PGconn *__wrap_PQsetdbLogin(const char *host, const char *port, const char *options, const char *tty,
                            const char *dbname, const char *login, const char *pwd)
{
    read_results();
    read_fault();
    if (fails()) return fault_conn();
    return state > 0 ? new_conn() : __real_PQsetdbLogin(host, port, options, tty, dbname, login, pwd);
}

ConnStatusType __wrap_PQstatus(const PGconn *conn) { return fake(conn) ? CONNECTION_OK : __real_PQstatus(conn); }

char *__wrap_PQerrorMessage(const PGconn *conn)
{
    conn_ent *ce = fake(conn);
    return ce ? ce->msg : __real_PQerrorMessage(conn);
}

void __wrap_PQfinish(PGconn *conn)
{
    conn_ent *ce = fake(conn);
    if (ce) ce->c = NULL;
    for (int i = 0; i < nstmts; i++)
        if (stmts[i].c == conn) stmts[i].c = NULL;
    __real_PQfinish(conn);
}

PGresult *__wrap_PQexec(PGconn *conn, const char *query)
{
    if (fails()) return fault_result(conn);
    if (fails()) return NULL; /* the second way a statement fails (db_fault_null_node) */
    conn_ent *ce = fake(conn);
    return ce ? statement(ce, query) : __real_PQexec(conn, query);
}

PGresult *__wrap_PQexecParams(PGconn *conn, const char *command, int nparams, const Oid *types,
                              const char *const *values, const int *lengths, const int *formats, int result_format)
{
    if (fails()) return fault_result(conn);
    if (fails()) return NULL;
    conn_ent *ce = fake(conn);
    return ce ? statement(ce, command)
              : __real_PQexecParams(conn, command, nparams, types, values, lengths, formats, result_format);
}

PGresult *__wrap_PQprepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types)
{
    if (fails()) return fault_result(conn);
    conn_ent *ce = fake(conn);
    if (!ce) return __real_PQprepare(conn, name, query, nparams, types);
    stmt_ent *ns = realloc(stmts, (size_t)(nstmts + 1) * sizeof *ns);
    if (!ns) exit(3);
    stmts = ns;
    stmts[nstmts].c = conn;
    stmts[nstmts].name = strdup(name ? name : "");
    stmts[nstmts].sql = strdup(query ? query : "");
    nstmts++;
    ce->msg[0] = 0;
    return empty_result(PGRES_COMMAND_OK);
}

PGresult *__wrap_PQexecPrepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                                const int *lengths, const int *formats, int result_format)
{
    if (fails()) return fault_result(conn);
    if (fails()) return NULL;
    conn_ent *ce = fake(conn);
    if (!ce) return __real_PQexecPrepared(conn, name, nparams, values, lengths, formats, result_format);
    const char *sql = NULL;
    for (int i = nstmts - 1; i >= 0 && !sql; i--) /* the latest statement of that name */
        if (stmts[i].c == conn && !strcmp(stmts[i].name, name ? name : "")) sql = stmts[i].sql;
    return statement(ce, sql);
}

char *__wrap_PQresultErrorMessage(const PGresult *res)
{
    res_note *n = note_of(res);
    return n && n->msg ? n->msg : __real_PQresultErrorMessage(res);
}

char *__wrap_PQcmdTuples(PGresult *res)
{
    res_note *n = note_of(res);
    return n && *n->tuples ? n->tuples : __real_PQcmdTuples(res);
}

void __wrap_PQclear(PGresult *res)
{
    forget_note(res);
    __real_PQclear(res);
}
