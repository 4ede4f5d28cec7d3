/* db_sqlite.c: fixture mode on SQLite: prepare, bind, step and results with symbolic rows (Emmi et al. 2007). */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../dbcommon/db_rt.h"
#include "../dbcommon/db_log.h"
#include "db_sqlite.h"
#include "util/util.h"

/*
 * The program's calls sqlite3_X reach sym_sqlite3_X (sqlite_dispatch.c) through the
 * instrumented stubs __sym_model_sqlite3_X (db_models.c), so parameters and results carry
 * shadows like any runtime API call (__sym_params / __sym_ret); in fixture mode the
 * dispatcher calls db_sqlite3_X here. Every call still goes to the real libsqlite3; fixture
 * mode adds:
 *
 *  - open (db_sqlite_open.c): the first open of a run builds a fresh database file from the schema
 *    (env SYMPATH_DB_SCHEMA, DDL) plus the fixture read from the test vector
 *    (db.h, "fixture layout"), records the rowid of every fixture row, and
 *    records the schema constraints of every row slot as assumptions; every open
 *    of the run, whatever path the program names, opens that file.
 *  - prepare: the statement is parsed (db_query_parse); an understood SELECT is
 *    sent to SQLite with ", rowid" as an extra last result column, hidden from
 *    the program, which maps each result row back to its fixture slot.
 *  - step: the first step of an execution records, for every combination of
 *    row slots of the FROM tables (every slot k of a single table), the event
 *    BK_ROW "these slots are present and satisfy WHERE/ON". The event of a slot
 *    that is absent is "one more row" (Emmi et al. 2007): negating it asks the
 *    solver for one more row satisfying the query. Rows SQLite returns are then
 *    checked against these predictions (a mismatch is counted: the model of the
 *    query was wrong).
 *  - column_*: a value from a fixture row is the symbolic expression of its cell.
 *
 * A table the program changes (UPDATE, DELETE with rows changed) is concrete
 * for the rest of the run; rows the program inserts are concrete rows.
 */

/* A statement that failed, as an "s" line of the query log: SQLite's message and the SQL (its
 * first 1000 bytes; nbyte < 0: NUL-terminated). */
static void log_error(sqlite3 *db, const char *sql, int nbyte)
{
    char text[1024], msg[512];
    size_t n = nbyte < 0 ? strlen(sql) : (size_t)nbyte;
    snprintf(text, sizeof text, "%.*s", (int)(n < 1000 ? n : 1000), sql);
    proto_flat(msg, sizeof msg, sqlite3_errmsg(db));
    proto_flat(text, sizeof text, text);
    db_rt_log_line("s\t%s\t%s", msg, text);
}

/* ---------------------------------------------------------------- prepare */

/*
 * prepare_v1/v2/v3 share this. The original text is prepared first (SQLite
 * finds the end of the first statement: *pzTail stays in the program's
 * string); an understood SELECT is then prepared again with the hidden rowid
 * column and that statement is the one the program gets.
 */
/* UPDATE/DELETE ... RETURNING: prepare s->sql again with ", rowid" after its RETURNING list (the statement's text
 * without a trailing semicolon), which then replaces *pp. Whether it did (a WITHOUT ROWID table has none). */
static bool with_returned_rowid(int version, sqlite3 *db, unsigned flags, qstate *s, sqlite3_stmt **pp)
{
    size_t n = strlen(s->sql);
    while (n && (isspace((unsigned char)s->sql[n - 1]) || s->sql[n - 1] == ';')) n--;
    char *with = NULL;
    sqlite3_stmt *st2 = NULL;
    if (asprintf(&with, "%.*s, rowid", (int)n, s->sql) < 0) return false;
    int rc = version == 3 ? sqlite3_prepare_v3(db, with, -1, flags, &st2, NULL)
                          : sqlite3_prepare_v2(db, with, -1, &st2, NULL);
    free(with);
    if (rc != SQLITE_OK || !st2 || sqlite3_column_count(st2) != s->q->nreturn + 1) {
        sqlite3_finalize(st2);
        return false;
    }
    sqlite3_finalize(*pp);
    *pp = s->st = st2;
    return true;
}

