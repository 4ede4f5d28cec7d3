/* db_sqlite.c: the executor's interception of the SQLite C API: per-run database from schema + fixture, symbolic rows and results. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include "../db/db.h"
#include "rt_internal.h"

/*
 * The program's calls sqlite3_X reach sym_sqlite3_X through the instrumented stubs
 * __sym_model_sqlite3_X (db_models.c), so parameters and results carry shadows
 * like any runtime API call (__sym_params / __sym_ret). Every call still goes to
 * the real libsqlite3; this file adds:
 *
 *  - open: the first open of a run builds a fresh database file from the schema
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

#define DB_MAX_COMBOS 64 /* combinations of row slots a join may have (rows^nfrom) */
#define DB_MAX_INSERTED 32 /* inserted rows of a table that queries model (later ones are concrete) */

/* A row the program inserted with INSERT ... VALUES: its cells keep the expressions of
 * the values it was given, so reading it back is symbolic too. */
typedef struct inserted {
    struct inserted *next;
    int64_t rowid;
    unsigned index;           /* 0, 1, ... in insertion order within its table */
    db_val *cells;            /* ncols cells (bytes copied) */
} inserted;

typedef struct db_run {
    int state;                /* 0 not tried, 1 ready (symbolic fixture), -1 no --db (plain pass-through) */
    db_schema *schema;
    db_limits lim;
    char *path;               /* this run's database file */
    expr **counts;            /* per table: 8-bit row count */
    db_val **cells;           /* per table: rows * ncols cells */
    int64_t **rowids;         /* per table: rowid of each present slot */
    bool *dirty;              /* per table: changed by the program, concrete from then on */
    struct inserted **ins;    /* per table: rows the program inserted in this run (newest first) */
    int log_fd;
} db_run;

static db_run D;

/* One prepared statement of the program. */
typedef struct qstate {
    struct qstate *next;
    sqlite3_stmt *st;
    sqlite3 *db;
    char *sql;                /* the statement's text as the program wrote it */
    db_query *q;              /* NULL when it did not parse */
    const char *why;          /* reason a SELECT is run concretely (static), NULL when symbolic */
    bool rowid_col;           /* the last nfrom result columns are the hidden rowids */
    int nparams;
    db_val *params;           /* bound parameters (null == NULL: unbound) */
    expr **param_bytes;       /* storage of text parameters' bytes (nparams * 256) */
    bool started;             /* events recorded for the current execution */
    bool symbolic;            /* current execution has predictions */
    int cur_slot[DB_MAX_FROM];/* fixture slot of the current row of each FROM item, -1 none */
    uint8_t expected[DB_MAX_COMBOS], seen[DB_MAX_COMBOS]; /* per combination of slots */
    int prev_slot[DB_MAX_FROM];/* slots of the previous fixture row of this execution (prev_slot[0] < 0: none) */
    const inserted *cur_ins;  /* single-table query: the current row is this inserted row */
    db_val *agg_vals;         /* aggregate query: the values of its one result row (nresult) */
    expr *agg_overflow;       /* aggregate query: some SUM overflows (SQLite then fails the step) */
    bool cur_agg;             /* the current row is that result row */
    uint8_t expected_ins[DB_MAX_INSERTED], seen_ins[DB_MAX_INSERTED];
    /* statistics, logged at finalize */
    uint64_t rows_fixture, rows_other, mismatches, ns;
} qstate;

static qstate *Q;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static qstate *find(sqlite3_stmt *st)
{
    for (qstate *s = Q; s; s = s->next)
        if (s->st == st)
            return s;
    return NULL;
}

/* ---------------------------------------------------------------- log for the explorer's report */

/* One line per event, appended to SYMPATH_DB_LOG with a single write (O_APPEND):
 *   q <understood 0/1> <rows from the fixture> <other rows> <mismatches> <ns in SQLite> <kinds> <sql>
 *   e <message>                                 (building the run's database failed)
 *   s <SQLite's error message> <sql>            (a statement failed at run time)
 * fields separated by tabs; tabs and newlines inside become blanks. */
static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
    if (D.log_fd < 0)
        return;
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    rt_sys_write(D.log_fd, buf, (size_t)n);
}

static void flat(char *s)
{
    for (; *s; s++)
        if (*s == '\t' || *s == '\n' || *s == '\r')
            *s = ' ';
}

static void log_query(qstate *s)
{
    char kinds[256] = "";
    const char *sep = "";
    size_t o = 0;
    if (s->q)
        for (int i = 0; i < s->q->nunsupported && o < sizeof kinds - 64; i++, sep = ",")
            o += (size_t)snprintf(kinds + o, sizeof kinds - o, "%s%s", sep, s->q->unsupported[i]);
    if (!s->q)
        snprintf(kinds, sizeof kinds, "parse error");
    else if (s->why && !s->q->nunsupported)
        snprintf(kinds, sizeof kinds, "%s", s->why);
    char sql[2048];
    snprintf(sql, sizeof sql, "%s", s->sql ? s->sql : "");
    flat(sql);
    /* understood: a SELECT turned into row events, or an INSERT whose values are tracked */
    int understood = s->q && ((s->q->understood && !s->why) || (s->q->kind == DBQ_INSERT && s->q->ninsert));
    log_line("q\t%d\t%llu\t%llu\t%llu\t%llu\t%s\t%s", understood,
             (unsigned long long)s->rows_fixture, (unsigned long long)s->rows_other,
             (unsigned long long)s->mismatches, (unsigned long long)s->ns, kinds, sql);
    s->rows_fixture = s->rows_other = s->mismatches = s->ns = 0;
}

static void log_all_at_exit(void)
{
    for (qstate *s = Q; s; s = s->next)
        if (s->ns || s->rows_fixture || s->rows_other)
            log_query(s);
}

