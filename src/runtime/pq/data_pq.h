/* data_pq.h: libpq in data mode (sympath data on PostgreSQL), called from pq_dispatch.c's entry points. */
#ifndef SYMPATH_DATA_PQ_H
#define SYMPATH_DATA_PQ_H

#include <stdbool.h>
#include <libpq-fe.h>

/*
 * Contracts are libpq's own; what data mode changes is described at the top of data_pq.c
 * (protocol in src/data/data.h).
 */

/* Any connect (PQconnectdb, PQconnectdbParams, PQsetdbLogin): SYMPATH_DATA_DB read-only,
 * whatever the program named (conninfo: the program's, used when SYMPATH_DATA_DB is unset;
 * NULL for the other two). A failed connection when it cannot be made read-only. */
PGconn *data_pq_connect(const char *conninfo);
/* PQexec (with_params false) / PQexecParams: refused, wrapped (a SELECT) or run unchanged. */
PGresult *data_pq_exec(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                       const char *const *values, const int *lengths, const int *formats, int result_format);
/* PQprepare: remembered, so that PQexecPrepared of a SELECT runs it wrapped. */
PGresult *data_pq_prepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types);
PGresult *data_pq_exec_prepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                                const int *lengths, const int *formats, int result_format);
/* PQfinish: the connection's prepared statements forgotten. */
void data_pq_finish(PGconn *conn);
/* Values of a wrapped SELECT's rows as data inputs (text format). */
char *data_pq_getvalue(const PGresult *res, int row, int col);
int data_pq_getisnull(const PGresult *res, int row, int col);
int data_pq_getlength(const PGresult *res, int row, int col);
/* PQclear: the result's shadows dropped. */
void data_pq_clear(PGresult *res);

#endif
