/* sqlite_exec.c: sqlite3_exec and sqlite3_get_table rebuilt on the intercepted prepare/step/column calls (any mode), so their rows carry symbolic text. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../core/rt_internal.h"
#include "../dbcommon/db_rt.h"
#include "db_sqlite.h"
#include "sqlite_dispatch.h"

/* The next statement of the text at *p (blanks and comments skipped), prepared through the
 * interception; *p moves past it. *st is NULL at the end of the text. Returns SQLite's code. */
static int next_stmt(sqlite3 *db, const char **p, sqlite3_stmt **st)
{
    *st = NULL;
    while (*p && **p) {
        const char *tail = NULL;
        int rc = sym_sqlite3_prepare_v2(db, *p, -1, st, &tail);
        *p = tail;
        if (rc != SQLITE_OK || *st) return rc;
    }
    return SQLITE_OK;
}

/* ---------------------------------------------------------------- exec */

/* sqlite3_exec through the intercepted prepare/step/column_text, so rows reach the
 * callback with symbolic text (its argv strings carry shadows). Same contract as SQLite's. */
/* An injected fault of exec or get_table (fixture mode, dbcommon/db_fault.c): nothing runs,
 * SQLITE_ERROR with the fault's message in *errmsg. Returns whether this call is the fault.
 * The choice is a node of its own (db_fault_node: the callback's branches and the rows'
 * events come before the program sees the result). Counting stops until fallible_end. */
static bool fallible_begin(sqlite3 *db, char **errmsg)
{
    if (db_fault_node()) {
        db_sqlite_fault_message(db);
        if (errmsg) *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        __sym_ret = NULL;
        return true;
    }
    db_fault_hold(1);
    return false;
}

static int fallible_end(int rc)
{
    db_fault_hold(-1);
    __sym_ret = NULL;
    return rc;
}

int sqlite_rt_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg, char **errmsg)
{
    if (errmsg) *errmsg = NULL;
    if (fallible_begin(db, errmsg)) return SQLITE_ERROR;
    int rc = SQLITE_OK;
    const char *p = sql;
    sqlite3_stmt *st;
    while (rc == SQLITE_OK && (rc = next_stmt(db, &p, &st)) == SQLITE_OK && st) {
        int ncol = sym_sqlite3_column_count(st);
        char **argv = calloc((size_t)ncol * 2 + 2, sizeof *argv);
        if (!argv) {
            sym_sqlite3_finalize(st);
            rc = SQLITE_NOMEM;
            break;
        }
        char **names = argv + ncol + 1;
        for (int i = 0; i < ncol; i++) names[i] = (char *)sqlite3_column_name(st, i);
        int src;
        while ((src = sym_sqlite3_step(st)) == SQLITE_ROW) {
            if (!cb) continue;
            for (int i = 0; i < ncol; i++) argv[i] = (char *)sym_sqlite3_column_text(st, i);
            if (cb(arg, ncol, argv, names)) {
                rc = SQLITE_ABORT;
                break;
            }
        }
        if (rc == SQLITE_OK && src != SQLITE_DONE) rc = src;
        free(argv);
        int frc = sym_sqlite3_finalize(st);
        if (rc == SQLITE_OK && frc != SQLITE_OK) rc = frc;
    }
    if (rc != SQLITE_OK && errmsg)
        *errmsg = sqlite3_mprintf("%s", rc == SQLITE_ABORT ? "query aborted" : sqlite3_errmsg(db));
    return fallible_end(rc);
}

/* ---------------------------------------------------------------- get_table */

/* A copy of the text at p (n bytes) in sqlite3_malloc'ed memory, with p's shadows. */
static char *copy_text(const char *p, int n)
{
    char *d = sqlite3_malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, p, (size_t)n);
    d[n] = 0;
    for (int i = 0; i <= n && !rt.trace_full; i++) {
        expr *b = rt_shadow_get((uintptr_t)(p + i));
        if (b && b->value == (uint8_t)p[i]) rt_shadow_put((uintptr_t)(d + i), &b, 1);
    }
    int is_int = 0; /* a number's text: the copy reads as the cell's number too */
    expr *e = rt_text_value_get(p, (size_t)n, &is_int);
    if (e) rt_text_value_put(d, (size_t)n, e, is_int);
    return d;
}

/*
 * sqlite3_get_table through the intercepted prepare/step/column_text, so the strings it
 * returns carry shadows. The result has SQLite's own layout (slot -1 holds 1 + the
 * number of entries), so the program frees it with the real sqlite3_free_table.
 */
int sqlite_rt_get_table(sqlite3 *db, const char *sql, char ***pazResult, int *pnRow, int *pnColumn, char **pzErrmsg)
{
    char **res = NULL;
    size_t n = 0, cap = 0;
    int ncol = 0, nrow = 0, rc = SQLITE_OK;
    if (pzErrmsg) *pzErrmsg = NULL;
    *pazResult = NULL;
    if (pnRow) *pnRow = 0;
    if (pnColumn) *pnColumn = 0;
    if (fallible_begin(db, pzErrmsg)) return SQLITE_ERROR;
    const char *p = sql;
#define PUSH(v)                                                                    \
    do {                                                                           \
        if (n + 2 > cap) {                                                         \
            char **nr = sqlite3_realloc64(res, (cap = cap * 2 + 16) * sizeof *nr); \
            if (!nr) {                                                             \
                rc = SQLITE_NOMEM;                                                 \
                break;                                                             \
            }                                                                      \
            res = nr;                                                              \
        }                                                                          \
        res[1 + n++] = (v);                                                        \
    } while (0)
    sqlite3_stmt *st;
    while (rc == SQLITE_OK && (rc = next_stmt(db, &p, &st)) == SQLITE_OK && st) {
        int k = sym_sqlite3_column_count(st);
        int src;
        bool first = true;
        while (rc == SQLITE_OK && (src = sym_sqlite3_step(st)) == SQLITE_ROW) {
            if (first && !ncol) { /* the header: column names of the first statement with rows */
                ncol = k;
                for (int i = 0; i < k && rc == SQLITE_OK; i++) PUSH(sqlite3_mprintf("%s", sqlite3_column_name(st, i)));
            } else if (first && k != ncol) {
                rc = SQLITE_ERROR;
                break;
            }
            first = false;
            for (int i = 0; i < k && rc == SQLITE_OK; i++) {
                const char *t = (const char *)sym_sqlite3_column_text(st, i);
                PUSH(t ? copy_text(t, sqlite3_column_bytes(st, i)) : NULL);
            }
            nrow++;
        }
        if (rc == SQLITE_OK && src != SQLITE_DONE) rc = src;
        int frc = sym_sqlite3_finalize(st);
        if (rc == SQLITE_OK && frc != SQLITE_OK) rc = frc;
    }
#undef PUSH
    if (!res && rc == SQLITE_OK) {
        res = sqlite3_malloc(sizeof *res);
        if (!res) rc = SQLITE_NOMEM;
    }
    if (res) res[0] = (char *)(intptr_t)(n + 1);
    if (rc != SQLITE_OK) {
        if (pzErrmsg) *pzErrmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        if (res) sqlite3_free_table(res + 1);
        if (pnRow) *pnRow = 0;
        if (pnColumn) *pnColumn = 0;
        return fallible_end(rc);
    }
    *pazResult = res + 1;
    if (pnRow) *pnRow = nrow;
    if (pnColumn) *pnColumn = ncol;
    return fallible_end(SQLITE_OK);
}