/* A statement that failed: SQLite's message and the SQL (its first 1000 bytes). */
static void log_error(sqlite3 *db, const char *sql, int nbyte)
{
    char text[1024], msg[512];
    size_t n = nbyte < 0 ? strlen(sql) : (size_t)nbyte;
    snprintf(text, sizeof text, "%.*s", (int)(n < 1000 ? n : 1000), sql);
    snprintf(msg, sizeof msg, "%s", sqlite3_errmsg(db));
    flat(text);
    flat(msg);
    log_line("s\t%s\t%s", msg, text);
}

/* ---------------------------------------------------------------- the fixture */

static void assume_or_end(expr *c)
{
    c = rt_norm(c);
    if (!c)
        return;
    rt_trace_event(BK_ASSUME, 0, (uint32_t)c->value, c, 0);
    if (!c->value) { /* the vector does not satisfy the schema: end as a false assumption */
        fflush(stdout);
        fflush(stderr);
        rt_end_run(SYM_ASSUME_EXIT_CODE);
        _exit(SYM_ASSUME_EXIT_CODE);
    }
}

static expr *symbol_or_const(expr *e, uint64_t v, unsigned width)
{
    return e ? e : expr_const(rt_cx(), v, width);
}

/* Read the fixture's inputs (db.h layout) into D.counts / D.cells. */
static int read_fixture(void)
{
    db_schema *s = D.schema;
    expr_ctx *cx = rt_cx();
    int nt = s->ntables;
    D.counts = calloc((size_t)nt, sizeof *D.counts);
    D.cells = calloc((size_t)nt, sizeof *D.cells);
    D.rowids = calloc((size_t)nt, sizeof *D.rowids);
    D.dirty = calloc((size_t)nt, sizeof *D.dirty);
    D.ins = calloc((size_t)nt, sizeof *D.ins);
    if (!D.counts || !D.cells || !D.rowids || !D.dirty || !D.ins)
        return -1;
    char name[160];
    for (int ti = 0; ti < nt; ti++) {
        const db_table *t = &s->tables[ti];
        uint64_t v;
        snprintf(name, sizeof name, "db:%s.rows", t->name);
        D.counts[ti] = symbol_or_const(rt_next_input(IT_UCHAR, 8, name, 1, &v), v, 8);
        D.cells[ti] = calloc((size_t)D.lim.rows * (size_t)t->ncols, sizeof **D.cells);
        D.rowids[ti] = calloc(D.lim.rows, sizeof **D.rowids);
        if (!D.cells[ti] || !D.rowids[ti])
            return -1;
        for (unsigned k = 0; k < D.lim.rows; k++)
            for (int c = 0; c < t->ncols; c++) {
                db_val *cell = &D.cells[ti][(size_t)k * t->ncols + c];
                snprintf(name, sizeof name, "db:%s[%u].%s", t->name, k, t->cols[c].name);
                cell->null = symbol_or_const(rt_next_input(IT_BOOL, 1, name, 1, &v), v, 1);
                if (db_column_is_text(&t->cols[c])) {
                    cell->is_text = true;
                    cell->len = symbol_or_const(rt_next_input(IT_UCHAR, 8, NULL, 1, &v), v, 8);
                    cell->nbytes = D.lim.text;
                    cell->bytes = calloc(D.lim.text, sizeof *cell->bytes);
                    if (!cell->bytes)
                        return -1;
                    for (unsigned i = 0; i < D.lim.text; i++)
                        cell->bytes[i] = symbol_or_const(rt_next_input(IT_BYTE, 8, NULL, 1, &v), v, 8);
                } else {
                    cell->v = symbol_or_const(rt_next_input(IT_LONGLONG, 64, NULL, 1, &v), v, 64);
                }
            }
    }
    /* schema constraints, as assumptions: every path condition includes them */
    for (int ti = 0; ti < nt; ti++) {
        assume_or_end(expr_cmp(cx, PRED_ULE, D.counts[ti], expr_const(cx, D.lim.rows, 8)));
        for (unsigned k = 0; k < D.lim.rows; k++)
            assume_or_end(db_slot_constraints(cx, s, &D.lim, ti, k, D.counts, D.cells));
    }
    return 0;
}

/* A cell's concrete value for the INSERT (db_cell) from its expressions' values. */
static void concrete_cell(const db_val *v, uint8_t *buf, db_cell *out)
{
    memset(out, 0, sizeof *out);
    out->null = v->null->value & 1;
    if (v->is_text) {
        out->len = (unsigned)v->len->value;
        if (out->len > v->nbytes)
            out->len = v->nbytes;
        for (unsigned i = 0; i < out->len; i++)
            buf[i] = (uint8_t)v->bytes[i]->value;
        out->text = buf;
    } else {
        out->i = (int64_t)v->v->value;
    }
}

