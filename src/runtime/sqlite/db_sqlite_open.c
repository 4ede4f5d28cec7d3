/* db_sqlite_open.c: fixture mode on SQLite: the run's database file built from the fixture at the first open, and every open redirected to it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "../dbcommon/db_rt.h"
#include "db_sqlite.h"
#include "../../proto/env.h"

/* db_rt_insert_fixture's row inserter for the SQLite file (ctx: its connection). */
static int insert_row(void *ctx, const db_table *t, int ti, unsigned k, const db_cell *cells)
{
    sqlite3 *db = ctx;
    char *ins = db_insert_sql(t, cells), *msg = NULL;
    int rc = 0;
    int xrc = ins ? sqlite3_exec(db, ins, NULL, NULL, &msg) : SQLITE_NOMEM;
    if (xrc != SQLITE_OK && sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_CHECK) {
        /* a CHECK sympath does not model (report.json names it): counted, the run ends as infeasible */
        db_rt_log_line("r\t%s\t%s", msg ? msg : "CHECK constraint failed", ins);
        sqlite3_close(db);
        db_rt_reject_row(ti, k, msg);
    }
    if (xrc != SQLITE_OK) {
        /* the solver's row violates a constraint SQLite checks: a bug of ours, reported */
        db_rt_log_line("e\tfixture row rejected by SQLite (%s): %s", msg ? msg : "out of memory", ins ? ins : "");
        rc = -1;
    }
    sqlite3_free(msg);
    free(ins);
    db_rt.rowids[ti][k] = sqlite3_last_insert_rowid(db);
    return rc;
}

/* Create this run's database file: schema, then the fixture's rows. */
static int build_database(void)
{
    unlink(db_rt.path);
    char aux[4200];
    snprintf(aux, sizeof aux, "%s-journal", db_rt.path);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-wal", db_rt.path);
    unlink(aux);
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(db_rt.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        db_rt_log_line("e\tcannot create the run's database %s: %s", db_rt.path, db ? sqlite3_errmsg(db) : "?");
        sqlite3_close(db);
        return -1;
    }
    char *msg = NULL;
    /* a scratch file rebuilt every run: no journal, no fsync */
    int rc = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL);
    if (sqlite3_exec(db, db_rt.schema->ddl, NULL, NULL, &msg) != SQLITE_OK) {
        db_rt_log_line("e\tthe schema failed in the run's database: %s", msg ? msg : "?");
        rc = -1;
    }
    sqlite3_free(msg);
    rc = rc || db_rt_insert_fixture(insert_row, db);
    if (!rc) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    sqlite3_close(db);
    return rc;
}

/* ---------------------------------------------------------------- open */

/* The first open of a run builds the run's database file (db_rt_setup_with(build_database));
 * every open, whatever file the program names, opens that file read-write. */
int db_sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *vfs)
{
    db_rt_setup_with(build_database);
    __sym_ret = NULL;
    if (db_rt.state != 1) {
        if (db_rt.schema) /* --db given but the database could not be built: fail as SQLite would */
            return SQLITE_CANTOPEN;
        return sqlite3_open_v2(filename, ppDb, flags, vfs);
    }
    expr *fails;
    if (db_fault_next(&fails)) { /* the injected fault: a handle whose open failed, as SQLite gives */
        int frc = sqlite3_open_v2(SYMPATH_FAULT_NO_FILE, ppDb, SQLITE_OPEN_READWRITE, NULL);
        __sym_ret = db_fault_ret(fails, (uint32_t)frc, SQLITE_OK);
        return frc;
    }
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    flags &= ~(SQLITE_OPEN_READONLY | SQLITE_OPEN_MEMORY);
    int rc = sqlite3_open_v2(db_rt.path, ppDb, flags, NULL);
    if (rc == SQLITE_OK) /* a scratch database: the program's writes need no fsync */
        sqlite3_exec(*ppDb, "PRAGMA synchronous=OFF", NULL, NULL, NULL);
    __sym_ret = db_fault_ret(fails, SQLITE_CANTOPEN, (uint32_t)rc);
    return rc;
}

bool db_sqlite_wanted(void)
{
    const char *s = getenv(SYMPATH_ENV_DB_SCHEMA);
    return s && *s;
}
