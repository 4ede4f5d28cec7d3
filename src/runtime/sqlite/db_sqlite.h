/* db_sqlite.h: fixture mode on SQLite (`sympath run --db`), called from sqlite_dispatch.c's entry points. */
#ifndef SYMPATH_DB_SQLITE_H
#define SYMPATH_DB_SQLITE_H

#include <stdbool.h>
#include <sqlite3.h>

/*
 * Each function has the contract of the SQLite function of the same name (db_sqlite.c
 * describes what fixture mode adds). Statements prepared while the run's database could
 * not be built are not tracked: their calls behave as SQLite's with concrete results.
 * Injected faults (dbcommon/db_fault.c): open, prepare, the binds, the first step of an
 * execution, exec and get_table are fallible calls; the one the test vector names fails
 * (open: SQLITE_CANTOPEN with a handle to close; prepare, step, exec, get_table:
 * SQLITE_ERROR, *pp NULL; bind: SQLITE_RANGE), and each result is symbolic in that choice.
 */

/* True when the CLI configured fixture mode (SYMPATH_DB_SCHEMA set). */
bool db_sqlite_wanted(void);
/* Open (sqlite3_open is open_v2 with READWRITE | CREATE): the run's database file, built
 * from the fixture at the first open of the run (db_sqlite_open.c), whatever file the
 * program names; SQLITE_CANTOPEN when it could not be built. */
int db_sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *vfs);
/* Leave SQLite's error message of db saying "no such function: sympath_injected_fault" (and
 * sqlite3_errcode SQLITE_ERROR), as an injected fault's message. */
void db_sqlite_fault_message(sqlite3 *db);
/* sqlite3_prepare (version 1), _v2 (2) or _v3 (3, with flags) with sympath's parsing and
 * hidden rowid columns. */
int db_sqlite3_prepare(int version, sqlite3 *db, const char *sql, int nbyte, unsigned flags, sqlite3_stmt **pp,
                       const char **tail);
int db_sqlite3_bind_int(sqlite3_stmt *st, int idx, int v);
int db_sqlite3_bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v);
int db_sqlite3_bind_null(sqlite3_stmt *st, int idx);
int db_sqlite3_bind_double(sqlite3_stmt *st, int idx, double v);
int db_sqlite3_bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *));
int db_sqlite3_clear_bindings(sqlite3_stmt *st);
/* The first step of an execution records its row events; every row is checked against them. */
int db_sqlite3_step(sqlite3_stmt *st);
int db_sqlite3_reset(sqlite3_stmt *st);
int db_sqlite3_finalize(sqlite3_stmt *st);
/* Columns the program sees (the hidden rowid columns not counted). */
int db_sqlite3_column_count(sqlite3_stmt *st);
int db_sqlite3_data_count(sqlite3_stmt *st);
/* Column readers: a fixture cell's value with its expression (__sym_ret or shadows). */
int db_sqlite3_column_int(sqlite3_stmt *st, int i);
sqlite3_int64 db_sqlite3_column_int64(sqlite3_stmt *st, int i);
double db_sqlite3_column_double(sqlite3_stmt *st, int i);
const unsigned char *db_sqlite3_column_text(sqlite3_stmt *st, int i);
const void *db_sqlite3_column_blob(sqlite3_stmt *st, int i);
int db_sqlite3_column_bytes(sqlite3_stmt *st, int i);
int db_sqlite3_column_type(sqlite3_stmt *st, int i);
/* After an understood UPDATE or DELETE: the rows it hit as an expression. */
int db_sqlite3_changes(sqlite3 *db);

#endif
