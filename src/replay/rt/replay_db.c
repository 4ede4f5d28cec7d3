/* replay_db.c: native replay of a database application: the program's sqlite3_open goes to a database rebuilt from schema + the test's fixture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "sympath_env.h" /* src/proto/env.h, copied next to this file in lib/ */

#include "util/util.h"

/*
 * Linked with the program and replay.c by `sympath replay` when the suite was made
 * with --db, with -Wl,--wrap=sqlite3_open -Wl,--wrap=sqlite3_open_v2: the
 * program's opens land here. The first one of the process creates the file
 * SYMPATH_REPLAY_DB_FILE from the schema (SYMPATH_REPLAY_DB_SCHEMA) and the test's
 * fixture (SYMPATH_REPLAY_DB_FIXTURE, INSERT statements; both read with util_read_file
 * from lib/libsympath-replay.a, linked after this file), and skips the
 * SYMPATH_REPLAY_DB_INPUTS values the executor read for the fixture at that point,
 * so that the program's later inputs line up. A fixture SQLite rejects is a bug of
 * sympath: reported on stderr, and the test fails (exit code 3).
 *
 * The last of those values is the test's injected fault (db:fault, runtime/dbcommon/
 * db_fault.c): the number of the program's fallible call that fails, 0 none. The same calls
 * are wrapped and counted here as the executor counts them (open, prepare v1-v3, the binds,
 * the first step of an execution, exec, get_table), and that call fails the same way.
 */

void __sym_replay_skip_inputs(unsigned long n);
unsigned long long __sym_replay_next_int(void);
int __real_sqlite3_open(const char *filename, sqlite3 **db);
int __real_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
int __real_sqlite3_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail);
int __real_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail);
int __real_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned flags, sqlite3_stmt **st,
                              const char **tail);
int __real_sqlite3_bind_int(sqlite3_stmt *st, int i, int v);
int __real_sqlite3_bind_int64(sqlite3_stmt *st, int i, sqlite3_int64 v);
int __real_sqlite3_bind_double(sqlite3_stmt *st, int i, double v);
int __real_sqlite3_bind_null(sqlite3_stmt *st, int i);
int __real_sqlite3_bind_text(sqlite3_stmt *st, int i, const char *t, int n, void (*d)(void *));
int __real_sqlite3_step(sqlite3_stmt *st);
int __real_sqlite3_reset(sqlite3_stmt *st);
int __real_sqlite3_finalize(sqlite3_stmt *st);
int __real_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg,
                        char **errmsg);
int __real_sqlite3_get_table(sqlite3 *db, const char *sql, char ***res, int *nrow, int *ncol, char **errmsg);

static int built; /* 0 not yet, 1 built, -1 no database replay configured */
static const char *db_file;
static unsigned long long fault;   /* the fallible call that fails, 0 none */
static unsigned long long counted; /* fallible calls so far */
static int held;                   /* inside sqlite3_exec: the callback's calls are not counted (as in the executor) */
static sqlite3_stmt *busy[256];    /* statements whose last step returned a row: their next step is not fallible */

static void build(void)
{
    if (built) return;
    built = -1;
    const char *schema = getenv(SYMPATH_ENV_REPLAY_DB_SCHEMA);
    const char *fixture = getenv(SYMPATH_ENV_REPLAY_DB_FIXTURE);
    const char *ninputs = getenv(SYMPATH_ENV_REPLAY_DB_INPUTS);
    db_file = getenv(SYMPATH_ENV_REPLAY_DB_FILE);
    if (!schema || !db_file) return;
    unlink(db_file);
    sqlite3 *db = NULL;
    char *ddl = util_read_file(schema, NULL), *rows = fixture ? util_read_file(fixture, NULL) : NULL, *msg = NULL;
    if (!ddl || __real_sqlite3_open_v2(db_file, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
        __real_sqlite3_exec(db, ddl, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "replay: cannot create the test's database %s from %s: %s\n", db_file, schema,
                msg ? msg : "cannot read");
        exit(3);
    }
    if (rows && __real_sqlite3_exec(db, rows, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "replay: the fixture %s violates the schema (a bug of sympath): %s\n", fixture, msg);
        exit(3);
    }
    sqlite3_close(db);
    free(ddl);
    free(rows);
    built = 1;
    unsigned long n = ninputs ? strtoul(ninputs, NULL, 10) : 0;
    if (n) {
        __sym_replay_skip_inputs(n - 1);
        fault = __sym_replay_next_int() & 0xffff;
        const char *on = getenv(SYMPATH_ENV_DB_FAULTS); /* --no-db-faults: the run injected none */
        if (on && !strcmp(on, "0")) fault = 0;
    }
}

/* Count one fallible call; true when it is the one that fails. */
static int fails(void)
{
    if (built != 1 || !fault || held || counted >= fault) return 0;
    return ++counted == fault;
}

/* The injected fault's message on db, as the executor leaves it (db_sqlite_fault_message). */
static void fault_message(sqlite3 *db)
{
    sqlite3_stmt *x = NULL;
    __real_sqlite3_prepare_v2(db, "SELECT sympath_injected_fault()", -1, &x, NULL);
    __real_sqlite3_finalize(x);
}

static int is_busy(sqlite3_stmt *st, int set, int value)
{
    for (int i = 0; st && i < 256; i++)
        if (busy[i] == st) {
            if (set && !value) busy[i] = NULL;
            return 1;
        }
    for (int i = 0; st && set && value && i < 256; i++)
        if (!busy[i]) {
            busy[i] = st;
            break;
        }
    return 0;
}

int __wrap_sqlite3_open(const char *filename, sqlite3 **db)
{
    build();
    if (fails()) return __real_sqlite3_open_v2(SYMPATH_FAULT_NO_FILE, db, SQLITE_OPEN_READWRITE, NULL);
    if (built == 1) return __real_sqlite3_open_v2(db_file, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    return __real_sqlite3_open(filename, db);
}

int __wrap_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)
{
    build();
    if (fails()) return __real_sqlite3_open_v2(SYMPATH_FAULT_NO_FILE, db, SQLITE_OPEN_READWRITE, NULL);
    if (built == 1)
        return __real_sqlite3_open_v2(
            db_file, db,
            (flags | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) & ~(SQLITE_OPEN_READONLY | SQLITE_OPEN_MEMORY), NULL);
    return __real_sqlite3_open_v2(filename, db, flags, vfs);
}

/* ---------------------------------------------------------------- the other fallible calls */

/* Whether this prepare is the injected fault: then no statement, SQLITE_ERROR's message set. */
static int prepare_fails(sqlite3 *db, sqlite3_stmt **st, const char **tail, const char *sql)
{
    if (!fails()) return 0;
    *st = NULL;
    if (tail) *tail = sql;
    fault_message(db);
    return 1;
}

int __wrap_sqlite3_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail)
{
    if (prepare_fails(db, st, tail, sql)) return SQLITE_ERROR;
    return __real_sqlite3_prepare(db, sql, n, st, tail);
}

