/* sqlite_dispatch.c: the SQLite entry points (sym_sqlite3_X): each picks data mode, fixture mode or pass-through and calls that mode's code. */
#include <stdbool.h>
#include "../dbcommon/db_mode.h"
#include "data_sqlite.h"
#include "db_sqlite.h"
#include "sqlite_dispatch.h"

/*
 * The program's call sqlite3_X reaches sym_sqlite3_X through the instrumented stub
 * __sym_model_sqlite3_X (db_models.c): a runtime API call, so the arguments' shadows are in
 * __sym_params and the result's shadow goes to __sym_ret. The mode is decided here and
 * only here, in the same order as for libpq (pq_dispatch.c): data, fixture, pass-through.
 * Pass-through is SQLite's own function with a concrete result. Where data mode has
 * nothing to add (clear_bindings, changes), it passes through.
 */

/* The mode of this call; fixture mode is configured when SYMPATH_DB_SCHEMA is set. */
static rt_db_mode mode(void) { return rt_db_mode_of(db_sqlite_wanted()); }

int sym_sqlite3_open(const char *filename, sqlite3 **ppDb)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_open_v2(filename, ppDb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    case RT_DB_FIXTURE: return db_sqlite3_open_v2(filename, ppDb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    default: __sym_ret = NULL; return sqlite3_open(filename, ppDb);
    }
}

int sym_sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_open_v2(filename, ppDb, flags, zVfs);
    case RT_DB_FIXTURE: return db_sqlite3_open_v2(filename, ppDb, flags, zVfs);
    default: __sym_ret = NULL; return sqlite3_open_v2(filename, ppDb, flags, zVfs);
    }
}

int sym_sqlite3_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **pp, const char **tail)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_prepare(1, db, sql, n, 0, pp, tail);
    case RT_DB_FIXTURE: return db_sqlite3_prepare(1, db, sql, n, 0, pp, tail);
    default: __sym_ret = NULL; return sqlite3_prepare(db, sql, n, pp, tail);
    }
}

int sym_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **pp, const char **tail)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_prepare(2, db, sql, n, 0, pp, tail);
    case RT_DB_FIXTURE: return db_sqlite3_prepare(2, db, sql, n, 0, pp, tail);
    default: __sym_ret = NULL; return sqlite3_prepare_v2(db, sql, n, pp, tail);
    }
}

int sym_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned flags, sqlite3_stmt **pp, const char **tail)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_prepare(3, db, sql, n, flags, pp, tail);
    case RT_DB_FIXTURE: return db_sqlite3_prepare(3, db, sql, n, flags, pp, tail);
    default: __sym_ret = NULL; return sqlite3_prepare_v3(db, sql, n, flags, pp, tail);
    }
}

int sym_sqlite3_bind_int(sqlite3_stmt *st, int idx, int v)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_bind_int(st, idx, v);
    case RT_DB_FIXTURE: return db_sqlite3_bind_int(st, idx, v);
    default: __sym_ret = NULL; return sqlite3_bind_int(st, idx, v);
    }
}

int sym_sqlite3_bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_bind_int64(st, idx, v);
    case RT_DB_FIXTURE: return db_sqlite3_bind_int64(st, idx, v);
    default: __sym_ret = NULL; return sqlite3_bind_int64(st, idx, v);
    }
}

int sym_sqlite3_bind_null(sqlite3_stmt *st, int idx)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_bind_null(st, idx);
    case RT_DB_FIXTURE: return db_sqlite3_bind_null(st, idx);
    default: __sym_ret = NULL; return sqlite3_bind_null(st, idx);
    }
}

int sym_sqlite3_bind_double(sqlite3_stmt *st, int idx, double v)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_bind_double(st, idx, v);
    case RT_DB_FIXTURE: return db_sqlite3_bind_double(st, idx, v);
    default: __sym_ret = NULL; return sqlite3_bind_double(st, idx, v);
    }
}

int sym_sqlite3_bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *))
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_bind_text(st, idx, text, n, destructor);
    case RT_DB_FIXTURE: return db_sqlite3_bind_text(st, idx, text, n, destructor);
    default: __sym_ret = NULL; return sqlite3_bind_text(st, idx, text, n, destructor);
    }
}

