/* db_pq.c: fixture mode on PostgreSQL: a fresh schema per run in a scratch database, symbolic rows through libpq (Emmi et al. 2007). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../data/data_pg.h"
#include "../db/db_pg.h"
#include "data_rt.h"
#include "db_pq.h"
#include "db_rt.h"
#include "util/util.h"

/*
 * The PostgreSQL counterpart of db_fixture_rt.c + db_sqlite.c (see db_pq.h for the
 * environment):
 *
 *  - first connect of a run: the fixture is read from the test vector (db_rt_setup_with),
 *    with the ranges of the PostgreSQL types as extra assumptions (int2/int4 ranges,
 *    booleans 0/1, varchar(n) lengths, char(n) exactly n bytes); then, on the scratch
 *    database, the schema <prefix>_<fork server pid> is dropped and created again, the
 *    tables created from SYMPATH_DB_PG_DDL, and the fixture's rows inserted in one
 *    transaction (deferred foreign keys) with INSERT ... RETURNING ctid: the ctid of each
 *    slot is its row id (block << 16 | offset). Every connection of the program goes to
 *    that schema (search_path), whatever it names: never to the user's database.
 *  - an understood SELECT (db_query_parse, LIKE exact as in PostgreSQL) runs with ", F.ctid"
 *    per FROM item appended to its result list (hidden: PQnfields does not count them);
 *    libpq returns every row at once, so the row events (db_rt_record_rows) and the check
 *    of every returned row (db_rt_row_seen) happen when the result arrives. An understood
 *    COUNT/SUM/MIN/MAX gets its one row's values as expressions.
 *  - PQgetvalue of a fixture cell: a text cell's bytes are its byte expressions (shadows,
 *    the terminating NUL included); an integer cell (int2/int4/int8) is its decimal digits
 *    as expressions of the 64-bit cell, the number of digits fixed by a BK_CONCRETIZE event
 *    on the value's magnitude (so atoi/strtol of the text give the cell back through the
 *    libc models, and the other side of the event asks for another magnitude). A boolean's
 *    byte is ite(cell != 0, 't', 'f'); numeric/real cells are concrete text. PQgetisnull is the cell's null flag, PQgetlength
 *    of a text cell its length; PQntuples is concrete (the row events fix it).
 *  - parameters of PQexecParams/PQexecPrepared (text format): a parameter compared with a
 *    text column is a text of the bytes the program passed (their shadows; its length
 *    symbolic, as sqlite3_bind_text's of a NUL-terminated text: db_rt_text_param), one compared
 *    with an integer column (or that reads as an integer) the value of its decimal digits.
 *  - INSERT, UPDATE, DELETE and other statements run on the run's schema. An understood
 *    INSERT ... VALUES of one row is tracked as db_sqlite.c tracks it (its row id: the
 *    table's last ctid), so later queries see it with its values' expressions; an understood
 *    DELETE changes the rows' expressions (db_rt_apply_dml). An UPDATE (new row versions at
 *    new ctids) and anything else that changes rows make the table concrete from then on
 *    (logged as not understood, "write run concretely").
 *  - every SELECT's result (or error) and every failed statement is appended to
 *    SYMPATH_DB_RESULTS in replay_pq.c's format ("writes allowed"), which the explorer
 *    keeps beside each test: `sympath replay` then needs no server.
 */

#define MAX_PARAMS 64

/* A result of the program's that sympath models. */
typedef struct pq_fix {
    struct pq_fix *next;
    const PGresult *res;
    qstate qs;               /* the query, its parameters, predictions and statistics */
    int hidden;              /* hidden ctid columns at the end of the result */
    int nrows;
    int *slots;              /* nrows * DB_MAX_FROM fixture slots (-1: not a fixture row) */
    const inserted **ins;    /* nrows: the tracked row the program inserted, or NULL */
    bool shadowed;
} pq_fix;

/* A statement the program prepared. */
typedef struct pq_prep {
    struct pq_prep *next;
    const PGconn *conn;
    char *name, *sql;
    int nparams;
    Oid *types;
} pq_prep;

static pq_fix *fixes;
static pq_prep *preps;
static char *schema_name;   /* this executor's schema in the scratch database */
static int results_fd = -1;

bool db_pq_wanted(void)
{
    const char *s = getenv("SYMPATH_DB_PG_SCRATCH");
    return s && *s;
}

/* ---------------------------------------------------------------- recorded results */

/* Append text to the results file (opened, truncated, at the run's first connect). */
static void rec(const char *s, size_t n)
{
    if (results_fd >= 0)
        rt_sys_write(results_fd, s, n);
}