/* Create this run's database file: schema, then the fixture's rows. */
static int build_database(void)
{
    unlink(D.path);
    char aux[4200];
    snprintf(aux, sizeof aux, "%s-journal", D.path);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-wal", D.path);
    unlink(aux);
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(D.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        log_line("e\tcannot create the run's database %s: %s", D.path, db ? sqlite3_errmsg(db) : "?");
        sqlite3_close(db);
        return -1;
    }
    char *msg = NULL;
    /* a scratch file rebuilt every run: no journal, no fsync */
    int rc = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL);
    if (sqlite3_exec(db, D.schema->ddl, NULL, NULL, &msg) != SQLITE_OK) {
        log_line("e\tthe schema failed in the run's database: %s", msg ? msg : "?");
        rc = -1;
    }
    sqlite3_free(msg);
    for (int ti = 0; !rc && ti < D.schema->ntables; ti++) {
        const db_table *t = &D.schema->tables[ti];
        unsigned count = (unsigned)D.counts[ti]->value;
        db_cell cells[t->ncols];
        uint8_t *bufs = calloc((size_t)t->ncols, D.lim.text + 1);
        if (!bufs)
            return -1;
        for (unsigned k = 0; !rc && k < count && k < D.lim.rows; k++) {
            for (int c = 0; c < t->ncols; c++)
                concrete_cell(&D.cells[ti][(size_t)k * t->ncols + c], bufs + (size_t)c * (D.lim.text + 1), &cells[c]);
            char *ins = db_insert_sql(t, cells);
            msg = NULL;
            if (!ins || sqlite3_exec(db, ins, NULL, NULL, &msg) != SQLITE_OK) {
                /* the solver's row violates a constraint SQLite checks: a bug of ours, reported */
                log_line("e\tfixture row rejected by SQLite (%s): %s", msg ? msg : "out of memory", ins ? ins : "");
                rc = -1;
            }
            sqlite3_free(msg);
            free(ins);
            D.rowids[ti][k] = sqlite3_last_insert_rowid(db);
        }
        free(bufs);
    }
    if (!rc)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    sqlite3_close(db);
    return rc;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4097 > cap) {
            char *t = realloc(s, cap = cap * 2 + 8192);
            if (!t) {
                free(s);
                fclose(f);
                return NULL;
            }
            s = t;
        }
        size_t k = fread(s + n, 1, 4096, f);
        n += k;
        if (k < 4096)
            break;
    }
    fclose(f);
    s[n] = 0;
    return s;
}

static unsigned env_uint(const char *name, unsigned def, unsigned lo, unsigned hi)
{
    const char *v = getenv(name);
    unsigned long n = v && *v ? strtoul(v, NULL, 10) : def;
    return n < lo ? lo : n > hi ? hi : (unsigned)n;
}

/* First open of the run: everything above. Leaves D.state 1 (symbolic), -1 (no --db). */
static void db_setup(void)
{
    if (D.state)
        return;
    D.state = -1;
    D.log_fd = -1;
    const char *schema = getenv("SYMPATH_DB_SCHEMA");
    if (!schema || !*schema)
        return;
    const char *logp = getenv("SYMPATH_DB_LOG");
    if (logp && *logp)
        D.log_fd = open(logp, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    char *ddl = read_file(schema), *err = NULL;
    if (!ddl || db_schema_from_ddl(ddl, &D.schema, &err)) {
        log_line("e\tschema %s: %s", schema, err ? err : "cannot read");
        free(ddl), free(err);
        return;
    }
    free(ddl);
    D.lim.rows = env_uint("SYMPATH_DB_ROWS", 3, 1, 64);
    D.lim.text = env_uint("SYMPATH_DB_TEXT", 8, 1, 64);
    const char *dir = getenv("SYMPATH_DB_DIR");
    /* one file per executor: the fork server's pid names it (the run is its child) */
    int owner = getenv("SYMPATH_CTL_FD") ? (int)getppid() : (int)getpid();
    if (asprintf(&D.path, "%s/run-%d.db", dir && *dir ? dir : "/tmp", owner) < 0) {
        D.path = NULL;
        return;
    }
    if (read_fixture() || build_database())
        return;
    atexit(log_all_at_exit);
    D.state = 1;
}

/* ---------------------------------------------------------------- open */

static int open_redirected(const char *filename, sqlite3 **ppDb, int flags, const char *vfs)
{
    db_setup();
    __sym_ret = NULL;
    if (D.state != 1) {
        if (D.schema) /* --db given but the database could not be built: fail as SQLite would */
            return SQLITE_CANTOPEN;
        return sqlite3_open_v2(filename, ppDb, flags, vfs);
    }
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    flags &= ~(SQLITE_OPEN_READONLY | SQLITE_OPEN_MEMORY);
    int rc = sqlite3_open_v2(D.path, ppDb, flags, NULL);
    if (rc == SQLITE_OK) /* a scratch database: the program's writes need no fsync */
        sqlite3_exec(*ppDb, "PRAGMA synchronous=OFF", NULL, NULL, NULL);
    return rc;
}

int sym_sqlite3_open(const char *filename, sqlite3 **ppDb)
{
    return open_redirected(filename, ppDb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
}

int sym_sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs)
{
    return open_redirected(filename, ppDb, flags, zVfs);
}

/* ---------------------------------------------------------------- prepare */

/*
 * prepare_v1/v2/v3 share this. The original text is prepared first (SQLite
 * finds the end of the first statement: *pzTail stays in the program's
 * string); an understood SELECT is then prepared again with the hidden rowid
 * column and that statement is the one the program gets.
 */
static int prepare(int version, sqlite3 *db, const char *sql, int nbyte, unsigned flags, sqlite3_stmt **pp,
                   const char **tail)
{
    __sym_ret = NULL;
    const char *t = NULL;
    uint64_t t0 = now_ns();
    int rc = version == 1   ? sqlite3_prepare(db, sql, nbyte, pp, &t)
             : version == 2 ? sqlite3_prepare_v2(db, sql, nbyte, pp, &t)
                            : sqlite3_prepare_v3(db, sql, nbyte, flags, pp, &t);
    uint64_t spent = now_ns() - t0;
    if (tail)
        *tail = t;
    if (rc != SQLITE_OK && D.state == 1)
        log_error(db, sql, nbyte);
    if (rc != SQLITE_OK || !*pp || D.state != 1)
        return rc;
    qstate *s = calloc(1, sizeof *s);
    if (!s)
        return rc;
    size_t len = t ? (size_t)(t - sql) : strlen(sql);
    s->sql = strndup(sql, len);
    s->st = *pp;
    s->db = db;
    for (int f = 0; f < DB_MAX_FROM; f++)
        s->cur_slot[f] = -1;
    s->ns = spent;
    char *err = NULL;
    if (s->sql && db_query_parse(D.schema, s->sql, len, &s->q, &err))
        s->q = NULL;
    free(err);
    if (s->q && s->q->understood && !s->q->aggregate && s->q->nresult == sqlite3_column_count(*pp)) {
        /* (the count check: a result list the parse did not map column by column is not used) */
        char *with = db_query_with_rowid(s->q, s->sql, len);
        sqlite3_stmt *st2 = NULL;
        if (with && (version == 3 ? sqlite3_prepare_v3(db, with, -1, flags, &st2, NULL)
                                  : sqlite3_prepare_v2(db, with, -1, &st2, NULL)) == SQLITE_OK && st2) {
            sqlite3_finalize(*pp);
            *pp = s->st = st2;
            s->rowid_col = true;
        } else {
            sqlite3_finalize(st2);
            s->why = "rowid column could not be added";
        }
        free(with);
    } else if (s->q && s->q->understood && s->q->aggregate && s->q->nresult == sqlite3_column_count(*pp)) {
        s->agg_vals = calloc((size_t)s->q->nresult, sizeof *s->agg_vals); /* one row: no rowid needed */
        if (!s->agg_vals)
            s->why = "out of memory";
    } else if (s->q && s->q->kind == DBQ_SELECT && s->q->understood) {
        s->why = "result columns";
    }
    s->nparams = sqlite3_bind_parameter_count(*pp);
    if (s->nparams > 0) {
        s->params = calloc((size_t)s->nparams, sizeof *s->params);
        s->param_bytes = calloc((size_t)s->nparams * 256, sizeof *s->param_bytes);
    }
    s->next = Q;
    Q = s;
    return rc;
}

int sym_sqlite3_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **pp, const char **tail)
{
    return prepare(1, db, sql, n, 0, pp, tail);
}
int sym_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **pp, const char **tail)
{
    return prepare(2, db, sql, n, 0, pp, tail);
}
int sym_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned flags, sqlite3_stmt **pp, const char **tail)
{
    return prepare(3, db, sql, n, flags, pp, tail);
}