int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail)
{
    if (prepare_fails(db, st, tail, sql)) return SQLITE_ERROR;
    return __real_sqlite3_prepare_v2(db, sql, n, st, tail);
}

int __wrap_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned flags, sqlite3_stmt **st, const char **tail)
{
    if (prepare_fails(db, st, tail, sql)) return SQLITE_ERROR;
    return __real_sqlite3_prepare_v3(db, sql, n, flags, st, tail);
}

/* an injected bind fault: a bind of index 0, SQLITE_RANGE with SQLite's message */
int __wrap_sqlite3_bind_int(sqlite3_stmt *st, int i, int v)
{
    return fails() ? __real_sqlite3_bind_null(st, 0) : __real_sqlite3_bind_int(st, i, v);
}

int __wrap_sqlite3_bind_int64(sqlite3_stmt *st, int i, sqlite3_int64 v)
{
    return fails() ? __real_sqlite3_bind_null(st, 0) : __real_sqlite3_bind_int64(st, i, v);
}

int __wrap_sqlite3_bind_double(sqlite3_stmt *st, int i, double v)
{
    return fails() ? __real_sqlite3_bind_null(st, 0) : __real_sqlite3_bind_double(st, i, v);
}

int __wrap_sqlite3_bind_null(sqlite3_stmt *st, int i)
{
    return fails() ? __real_sqlite3_bind_null(st, 0) : __real_sqlite3_bind_null(st, i);
}

int __wrap_sqlite3_bind_text(sqlite3_stmt *st, int i, const char *t, int n, void (*d)(void *))
{
    return fails() ? __real_sqlite3_bind_null(st, 0) : __real_sqlite3_bind_text(st, i, t, n, d);
}

int __wrap_sqlite3_step(sqlite3_stmt *st)
{
    if (built == 1 && !is_busy(st, 0, 0) && fails()) {
        fault_message(sqlite3_db_handle(st));
        return SQLITE_ERROR;
    }
    int rc = __real_sqlite3_step(st);
    if (built == 1) is_busy(st, 1, rc == SQLITE_ROW);
    return rc;
}

int __wrap_sqlite3_reset(sqlite3_stmt *st)
{
    is_busy(st, 1, 0);
    return __real_sqlite3_reset(st);
}

int __wrap_sqlite3_finalize(sqlite3_stmt *st)
{
    is_busy(st, 1, 0);
    return __real_sqlite3_finalize(st);
}

int __wrap_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg,
                        char **errmsg)
{
    if (fails()) {
        fault_message(db);
        if (errmsg) *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return SQLITE_ERROR;
    }
    held++;
    int rc = __real_sqlite3_exec(db, sql, cb, arg, errmsg);
    held--;
    return rc;
}

int __wrap_sqlite3_get_table(sqlite3 *db, const char *sql, char ***res, int *nrow, int *ncol, char **errmsg)
{
    if (fails()) {
        *res = NULL;
        if (nrow) *nrow = 0;
        if (ncol) *ncol = 0;
        fault_message(db);
        if (errmsg) *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return SQLITE_ERROR;
    }
    return __real_sqlite3_get_table(db, sql, res, nrow, ncol, errmsg);
}