static int prepare(int version, sqlite3 *db, const char *sql, int nbyte, unsigned flags, sqlite3_stmt **pp,
                   const char **tail)
{
    const char *t = NULL;
    uint64_t t0 = util_now_ns();
    int rc = version == 1   ? sqlite3_prepare(db, sql, nbyte, pp, &t)
             : version == 2 ? sqlite3_prepare_v2(db, sql, nbyte, pp, &t)
                            : sqlite3_prepare_v3(db, sql, nbyte, flags, pp, &t);
    uint64_t spent = util_now_ns() - t0;
    if (tail) *tail = t;
    if (rc != SQLITE_OK && db_rt.state == 1) log_error(db, sql, nbyte);
    if (rc != SQLITE_OK || !*pp || db_rt.state != 1) return rc;
    qstate *s = calloc(1, sizeof *s);
    if (!s) return rc;
    size_t len = t ? (size_t)(t - sql) : strlen(sql);
    s->sql = strndup(sql, len);
    s->st = *pp;
    s->db = db;
    for (int f = 0; f < DB_MAX_FROM; f++) s->cur_slot[f] = -1;
    s->cur_group = -1;
    s->ns = spent;
    char *err = NULL;
    if (s->sql && db_query_parse(db_rt.schema, s->sql, len, &s->q, &err)) s->q = NULL;
    if (s->q && s->q->pg_dates) db_query_unsupported(s->q, "PostgreSQL date operator");
    /* a write's rows may be read before SQLITE_DONE, where writes are tracked: its RETURNING is modelled for an
     * INSERT of one row and for an understood UPDATE/DELETE (its rows mapped back by a hidden rowid) */
    if (s->q && s->q->returning && (s->q->kind == DBQ_UPDATE || s->q->kind == DBQ_DELETE) && s->q->understood &&
        s->q->nreturn && s->q->nreturn == sqlite3_column_count(*pp))
        s->ret_rowid = with_returned_rowid(version, db, flags, s, pp);
    if (s->q && s->q->returning && !s->ret_rowid &&
        !(s->q->kind == DBQ_INSERT && s->q->ninsert_rows == 1 && s->q->nreturn && !s->q->insert_src &&
          s->q->nreturn == sqlite3_column_count(*pp))) {
        db_query_unsupported(s->q, "RETURNING");
        s->q->ninsert = 0; /* an untracked insert, as any other */
        db_query_free(s->q->insert_src);
        s->q->insert_src = NULL;
    }
    free(err);
    if (s->q && s->q->kind == DBQ_SELECT && s->q->understood && s->q->nouter) { /* MAX(c) over a subquery's groups */
        if (s->q->nouter == sqlite3_column_count(*pp) &&
            !(s->agg_vals = calloc((size_t)s->q->nouter, sizeof *s->agg_vals)))
            s->why = "out of memory";
        else if (!s->agg_vals)
            s->why = "result columns";
    } else if (s->q && s->q->kind == DBQ_SELECT && s->q->understood && (s->q->distinct || s->q->narms) &&
               s->q->nresult == sqlite3_column_count(*pp)) {
        s->by_value = true; /* DISTINCT: a hidden rowid would change which rows are distinct */
    } else if (s->q && s->q->kind == DBQ_SELECT && s->q->understood && !s->q->aggregate &&
               s->q->nresult == sqlite3_column_count(*pp)) {
        /* (the count check: a result list the parse did not map column by column is not used) */
        char *with = db_query_with_rowid(s->q, s->sql, len);
        sqlite3_stmt *st2 = NULL;
        if (with &&
            (version == 3 ? sqlite3_prepare_v3(db, with, -1, flags, &st2, NULL)
                          : sqlite3_prepare_v2(db, with, -1, &st2, NULL)) == SQLITE_OK &&
            st2) {
            sqlite3_finalize(*pp);
            *pp = s->st = st2;
            s->rowid_col = true;
        } else {
            sqlite3_finalize(st2);
            s->why = "rowid column could not be added";
        }
        free(with);
    } else if (s->q && s->q->kind == DBQ_SELECT && s->q->understood && s->q->aggregate &&
               s->q->nresult == sqlite3_column_count(*pp)) {
        s->agg_vals = calloc((size_t)s->q->nresult, sizeof *s->agg_vals); /* one row: no rowid needed */
        if (!s->agg_vals) s->why = "out of memory";
    } else if (s->q && s->q->kind == DBQ_SELECT && s->q->understood) {
        s->why = "result columns";
    }
    s->nparams = sqlite3_bind_parameter_count(*pp);
    if (s->nparams > 0) {
        s->params = calloc((size_t)s->nparams, sizeof *s->params);
        s->param_bytes = calloc((size_t)s->nparams * 256, sizeof *s->param_bytes);
    }
    s->next = db_rt_stmts;
    db_rt_stmts = s;
    return rc;
}

/* ---------------------------------------------------------------- injected faults */

void db_sqlite_fault_message(sqlite3 *db)
{
    sqlite3_stmt *x = NULL;
    sqlite3_prepare_v2(db, "SELECT sympath_injected_fault()", -1, &x, NULL); /* fails: no such function */
    sqlite3_finalize(x);
}