/* ---------------------------------------------------------------- bind */

static expr *param_expr(uint32_t index, uint64_t value, unsigned width)
{
    expr *e = __sym_params[index];
    if (!e || e->value != (value & expr_mask(e->width)))
        return NULL;
    return e->width == width ? e : expr_resize(rt_cx(), e, width);
}

static db_val *param_slot(sqlite3_stmt *st, int idx)
{
    qstate *s = find(st);
    if (!s || idx < 1 || idx > s->nparams || !s->params)
        return NULL;
    return &s->params[idx - 1];
}

static void bind_int(sqlite3_stmt *st, int idx, int64_t v, expr *e)
{
    db_val *p = param_slot(st, idx);
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->null = expr_const(rt_cx(), 0, 1);
    p->v = e ? e : expr_const(rt_cx(), (uint64_t)v, 64);
}

int sym_sqlite3_bind_int(sqlite3_stmt *st, int idx, int v)
{
    expr *e = param_expr(2, (uint32_t)v, 32);
    __sym_ret = NULL;
    bind_int(st, idx, v, e ? expr_sext(rt_cx(), e, 64) : NULL);
    return sqlite3_bind_int(st, idx, v);
}

int sym_sqlite3_bind_int64(sqlite3_stmt *st, int idx, sqlite3_int64 v)
{
    expr *e = param_expr(2, (uint64_t)v, 64);
    __sym_ret = NULL;
    bind_int(st, idx, v, e);
    return sqlite3_bind_int64(st, idx, v);
}

int sym_sqlite3_bind_null(sqlite3_stmt *st, int idx)
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

int sym_sqlite3_bind_double(sqlite3_stmt *st, int idx, double v)
{
    __sym_ret = NULL;
    db_val *p = param_slot(st, idx);
    if (p) { /* REAL values are concrete: the parameter is a constant when it is an integer */
        memset(p, 0, sizeof *p);
        if (v == (double)(int64_t)v) {
            p->null = expr_const(rt_cx(), 0, 1);
            p->v = expr_const(rt_cx(), (uint64_t)(int64_t)v, 64);
        }
    }
    return sqlite3_bind_double(st, idx, v);
}

/* Text parameters: the program's bytes with their shadows (symbolic when they came
 * from inputs); the length is the concrete one, and each symbolic byte is assumed
 * non-zero (the string keeps its length on this path). */
int sym_sqlite3_bind_text(sqlite3_stmt *st, int idx, const char *text, int n, void (*destructor)(void *))
{
    __sym_ret = NULL;
    db_val *p = param_slot(st, idx);
    qstate *s = find(st);
    if (p && text) {
        expr_ctx *cx = rt_cx();
        size_t len = n < 0 ? strlen(text) : (size_t)n;
        memset(p, 0, sizeof *p);
        if (len <= 255) {
            p->is_text = true;
            p->null = expr_const(cx, 0, 1);
            p->len = expr_const(cx, len, 8);
            p->nbytes = (unsigned)len;
            p->bytes = s->param_bytes + (size_t)(idx - 1) * 256;
            expr *nonzero = expr_const(cx, 1, 1);
            for (size_t i = 0; i < len; i++) {
                expr *b = rt.trace_full ? NULL : rt_shadow_get((uintptr_t)(text + i));
                if (b && b->value != (uint8_t)text[i])
                    b = NULL;
                if (b)
                    nonzero = expr_and1(cx, nonzero, expr_cmp(cx, PRED_NE, b, expr_const(cx, 0, 8)));
                p->bytes[i] = b ? b : expr_const(cx, (uint8_t)text[i], 8);
            }
            assume_or_end(nonzero);
        }
    } else if (p) {
        memset(p, 0, sizeof *p);
        p->null = expr_const(rt_cx(), 1, 1);
        p->v = expr_const(rt_cx(), 0, 64);
    }
    return sqlite3_bind_text(st, idx, text, n, destructor);
}

int sym_sqlite3_clear_bindings(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = find(st);
    if (s && s->params)
        memset(s->params, 0, (size_t)s->nparams * sizeof *s->params);
    return sqlite3_clear_bindings(st);
}

