/* db_fixture_rt.c: fixture mode, whatever the database: the statements' list, the query log, the fixture read from the test vector with its schema constraints, the run's set-up. */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "db_log.h"
#include "db_rt.h"
#include "util/util.h"
#include "../../proto/env.h"

db_run db_rt;
qstate *db_rt_stmts;

qstate *db_rt_find(sqlite3_stmt *st)
{
    for (qstate *s = db_rt_stmts; s; s = s->next)
        if (s->st == st) return s;
    return NULL;
}

/* ---------------------------------------------------------------- log for the explorer's report */

/* One line per event, appended to SYMPATH_DB_LOG with a single write (O_APPEND):
 *   q <understood 0/1> <rows from the fixture> <other rows> <mismatches> <ns in SQLite> <kinds> <sql>
 *   e <message>                                 (building the run's database failed)
 *   s <SQLite's error message> <sql>            (a statement failed at run time)
 * fields separated by tabs; tabs and newlines inside become blanks. */
void db_rt_log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void db_rt_log_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    db_log_vline(db_rt.log_fd, 4096, fmt, ap);
    va_end(ap);
}

void db_rt_log_query(qstate *s)
{
    char kinds[256] = "";
    const char *sep = "";
    size_t o = 0;
    if (s->q)
        for (int i = 0; i < s->q->nunsupported && o < sizeof kinds - 64; i++, sep = ";") /* kinds may hold commas */
            o += (size_t)snprintf(kinds + o, sizeof kinds - o, "%s%s", sep, s->q->unsupported[i]);
    if (!s->q)
        snprintf(kinds, sizeof kinds, "parse error");
    else if (s->why && !s->q->nunsupported)
        snprintf(kinds, sizeof kinds, "%s", s->why);
    char sql[2048];
    proto_flat(sql, sizeof sql, s->sql);
    /* understood: a SELECT turned into row events, or an INSERT whose values are tracked */
    int understood = s->q && ((s->q->understood && !s->why) || (s->q->kind == DBQ_INSERT && s->q->ninsert));
    db_rt_log_line("q\t%d\t%llu\t%llu\t%llu\t%llu\t%s\t%s", understood, (unsigned long long)s->rows_fixture,
                   (unsigned long long)s->rows_other, (unsigned long long)s->mismatches, (unsigned long long)s->ns,
                   kinds, sql);
    s->rows_fixture = s->rows_other = s->mismatches = s->ns = 0;
}

static void log_all_at_exit(void)
{
    for (qstate *s = db_rt_stmts; s; s = s->next)
        if (s->ns || s->rows_fixture || s->rows_other) db_rt_log_query(s);
}

/* ---------------------------------------------------------------- the fixture */

void db_rt_assume(expr *c)
{
    c = rt_norm(c);
    if (!c) return;
    rt_trace_event(BK_ASSUME, 0, (uint32_t)c->value, c, 0);
    if (!c->value) { /* the vector does not satisfy the schema: end as a false assumption */
        fflush(stdout);
        fflush(stderr);
        rt_end_run(SYM_ASSUME_EXIT_CODE);
        _exit(SYM_ASSUME_EXIT_CODE);
    }
}

static expr *symbol_or_const(expr *e, uint64_t v, unsigned width) { return e ? e : expr_const(rt_cx(), v, width); }