/* A field with \ tab newline CR escaped (NULL: \N), preceded by a tab, into a memstream. */
static void put_field(FILE *m, const char *p, int len)
{
    fputc('\t', m);
    if (!p) {
        fputs("\\N", m);
        return;
    }
    for (int k = 0; k < len; k++) {
        char c = p[k];
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r')
            fprintf(m, "\\%c", c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
        else
            fputc(c, m);
    }
}

/* The result of a SELECT (visible columns only), or its error. */
static void record_result(const char *sql, const PGresult *r, int ncols, const PGconn *conn)
{
    if (results_fd < 0)
        return;
    char site[17];
    data_site_id(sql, strlen(sql), site);
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m)
        return;
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK) {
        char msg[1024], flat[1024];
        data_pg_message(conn, r, msg, sizeof msg);
        data_rt_flat(flat, sizeof flat, msg);
        fprintf(m, "result\t%s\t0\nerror\t%s\nend\n", site, flat);
    } else {
        fprintf(m, "result\t%s\t%d\nnames", site, ncols);
        for (int c = 0; c < ncols; c++) {
            const char *nm = PQfname(r, c);
            put_field(m, nm, (int)strlen(nm));
        }
        fputc('\n', m);
        for (int row = 0; row < PQntuples(r); row++) {
            fputs("row", m);
            for (int c = 0; c < ncols; c++)
                put_field(m, PQgetisnull(r, row, c) ? NULL : PQgetvalue(r, row, c), PQgetlength(r, row, c));
            fputc('\n', m);
        }
        fputs("end\n", m);
    }
    fclose(m);
    rec(buf, n);
    free(buf);
}

/* A statement that failed, in the query log ("s" line). */
static void log_error(const char *sql, const PGresult *r, const PGconn *conn)
{
    char msg[1024], fm[1024], fs[1024];
    data_pg_message(conn, r, msg, sizeof msg);
    data_rt_flat(fm, sizeof fm, msg);
    data_rt_flat(fs, sizeof fs, sql);
    db_rt_log_line("s\t%s\t%s", fm, fs);
}

/* A statement other than a SELECT that failed: logged, and recorded for the replay. */
static void record_failure(const char *sql, const PGresult *r, const PGconn *conn)
{
    char msg[1024], fm[1024], fs[4096], line[5200];
    data_pg_message(conn, r, msg, sizeof msg);
    data_rt_flat(fm, sizeof fm, msg);
    data_rt_flat(fs, sizeof fs, sql);
    int n = snprintf(line, sizeof line, "fail\t%s\t%s\n", fm, fs);
    if (n > 0)
        rec(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    log_error(sql, r, conn);
}

/* ---------------------------------------------------------------- the run's database */

/* Extra assumptions of the PostgreSQL types (db_pg_kind) over every slot's cells. */
static void type_assumptions(void)
{
    expr_ctx *cx = rt_cx();
    for (int ti = 0; ti < db_rt.schema->ntables; ti++) {
        const db_table *t = &db_rt.schema->tables[ti];
        for (unsigned k = 0; k < db_rt.lim.rows; k++)
            for (int c = 0; c < t->ncols; c++) {
                const db_val *v = &db_rt.cells[ti][(size_t)k * t->ncols + c];
                unsigned n;
                int64_t lo = 0, hi = 0;
                expr *ok = NULL;
                switch (db_pg_column_kind(&t->cols[c], &n)) {
                case DB_PG_INT2: lo = -32768, hi = 32767; break;
                case DB_PG_INT4: lo = INT32_MIN, hi = INT32_MAX; break;
                case DB_PG_BOOL: lo = 0, hi = 1; break;
                case DB_PG_VARCHAR:
                    if (n < db_rt.lim.text)
                        ok = expr_cmp(cx, PRED_ULE, v->len, expr_const(cx, n, 8));
                    break;
                case DB_PG_CHAR: /* shorter values come back blank-padded: exactly n bytes */
                    if (n <= db_rt.lim.text)
                        ok = expr_cmp(cx, PRED_EQ, v->len, expr_const(cx, n, 8));
                    break;
                default: break;
                }
                if (lo || hi)
                    ok = expr_and1(cx, expr_cmp(cx, PRED_SLE, expr_const(cx, (uint64_t)lo, 64), v->v),
                                   expr_cmp(cx, PRED_SLE, v->v, expr_const(cx, (uint64_t)hi, 64)));
                if (ok)
                    db_rt_assume(expr_binary(cx, EXPR_OR, v->null, ok));
            }
    }
}

/* One statement on the setup connection; 0 when it succeeded (else an "e" line). */
static int setup_exec(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok) {
        char msg[1024], flat[1024], text[600];
        data_pg_message(c, r, msg, sizeof msg);
        data_rt_flat(flat, sizeof flat, msg);
        data_rt_flat(text, sizeof text, sql);
        db_rt_log_line("e\tbuilding the run's schema %s on the scratch database: %s (%s)", schema_name, flat, text);
    }
    PQclear(r);
    return ok ? 0 : -1;
}

