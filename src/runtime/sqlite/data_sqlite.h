/* data_sqlite.h: the SQLite calls of a program in data mode (sympath data): the user's file read-only, SELECTs wrapped per the plan, row values as data inputs. */
#ifndef SYMPATH_DATA_SQLITE_H
#define SYMPATH_DATA_SQLITE_H

#include <sqlite3.h>

/*
 * Each function has the contract of the SQLite function of the same name; the dispatcher
 * (sqlite_dispatch.c) calls them when data_rt_active().
 * Protocol (plan, log, input names) in src/data/data.h.
 */

/* Opens SYMPATH_DATA_DB with SQLITE_OPEN_READONLY whatever file and flags the program gave. */
int data_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
/* prepare (version 1, 2 or 3): a SELECT of the program is prepared as the wrapped query
 * (data_wrap_select) with rowid columns for the fixture keys when the schema understands it. */
int data_sqlite3_prepare(int version, sqlite3 *db, const char *sql, int nbyte, unsigned flags, sqlite3_stmt **pp,
                         const char **tail);
/* Binders: SQLite's, the value remembered as an SQL literal for the "s" log line. */
int data_sqlite3_bind_int(sqlite3_stmt *st, int idx, int v);
int data_sqlite3_bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v);
int data_sqlite3_bind_null(sqlite3_stmt *st, int idx);
int data_sqlite3_bind_double(sqlite3_stmt *st, int idx, double v);
int data_sqlite3_bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *));
int data_sqlite3_step(sqlite3_stmt *st);
int data_sqlite3_reset(sqlite3_stmt *st);
int data_sqlite3_finalize(sqlite3_stmt *st);
/* Columns the program sees (the hidden key columns removed). */
int data_sqlite3_column_count(sqlite3_stmt *st);
int data_sqlite3_data_count(sqlite3_stmt *st);
/* Column readers: the value, with __sym_ret / shadows set to data inputs. */
int data_sqlite3_column_int(sqlite3_stmt *st, int i);
sqlite3_int64 data_sqlite3_column_int64(sqlite3_stmt *st, int i);
double data_sqlite3_column_double(sqlite3_stmt *st, int i);
const unsigned char *data_sqlite3_column_text(sqlite3_stmt *st, int i);
const void *data_sqlite3_column_blob(sqlite3_stmt *st, int i);
int data_sqlite3_column_bytes(sqlite3_stmt *st, int i);
int data_sqlite3_column_type(sqlite3_stmt *st, int i);

#endif