/* Read the fixture's inputs (db.h layout) into db_rt.counts / db_rt.cells. */
static int read_fixture(void)
{
    db_schema *s = db_rt.schema;
    expr_ctx *cx = rt_cx();
    int nt = s->ntables;
    db_rt.counts = calloc((size_t)nt, sizeof *db_rt.counts);
    db_rt.cells = calloc((size_t)nt, sizeof *db_rt.cells);
    db_rt.rowids = calloc((size_t)nt, sizeof *db_rt.rowids);
    db_rt.dirty = calloc((size_t)nt, sizeof *db_rt.dirty);
    db_rt.untracked = calloc((size_t)nt, sizeof *db_rt.untracked);
    db_rt.ins = calloc((size_t)nt, sizeof *db_rt.ins);
    db_rt.alive = calloc((size_t)nt, sizeof *db_rt.alive);
    if (!db_rt.counts || !db_rt.cells || !db_rt.rowids || !db_rt.dirty || !db_rt.untracked || !db_rt.ins ||
        !db_rt.alive)
        return -1;
    char name[160];
    for (int ti = 0; ti < nt; ti++) {
        const db_table *t = &s->tables[ti];
        uint64_t v;
        snprintf(name, sizeof name, "db:%s.rows", t->name);
        db_rt.counts[ti] = symbol_or_const(rt_next_input(IT_UCHAR, 8, name, 1, &v), v, 8);
        db_rt.cells[ti] = calloc((size_t)db_rt.lim.rows * (size_t)t->ncols, sizeof **db_rt.cells);
        db_rt.rowids[ti] = calloc(db_rt.lim.rows, sizeof **db_rt.rowids);
        db_rt.alive[ti] = calloc(db_rt.lim.rows, sizeof **db_rt.alive);
        if (!db_rt.cells[ti] || !db_rt.rowids[ti] || !db_rt.alive[ti]) return -1;
        for (unsigned k = 0; k < db_rt.lim.rows; k++)
            db_rt.alive[ti][k] = expr_cmp(cx, PRED_ULT, expr_const(cx, k, 8), db_rt.counts[ti]);
        for (unsigned k = 0; k < db_rt.lim.rows; k++)
            for (int c = 0; c < t->ncols; c++) {
                db_val *cell = &db_rt.cells[ti][(size_t)k * t->ncols + c];
                snprintf(name, sizeof name, "db:%s[%u].%s", t->name, k, t->cols[c].name);
                cell->null = symbol_or_const(rt_next_input(IT_BOOL, 1, name, 1, &v), v, 1);
                if (db_column_is_text(&t->cols[c])) {
                    cell->is_text = true;
                    cell->valid_date = t->cols[c].date; /* by its slot constraint */
                    cell->len = symbol_or_const(rt_next_input(IT_UCHAR, 8, NULL, 1, &v), v, 8);
                    cell->nbytes = db_column_text_cap(&t->cols[c], &db_rt.lim);
                    cell->bytes = calloc(cell->nbytes, sizeof *cell->bytes);
                    if (!cell->bytes) return -1;
                    for (unsigned i = 0; i < cell->nbytes; i++)
                        cell->bytes[i] = symbol_or_const(rt_next_input(IT_BYTE, 8, NULL, 1, &v), v, 8);
                } else if (t->cols[c].scale || t->cols[c].single) { /* the integer k, the value k / 10^s (k / 4) */
                    cell->is_real = true;
                    cell->scaled = symbol_or_const(rt_next_input(IT_LONGLONG, 64, NULL, 1, &v), v, 64);
                    cell->v = db_scaled_value(cx, cell->scaled, t->cols[c].single ? -2 : t->cols[c].scale);
                } else if (db_column_is_real(&t->cols[c])) { /* an IEEE double's bits */
                    cell->is_real = true;
                    cell->v = symbol_or_const(rt_next_input(IT_DOUBLE, 64, NULL, 1, &v), v, 64);
                } else {
                    cell->v = symbol_or_const(rt_next_input(IT_LONGLONG, 64, NULL, 1, &v), v, 64);
                }
            }
    }
    uint64_t fv; /* the one call of the run that fails (db_fault.c), after every cell */
    db_fault_init(symbol_or_const(rt_next_input(IT_USHORT, 16, "db:fault", 1, &fv), fv, 16));
    /* schema constraints, as assumptions: every path condition includes them */
    for (int ti = 0; ti < nt; ti++) {
        db_rt_assume(expr_cmp(cx, PRED_ULE, db_rt.counts[ti], expr_const(cx, db_rt.lim.rows, 8)));
        for (unsigned k = 0; k < db_rt.lim.rows; k++)
            db_rt_assume(db_slot_constraints(cx, s, &db_rt.lim, ti, k, db_rt.counts, db_rt.cells));
    }
    return 0;
}

/* A cell's concrete value for the INSERT (db_cell) from its expressions' values. */
void db_rt_concrete_cell(const db_val *v, uint8_t *buf, db_cell *out)
{
    memset(out, 0, sizeof *out);
    out->null = v->null->value & 1;
    if (v->is_text) {
        out->len = (unsigned)v->len->value;
        if (out->len > v->nbytes) out->len = v->nbytes;
        for (unsigned i = 0; i < out->len; i++) buf[i] = (uint8_t)v->bytes[i]->value;
        out->text = buf;
    } else {
        out->i = (int64_t)v->v->value;
    }
}

/* Does name occur in msg as a word (letters, digits; '_' separates, as in accounts_role_check)? */
static bool names_column(const char *msg, const char *name)
{
    size_t n = strlen(name);
    if (!n) return false;
    for (const char *p = strcasestr(msg, name); p; p = strcasestr(p + 1, name)) {
        bool before = p == msg || !isalnum((unsigned char)p[-1]), after = !isalnum((unsigned char)p[n]);
        if (before && after) return true;
    }
    return false;
}