/* ---------------------------------------------------------------- step */

/* Slot of FROM item f in combination number c (mixed radix, item 0 fastest). */
static unsigned combo_slot(unsigned c, int f)
{
    for (int i = 0; i < f; i++)
        c /= D.lim.rows;
    return c % D.lim.rows;
}

static unsigned combos(const db_query *q)
{
    unsigned n = 1;
    for (int f = 0; f < q->nfrom; f++)
        n *= D.lim.rows;
    return n;
}

/*
 * The events of one execution of an understood SELECT (see the top of the file):
 * one BK_ROW per combination of row slots of its FROM items, in a fixed order and
 * number (every slot, present or not), so that no value of a row count changes
 * how many events a query records: "slot k of each item is present and the
 * combination satisfies WHERE/ON". The event of an absent slot is the "one more
 * row" node of Emmi et al.
 */
static void record_rows(qstate *s)
{
    s->symbolic = false;
    s->prev_slot[0] = -1;
    memset(s->expected, 0, sizeof s->expected);
    memset(s->seen, 0, sizeof s->seen);
    if (!s->q || !s->q->understood || s->why || (!s->rowid_col && !s->agg_vals))
        return;
    const db_query *q = s->q;
    for (int f = 0; f < q->nfrom; f++)
        if (D.dirty[q->from_table[f]])
            return;
    unsigned n = combos(q);
    if (n > DB_MAX_COMBOS) {
        s->why = "join with more than 64 slot combinations";
        return;
    }
    expr_ctx *cx = rt_cx();
    expr *conds[DB_MAX_COMBOS];
    for (unsigned c = 0; c < n; c++) {
        const db_val *rows[DB_MAX_FROM];
        expr *present = expr_const(cx, 1, 1);
        for (int f = 0; f < q->nfrom; f++) {
            int ti = q->from_table[f];
            unsigned k = combo_slot(c, f);
            rows[f] = &D.cells[ti][(size_t)k * D.schema->tables[ti].ncols];
            present = expr_and1(cx, present, expr_cmp(cx, PRED_ULT, expr_const(cx, k, 8), D.counts[ti]));
        }
        const char *why = NULL;
        expr *w = db_where_expr(cx, q, rows, s->params, s->nparams, &why);
        if (!w) {
            s->why = why;
            return;
        }
        conds[c] = expr_and1(cx, present, w);
    }
    for (unsigned c = 0; c < n; c++) {
        expr *e = rt_norm(conds[c]);
        s->expected[c] = (uint8_t)(conds[c]->value & 1);
        uint32_t beyond = 0; /* some slot lies past its table's first absent one */
        for (int f = 0; f < q->nfrom; f++)
            if (combo_slot(c, f) > (unsigned)D.counts[q->from_table[f]]->value)
                beyond = BK_ROW_BEYOND;
        if (e)
            rt_trace_event(BK_ROW, 0, (uint32_t)(e->value & 1), e, (uint32_t)q->table << 16 | beyond | c);
    }
    /* rows the program inserted earlier in the run (their number is fixed by the path so far) */
    memset(s->expected_ins, 0, sizeof s->expected_ins);
    memset(s->seen_ins, 0, sizeof s->seen_ins);
    const db_val *ins_rows[DB_MAX_INSERTED];
    expr *ins_conds[DB_MAX_INSERTED];
    unsigned nins = 0;
    if (q->nfrom == 1)
        for (const inserted *r = D.ins[q->table]; r; r = r->next) {
            if (r->index >= DB_MAX_INSERTED)
                continue;
            const db_val *rows[1] = {r->cells};
            const char *why = NULL;
            expr *w = db_where_expr(cx, q, rows, s->params, s->nparams, &why);
            if (!w) {
                s->why = why;
                return;
            }
            s->expected_ins[r->index] = (uint8_t)(w->value & 1);
            ins_rows[nins] = r->cells;
            ins_conds[nins++] = w;
            if (rt_norm(w))
                rt_trace_event(BK_ROW, 0, (uint32_t)(w->value & 1), w, (uint32_t)q->table << 16 | BK_ROW_INSERTED | r->index);
        }
    if (s->agg_vals) { /* the one result row of COUNT/SUM/MIN/MAX over these rows */
        expr *sel[DB_MAX_COMBOS + DB_MAX_INSERTED];
        const db_val *vals[DB_MAX_COMBOS + DB_MAX_INSERTED];
        for (int i = 0; i < q->nresult; i++) {
            int f = q->result_from[i], col = q->result_col[i];
            unsigned m = 0;
            for (unsigned c = 0; c < n; c++) {
                int ti = q->from_table[f];
                sel[m] = conds[c];
                vals[m++] = col < 0 ? NULL
                                    : &D.cells[ti][(size_t)combo_slot(c, f) * D.schema->tables[ti].ncols + col];
            }
            for (unsigned k = 0; k < nins; k++) {
                sel[m] = ins_conds[k];
                vals[m++] = col < 0 ? NULL : &ins_rows[k][col];
            }
            const char *why = NULL;
            expr *ovf = NULL;
            if (i == 0)
                s->agg_overflow = expr_const(cx, 0, 1);
            if (!db_aggregate(cx, q->result_agg[i], m, sel, col < 0 ? NULL : vals, &s->agg_vals[i], &ovf, &why))
                s->agg_overflow = expr_binary(cx, EXPR_OR, s->agg_overflow, ovf);
            else {
                memset(&s->agg_vals[i], 0, sizeof s->agg_vals[i]); /* read concretely */
                s->why = why;
            }
        }
    }
    s->symbolic = true;
}

