/* sqlite_dispatch.h: the SQLite entry points of the runtime (sym_sqlite3_X), which db_models.c's stubs call and sqlite_dispatch.c defines. */
#ifndef SYMPATH_SQLITE_DISPATCH_H
#define SYMPATH_SQLITE_DISPATCH_H

#include <sqlite3.h>

/*
 * Every function has the contract of SQLite's function of the same name without the
 * prefix. Each one picks the mode (rt_db_mode_of, dbcommon/db_mode.h: data, fixture or
 * pass-through) and calls that mode's implementation: data_sqlite3_X (data_sqlite.c),
 * db_sqlite3_X (db_sqlite.c, db_sqlite_open.c) or SQLite's own sqlite3_X. sqlite3_exec and
 * sqlite3_get_table are rebuilt on these entry points in every mode (sqlite_exec.c).
 */
int sym_sqlite3_open(const char *filename, sqlite3 **ppDb);
int sym_sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs);
int sym_sqlite3_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **pp, const char **tail);
int sym_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **pp, const char **tail);
int sym_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned flags, sqlite3_stmt **pp, const char **tail);
int sym_sqlite3_bind_int(sqlite3_stmt *st, int idx, int v);
int sym_sqlite3_bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v);
int sym_sqlite3_bind_null(sqlite3_stmt *st, int idx);
int sym_sqlite3_bind_double(sqlite3_stmt *st, int idx, double v);
int sym_sqlite3_bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *));
int sym_sqlite3_clear_bindings(sqlite3_stmt *st);
int sym_sqlite3_step(sqlite3_stmt *st);
int sym_sqlite3_reset(sqlite3_stmt *st);
int sym_sqlite3_finalize(sqlite3_stmt *st);
int sym_sqlite3_column_count(sqlite3_stmt *st);
int sym_sqlite3_data_count(sqlite3_stmt *st);
int sym_sqlite3_column_int(sqlite3_stmt *st, int i);
sqlite3_int64 sym_sqlite3_column_int64(sqlite3_stmt *st, int i);
double sym_sqlite3_column_double(sqlite3_stmt *st, int i);
const unsigned char *sym_sqlite3_column_text(sqlite3_stmt *st, int i);
const void *sym_sqlite3_column_blob(sqlite3_stmt *st, int i);
int sym_sqlite3_column_bytes(sqlite3_stmt *st, int i);
int sym_sqlite3_column_type(sqlite3_stmt *st, int i);
int sym_sqlite3_changes(sqlite3 *db);
int sym_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg, char **errmsg);
int sym_sqlite3_get_table(sqlite3 *db, const char *sql, char ***pazResult, int *pnRow, int *pnColumn, char **pzErrmsg);

/* sqlite3_exec and sqlite3_get_table on top of the entry points above (sqlite_exec.c). */
int sqlite_rt_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg, char **errmsg);
int sqlite_rt_get_table(sqlite3 *db, const char *sql, char ***pazResult, int *pnRow, int *pnColumn, char **pzErrmsg);

#endif