/* A prepare is a fault node of its own (db_fault_node, as a step is) with a concrete result: programs wrap it in a
 * helper that returns the statement, NULL on error (`st = prepare(db, sql); if (!st) return;`), whose one test of
 * the result code every statement shares: the first fault covered it both ways, and as an ite result nothing
 * asked for the others (a club's five other `if (!st)` stayed one-sided). A fault node's location is the branch
 * taken before the call, so each statement's failure is tried once. */
int db_sqlite3_prepare(int version, sqlite3 *db, const char *sql, int nbyte, unsigned flags, sqlite3_stmt **pp,
                       const char **tail)
{
    __sym_ret = NULL;
    if (db_fault_node()) { /* the injected fault: nothing is prepared */
        *pp = NULL;
        if (tail) *tail = sql;
        db_sqlite_fault_message(db);
        return SQLITE_ERROR;
    }
    int rc = prepare(version, db, sql, nbyte, flags, pp, tail);
    __sym_ret = NULL;
    return rc;
}

/* ---------------------------------------------------------------- bind */

static expr *param_expr(uint32_t index, uint64_t value, unsigned width)
{
    expr *e = __sym_params[index];
    if (!e || e->value != (value & expr_mask(e->width))) return NULL;
    return e->width == width ? e : expr_resize(rt_cx(), e, width);
}

static db_val *param_slot(sqlite3_stmt *st, int idx)
{
    qstate *s = db_rt_find(st);
    if (!s || idx < 1 || idx > s->nparams || !s->params) return NULL;
    return &s->params[idx - 1];
}

static void bind_int(sqlite3_stmt *st, int idx, int64_t v, expr *e)
{
    db_val *p = param_slot(st, idx);
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->null = expr_const(rt_cx(), 0, 1);
    p->v = e ? e : expr_const(rt_cx(), (uint64_t)v, 64);
}

static int bind_int32(sqlite3_stmt *st, int idx, int v)
{
    expr *e = param_expr(2, (uint32_t)v, 32);
    __sym_ret = NULL;
    bind_int(st, idx, v, e ? expr_sext(rt_cx(), e, 64) : NULL);
    return sqlite3_bind_int(st, idx, v);
}

static int bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v)
{
    expr *e = param_expr(2, (uint64_t)v, 64);
    __sym_ret = NULL;
    bind_int(st, idx, v, e);
    return sqlite3_bind_int64(st, idx, v);
}

static int bind_null(sqlite3_stmt *st, int idx)
{
    __sym_ret = NULL;
    db_val *p = param_slot(st, idx);
    if (p) {
        memset(p, 0, sizeof *p);
        p->null = expr_const(rt_cx(), 1, 1);
        p->v = expr_const(rt_cx(), 0, 64);
    }
    return sqlite3_bind_null(st, idx);
}

static int bind_double(sqlite3_stmt *st, int idx, double v)
{
    __sym_ret = NULL;
    db_val *p = param_slot(st, idx);
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    expr *e = param_expr(2, bits, 64);
    if (p) { /* a REAL parameter: the double's bits; a NaN binds NULL, as in SQLite */
        expr_ctx *cx = rt_cx();
        if (!e) e = expr_const(cx, bits, 64);
        memset(p, 0, sizeof *p);
        p->is_real = true;
        p->null = expr_fcmp(cx, FPRED_UNO, e, e);
        p->v = expr_ite(cx, p->null, expr_const(cx, 0, 64), e);
    }
    return sqlite3_bind_double(st, idx, v);
}

static int bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *))
{
    __sym_ret = NULL;
    db_val *p = param_slot(st, idx);
    qstate *s = db_rt_find(st);
    if (p && text) {
        db_rt_text_param(p, s->param_bytes + (size_t)(idx - 1) * 256, text, n);
    } else if (p) {
        memset(p, 0, sizeof *p);
        p->null = expr_const(rt_cx(), 1, 1);
        p->v = expr_const(rt_cx(), 0, 64);
    }
    return sqlite3_bind_text(st, idx, text, n, destructor);
}

/* Whether this bind is the run's injected fault: then it fails as a bind of index 0 does
 * (SQLITE_RANGE, with SQLite's own message) and *rc is its result; *fails is the bind's
 * condition "it fails" either way (bind_result takes it). */
static bool bind_fault(sqlite3_stmt *st, expr **fails, int *rc)
{
    if (!db_fault_next(fails)) return false;
    *rc = sqlite3_bind_null(st, 0);
    __sym_ret = db_fault_ret(*fails, (uint32_t)*rc, SQLITE_OK);
    return true;
}

/* A bind that ran: its result rc, symbolic in the fault choice: ite(fails, SQLITE_RANGE, rc). */
static int bind_result(expr *fails, int rc)
{
    __sym_ret = db_fault_ret(fails, SQLITE_RANGE, (uint32_t)rc);
    return rc;
}