/* Deep copy of a value (text bytes into new storage that lives as long as the run). */
static int copy_val(const db_val *v, db_val *out)
{
    *out = *v;
    if (v->is_text && v->nbytes) {
        out->bytes = malloc(v->nbytes * sizeof *out->bytes);
        if (!out->bytes)
            return -1;
        memcpy(out->bytes, v->bytes, v->nbytes * sizeof *out->bytes);
    }
    return 0;
}

/* After INSERT ... VALUES changed one row: remember its cells' expressions. Columns not
 * given are NULL, except an INTEGER PRIMARY KEY, which is the new rowid (defaults are not
 * modelled: a read-back value that differs from the expression is used concretely). */
static void track_insert(qstate *s)
{
    const db_query *q = s->q;
    int ti = q->table;
    if (!q->ninsert || D.dirty[ti])
        return;
    const db_table *t = &D.schema->tables[ti];
    expr_ctx *cx = rt_cx();
    inserted *r = calloc(1, sizeof *r);
    db_val *cells = calloc((size_t)t->ncols, sizeof *cells);
    if (!r || !cells) {
        free(r), free(cells);
        return;
    }
    r->rowid = sqlite3_last_insert_rowid(s->db);
    for (int c = 0; c < t->ncols; c++) {
        cells[c].null = expr_const(cx, c != t->rowid_alias, 1);
        cells[c].v = expr_const(cx, c == t->rowid_alias ? (uint64_t)r->rowid : 0, 64);
        if (db_column_is_text(&t->cols[c])) {
            cells[c].is_text = true;
            cells[c].len = expr_const(cx, 0, 8);
        }
    }
    for (int i = 0; i < q->ninsert; i++) {
        db_val v;
        const char *why = NULL;
        if (db_value_expr(cx, q, q->insert_val[i], s->params, s->nparams, &v, &why) ||
            v.is_text != db_column_is_text(&t->cols[q->insert_col[i]]) || copy_val(&v, &cells[q->insert_col[i]])) {
            free(cells), free(r); /* not modelled: the row stays concrete (an "other" row) */
            return;
        }
    }
    unsigned n = 0;
    for (inserted *o = D.ins[ti]; o; o = o->next)
        n++;
    r->index = n;
    r->cells = cells;
    r->next = D.ins[ti];
    D.ins[ti] = r;
}

int sym_sqlite3_step(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = find(st);
    if (s && !s->started) {
        s->started = true;
        record_rows(s);
    }
    uint64_t t0 = now_ns();
    int rc = sqlite3_step(st);
    if (!s)
        return rc;
    s->ns += now_ns() - t0;
    for (int f = 0; f < DB_MAX_FROM; f++)
        s->cur_slot[f] = -1;
    s->cur_ins = NULL;
    s->cur_agg = rc == SQLITE_ROW && s->agg_vals && s->symbolic;
    if (s->cur_agg && s->agg_overflow && !(s->agg_overflow->value & 1)) /* later solutions keep the sums in range */
        assume_or_end(expr_not(rt_cx(), s->agg_overflow));
    if (rc == SQLITE_ROW && s->rowid_col) {
        const db_query *q = s->q;
        int base = sqlite3_column_count(st) - q->nfrom;
        bool all = true;
        unsigned combo = 0, radix = 1;
        for (int f = 0; f < q->nfrom; f++) {
            int ti = q->from_table[f];
            int64_t rowid = sqlite3_column_int64(st, base + f);
            unsigned count = (unsigned)D.counts[ti]->value;
            for (unsigned k = 0; k < count && k < D.lim.rows; k++)
                if (D.rowids[ti][k] == rowid)
                    s->cur_slot[f] = (int)k;
            all &= s->cur_slot[f] >= 0;
            combo += (unsigned)(s->cur_slot[f] < 0 ? 0 : s->cur_slot[f]) * radix;
            radix *= D.lim.rows;
        }
        if (all && s->symbolic && q->norder && s->prev_slot[0] >= 0) {
            /* ORDER BY: the order the program sees is kept (the previous row sorts first) */
            const db_val *a[DB_MAX_FROM], *b[DB_MAX_FROM];
            for (int f = 0; f < q->nfrom; f++) {
                int ti = q->from_table[f];
                size_t nc = (size_t)D.schema->tables[ti].ncols;
                a[f] = &D.cells[ti][(size_t)s->prev_slot[f] * nc];
                b[f] = &D.cells[ti][(size_t)s->cur_slot[f] * nc];
            }
            expr *le = db_order_le(rt_cx(), q, a, b);
            if (le->value & 1)
                assume_or_end(le);
            else /* SQLite ordered otherwise than the model says */
                s->mismatches++;
        }
        if (all)
            memcpy(s->prev_slot, s->cur_slot, sizeof s->prev_slot);
        if (all) {
            s->rows_fixture++;
            if (s->symbolic && combo < DB_MAX_COMBOS) {
                s->seen[combo] = 1;
                s->mismatches += !s->expected[combo];
            }
        } else {
            s->rows_other++;
            if (q->nfrom == 1) /* a row the program inserted? */
                for (const inserted *r = D.ins[q->table]; r; r = r->next)
                    if (r->rowid == sqlite3_column_int64(st, base)) {
                        s->cur_ins = r;
                        if (s->symbolic && r->index < DB_MAX_INSERTED) {
                            s->seen_ins[r->index] = 1;
                            s->mismatches += !s->expected_ins[r->index];
                        }
                    }
        }
        for (int f = 0; f < q->nfrom; f++)
            if (D.dirty[q->from_table[f]])
                s->cur_slot[f] = -1, s->cur_ins = NULL;
    } else if (rc == SQLITE_ROW) {
        s->rows_other++;
    } else if (rc != SQLITE_DONE) {
        log_error(s->db, s->sql ? s->sql : "", -1);
    } else if (rc == SQLITE_DONE) {
        if (s->symbolic && s->rowid_col) {
            for (unsigned k = 0; k < DB_MAX_COMBOS; k++)
                s->mismatches += s->expected[k] && !s->seen[k];
            for (unsigned k = 0; k < DB_MAX_INSERTED; k++)
                s->mismatches += s->expected_ins[k] && !s->seen_ins[k];
        }
        if (s->q && s->q->kind == DBQ_INSERT && s->q->table >= 0 && sqlite3_changes(s->db) == 1)
            track_insert(s);
        s->symbolic = false;
        if (s->q && (s->q->kind == DBQ_UPDATE || s->q->kind == DBQ_DELETE) && s->q->table >= 0 &&
            sqlite3_changes(s->db) > 0)
            D.dirty[s->q->table] = true;
        if (s->q && s->q->kind == DBQ_OTHER && sqlite3_changes(s->db) > 0) /* unknown target: all concrete */
            for (int ti = 0; ti < D.schema->ntables; ti++)
                D.dirty[ti] = true;
    }
    return rc;
}