/* "(block,offset)" -> block << 16 | offset; -1 when it is not a ctid */
static int64_t ctid_id(const char *s)
{
    unsigned long b, o;
    if (!s || sscanf(s, "(%lu,%lu)", &b, &o) != 2)
        return -1;
    return (int64_t)(b << 16 | (o & 0xffff));
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    char buf[4096];
    size_t k;
    while (m && (k = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, k, m);
    fclose(f);
    if (m)
        fclose(m);
    return s;
}

/* A connection to the scratch database with search_path set to the run's schema (or none). */
static PGconn *scratch_connect(bool with_path)
{
    char opt[300];
    snprintf(opt, sizeof opt, "-c search_path=%s -c client_min_messages=warning", schema_name);
    const char *const keys[] = {"dbname", "options", NULL};
    const char *const vals[] = {getenv("SYMPATH_DB_PG_SCRATCH"), with_path ? opt : "-c client_min_messages=warning",
                                NULL};
    return PQconnectdbParams(keys, vals, 1);
}

/* db_rt_setup_with's builder: the run's schema with the fixture's rows (see the top). */
static int build_pg(void)
{
    type_assumptions();
    const char *prefix = getenv("SYMPATH_DB_PG_PREFIX");
    /* one schema per executor: the fork server's pid names it (the run is its child) */
    int owner = getenv("SYMPATH_CTL_FD") ? (int)getppid() : (int)getpid();
    if (asprintf(&schema_name, "%s_%d", prefix && *prefix ? prefix : "sympath_run", owner) < 0)
        return -1;
    const char *rp = getenv("SYMPATH_DB_RESULTS");
    if (rp && *rp && (results_fd = open(rp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0)
        rec("sympath-results 1\nwrites\tallowed\n", strlen("sympath-results 1\nwrites\tallowed\n"));
    char *ddl = read_text(getenv("SYMPATH_DB_PG_DDL") ? getenv("SYMPATH_DB_PG_DDL") : "");
    if (!ddl) {
        db_rt_log_line("e\tcannot read the PostgreSQL DDL %s", getenv("SYMPATH_DB_PG_DDL"));
        return -1;
    }
    PGconn *c = scratch_connect(false);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        char msg[1024], flat[1024];
        data_pg_message(c, NULL, msg, sizeof msg);
        data_rt_flat(flat, sizeof flat, msg);
        db_rt_log_line("e\tcannot connect to the scratch database: %s", flat);
        PQfinish(c);
        free(ddl);
        return -1;
    }
    char *sql = NULL;
    /* one transaction, committed without waiting for the WAL (a scratch schema rebuilt every run) */
    int rc = asprintf(&sql, "SET synchronous_commit = off; BEGIN; DROP SCHEMA IF EXISTS \"%s\" CASCADE; "
                            "CREATE SCHEMA \"%s\"; SET LOCAL search_path = \"%s\"",
                      schema_name, schema_name, schema_name) < 0 ? -1 : 0;
    rc = rc || setup_exec(c, sql) || setup_exec(c, ddl);
    free(sql), free(ddl);
    for (int ti = 0; !rc && ti < db_rt.schema->ntables; ti++) {
        const db_table *t = &db_rt.schema->tables[ti];
        unsigned count = (unsigned)db_rt.counts[ti]->value;
        db_cell cells[t->ncols];
        uint8_t *bufs = calloc((size_t)t->ncols, db_rt.lim.text + 1);
        if (!bufs)
            rc = -1;
        for (unsigned k = 0; !rc && k < count && k < db_rt.lim.rows; k++) {
            for (int col = 0; col < t->ncols; col++)
                db_rt_concrete_cell(&db_rt.cells[ti][(size_t)k * t->ncols + col], bufs + (size_t)col * (db_rt.lim.text + 1),
                                    &cells[col]);
            char *ins = db_pg_insert_sql(t, cells, true);
            PGresult *r = ins ? PQexec(c, ins) : NULL;
            if (r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
                db_rt.rowids[ti][k] = ctid_id(PQgetvalue(r, 0, 0));
            } else { /* the solver's row violates a constraint the server checks: reported */
                char msg[1024], flat[1024];
                data_pg_message(c, r, msg, sizeof msg);
                data_rt_flat(flat, sizeof flat, msg);
                db_rt_log_line("e\tfixture row rejected by PostgreSQL (%s): %s", flat, ins ? ins : "out of memory");
                rc = -1;
            }
            PQclear(r);
            free(ins);
        }
        free(bufs);
    }
    rc = rc || setup_exec(c, "COMMIT");
    PQfinish(c);
    return rc;
}

PGconn *db_pq_connect(void)
{
    if (!db_rt.state) {
        db_rt.pg = true;
        db_rt_setup_with(build_pg);
    }
    if (db_rt.state != 1) /* never the user's database: a connection that failed */
        return PQconnectdb("host=/nonexistent/sympath-fixture-setup-failed connect_timeout=1");
    return scratch_connect(true);
}

/* ---------------------------------------------------------------- parameters */

/* Is parameter k (1-based) compared with a text column (1), an integer column (0), or neither (-1)? */
static int param_kind(const db_query *q, const db_sexpr *e, int k)
{
    if (!e)
        return -1;
    bool has = false;
    int col = -1;
    for (int i = 0; i < e->nkids; i++) {
        const db_sexpr *x = e->kids[i];
        has |= x->kind == DBX_PARAM && x->param == k;
        if (x->kind == DBX_COLUMN && x->from >= 0 && x->from < q->nfrom)
            col = db_column_is_text(&db_rt.schema->tables[q->from_table[x->from]].cols[x->column]) ? 1 : 0;
    }
    if (has && col >= 0 && (e->kind == DBX_CMP || e->kind == DBX_IN || e->kind == DBX_BETWEEN || e->kind == DBX_LIKE))
        return col;
    for (int i = 0; i < e->nkids; i++) {
        int r = param_kind(q, e->kids[i], k);
        if (r >= 0)
            return r;
    }
    return -1;
}

/* Parameters of an execution as db_vals (see the top). */
static void make_params(qstate *s, int nparams, const char *const *values, const int *formats)
{
    expr_ctx *cx = rt_cx();
    s->nparams = nparams < MAX_PARAMS ? nparams : MAX_PARAMS;
    if (s->nparams <= 0)
        return;
    s->params = calloc((size_t)s->nparams, sizeof *s->params);
    s->param_bytes = calloc((size_t)s->nparams * 256, sizeof *s->param_bytes);
    if (!s->params || !s->param_bytes) {
        s->nparams = 0;
        return;
    }
    for (int i = 0; i < s->nparams; i++) {
        db_val *p = &s->params[i];
        const char *v = values ? values[i] : NULL;
        if (formats && formats[i]) { /* binary: unknown (reads as NULL, the query is then concrete if used) */
            continue;
        }
        if (!v) {
            p->null = expr_const(cx, 1, 1);
            p->v = expr_const(cx, 0, 64);
            continue;
        }
        size_t len = strlen(v);
        int kind = s->q ? param_kind(s->q, s->q->where, i + 1) : -1;
        for (int k = 0; s->q && s->q->table >= 0 && k < s->q->ninsert; k++) /* INSERT VALUES ($n) */
            if (s->q->insert_val[k]->kind == DBX_PARAM && s->q->insert_val[k]->param == i + 1)
                kind = db_column_is_text(&db_rt.schema->tables[s->q->table].cols[s->q->insert_col[k]]) ? 1 : 0;
        bool digits = len > 0 && len <= 18;
        for (size_t k = v[0] == '-' ? 1 : 0; k < len; k++)
            digits &= v[k] >= '0' && v[k] <= '9';
        digits &= len > (size_t)(v[0] == '-');
        p->null = expr_const(cx, 0, 1);
        if (kind == 0 || (kind < 0 && digits)) {
            if (!digits) { /* not a number: the server would refuse it; concrete NULL-free 0 */
                p->v = expr_const(cx, 0, 64);
                continue;
            }
            /* value = sign * sum of (digit - '0') * 10^k over the bytes the program passed */
            bool neg = v[0] == '-';
            expr *acc = expr_const(cx, 0, 64);
            for (size_t k = neg ? 1 : 0; k < len; k++) {
                expr *b = db_rt_byte_at_mem(v + k);
                expr *d = b ? expr_binary(cx, EXPR_SUB, expr_zext(cx, b, 64), expr_const(cx, '0', 64))
                            : expr_const(cx, (uint64_t)(v[k] - '0'), 64);
                acc = expr_binary(cx, EXPR_ADD, expr_binary(cx, EXPR_MUL, acc, expr_const(cx, 10, 64)), d);
            }
            p->v = neg ? expr_binary(cx, EXPR_SUB, expr_const(cx, 0, 64), acc) : acc;
            continue;
        }
        /* as sqlite3_bind_text of a NUL-terminated text: the length is symbolic too */
        db_rt_text_param(p, s->param_bytes + (size_t)i * 256, v, -1);
    }
}

/* ---------------------------------------------------------------- statements */

static pq_fix *find_fix(const PGresult *r)
{
    for (pq_fix *f = fixes; f; f = f->next)
        if (f->res == r)
            return f;
    return NULL;
}

static bool failed(const PGresult *r)
{
    ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    return s == PGRES_FATAL_ERROR || s == PGRES_BAD_RESPONSE || s == PGRES_NONFATAL_ERROR;
}

static PGresult *send(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                      const char *const *values, const int *lengths, const int *formats, int result_format)
{
    return with_params ? PQexecParams(conn, sql, nparams, types, values, lengths, formats, result_format)
                       : PQexec(conn, sql);
}

/* Every table concrete (a statement whose target sympath does not know changed rows). */
static void all_dirty(void)
{
    for (int ti = 0; ti < db_rt.schema->ntables; ti++)
        db_rt.dirty[ti] = true;
}

/*
 * After a statement other than a SELECT succeeded: an understood INSERT ... VALUES of one row is
 * tracked (db_rt_track_insert; its row id is the table's last ctid, the heap of a fresh table
 * only growing at its end), an understood DELETE changes the rows' "alive" expressions
 * (db_rt_apply_dml); an UPDATE writes new row versions at new ctids, so its table becomes
 * concrete, as does the table of anything else that changed rows. Returns true when modelled.
 */
static bool apply_write(qstate *s, PGconn *conn, const PGresult *r, int nparams, const char *const *values,
                        const int *formats)
{
    const db_query *q = s->q;
    const char *ct = r ? PQcmdTuples((PGresult *)r) : "";
    long n = ct && *ct ? atol(ct) : 0;
    if (!q || q->table < 0 || (q->kind != DBQ_INSERT && q->kind != DBQ_UPDATE && q->kind != DBQ_DELETE)) {
        if (n > 0 && (!q || q->kind != DBQ_SELECT))
            all_dirty();
        return false;
    }
    int ti = q->table;
    if (db_rt.dirty[ti])
        return false;
    if (q->kind == DBQ_UPDATE || (q->kind == DBQ_INSERT && (n != 1 || !q->ninsert))) {
        if (n > 0)
            db_rt.dirty[ti] = true;
        return false;
    }
    make_params(s, nparams, values, formats);
    if (q->kind == DBQ_DELETE) {
        if (db_rt_apply_dml(s, n > 0)) {
            db_rt.dirty[ti] = true;
            return false;
        }
        return true;
    }
    char *sql = NULL, *name = PQescapeIdentifier(conn, db_rt.schema->tables[ti].name, strlen(db_rt.schema->tables[ti].name));
    PGresult *x = name && asprintf(&sql, "SELECT max(ctid)::text FROM %s", name) >= 0 ? PQexec(conn, sql) : NULL;
    int64_t id = x && PQresultStatus(x) == PGRES_TUPLES_OK && PQntuples(x) == 1 ? ctid_id(PQgetvalue(x, 0, 0)) : -1;
    PQclear(x);
    PQfreemem(name);
    free(sql);
    if (id < 0) {
        db_rt.dirty[ti] = true;
        return false;
    }
    unsigned before = 0, after = 0;
    for (const inserted *o = db_rt.ins[ti]; o; o = o->next)
        before++;
    db_rt_track_insert(s, id);
    for (const inserted *o = db_rt.ins[ti]; o; o = o->next)
        after++;
    return after > before; /* (values not modelled: an unknown row, its queries' rows concrete) */
}

PGresult *db_pq_exec(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                     const char *const *values, const int *lengths, const int *formats, int result_format)
{
    if (db_rt.state != 1 || !sql)
        return send(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    pq_fix *fx = calloc(1, sizeof *fx);
    if (!fx)
        return send(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    qstate *s = &fx->qs;
    size_t len = strlen(sql);
    s->sql = strdup(sql);
    for (int f = 0; f < DB_MAX_FROM; f++)
        s->cur_slot[f] = -1;
    char *err = NULL;
    if (db_query_parse(db_rt.schema, sql, len, &s->q, &err))
        s->q = NULL;
    free(err);
    if (s->q) { /* PostgreSQL's semantics where they differ from SQLite's */
        s->q->like_exact = true;
        for (int k = 0; k < s->q->norder; k++) /* NULLs sort as larger than any value */
            if (s->q->order_nulls_default[k])
                s->q->order_nulls_last[k] = !s->q->order_desc[k];
    }
    const db_query *q = s->q;
    bool select = q ? q->kind == DBQ_SELECT : data_is_select(sql, len);
    bool model = q && select && q->understood && result_format == 0;
    for (int i = 0; model && formats && i < nparams; i++)
        model = !formats[i];
    PGresult *r = NULL;
    uint64_t t0 = util_now_ns();
    if (model && !q->aggregate) {
        char *with = db_query_with_hidden(q, sql, len, "ctid");
        r = with ? send(conn, with, with_params || nparams, nparams, types, values, lengths, formats, 0) : NULL;
        free(with);
        if (r && PQresultStatus(r) == PGRES_TUPLES_OK && PQnfields(r) == q->nresult + q->nfrom) {
            fx->hidden = q->nfrom;
            s->rowid_col = true;
        } else { /* the program gets its own statement's result (or error) */
            PQclear(r);
            r = NULL;
            s->why = "ctid columns could not be added";
        }
    } else if (model) {
        s->agg_vals = calloc((size_t)q->nresult, sizeof *s->agg_vals);
    } else if (q && select && q->understood) {
        s->why = "binary format";
    }
    if (!r)
        r = send(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    s->ns = util_now_ns() - t0;
    if (select) {
        int visible = r && PQresultStatus(r) == PGRES_TUPLES_OK ? PQnfields(r) - fx->hidden : 0;
        record_result(sql, r, visible, conn);
        if (failed(r))
            log_error(sql, r, conn);
    } else if (failed(r)) {
        record_failure(sql, r, conn);
    }
    if (!select && (failed(r) || !apply_write(s, conn, r, nparams, values, formats))) {
        s->why = "write run concretely"; /* logged as not understood */
        if (s->q)
            s->q->ninsert = 0;
    }
    bool rows = r && PQresultStatus(r) == PGRES_TUPLES_OK && (s->rowid_col || (s->agg_vals && PQntuples(r) == 1));
    if (rows) {
        make_params(s, nparams, values, formats);
        db_rt_record_rows(s);
        fx->res = r;
        fx->nrows = PQntuples(r);
        fx->slots = calloc((size_t)fx->nrows * DB_MAX_FROM + 1, sizeof *fx->slots);
        fx->ins = calloc((size_t)fx->nrows + 1, sizeof *fx->ins);
        s->cur_agg = s->agg_vals && s->symbolic;
        for (int row = 0; fx->slots && row < fx->nrows; row++) {
            int *sl = &fx->slots[(size_t)row * DB_MAX_FROM];
            for (int f = 0; f < DB_MAX_FROM; f++)
                sl[f] = -1;
            if (!s->rowid_col) {
                s->rows_other++;
                continue;
            }
            int64_t ids[DB_MAX_FROM];
            int base = PQnfields(r) - fx->hidden;
            for (int f = 0; f < q->nfrom; f++)
                ids[f] = ctid_id(PQgetvalue(r, row, base + f));
            db_rt_row_seen(s, ids);
            memcpy(sl, s->cur_slot, sizeof s->cur_slot);
            if (fx->ins)
                fx->ins[row] = s->cur_ins;
        }
        db_rt_rows_done(s);
    } else if (!select || failed(r)) {
        s->rows_other = 0;
    } else if (r && PQresultStatus(r) == PGRES_TUPLES_OK) {
        s->rows_other += (uint64_t)PQntuples(r);
    }
    db_rt_log_query(s);
    if (fx->res) {
        fx->next = fixes;
        fixes = fx;
    } else {
        db_query_free(s->q);
        free(s->sql), free(s->params), free(s->param_bytes), free(s->agg_vals), free(fx);
    }
    return r;
}

static pq_prep *find_prep(const PGconn *conn, const char *name)
{
    for (pq_prep *p = preps; p; p = p->next)
        if (p->conn == conn && !strcmp(p->name, name ? name : ""))
            return p;
    return NULL;
}

PGresult *db_pq_prepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types)
{
    PGresult *r = PQprepare(conn, name, query, nparams, types);
    if (db_rt.state != 1 || failed(r)) {
        if (db_rt.state == 1 && query)
            record_failure(query, r, conn);
        return r;
    }
    pq_prep *p = find_prep(conn, name);
    if (!p && (p = calloc(1, sizeof *p))) {
        p->conn = conn;
        p->name = strdup(name ? name : "");
        p->next = preps;
        preps = p;
    }
    if (!p)
        return r;
    free(p->sql), free(p->types);
    p->sql = strdup(query);
    p->nparams = nparams;
    p->types = NULL;
    if (types && nparams > 0 && (p->types = malloc((size_t)nparams * sizeof *p->types)))
        memcpy(p->types, types, (size_t)nparams * sizeof *p->types);
    return r;
}

PGresult *db_pq_exec_prepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                              const int *lengths, const int *formats, int result_format)
{
    pq_prep *p = db_rt.state == 1 ? find_prep(conn, name) : NULL;
    if (!p || !p->sql)
        return PQexecPrepared(conn, name, nparams, values, lengths, formats, result_format);
    return db_pq_exec(conn, p->sql, true, nparams, nparams <= p->nparams ? p->types : NULL, values, lengths, formats,
                      result_format);
}

void db_pq_finish(PGconn *conn)
{
    for (pq_prep **pp = &preps; *pp;) {
        pq_prep *p = *pp;
        if (p->conn == conn) {
            *pp = p->next;
            free(p->name), free(p->sql), free(p->types), free(p);
        } else {
            pp = &p->next;
        }
    }
    PQfinish(conn);
}

/* ---------------------------------------------------------------- values */

/* The fixture cell behind (row, col) of a modelled result, or NULL (concrete). */
static const db_val *cell_of(const PGresult *res, int row, int col, pq_fix **out)
{
    pq_fix *fx = find_fix(res);
    *out = fx;
    if (!fx || rt.trace_full || row < 0 || row >= fx->nrows || col < 0 || !fx->qs.q || col >= fx->qs.q->nresult ||
        PQfformat(res, col) != 0)
        return NULL;
    const qstate *s = &fx->qs;
    if (s->cur_agg)
        return row == 0 && s->agg_vals[col].v ? &s->agg_vals[col] : NULL;
    if (!s->rowid_col || !fx->slots)
        return NULL;
    int f = s->q->result_from[col];
    int slot = fx->slots[(size_t)row * DB_MAX_FROM + f];
    if (slot < 0 && fx->ins && fx->ins[row] && s->q->result_col[col] >= 0)
        return &fx->ins[row]->cells[s->q->result_col[col]];
    if (slot < 0)
        return NULL;
    int ti = s->q->from_table[f];
    return &db_rt.cells[ti][(size_t)slot * db_rt.schema->tables[ti].ncols + s->q->result_col[col]];
}

/* The PostgreSQL kind of result column col (integer columns of aggregates: int8). */
static db_pg_kind col_kind(const pq_fix *fx, int col)
{
    const db_query *q = fx->qs.q;
    unsigned n;
    if (fx->qs.cur_agg || q->result_col[col] < 0)
        return DB_PG_INT8;
    int ti = q->from_table[q->result_from[col]];
    return db_pg_column_kind(&db_rt.schema->tables[ti].cols[q->result_col[col]], &n);
}

/* 10^k for k <= 18 */
static uint64_t pow10u(unsigned k)
{
    uint64_t p = 1;
    while (k--)
        p *= 10;
    return p;
}

/* The decimal text p[0..len) of integer cell c as expressions (see the top). */
static void shadow_digits(pq_fix *fx, const db_val *c, char *p, int len)
{
    expr_ctx *cx = rt_cx();
    int64_t v = (int64_t)c->v->value;
    char want[32];
    int n = snprintf(want, sizeof want, "%lld", (long long)v);
    if ((c->null->value & 1) || n != len || memcmp(want, p, (size_t)len))
        return; /* the server wrote another text: concrete */
    bool neg = v < 0;
    unsigned digits = (unsigned)(len - neg);
    /* the magnitude: |v| has `digits` digits (and the cell is not NULL) */
    expr *lo, *hi;
    expr *cond;
    if (!neg) {
        lo = expr_cmp(cx, PRED_SLE, expr_const(cx, digits == 1 ? 0 : pow10u(digits - 1), 64), c->v);
        hi = digits >= 19 ? expr_const(cx, 1, 1) : expr_cmp(cx, PRED_SLE, c->v, expr_const(cx, pow10u(digits) - 1, 64));
    } else {
        lo = digits >= 19 ? expr_const(cx, 1, 1)
                          : expr_cmp(cx, PRED_SLE, expr_const(cx, (uint64_t)-(int64_t)(pow10u(digits) - 1), 64), c->v);
        hi = expr_cmp(cx, PRED_SLE, c->v, expr_const(cx, (uint64_t)-(int64_t)pow10u(digits - 1), 64));
    }
    cond = expr_and1(cx, expr_not(cx, c->null), expr_and1(cx, lo, hi));
    if (!(cond->value & 1))
        return;
    if (rt_norm(cond))
        rt_trace_event(BK_CONCRETIZE, 0, 1, cond, CONC_EXTERNAL_CALL);
    expr *a = neg ? expr_binary(cx, EXPR_SUB, expr_const(cx, 0, 64), c->v) : c->v;
    /* under that condition |v| < 10^digits: the division chain in the narrowest width that
     * holds it (much cheaper for the solver than 64-bit division) */
    unsigned w = digits <= 4 ? 16 : digits <= 9 ? 32 : 64;
    a = expr_resize(cx, a, w);
    for (unsigned i = 0; i < digits; i++) {
        expr *d = expr_binary(cx, EXPR_UREM, expr_binary(cx, EXPR_UDIV, a, expr_const(cx, pow10u(digits - 1 - i), w)),
                              expr_const(cx, 10, w));
        expr *b = rt_norm(expr_resize(cx, expr_binary(cx, EXPR_ADD, d, expr_const(cx, '0', w)), 8));
        if (b && b->value == (uint8_t)p[neg + i]) {
            rt_shadow_put((uintptr_t)(p + neg + i), &b, 1);
            fx->shadowed = true;
        }
    }
}

char *db_pq_getvalue(const PGresult *res, int row, int col)
{
    char *p = PQgetvalue(res, row, col);
    __sym_ret = NULL;
    pq_fix *fx;
    const db_val *c = p ? cell_of(res, row, col, &fx) : NULL;
    if (!c)
        return p;
    int len = PQgetlength(res, row, col);
    if (c->is_text) {
        if ((c->null->value & 1) || (int)c->len->value != len)
            return p;
        for (int i = 0; i <= len && i < (int)c->nbytes; i++) {
            expr *b = rt_norm(c->bytes[i]);
            if (b && b->value == (uint8_t)p[i]) {
                rt_shadow_put((uintptr_t)(p + i), &b, 1);
                fx->shadowed = true;
            }
        }
        return p;
    }
    db_pg_kind k = col_kind(fx, col);
    if (k == DB_PG_INT8 || k == DB_PG_INT4 || k == DB_PG_INT2) {
        shadow_digits(fx, c, p, len);
    } else if (k == DB_PG_BOOL && len == 1 && !(c->null->value & 1)) { /* 't' or 'f' */
        expr_ctx *cx = rt_cx();
        expr *b = rt_norm(expr_ite(cx, expr_cmp(cx, PRED_NE, c->v, expr_const(cx, 0, 64)), expr_const(cx, 't', 8),
                                   expr_const(cx, 'f', 8)));
        if (b && b->value == (uint8_t)p[0]) {
            rt_shadow_put((uintptr_t)p, &b, 1);
            fx->shadowed = true;
        }
    }
    return p;
}

int db_pq_getisnull(const PGresult *res, int row, int col)
{
    int v = PQgetisnull(res, row, col);
    __sym_ret = NULL;
    pq_fix *fx;
    const db_val *c = cell_of(res, row, col, &fx);
    if (c) {
        expr *e = rt_norm(expr_zext(rt_cx(), c->null, 32));
        __sym_ret = e && e->value == (uint32_t)v ? e : NULL;
    }
    return v;
}

int db_pq_getlength(const PGresult *res, int row, int col)
{
    int v = PQgetlength(res, row, col);
    __sym_ret = NULL;
    pq_fix *fx;
    const db_val *c = cell_of(res, row, col, &fx);
    if (c && c->is_text) {
        expr_ctx *cx = rt_cx();
        expr *e = rt_norm(expr_ite(cx, c->null, expr_const(cx, 0, 32), expr_zext(cx, c->len, 32)));
        __sym_ret = e && e->value == (uint32_t)v ? e : NULL;
    }
    return v;
}

int db_pq_nfields(const PGresult *res)
{
    __sym_ret = NULL;
    pq_fix *fx = find_fix(res);
    return PQnfields(res) - (fx ? fx->hidden : 0);
}

void db_pq_clear(PGresult *res)
{
    __sym_ret = NULL;
    for (pq_fix **pp = &fixes; *pp; pp = &(*pp)->next)
        if ((*pp)->res == res) {
            pq_fix *fx = *pp;
            *pp = fx->next;
            if (fx->shadowed) /* the values' memory goes back to malloc: no stale shadows on it */
                for (int row = 0; row < fx->nrows; row++)
                    for (int col = 0; col < PQnfields(res); col++)
                        rt_shadow_clear((uintptr_t)PQgetvalue(res, row, col), (size_t)PQgetlength(res, row, col) + 1);
            qstate *s = &fx->qs;
            db_query_free(s->q);
            free(s->sql), free(s->params), free(s->param_bytes), free(s->agg_vals), free(fx->slots), free(fx->ins), free(fx);
            break;
        }
    PQclear(res);
}
