/* pq_dispatch.c: the libpq entry points (sym_PQX): each picks data mode, fixture mode or pass-through and calls that mode's code. */
#include <stdbool.h>
#include <libpq-fe.h>
#include "../dbcommon/db_mode.h"
#include "data_pq.h"
#include "db_pq.h"

/*
 * The program's call PQX reaches sym_PQX through the instrumented stub __sym_model_PQX
 * (pq_models.c), a runtime API call (shadows in __sym_params / __sym_ret). The mode is
 * decided here and only here, in the same order as for SQLite (sqlite_dispatch.c): data
 * mode (data_pq.c), fixture mode (db_pq*.c, configured when SYMPATH_DB_PG_SCRATCH is set:
 * db_pq_wanted), pass-through (libpq's own function, concrete result). Contracts are
 * libpq's.
 */

static rt_db_mode mode(void) { return rt_db_mode_of(db_pq_wanted()); }

PGconn *sym_PQconnectdb(const char *conninfo)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: return data_pq_connect(conninfo);
    case RT_DB_FIXTURE: return db_pq_connect();
    default: return PQconnectdb(conninfo);
    }
}

PGconn *sym_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: return data_pq_connect(NULL);
    case RT_DB_FIXTURE: return db_pq_connect();
    default: return PQconnectdbParams(keywords, values, expand_dbname);
    }
}

PGconn *sym_PQsetdbLogin(const char *host, const char *port, const char *options, const char *tty, const char *dbname,
                         const char *login, const char *pwd)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: return data_pq_connect(NULL);
    case RT_DB_FIXTURE: return db_pq_connect();
    default: return PQsetdbLogin(host, port, options, tty, dbname, login, pwd);
    }
}

PGresult *sym_PQexec(PGconn *conn, const char *query)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: return data_pq_exec(conn, query, false, 0, NULL, NULL, NULL, NULL, 0);
    case RT_DB_FIXTURE: return db_pq_exec(conn, query, false, 0, NULL, NULL, NULL, NULL, 0);
    default: return PQexec(conn, query);
    }
}

PGresult *sym_PQexecParams(PGconn *conn, const char *command, int nparams, const Oid *types, const char *const *values,
                           const int *lengths, const int *formats, int result_format)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: return data_pq_exec(conn, command, true, nparams, types, values, lengths, formats, result_format);
    case RT_DB_FIXTURE: return db_pq_exec(conn, command, true, nparams, types, values, lengths, formats, result_format);
    default: return PQexecParams(conn, command, nparams, types, values, lengths, formats, result_format);
    }
}

PGresult *sym_PQprepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: return data_pq_prepare(conn, name, query, nparams, types);
    case RT_DB_FIXTURE: return db_pq_prepare(conn, name, query, nparams, types);
    default: return PQprepare(conn, name, query, nparams, types);
    }
}

PGresult *sym_PQexecPrepared(PGconn *conn, const char *name, int nparams, const char *const *values, const int *lengths,
                             const int *formats, int result_format)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: return data_pq_exec_prepared(conn, name, nparams, values, lengths, formats, result_format);
    case RT_DB_FIXTURE: return db_pq_exec_prepared(conn, name, nparams, values, lengths, formats, result_format);
    default: return PQexecPrepared(conn, name, nparams, values, lengths, formats, result_format);
    }
}

void sym_PQfinish(PGconn *conn)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: data_pq_finish(conn); return;
    case RT_DB_FIXTURE: db_pq_finish(conn); return;
    default: PQfinish(conn); return;
    }
}

char *sym_PQgetvalue(const PGresult *res, int row, int col)
{
    switch (mode()) {
    case RT_DB_DATA: return data_pq_getvalue(res, row, col);
    case RT_DB_FIXTURE: return db_pq_getvalue(res, row, col);
    default: __sym_ret = NULL; return PQgetvalue(res, row, col);
    }
}

int sym_PQgetisnull(const PGresult *res, int row, int col)
{
    switch (mode()) {
    case RT_DB_DATA: return data_pq_getisnull(res, row, col);
    case RT_DB_FIXTURE: return db_pq_getisnull(res, row, col);
    default: __sym_ret = NULL; return PQgetisnull(res, row, col);
    }
}

int sym_PQgetlength(const PGresult *res, int row, int col)
{
    switch (mode()) {
    case RT_DB_DATA: return data_pq_getlength(res, row, col);
    case RT_DB_FIXTURE: return db_pq_getlength(res, row, col);
    default: __sym_ret = NULL; return PQgetlength(res, row, col);
    }
}

/* The row count of a statement's result: symbolic after an understood write in fixture mode. */
char *sym_PQcmdTuples(PGresult *res)
{
    if (mode() == RT_DB_FIXTURE) return db_pq_cmd_tuples(res);
    __sym_ret = NULL;
    return PQcmdTuples(res);
}

void sym_PQclear(PGresult *res)
{
    __sym_ret = NULL;
    switch (mode()) {
    case RT_DB_DATA: data_pq_clear(res); return;
    case RT_DB_FIXTURE: db_pq_clear(res); return;
    default: PQclear(res); return;
    }
}

/* Statuses: symbolic in the injected fault in fixture mode (db_pq_fault.c), libpq's elsewhere. */
ConnStatusType sym_PQstatus(const PGconn *conn)
{
    __sym_ret = NULL;
    return mode() == RT_DB_FIXTURE ? db_pq_status(conn) : PQstatus(conn);
}

ExecStatusType sym_PQresultStatus(const PGresult *res)
{
    __sym_ret = NULL;
    return mode() == RT_DB_FIXTURE ? db_pq_result_status(res) : PQresultStatus(res);
}

/* The result's columns as the program sees them (fixture mode hides its ctid columns;
 * data mode renames but does not add columns). */
int sym_PQnfields(const PGresult *res)
{
    __sym_ret = NULL;
    return mode() == RT_DB_FIXTURE ? db_pq_nfields(res) : PQnfields(res);
}