int sym_sqlite3_clear_bindings(sqlite3_stmt *st)
{
    switch (mode()) {
    case RT_DB_FIXTURE: return db_sqlite3_clear_bindings(st);
    default: __sym_ret = NULL; return sqlite3_clear_bindings(st);
    }
}

int sym_sqlite3_step(sqlite3_stmt *st)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_step(st);
    case RT_DB_FIXTURE: return db_sqlite3_step(st);
    default: __sym_ret = NULL; return sqlite3_step(st);
    }
}

int sym_sqlite3_reset(sqlite3_stmt *st)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_reset(st);
    case RT_DB_FIXTURE: return db_sqlite3_reset(st);
    default: __sym_ret = NULL; return sqlite3_reset(st);
    }
}

int sym_sqlite3_finalize(sqlite3_stmt *st)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_finalize(st);
    case RT_DB_FIXTURE: return db_sqlite3_finalize(st);
    default: __sym_ret = NULL; return sqlite3_finalize(st);
    }
}

int sym_sqlite3_column_count(sqlite3_stmt *st)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_count(st);
    case RT_DB_FIXTURE: return db_sqlite3_column_count(st);
    default: __sym_ret = NULL; return sqlite3_column_count(st);
    }
}

int sym_sqlite3_data_count(sqlite3_stmt *st)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_data_count(st);
    case RT_DB_FIXTURE: return db_sqlite3_data_count(st);
    default: __sym_ret = NULL; return sqlite3_data_count(st);
    }
}

int sym_sqlite3_column_int(sqlite3_stmt *st, int i)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_int(st, i);
    case RT_DB_FIXTURE: return db_sqlite3_column_int(st, i);
    default: __sym_ret = NULL; return sqlite3_column_int(st, i);
    }
}

sqlite3_int64 sym_sqlite3_column_int64(sqlite3_stmt *st, int i)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_int64(st, i);
    case RT_DB_FIXTURE: return db_sqlite3_column_int64(st, i);
    default: __sym_ret = NULL; return sqlite3_column_int64(st, i);
    }
}

double sym_sqlite3_column_double(sqlite3_stmt *st, int i)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_double(st, i);
    case RT_DB_FIXTURE: return db_sqlite3_column_double(st, i);
    default: __sym_ret = NULL; return sqlite3_column_double(st, i);
    }
}

const unsigned char *sym_sqlite3_column_text(sqlite3_stmt *st, int i)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_text(st, i);
    case RT_DB_FIXTURE: return db_sqlite3_column_text(st, i);
    default: __sym_ret = NULL; return sqlite3_column_text(st, i);
    }
}

const void *sym_sqlite3_column_blob(sqlite3_stmt *st, int i)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_blob(st, i);
    case RT_DB_FIXTURE: return db_sqlite3_column_blob(st, i);
    default: __sym_ret = NULL; return sqlite3_column_blob(st, i);
    }
}

int sym_sqlite3_column_bytes(sqlite3_stmt *st, int i)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_bytes(st, i);
    case RT_DB_FIXTURE: return db_sqlite3_column_bytes(st, i);
    default: __sym_ret = NULL; return sqlite3_column_bytes(st, i);
    }
}

int sym_sqlite3_column_type(sqlite3_stmt *st, int i)
{
    switch (mode()) {
    case RT_DB_DATA: return data_sqlite3_column_type(st, i);
    case RT_DB_FIXTURE: return db_sqlite3_column_type(st, i);
    default: __sym_ret = NULL; return sqlite3_column_type(st, i);
    }
}

int sym_sqlite3_changes(sqlite3 *db)
{
    switch (mode()) {
    case RT_DB_FIXTURE: return db_sqlite3_changes(db);
    default: __sym_ret = NULL; return sqlite3_changes(db);
    }
}

/* sqlite3_exec and sqlite3_get_table go through the entry points above in every mode. */
int sym_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg, char **errmsg)
{
    return sqlite_rt_exec(db, sql, cb, arg, errmsg);
}

int sym_sqlite3_get_table(sqlite3 *db, const char *sql, char ***pazResult, int *pnRow, int *pnColumn, char **pzErrmsg)
{
    return sqlite_rt_get_table(db, sql, pazResult, pnRow, pnColumn, pzErrmsg);
}