void db_rt_reject_row(int ti, unsigned k, const char *msg)
{
    expr_ctx *cx = rt_cx();
    const db_table *t = &db_rt.schema->tables[ti];
    bool any = false;
    for (int c = 0; c < t->ncols && !any; c++) any = msg && names_column(msg, t->cols[c].name);
    expr *same = expr_const(cx, 1, 1);
    for (int c = 0; c < t->ncols; c++) {
        if (any && !names_column(msg, t->cols[c].name)) continue;
        const db_val *v = &db_rt.cells[ti][(size_t)k * t->ncols + c];
        bool null = v->null->value & 1;
        expr *eq = expr_cmp(cx, PRED_EQ, v->null, expr_const(cx, null, v->null->width));
        if (!null && v->is_text) {
            unsigned len = (unsigned)v->len->value;
            eq = expr_and1(cx, eq, expr_cmp(cx, PRED_EQ, v->len, expr_const(cx, len, v->len->width)));
            for (unsigned i = 0; i < len && i < v->nbytes; i++)
                eq = expr_and1(cx, eq, expr_cmp(cx, PRED_EQ, v->bytes[i], expr_const(cx, v->bytes[i]->value, 8)));
        } else if (!null) {
            eq = expr_and1(cx, eq, expr_cmp(cx, PRED_EQ, v->v, expr_const(cx, v->v->value, v->v->width)));
        }
        same = expr_and1(cx, same, eq);
    }
    db_rt_assume(expr_not(cx, same)); /* false here: the run ends */
    fflush(stdout), fflush(stderr);
    rt_end_run(SYM_ASSUME_EXIT_CODE);
    _exit(SYM_ASSUME_EXIT_CODE);
}

int db_rt_insert_fixture(int (*insert_row)(void *ctx, const db_table *t, int ti, unsigned k, const db_cell *cells),
                         void *ctx)
{
    int rc = 0;
    for (int ti = 0; !rc && ti < db_rt.schema->ntables; ti++) {
        const db_table *t = &db_rt.schema->tables[ti];
        unsigned count = (unsigned)db_rt.counts[ti]->value;
        db_cell cells[t->ncols];
        uint8_t *bufs = calloc((size_t)t->ncols, DB_TEXT_MAX + 1);
        if (!bufs) rc = -1;
        for (unsigned k = 0; !rc && k < count && k < db_rt.lim.rows; k++) {
            for (int c = 0; c < t->ncols; c++)
                db_rt_concrete_cell(&db_rt.cells[ti][(size_t)k * t->ncols + c], bufs + (size_t)c * (DB_TEXT_MAX + 1),
                                    &cells[c]);
            rc = insert_row(ctx, t, ti, k, cells);
        }
        free(bufs);
    }
    return rc;
}

static unsigned env_uint(const char *name, unsigned def, unsigned lo, unsigned hi)
{
    const char *v = getenv(name);
    unsigned long n = v && *v ? strtoul(v, NULL, 10) : def;
    return n < lo ? lo : n > hi ? hi : (unsigned)n;
}

/* First open of the run: everything above. Leaves db_rt.state 1 (symbolic), -1 (no --db). */
void db_rt_setup_with(int (*build)(void))
{
    if (db_rt.state) return;
    db_rt.state = -1;
    db_rt.log_fd = -1;
    const char *schema = getenv(SYMPATH_ENV_DB_SCHEMA);
    if (!schema || !*schema) return;
    const char *logp = getenv(SYMPATH_ENV_DB_LOG);
    if (logp && *logp) db_rt.log_fd = open(logp, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    char *ddl = util_read_file(schema, NULL), *err = NULL;
    if (!ddl || db_schema_from_ddl(ddl, &db_rt.schema, &err)) {
        db_rt_log_line("e\tschema %s: %s", schema, err ? err : "cannot read");
        free(ddl), free(err);
        return;
    }
    free(ddl);
    db_rt.lim.rows = env_uint(SYMPATH_ENV_DB_ROWS, 3, 1, 64);
    db_rt.lim.text = env_uint(SYMPATH_ENV_DB_TEXT, 8, 1, 64);
    const char *dir = getenv(SYMPATH_ENV_DB_DIR);
    /* one file per executor: the fork server's pid names it (the run is its child) */
    int owner = getenv(SYMPATH_ENV_CTL_FD) ? (int)getppid() : (int)getpid();
    if (asprintf(&db_rt.path, "%s/run-%d.db", dir && *dir ? dir : "/tmp", owner) < 0) {
        db_rt.path = NULL;
        return;
    }
    if (read_fixture() || build()) return;
    atexit(log_all_at_exit);
    db_rt.state = 1;
}