int db_sqlite3_bind_int(sqlite3_stmt *st, int idx, int v)
{
    expr *fails;
    int rc;
    return bind_fault(st, &fails, &rc) ? rc : bind_result(fails, bind_int32(st, idx, v));
}

int db_sqlite3_bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v)
{
    expr *fails;
    int rc;
    return bind_fault(st, &fails, &rc) ? rc : bind_result(fails, bind_int64(st, idx, v));
}

int db_sqlite3_bind_null(sqlite3_stmt *st, int idx)
{
    expr *fails;
    int rc;
    return bind_fault(st, &fails, &rc) ? rc : bind_result(fails, bind_null(st, idx));
}

int db_sqlite3_bind_double(sqlite3_stmt *st, int idx, double v)
{
    expr *fails;
    int rc;
    return bind_fault(st, &fails, &rc) ? rc : bind_result(fails, bind_double(st, idx, v));
}

int db_sqlite3_bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *))
{
    expr *fails;
    int rc;
    return bind_fault(st, &fails, &rc) ? rc : bind_result(fails, bind_text(st, idx, text, n, destructor));
}

int db_sqlite3_clear_bindings(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = db_rt_find(st);
    if (s && s->params) memset(s->params, 0, (size_t)s->nparams * sizeof *s->params);
    return sqlite3_clear_bindings(st);
}

/* ---------------------------------------------------------------- step */

/* SELECT DISTINCT (db_rt_row_by_values): does result column r of the current row hold cell v? */
static bool column_holds(void *ctx, int r, const db_val *v, const db_cell *c)
{
    sqlite3_stmt *st = ctx;
    bool null = sqlite3_column_type(st, r) == SQLITE_NULL;
    if (null || c->null) return null == c->null;
    if (v->is_text) {
        const unsigned char *x = sqlite3_column_text(st, r);
        return x && (unsigned)sqlite3_column_bytes(st, r) == c->len && !memcmp(x, c->text, c->len);
    }
    if (v->is_real) {
        double d = sqlite3_column_double(st, r);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return bits == (uint64_t)c->i;
    }
    return sqlite3_column_int64(st, r) == c->i;
}

/* Whether the connection enforces foreign keys (PRAGMA foreign_keys, off by default): then SQLite
 * applies ON DELETE CASCADE. */
static bool foreign_keys_on(sqlite3 *db)
{
    int on = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA foreign_keys", -1, &st, NULL) != SQLITE_OK) return false;
    if (sqlite3_step(st) == SQLITE_ROW) on = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return on != 0;
}

/* Whether an INSERT's table has a one-column FOREIGN KEY among the columns it gives. */
static bool has_foreign_key(const db_query *q)
{
    const db_table *t = &db_rt.schema->tables[q->table];
    for (int i = 0; i < q->ninsert; i++)
        if (t->cols[q->insert_col[i]].fk_table >= 0) return true;
    return false;
}

/* db_rt.read_cell on SQLite (ctx: the program's sqlite3 handle): column col of the row of table ti with that rowid,
 * as stored (a text column's TEXT, a REAL column's number as a double, an integer column's INTEGER). */