int sym_sqlite3_reset(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = find(st);
    if (s) {
        s->started = false;
        s->symbolic = false;
        for (int f = 0; f < DB_MAX_FROM; f++)
            s->cur_slot[f] = -1;
    }
    return sqlite3_reset(st);
}

int sym_sqlite3_finalize(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    for (qstate **pp = &Q; *pp; pp = &(*pp)->next)
        if ((*pp)->st == st) {
            qstate *s = *pp;
            *pp = s->next;
            log_query(s);
            db_query_free(s->q);
            free(s->sql), free(s->params), free(s->param_bytes), free(s->agg_vals), free(s);
            break;
        }
    return sqlite3_finalize(st);
}

/* ---------------------------------------------------------------- results */

int sym_sqlite3_column_count(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = find(st);
    int n = sqlite3_column_count(st);
    return s && s->rowid_col ? n - s->q->nfrom : n;
}

int sym_sqlite3_data_count(sqlite3_stmt *st)
{
    __sym_ret = NULL;
    qstate *s = find(st);
    int n = sqlite3_data_count(st);
    return s && s->rowid_col && n > 0 ? n - s->q->nfrom : n;
}

/* The fixture cell behind result column i of the current row, or NULL (concrete). */
static const db_val *cell_of(sqlite3_stmt *st, int i)
{
    qstate *s = find(st);
    if (!s || i < 0 || !s->q || i >= s->q->nresult || rt.trace_full)
        return NULL;
    if (s->cur_agg)
        return s->agg_vals[i].v ? &s->agg_vals[i] : NULL;
    if (!s->rowid_col)
        return NULL;
    if (s->cur_ins)
        return &s->cur_ins->cells[s->q->result_col[i]];
    int f = s->q->result_from[i];
    if (s->cur_slot[f] < 0)
        return NULL;
    int ti = s->q->from_table[f];
    const db_table *t = &D.schema->tables[ti];
    return &D.cells[ti][(size_t)s->cur_slot[f] * t->ncols + s->q->result_col[i]];
}

/* ite(null, 0, value) of an integer cell, resized to width; NULL when it does not give v. */
static expr *int_cell(const db_val *c, uint64_t v, unsigned width)
{
    if (!c || c->is_text)
        return NULL;
    expr_ctx *cx = rt_cx();
    expr *e = expr_ite(cx, c->null, expr_const(cx, 0, 64), c->v);
    e = rt_norm(expr_resize(cx, e, width));
    return e && e->value == (v & expr_mask(width)) ? e : NULL;
}

int sym_sqlite3_column_int(sqlite3_stmt *st, int i)
{
    int v = sqlite3_column_int(st, i);
    __sym_ret = int_cell(cell_of(st, i), (uint32_t)v, 32);
    return v;
}

sqlite3_int64 sym_sqlite3_column_int64(sqlite3_stmt *st, int i)
{
    sqlite3_int64 v = sqlite3_column_int64(st, i);
    __sym_ret = int_cell(cell_of(st, i), (uint64_t)v, 64);
    return v;
}

double sym_sqlite3_column_double(sqlite3_stmt *st, int i)
{
    __sym_ret = NULL; /* floating point is concrete */
    return sqlite3_column_double(st, i);
}

/* Shadows for the text SQLite returned: bytes 0..len of the cell (the terminating NUL
 * too, when inside the bound), so a loop over the string reads symbolic bytes. */
static void shadow_text(const db_val *c, const unsigned char *p, int nbytes)
{
    if (!c || !c->is_text || !p)
        return;
    unsigned len = (unsigned)c->len->value;
    if ((int)len != nbytes)
        return;
    for (unsigned i = 0; i <= len && i < c->nbytes; i++) {
        expr *b = rt_norm(c->bytes[i]);
        if (b && b->value == p[i])
            rt_shadow_put((uintptr_t)(p + i), &b, 1);
    }
}

const unsigned char *sym_sqlite3_column_text(sqlite3_stmt *st, int i)
{
    const unsigned char *p = sqlite3_column_text(st, i);
    int n = sqlite3_column_bytes(st, i);
    const db_val *c = cell_of(st, i);
    __sym_ret = NULL;
    /* The pointer stays concrete (a symbolic pointer would pin every load through it);
     * a program tells NULL cells apart with sqlite3_column_type, which is symbolic. */
    if (c && c->is_text && p)
        shadow_text(c, p, n);
    return p;
}

const void *sym_sqlite3_column_blob(sqlite3_stmt *st, int i)
{
    const void *p = sqlite3_column_blob(st, i);
    const db_val *c = cell_of(st, i);
    if (c && c->is_text && p)
        shadow_text(c, p, sqlite3_column_bytes(st, i));
    __sym_ret = NULL;
    return p;
}

int sym_sqlite3_column_bytes(sqlite3_stmt *st, int i)
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

