/* pq_models.c: instrumented stubs that send the program's libpq calls to the runtime's entry points (pq_dispatch.c). */
#include <libpq-fe.h>

/*
 * Compiled to bitcode (pq_models.bc) and linked into a program that calls PQ*
 * functions (build.c, uses_libpq), like db_models.c for SQLite: the instrumenter
 * redirects a call to X to __sym_model_X, and calling sym_X from here, a runtime API
 * call, passes the arguments' shadows in __sym_params and takes the result's shadow
 * from __sym_ret. Functions not listed go to libpq unchanged.
 */
#define STUB(ret, name, params, args) \
    ret sym_##name params;            \
    ret __sym_model_##name params { return sym_##name args; }
#define STUB_VOID(name, params, args) \
    void sym_##name params;           \
    void __sym_model_##name params { sym_##name args; }

STUB(PGconn *, PQconnectdb, (const char *conninfo), (conninfo))
STUB(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname),
     (keywords, values, expand_dbname))
STUB(PGconn *, PQsetdbLogin,
     (const char *host, const char *port, const char *options, const char *tty, const char *dbname, const char *login,
      const char *pwd),
     (host, port, options, tty, dbname, login, pwd))
STUB(PGresult *, PQexec, (PGconn * conn, const char *query), (conn, query))
STUB(PGresult *, PQexecParams,
     (PGconn * conn, const char *command, int nparams, const Oid *types, const char *const *values, const int *lengths,
      const int *formats, int result_format),
     (conn, command, nparams, types, values, lengths, formats, result_format))
STUB(PGresult *, PQprepare, (PGconn * conn, const char *name, const char *query, int nparams, const Oid *types),
     (conn, name, query, nparams, types))
STUB(PGresult *, PQexecPrepared,
     (PGconn * conn, const char *name, int nparams, const char *const *values, const int *lengths, const int *formats,
      int result_format),
     (conn, name, nparams, values, lengths, formats, result_format))
STUB(char *, PQgetvalue, (const PGresult *res, int row, int col), (res, row, col))
STUB(int, PQgetisnull, (const PGresult *res, int row, int col), (res, row, col))
STUB(int, PQnfields, (const PGresult *res), (res))
STUB(int, PQgetlength, (const PGresult *res, int row, int col), (res, row, col))
STUB(char *, PQcmdTuples, (PGresult * res), (res))
STUB_VOID(PQclear, (PGresult * res), (res))
STUB(ConnStatusType, PQstatus, (const PGconn *conn), (conn))
STUB(ExecStatusType, PQresultStatus, (const PGresult *res), (res))
STUB_VOID(PQfinish, (PGconn * conn), (conn))
