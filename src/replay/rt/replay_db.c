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
 */

void __sym_replay_skip_inputs(unsigned long n);
int __real_sqlite3_open(const char *filename, sqlite3 **db);
int __real_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);

static int built; /* 0 not yet, 1 built, -1 no database replay configured */
static const char *db_file;

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
        sqlite3_exec(db, ddl, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "replay: cannot create the test's database %s from %s: %s\n", db_file, schema,
                msg ? msg : "cannot read");
        exit(3);
    }
    if (rows && sqlite3_exec(db, rows, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "replay: the fixture %s violates the schema (a bug of sympath): %s\n", fixture, msg);
        exit(3);
    }
    sqlite3_close(db);
    free(ddl);
    free(rows);
    built = 1;
    if (ninputs) __sym_replay_skip_inputs(strtoul(ninputs, NULL, 10));
}

int __wrap_sqlite3_open(const char *filename, sqlite3 **db)
{
    build();
    if (built == 1) return __real_sqlite3_open_v2(db_file, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    return __real_sqlite3_open(filename, db);
}

int __wrap_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)
{
    build();
    if (built == 1)
        return __real_sqlite3_open_v2(
            db_file, db,
            (flags | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) & ~(SQLITE_OPEN_READONLY | SQLITE_OPEN_MEMORY), NULL);
    return __real_sqlite3_open_v2(filename, db, flags, vfs);
}