int sym_sqlite3_column_type(sqlite3_stmt *st, int i)
{
    int t = sqlite3_column_type(st, i);
    const db_val *c = cell_of(st, i);
    __sym_ret = NULL;
    if (c && t != SQLITE_FLOAT) {
        expr_ctx *cx = rt_cx();
        int type = c->is_text ? SQLITE_TEXT : SQLITE_INTEGER;
        expr *e = rt_norm(expr_ite(cx, c->null, expr_const(cx, SQLITE_NULL, 32), expr_const(cx, (uint64_t)type, 32)));
        __sym_ret = e && e->value == (uint32_t)t ? e : NULL;
    }
    return t;
}

/* ---------------------------------------------------------------- exec */

/* sqlite3_exec through the intercepted prepare/step/column_text, so rows reach the
 * callback with symbolic text (its argv strings carry shadows). Same contract as SQLite's. */
int sym_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg, char **errmsg)
{
    if (errmsg)
        *errmsg = NULL;
    int rc = SQLITE_OK;
    const char *p = sql;
    while (p && *p && rc == SQLITE_OK) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        rc = prepare(2, db, p, -1, 0, &st, &tail);
        if (rc != SQLITE_OK)
            break;
        if (!st) { /* blanks or comment */
            p = tail;
            continue;
        }
        int ncol = sym_sqlite3_column_count(st);
        char **argv = calloc((size_t)ncol * 2 + 2, sizeof *argv);
        if (!argv) {
            sym_sqlite3_finalize(st);
            rc = SQLITE_NOMEM;
            break;
        }
        char **names = argv + ncol + 1;
        for (int i = 0; i < ncol; i++)
            names[i] = (char *)sqlite3_column_name(st, i);
        int src;
        while ((src = sym_sqlite3_step(st)) == SQLITE_ROW) {
            if (!cb)
                continue;
            for (int i = 0; i < ncol; i++)
                argv[i] = (char *)sym_sqlite3_column_text(st, i);
            if (cb(arg, ncol, argv, names)) {
                rc = SQLITE_ABORT;
                break;
            }
        }
        if (rc == SQLITE_OK && src != SQLITE_DONE)
            rc = src;
        free(argv);
        int frc = sym_sqlite3_finalize(st);
        if (rc == SQLITE_OK && frc != SQLITE_OK)
            rc = frc;
        p = tail;
    }
    __sym_ret = NULL;
    if (rc != SQLITE_OK && errmsg)
        *errmsg = sqlite3_mprintf("%s", rc == SQLITE_ABORT ? "query aborted" : sqlite3_errmsg(db));
    return rc;
}

/* ---------------------------------------------------------------- get_table */

/* A copy of the text at p (n bytes) in sqlite3_malloc'ed memory, with p's shadows. */
static char *copy_text(const char *p, int n)
{
    char *d = sqlite3_malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, p, (size_t)n);
    d[n] = 0;
    for (int i = 0; i <= n && !rt.trace_full; i++) {
        expr *b = rt_shadow_get((uintptr_t)(p + i));
        if (b && b->value == (uint8_t)p[i])
            rt_shadow_put((uintptr_t)(d + i), &b, 1);
    }
    return d;
}

/*
 * sqlite3_get_table through the intercepted prepare/step/column_text, so the strings it
 * returns carry shadows. The result has SQLite's own layout (slot -1 holds 1 + the
 * number of entries), so the program frees it with the real sqlite3_free_table.
 */
int sym_sqlite3_get_table(sqlite3 *db, const char *sql, char ***pazResult, int *pnRow, int *pnColumn, char **pzErrmsg)
{
    char **res = NULL;
    size_t n = 0, cap = 0;
    int ncol = 0, nrow = 0, rc = SQLITE_OK;
    if (pzErrmsg)
        *pzErrmsg = NULL;
    *pazResult = NULL;
    const char *p = sql;
#define PUSH(v)                                                                        \
    do {                                                                               \
        if (n + 2 > cap) {                                                             \
            char **nr = sqlite3_realloc64(res, (cap = cap * 2 + 16) * sizeof *nr);     \
            if (!nr) {                                                                 \
                rc = SQLITE_NOMEM;                                                     \
                break;                                                                 \
            }                                                                          \
            res = nr;                                                                  \
        }                                                                              \
        res[1 + n++] = (v);                                                            \
    } while (0)
    while (p && *p && rc == SQLITE_OK) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        rc = prepare(2, db, p, -1, 0, &st, &tail);
        if (rc != SQLITE_OK)
            break;
        if (!st) {
            p = tail;
            continue;
        }
        int k = sym_sqlite3_column_count(st);
        int src;
        bool first = true;
        while (rc == SQLITE_OK && (src = sym_sqlite3_step(st)) == SQLITE_ROW) {
            if (first && !ncol) { /* the header: column names of the first statement with rows */
                ncol = k;
                for (int i = 0; i < k && rc == SQLITE_OK; i++)
                    PUSH(sqlite3_mprintf("%s", sqlite3_column_name(st, i)));
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
        if (rc == SQLITE_OK && src != SQLITE_DONE)
            rc = src;
        int frc = sym_sqlite3_finalize(st);
        if (rc == SQLITE_OK && frc != SQLITE_OK)
            rc = frc;
        p = tail;
    }
#undef PUSH
    __sym_ret = NULL;
    if (!res && rc == SQLITE_OK) {
        res = sqlite3_malloc(sizeof *res);
        if (!res)
            rc = SQLITE_NOMEM;
    }
    if (res)
        res[0] = (char *)(intptr_t)(n + 1);
    if (rc != SQLITE_OK) {
        if (pzErrmsg)
            *pzErrmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        if (res)
            sqlite3_free_table(res + 1);
        if (pnRow)
            *pnRow = 0;
        if (pnColumn)
            *pnColumn = 0;
        return rc;
    }
    *pazResult = res + 1;
    if (pnRow)
        *pnRow = nrow;
    if (pnColumn)
        *pnColumn = ncol;
    return SQLITE_OK;
}