static int read_cell(void *ctx, int ti, int64_t rowid, int col, db_cell *out, uint8_t *buf)
{
    const db_table *t = &db_rt.schema->tables[ti];
    const db_column *c = &t->cols[col];
    char *sql = sqlite3_mprintf("SELECT \"%w\" FROM \"%w\" WHERE rowid = ?", c->name, t->name);
    sqlite3_stmt *st = NULL;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (sql && sqlite3_prepare_v2(ctx, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_bind_int64(st, 1, rowid) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        int type = sqlite3_column_type(st, 0);
        out->null = type == SQLITE_NULL;
        if (out->null) {
            rc = 0;
        } else if (db_column_is_text(c) && type == SQLITE_TEXT) {
            int n = sqlite3_column_bytes(st, 0);
            const unsigned char *p = sqlite3_column_text(st, 0);
            if (p && n >= 0 && n <= DB_TEXT_MAX) {
                memcpy(buf, p, (size_t)n);
                out->len = (unsigned)n;
                out->text = buf;
                rc = 0;
            }
        } else if (db_column_is_real(c) && (type == SQLITE_FLOAT || type == SQLITE_INTEGER)) {
            double d = sqlite3_column_double(st, 0);
            memcpy(&out->i, &d, sizeof d);
            rc = d == d ? 0 : -1;
        } else if (!db_column_is_text(c) && !db_column_is_real(c) && type == SQLITE_INTEGER) {
            out->i = sqlite3_column_int64(st, 0);
            rc = 0;
        }
    }
    sqlite3_finalize(st);
    sqlite3_free(sql);
    return rc;
}

/* Track an INSERT's write once SQLite ran it (at SQLITE_DONE, or at the first step when it has a RETURNING
 * list: SQLite makes every change of such a statement in its first step): an upsert or INSERT OR REPLACE
 * (db_rt_track_upsert: a new row when sqlite3_last_insert_rowid moved from last_before), else the rows added
 * (db_rt_track_insert_sqlite), whose values RETURNING reads. */
static void track_insert(qstate *s, int changes, sqlite3_int64 last_before)
{
    const db_query *q = s->q;
    int ti = q->table;
    sqlite3_int64 last = sqlite3_last_insert_rowid(s->db);
    s->write_done = true;
    db_rt.read_cell = read_cell; /* the values of defaults sympath does not model */
    db_rt.read_ctx = s->db;
    if (q->upsert || q->or_replace) {
        if (db_rt.dirty[ti]) return;
        bool added = last != last_before || q->or_replace;
        /* (not tracked: the rows it changed or deleted are unknown, the table concrete) */
        if (!q->ninsert || db_rt_track_upsert(s, added ? last : -1, true)) db_rt.dirty[ti] = true;
        return;
    }
    const inserted *before = db_rt.ins[ti];
    db_rt_track_insert_sqlite(s, changes, last);
    if (q->nreturn && db_rt.ins[ti] != before && (s->ret_vals = calloc((size_t)q->nreturn, sizeof *s->ret_vals)))
        for (int i = 0; i < q->nreturn; i++)
            if (q->return_col[i] >= 0) s->ret_vals[i] = db_rt.ins[ti]->cells[q->return_col[i]];
}

/* A row of an UPDATE/DELETE ... RETURNING (s->ret_rowid): its values are the cells of the row its hidden rowid names
 * among the rows the write hit (after an UPDATE its new cells); s->cur_ret says whether one was found (else concrete). */
static void returned_row(qstate *s)
{
    const db_query *q = s->q;
    int ti = q->table;
    const db_table *t = &db_rt.schema->tables[ti];
    sqlite3_int64 rowid = sqlite3_column_int64(s->st, q->nreturn);
    const db_val *cells = NULL;
    unsigned count = (unsigned)db_rt.counts[ti]->value;
    for (unsigned k = 0; k < count && k < db_rt.lim.rows && k < 64 && !cells; k++)
        if ((s->dml_hit >> k & 1) && db_rt.rowids[ti][k] == rowid) cells = &db_rt.cells[ti][(size_t)k * t->ncols];
    for (const inserted *r = db_rt.ins[ti]; r && !cells; r = r->next)
        if (r->index < 64 && (s->dml_hit_ins >> r->index & 1) && r->rowid == rowid) cells = r->cells;
    s->cur_ret = cells && s->ret_vals;
    if (!s->cur_ret) {
        s->rows_other++;
        return;
    }
    s->rows_fixture++;
    for (int i = 0; i < q->nreturn; i++) s->ret_vals[i] = q->return_col[i] >= 0 ? cells[q->return_col[i]] : (db_val){0};
}

static int step(sqlite3_stmt *st, qstate *s)
{
    bool first = s && !s->started;
    sqlite3_int64 last_before = s ? sqlite3_last_insert_rowid(s->db) : 0;
    if (first) {
        s->write_done = false;
        free(s->ret_vals);
        s->ret_vals = NULL;
    }
    if (s && !s->started) {
        s->started = true;
        db_rt_record_rows(s);
        /* A SUM that overflows makes SQLite fail the step ("integer overflow"): a real path.
         * Recorded as an overflow check before the step, so the solver knows it (its true side
         * asks for such a fixture) and no later solution overflows by accident (a divergence). */
        expr *big = s->agg_big && s->symbolic ? rt_norm(s->agg_big) : NULL; /* GROUP BY: group_fold, db_rows.c */
        if (big) rt_trace_event(BK_CHECK, 0, (uint32_t)(big->value & 1), big, 1);
        expr *ovf = s->agg_overflow && s->symbolic ? rt_norm(s->agg_overflow) : NULL;
        if (ovf) rt_trace_event(BK_CHECK, 0, (uint32_t)(ovf->value & 1), ovf, 1);
    }
    if (first && s->q && s->q->kind == DBQ_INSERT && s->q->ninsert && has_foreign_key(s->q))
        db_rt_insert_parents(s, foreign_keys_on(s->db));
    if (first && s->q && (s->q->kind == DBQ_INSERT || s->q->kind == DBQ_UPDATE))
        db_rt_write_checks(s); /* whether SQLite will refuse it (a CHECK, NOT NULL, a key) */
    uint64_t t0 = util_now_ns();
    int changes_before = s ? sqlite3_total_changes(s->db) : 0;
    int rc = sqlite3_step(st);
    if (!s) return rc;
    s->ns += util_now_ns() - t0;
    for (int f = 0; f < DB_MAX_FROM; f++) s->cur_slot[f] = -1;
    s->cur_ins = NULL;
    s->cur_group = -1;
    s->cur_agg = rc == SQLITE_ROW && s->agg_vals && s->symbolic;
    if (first && rc == SQLITE_ROW && s->q && s->q->kind == DBQ_INSERT && s->q->nreturn && s->q->table >= 0) {
        db_rt.changes = NULL;
        track_insert(s, 1, last_before); /* (sqlite3_changes is set at SQLITE_DONE) */
    }
    if (first && (rc == SQLITE_ROW || rc == SQLITE_DONE) && s->ret_rowid && !db_rt.dirty[s->q->table]) {
        /* UPDATE/DELETE ... RETURNING: SQLite makes every change at the first step */
        s->write_done = true;
        s->dml_hit = s->dml_hit_ins = 0;
        if (db_rt_apply_dml(s, true, foreign_keys_on(s->db))) db_rt.dirty[s->q->table] = true;
        s->ret_vals = db_rt.dirty[s->q->table] ? NULL : calloc((size_t)s->q->nreturn, sizeof *s->ret_vals);
    }
    if (rc == SQLITE_ROW && s->ret_rowid) returned_row(s);
    s->cur_ret = rc == SQLITE_ROW && s->ret_vals && (!s->ret_rowid || s->cur_ret);
    if (rc == SQLITE_ROW && s->by_value) {
        int64_t ids[DB_MAX_FROM];
        bool null_ids[DB_MAX_FROM];
        db_rt_row_by_values(s, column_holds, s->st, ids, null_ids);
        db_rt_row_seen(s, ids, null_ids);
    } else if (rc == SQLITE_ROW && s->rowid_col) {
        int base = sqlite3_column_count(st) - s->q->nfrom;
        int64_t ids[DB_MAX_FROM];
        bool null_ids[DB_MAX_FROM];
        for (int f = 0; f < s->q->nfrom; f++) {
            null_ids[f] = sqlite3_column_type(st, base + f) == SQLITE_NULL;
            ids[f] = sqlite3_column_int64(st, base + f);
        }
        db_rt_row_seen(s, ids, null_ids);
    } else if (rc == SQLITE_ROW) {
        s->rows_other++;
    } else if (rc != SQLITE_DONE) {
        log_error(s->db, s->sql ? s->sql : "", -1);
    } else if (rc == SQLITE_DONE) {
        db_rt_rows_done(s);
        if (!s->write_done)
            db_rt.changes = NULL; /* set again for a tracked INSERT ... SELECT, an understood UPDATE/DELETE */
        if (s->q && s->q->kind == DBQ_INSERT && s->q->table >= 0 && !s->write_done)
            track_insert(s, sqlite3_changes(s->db), last_before);
        s->symbolic = false;
        if (s->q && (s->q->kind == DBQ_UPDATE || s->q->kind == DBQ_DELETE) && s->q->table >= 0 && !s->write_done &&
            !db_rt.dirty[s->q->table] && db_rt_apply_dml(s, sqlite3_changes(s->db) > 0, foreign_keys_on(s->db)))
            db_rt.dirty[s->q->table] = true;
        if (s->q && s->q->txn)
            db_rt_txn(s->q->txn);
        else if (s->q && s->q->kind == DBQ_OTHER && sqlite3_total_changes(s->db) > changes_before)
            for (int ti = 0; ti < db_rt.schema->ntables; ti++)
                db_rt.dirty[ti] = true; /* unknown target: all concrete */
    }
    return rc;
}

/* The first step of an execution (after prepare, reset, or a step that did not return a row)
 * is fallible: the injected fault fails it with SQLITE_ERROR before SQLite runs it. The
 * choice is a node of its own (db_fault_node): a step that runs records row events before the
 * program sees its result, and which result it would have had is not known in the run where
 * it fails. */
int db_sqlite3_step(sqlite3_stmt *st)
{
    qstate *s = db_rt_find(st);
    __sym_ret = NULL;
    if (s && !s->fault_busy && db_fault_node()) {
        db_sqlite_fault_message(sqlite3_db_handle(st));
        return SQLITE_ERROR;
    }
    int rc = step(st, s);
    if (s) s->fault_busy = rc == SQLITE_ROW;
    __sym_ret = NULL;
    return rc;
}

int db_sqlite3_reset(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = db_rt_find(st);
    if (s) {
        s->fault_busy = false;
        s->started = false;
        s->symbolic = false;
        s->cur_ret = false;
        for (int f = 0; f < DB_MAX_FROM; f++) s->cur_slot[f] = -1;
        s->cur_group = -1;
    }
    return sqlite3_reset(st);
}

int db_sqlite3_finalize(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    for (qstate **pp = &db_rt_stmts; *pp; pp = &(*pp)->next)
        if ((*pp)->st == st) {
            qstate *s = *pp;
            *pp = s->next;
            db_rt_log_query(s);
            db_query_free(s->q);
            free(s->sql), free(s->params), free(s->param_bytes), free(s->agg_vals), free(s->group_vals);
            free(s->ret_vals), free(s);
            break;
        }
    return sqlite3_finalize(st);
}

/* ---------------------------------------------------------------- results */

int db_sqlite3_column_count(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = db_rt_find(st);
    int n = sqlite3_column_count(st);
    return s && s->rowid_col ? n - s->q->nfrom : s && s->ret_rowid ? n - 1 : n;
}

int db_sqlite3_data_count(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = db_rt_find(st);
    int n = sqlite3_data_count(st);
    return s && s->rowid_col && n > 0 ? n - s->q->nfrom : s && s->ret_rowid && n > 0 ? n - 1 : n;
}

/* The fixture cell behind result column i of the current row, or NULL (concrete). */
static const db_val *cell_of(sqlite3_stmt *st, int i)
{
    qstate *s = db_rt_find(st);
    if (s && s->cur_ret && i >= 0 && s->q && i < s->q->nreturn && !rt.trace_full)
        return s->ret_vals[i].v ? &s->ret_vals[i] : NULL; /* INSERT ... RETURNING: the row written */
    if (!s || i < 0 || !s->q || i >= s->q->nresult || rt.trace_full || s->q->result_col[i] == DB_RESULT_CONCRETE)
        return NULL;
    if (s->cur_agg) return s->agg_vals[i].v ? &s->agg_vals[i] : NULL;
    if (!s->rowid_col && !s->by_value) return NULL;
    if (s->q->narms) return db_rt_union_cell(s, i, s->cur_slot);    /* UNION: (slot, arm) */
    if (s->q->result_expr[i] && s->q->result_agg[i] == DB_AGG_NONE) /* price * qty: over the row's slots */
        return s->cur_ins ? db_rt_computed_cell(s, i, NULL, s->cur_ins->cells)
                          : db_rt_computed_cell(s, i, s->cur_slot, NULL);
    if (s->q->result_agg[i] != DB_AGG_NONE) /* GROUP BY: the row's group; none when its query runs concretely */
        return s->cur_group >= 0 && s->group_vals[(size_t)s->cur_group * s->q->nresult + i].v
                   ? &s->group_vals[(size_t)s->cur_group * s->q->nresult + i]
                   : NULL;
    if (s->q->result_col[i] < 0) return NULL; /* a computed column of no row the model knows */
    if (s->cur_ins) return &s->cur_ins->cells[s->q->result_col[i]];
    int f = s->q->result_from[i];
    if (s->cur_slot[f] < 0) return NULL;
    int ti = s->q->from_table[f];
    const db_table *t = &db_rt.schema->tables[ti];
    return &db_rt.cells[ti][(size_t)s->cur_slot[f] * t->ncols + s->q->result_col[i]];
}

/* ite(null, 0, value) of an integer cell, resized to width; NULL when it does not give v. */
static expr *int_cell(const db_val *c, uint64_t v, unsigned width)
{
    if (!c || c->is_text) return NULL;
    expr_ctx *cx = rt_cx();
    expr *e = expr_ite(cx, c->null, expr_const(cx, 0, 64), c->is_real ? db_real_to_int(cx, c->v) : c->v);
    e = rt_norm(expr_resize(cx, e, width));
    return e && e->value == (v & expr_mask(width)) ? e : NULL;
}

int db_sqlite3_column_int(sqlite3_stmt *st, int i)
{
    int v = sqlite3_column_int(st, i);
    __sym_ret = int_cell(cell_of(st, i), (uint32_t)v, 32);
    return v;
}

sqlite3_int64 db_sqlite3_column_int64(sqlite3_stmt *st, int i)
{
    sqlite3_int64 v = sqlite3_column_int64(st, i);
    __sym_ret = int_cell(cell_of(st, i), (uint64_t)v, 64);
    return v;
}

double db_sqlite3_column_double(sqlite3_stmt *st, int i)
{
    __sym_ret = NULL; /* floating point is concrete */
    double d = sqlite3_column_double(st, i);
    const db_val *c = cell_of(st, i);
    if (c && !c->is_text) { /* except a fixture cell's value: a REAL's bits, an INTEGER converted; NULL reads 0.0 */
        expr_ctx *cx = rt_cx();
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        /* a REAL value and a fixture cell are 0 when NULL (slot constraints, real.c), so they need no
         * ite: the floating-point operations then see the input symbol itself (solver_sample.c) */
        expr *e = c->is_real ? c->v : db_int_to_real(cx, c->v);
        if (!c->is_real && c->v->op != EXPR_SYMBOL) e = expr_ite(cx, c->null, expr_const(cx, 0, 64), e);
        e = rt_norm(e);
        __sym_ret = e && e->value == bits ? e : NULL;
    }
    return d;
}

/* Shadows for the text SQLite returned: bytes 0..len of the cell (the terminating NUL
 * too, when inside the bound), so a loop over the string reads symbolic bytes. */
static void shadow_text(const db_val *c, const unsigned char *p, int nbytes)
{
    if (!c || !c->is_text || !p) return;
    unsigned len = (unsigned)c->len->value;
    if ((int)len != nbytes) return;
    for (unsigned i = 0; i <= len && i < c->nbytes; i++) {
        expr *b = rt_norm(c->bytes[i]);
        if (b && b->value == p[i]) rt_shadow_put((uintptr_t)(p + i), &b, 1);
    }
}

const unsigned char *db_sqlite3_column_text(sqlite3_stmt *st, int i)
{
    const unsigned char *p = sqlite3_column_text(st, i);
    int n = sqlite3_column_bytes(st, i);
    const db_val *c = cell_of(st, i);
    __sym_ret = NULL;
    /* The pointer stays concrete (a symbolic pointer would pin every load through it);
     * a program tells NULL cells apart with sqlite3_column_type, which is symbolic. A program
     * that tests the pointer instead (`argv[i] ? argv[i] : "NULL"` in a sqlite3_exec callback)
     * gets a node pinning the cell's NULL flag, whose other side the explorer can ask for. */
    expr *nl = c ? rt_norm(c->null) : NULL;
    if (nl) rt_trace_event(BK_CONCRETIZE, 0, (uint32_t)(nl->value & 1), nl, CONC_EXTERNAL_CALL);
    if (c && c->is_text && p) {
        shadow_text(c, p, n);
    } else if (c && p && !(c->null->value & 1) && rt_norm(c->v)) {
        /* a number's text: its bytes are concrete, but atoi/strtol/strtod of exactly this text
         * give the cell's expression (rt_textval.c), as sqlite3_column_int64/double do; a
         * REAL's text that does not read back as the same double stays concrete there */
        rt_text_value_put((const char *)p, (size_t)n, c->v, !c->is_real);
    }
    return p;
}

const void *db_sqlite3_column_blob(sqlite3_stmt *st, int i)
{
    const void *p = sqlite3_column_blob(st, i);
    const db_val *c = cell_of(st, i);
    if (c && c->is_text && p) shadow_text(c, p, sqlite3_column_bytes(st, i));
    __sym_ret = NULL;
    return p;
}

int db_sqlite3_column_bytes(sqlite3_stmt *st, int i)
{
    int n = sqlite3_column_bytes(st, i);
    const db_val *c = cell_of(st, i);
    __sym_ret = NULL;
    if (c && c->is_text) {
        expr_ctx *cx = rt_cx();
        expr *e = rt_norm(expr_ite(cx, c->null, expr_const(cx, 0, 32), expr_zext(cx, c->len, 32)));
        __sym_ret = e && e->value == (uint32_t)n ? e : NULL;
    }
    return n;
}

int db_sqlite3_column_type(sqlite3_stmt *st, int i)
{
    int t = sqlite3_column_type(st, i);
    const db_val *c = cell_of(st, i);
    __sym_ret = NULL;
    if (c && (t != SQLITE_FLOAT || c->is_real)) {
        expr_ctx *cx = rt_cx();
        int type = c->is_text ? SQLITE_TEXT : c->is_real ? SQLITE_FLOAT : SQLITE_INTEGER;
        expr *e = rt_norm(expr_ite(cx, c->null, expr_const(cx, SQLITE_NULL, 32), expr_const(cx, (uint64_t)type, 32)));
        __sym_ret = e && e->value == (uint32_t)t ? e : NULL;
    }
    return t;
}

/* sqlite3_changes after an understood UPDATE or DELETE (or a tracked INSERT ... SELECT): the
 * number of rows it hit (inserted), as an expression (checked against SQLite's count); otherwise
 * concrete. */
int db_sqlite3_changes(sqlite3 *db)
{
    int n = sqlite3_changes(db);
    expr *e = db_rt.changes && !rt.trace_full ? rt_norm(expr_resize(rt_cx(), db_rt.changes, 32)) : NULL;
    __sym_ret = e && e->value == (uint32_t)n ? e : NULL;
    return n;
}
