/* db_pq.h: the executor's libpq interception in fixture mode (`sympath run --db postgresql://...`), called from pq_dispatch.c's entry points. */
#ifndef SYMPATH_DB_PQ_H
#define SYMPATH_DB_PQ_H

#include <stdbool.h>
#include <libpq-fe.h>

/*
 * Fixture mode on PostgreSQL (Emmi, Majumdar and Sen, ISSTA 2007, on a real server): the
 * CLI (src/cli/db_cmd.c) read the user's tables from the catalog and exported
 *   SYMPATH_DB_SCHEMA        the SQLite-style DDL (fixture layout and constraints, db/db.h)
 *   SYMPATH_DB_PG_DDL        the PostgreSQL DDL of the tables
 *   SYMPATH_DB_PG_SCRATCH    conninfo of the scratch database (never the user's)
 *   SYMPATH_DB_PG_PREFIX     prefix of the runs' schema names ("sympath_<explorer pid>")
 *   SYMPATH_DB_RESULTS       (per executor) where a run records its SELECTs' results
 * db_pq_wanted() is true when SYMPATH_DB_PG_SCRATCH is set (then pq_dispatch.c sends every call
 * here). Contracts are libpq's own; the differences are described in db_pq.c.
 */
bool db_pq_wanted(void);
/* Connect (any of PQconnectdb, PQconnectdbParams, PQsetdbLogin): the run's schema in the
 * scratch database (built at the first connect of the run), whatever the program named.
 * A failed connection (PQstatus CONNECTION_BAD) when the run's database could not be built.
 * Connects and the four statement calls below are fallible calls (dbcommon/db_fault.c): the
 * one the test vector names fails for real (db_pq_fault.c). */
PGconn *db_pq_connect(void);
/* PQexec (with_params false) / PQexecParams of the program. */
PGresult *db_pq_exec(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                     const char *const *values, const int *lengths, const int *formats, int result_format);
/* PQprepare: remembered (and prepared on the server, for its errors); PQexecPrepared runs the text. */
PGresult *db_pq_prepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types);
PGresult *db_pq_exec_prepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                              const int *lengths, const int *formats, int result_format);
/* Results: values of fixture rows are symbolic (db_pq.c); hidden ctid columns are not counted. */
char *db_pq_getvalue(const PGresult *res, int row, int col);
int db_pq_getisnull(const PGresult *res, int row, int col);
int db_pq_getlength(const PGresult *res, int row, int col);
int db_pq_nfields(const PGresult *res);
/* PQcmdTuples of res: libpq's text (inside res, valid until PQclear; "" for a statement
 * without a count). After an understood UPDATE or DELETE (db_rt_apply_dml) or a tracked
 * INSERT ... SELECT whose count libpq agrees with, its digits are byte expressions of the
 * 64-bit count of rows hit and the whole text that count for atoi/strtol; otherwise
 * concrete. The result pointer itself is concrete (__sym_ret NULL). */
char *db_pq_cmd_tuples(PGresult *res);
void db_pq_clear(PGresult *res);
void db_pq_finish(PGconn *conn);
/* PQstatus / PQresultStatus of the program's objects: libpq's answer, symbolic in the injected
 * fault (ite(the call that made it failed, CONNECTION_BAD / PGRES_FATAL_ERROR, libpq's)) for
 * the objects a fallible call returned (db_pq_fault.c). */
ConnStatusType db_pq_status(const PGconn *conn);
ExecStatusType db_pq_result_status(const PGresult *res);

#endif
