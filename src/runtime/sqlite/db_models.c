/* db_models.c: instrumented stubs that send the program's SQLite calls to the runtime's entry points (sqlite_dispatch.c). */
#include <sqlite3.h>

/*
 * Compiled to bitcode (db_models.bc) and linked into a program that calls
 * sqlite3_* functions. The instrumenter redirects a call to X to __sym_model_X
 * (docs/instrumentation.md, "Calls"); calling sym_sqlite3_X from here, a
 * runtime API call, passes the arguments' shadows in __sym_params and takes the
 * result's shadow from __sym_ret. Functions not listed go to SQLite unchanged.
 */
#define STUB(ret, name, params, args) \
    ret sym_##name params;            \
    ret __sym_model_##name params { return sym_##name args; }

STUB(int, sqlite3_open, (const char *f, sqlite3 **db), (f, db))
STUB(int, sqlite3_open_v2, (const char *f, sqlite3 **db, int flags, const char *vfs), (f, db, flags, vfs))
STUB(int, sqlite3_prepare, (sqlite3 * db, const char *sql, int n, sqlite3_stmt **st, const char **tail),
     (db, sql, n, st, tail))
STUB(int, sqlite3_prepare_v2, (sqlite3 * db, const char *sql, int n, sqlite3_stmt **st, const char **tail),
     (db, sql, n, st, tail))
STUB(int, sqlite3_prepare_v3,
     (sqlite3 * db, const char *sql, int n, unsigned int fl, sqlite3_stmt **st, const char **tail),
     (db, sql, n, fl, st, tail))
STUB(int, sqlite3_bind_int, (sqlite3_stmt * st, int i, int v), (st, i, v))
STUB(int, sqlite3_bind_int64, (sqlite3_stmt * st, int i, sqlite3_int64 v), (st, i, v))
STUB(int, sqlite3_bind_double, (sqlite3_stmt * st, int i, double v), (st, i, v))
STUB(int, sqlite3_bind_null, (sqlite3_stmt * st, int i), (st, i))
STUB(int, sqlite3_bind_text, (sqlite3_stmt * st, int i, const char *t, int n, void (*d)(void *)), (st, i, t, n, d))
STUB(int, sqlite3_clear_bindings, (sqlite3_stmt * st), (st))
STUB(int, sqlite3_step, (sqlite3_stmt * st), (st))
STUB(int, sqlite3_reset, (sqlite3_stmt * st), (st))
STUB(int, sqlite3_finalize, (sqlite3_stmt * st), (st))
STUB(int, sqlite3_column_count, (sqlite3_stmt * st), (st))
STUB(int, sqlite3_data_count, (sqlite3_stmt * st), (st))
STUB(int, sqlite3_column_int, (sqlite3_stmt * st, int i), (st, i))
STUB(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt * st, int i), (st, i))
STUB(double, sqlite3_column_double, (sqlite3_stmt * st, int i), (st, i))
STUB(const unsigned char *, sqlite3_column_text, (sqlite3_stmt * st, int i), (st, i))
STUB(const void *, sqlite3_column_blob, (sqlite3_stmt * st, int i), (st, i))
STUB(int, sqlite3_column_bytes, (sqlite3_stmt * st, int i), (st, i))
STUB(int, sqlite3_column_type, (sqlite3_stmt * st, int i), (st, i))
STUB(int, sqlite3_exec, (sqlite3 * db, const char *sql, int (*cb)(void *, int, char **, char **), void *a, char **e),
     (db, sql, cb, a, e))
STUB(int, sqlite3_get_table, (sqlite3 * db, const char *sql, char ***res, int *nrow, int *ncol, char **err),
     (db, sql, res, nrow, ncol, err))
STUB(int, sqlite3_changes, (sqlite3 * db), (db))
