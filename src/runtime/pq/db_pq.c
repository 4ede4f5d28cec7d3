/* db_pq.c: fixture mode on PostgreSQL (Emmi et al. 2007): the design, and the program's statements (PQexec, PQexecParams, PQprepare, PQexecPrepared) with their row events and writes. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../data/data.h"
#include "db_pq_int.h"
#include "util/util.h"

/*
 * The PostgreSQL counterpart of db_fixture_rt.c + db_sqlite*.c (see db_pq.h for the
 * environment). The files: db_pq_build.c (the run's schema), db_pq.c (statements),
 * db_pq_params.c (parameters), db_pq_values.c (values), db_pq_record.c (record for the replay).
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
 *  - PQcmdTuples of an understood UPDATE or DELETE (or of a tracked INSERT ... SELECT) is the
 *    decimal text of the rows it hit, its digits expressions of that count (db_rt.changes, as
 *    sqlite3_changes on SQLite), so a branch on it goes both ways; of anything else, libpq's.
 *  - every SELECT's result (or error), every failed statement and every other statement's
 *    PQcmdTuples count is appended to SYMPATH_DB_RESULTS in replay_pq.c's format ("writes
 *    allowed"), which the explorer keeps beside each test: `sympath replay` then needs no server.
 */

/* A statement the program prepared. */
typedef struct pq_prep {
    struct pq_prep *next;
    const PGconn *conn;
    char *name, *sql;
    int nparams;
    Oid *types;
} pq_prep;

pq_fix *db_pq_fixes;
static pq_prep *preps;

/* ---------------------------------------------------------------- statements */

pq_fix *db_pq_find_fix(const PGresult *r)
{
    for (pq_fix *f = db_pq_fixes; f; f = f->next)
        if (f->res == r) return f;
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
    for (int ti = 0; ti < db_rt.schema->ntables; ti++) db_rt.dirty[ti] = true;
}

/*
 * After an UPDATE of table ti: PostgreSQL wrote new versions of the rows it changed, at new
 * ctids. Every row the model holds alive (fixture slots, tracked inserted rows) is found again
 * by its cells' concrete values (which the model's expressions give after db_rt_apply_dml),
 * each ctid used once, so result rows keep mapping back to the rows they came from. Rows with
 * equal values are interchangeable here. Returns 0, or -1 when some row is not found or the
 * table holds rows the model does not (the table then becomes concrete).
 */
static int remap_ctids(PGconn *conn, int ti)
{
    const db_table *t = &db_rt.schema->tables[ti];
    size_t cap = 4096, used = 0;
    char *not_in = calloc(cap, 1);
    db_cell *cells = calloc((size_t)t->ncols + 1, sizeof *cells);
    uint8_t *bufs = calloc((size_t)t->ncols + 1, 256);
    int rc = not_in && cells && bufs ? 0 : -1;
    unsigned alive = 0;
    /* the rows in the model: slots, then inserted rows */
    unsigned nslots = db_rt.lim.rows;
    const inserted *ins = db_rt.ins[ti];
    for (unsigned k = 0; !rc; k++) {
        const db_val *row;
        expr *live;
        int64_t *id;
        if (k < nslots) {
            if (k >= (unsigned)db_rt.counts[ti]->value) continue;
            row = &db_rt.cells[ti][(size_t)k * t->ncols], live = db_rt.alive[ti][k], id = &db_rt.rowids[ti][k];
        } else if (ins) {
            row = ins->cells, live = ins->alive, id = (int64_t *)&ins->rowid;
            ins = ins->next;
        } else {
            break;
        }
        if (!(live->value & 1)) continue;
        alive++;
        for (int c = 0; c < t->ncols; c++) db_rt_concrete_cell(&row[c], bufs + (size_t)c * 256, &cells[c]);
        char *sql = db_pg_find_row_sql(t, cells, not_in);
        PGresult *r = sql ? PQexec(conn, sql) : NULL;
        free(sql);
        if (r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && used + 64 < cap) {
            const char *ct = PQgetvalue(r, 0, 0);
            *id = db_pq_ctid_id(ct);
            used += (size_t)snprintf(not_in + used, cap - used, "%s'%s'", used ? "," : "", ct);
        } else {
            rc = -1;
        }
        PQclear(r);
    }
    if (!rc) { /* nothing else in the table */
        char *sql = NULL, *name = PQescapeIdentifier(conn, t->name, strlen(t->name));
        PGresult *r = name && asprintf(&sql, "SELECT count(*) FROM %s", name) >= 0 ? PQexec(conn, sql) : NULL;
        if (!r || PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1 ||
            (unsigned)atol(PQgetvalue(r, 0, 0)) != alive)
            rc = -1;
        PQclear(r);
        PQfreemem(name);
        free(sql);
    }
    free(not_in), free(cells), free(bufs);
    return rc;
}

/* db_rt.read_cell on PostgreSQL (ctx: the program's connection): column col of the row version of table ti at
 * that ctid, as the server prints it, read as the model's cell of its kind. */
static int read_cell(void *ctx, int ti, int64_t rowid, int col, db_cell *out, uint8_t *buf)
{
    PGconn *conn = ctx;
    const db_table *t = &db_rt.schema->tables[ti];
    const db_column *c = &t->cols[col];
    char *tn = PQescapeIdentifier(conn, t->name, strlen(t->name)),
         *cn = PQescapeIdentifier(conn, c->name, strlen(c->name));
    char *sql = NULL;
    PGresult *r = tn && cn &&
                          asprintf(&sql, "SELECT %s::text FROM %s WHERE ctid = '(%lld,%lld)'", cn, tn,
                                   (long long)(rowid >> 16), (long long)(rowid & 0xffff)) >= 0
                      ? PQexec(conn, sql)
                      : NULL;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
        const char *v = PQgetvalue(r, 0, 0);
        char *end = NULL;
        unsigned n;
        db_pg_kind kind = db_pg_column_kind(c, &n);
        out->null = PQgetisnull(r, 0, 0);
        if (out->null) {
            rc = 0;
        } else if (db_column_is_text(c)) {
            size_t len = strlen(v);
            if (len <= DB_TEXT_MAX) {
                memcpy(buf, v, len);
                out->len = (unsigned)len;
                out->text = buf;
                rc = 0;
            }
        } else if (kind == DB_PG_BOOL) {
            out->i = *v == 't';
            rc = 0;
        } else if (db_column_is_real(c)) {
            double d = strtod(v, &end);
            memcpy(&out->i, &d, sizeof d);
            rc = *v && !*end && d == d ? 0 : -1;
        } else {
            out->i = strtoll(v, &end, 10);
            rc = *v && !*end ? 0 : -1;
        }
    }
    PQclear(r);
    free(sql);
    PQfreemem(tn);
    PQfreemem(cn);
    return rc;
}

/*
 * After a statement other than a SELECT succeeded: an understood INSERT ... VALUES is tracked
 * (db_rt_track_inserts; its n rows' ids are the table's last n ctids, the heap of a fresh table
 * only growing at its end), an understood DELETE changes the rows' "alive" expressions
 * (db_rt_apply_dml), and so does an understood UPDATE, whose rows' new ctids are then found
 * (remap_ctids); the table of anything else that changed rows becomes concrete. Returns true
 * when modelled.
 */
static bool apply_write(qstate *s, PGconn *conn, const PGresult *r, int nparams, const char *const *values,
                        const int *formats)
{
    const db_query *q = s->q;
    const char *ct = r ? PQcmdTuples((PGresult *)r) : "";
    long n = ct && *ct ? atol(ct) : 0;
    db_rt.changes = NULL;        /* set again for an understood UPDATE/DELETE, a tracked INSERT ... SELECT */
    db_rt.read_cell = read_cell; /* the values of defaults sympath does not model */
    db_rt.read_ctx = conn;
    if (q && q->txn) { /* BEGIN, COMMIT, ROLLBACK, savepoints (db_txn.c) */
        /* COMMIT of a transaction a failed statement aborted (a write the server refused, an injected fault, a
         * statement the program did not check) succeeds, and the server rolls the transaction back: its tag says
         * ROLLBACK. Kept as a commit, the model held the transaction's writes the server undid (a ledger's
         * debit read back after an unchecked INSERT failed: a model mismatch) */
        db_txn t = q->txn;
        if (t == DB_TXN_COMMIT && r && !strcmp(PQcmdStatus((PGresult *)r), "ROLLBACK")) t = DB_TXN_ROLLBACK;
        db_rt_txn(t);
        return true;
    }
    if (!q || q->table < 0 || (q->kind != DBQ_INSERT && q->kind != DBQ_UPDATE && q->kind != DBQ_DELETE)) {
        if (n > 0 && (!q || q->kind != DBQ_SELECT)) all_dirty();
        return false;
    }
    int ti = q->table;
    if (db_rt.dirty[ti]) return false;
    if (q->kind == DBQ_INSERT && q->upsert) { /* ON CONFLICT DO UPDATE: then every row's ctid found again */
        db_pq_make_params(s, nparams, values, formats);
        if (!q->ninsert || db_rt_track_upsert(s, -1, false) || remap_ctids(conn, ti)) {
            db_rt.dirty[ti] = true;
            return false;
        }
        return true;
    }
    if (q->kind == DBQ_INSERT &&
        (!q->ninsert || n > DB_MAX_INSERT_ROWS || (!q->insert_src && (n < 1 || n != q->ninsert_rows)))) {
        if (n > 0) db_rt.dirty[ti] = true;
        return false;
    }
    db_pq_make_params(s, nparams, values, formats);
    if (q->kind == DBQ_UPDATE) { /* the rows' new expressions, then their new row versions' ctids */
        if (db_rt_apply_dml(s, n > 0, true) || (n > 0 && remap_ctids(conn, ti))) {
            if (n > 0) db_rt.dirty[ti] = true;
            return false;
        }
        return true;
    }
    if (q->kind == DBQ_DELETE) {
        if (db_rt_apply_dml(s, n > 0, true)) {
            db_rt.dirty[ti] = true;
            return false;
        }
        return true;
    }
    char *sql = NULL,
         *name = PQescapeIdentifier(conn, db_rt.schema->tables[ti].name, strlen(db_rt.schema->tables[ti].name));
    /* the VALUES rows, in order, are the table's last n row versions */
    PGresult *x = name && asprintf(&sql, "SELECT ctid::text FROM %s ORDER BY ctid DESC LIMIT %ld", name, n) >= 0
                      ? PQexec(conn, sql)
                      : NULL;
    int64_t ids[DB_MAX_INSERT_ROWS];
    bool ok = x && PQresultStatus(x) == PGRES_TUPLES_OK && PQntuples(x) == n;
    for (long k = 0; ok && k < n; k++) ok = (ids[n - 1 - k] = db_pq_ctid_id(PQgetvalue(x, (int)k, 0))) >= 0;
    PQclear(x);
    PQfreemem(name);
    free(sql);
    if (!ok) {
        db_rt.dirty[ti] = true;
        return false;
    }
    unsigned before = 0, after = 0;
    for (const inserted *o = db_rt.ins[ti]; o; o = o->next) before++;
    db_rt_track_inserts(s, ids, (int)n);
    for (const inserted *o = db_rt.ins[ti]; o; o = o->next) after++;
    if (q->nreturn && n == 1 && after > before && (s->ret_vals = calloc((size_t)q->nreturn, sizeof *s->ret_vals)))
        for (int i = 0; i < q->nreturn; i++)
            if (q->return_col[i] >= 0) s->ret_vals[i] = db_rt.ins[ti]->cells[q->return_col[i]];
    return after > before; /* (values not modelled: an unknown row, its queries' rows concrete) */
}

/* SELECT DISTINCT (db_rt_row_by_values): does column c of the row being mapped hold cell v, as the
 * server printed it? */
typedef struct pq_row {
    const PGresult *r;
    int row;
    const db_query *q;
} pq_row;

static bool value_holds(void *ctx, int c, const db_val *v, const db_cell *cell)
{
    const pq_row *pr = ctx;
    bool null = PQgetisnull(pr->r, pr->row, c);
    const char *text = PQgetvalue(pr->r, pr->row, c);
    unsigned n;
    if (null || cell->null) return null == cell->null;
    if (v->is_text)
        return (unsigned)PQgetlength(pr->r, pr->row, c) == cell->len && !memcmp(text, cell->text, cell->len);
    const db_column *col = &db_rt.schema->tables[pr->q->table].cols[pr->q->result_col[c]];
    if (db_pg_column_kind(col, &n) == DB_PG_BOOL) return (*text == 't') == (cell->i != 0);
    if (v->is_real) {
        double d = strtod(text, NULL);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return bits == (uint64_t)cell->i;
    }
    return strtoll(text, NULL, 10) == cell->i;
}

static PGresult *exec_fixture(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                              const char *const *values, const int *lengths, const int *formats, int result_format)
{
    if (db_rt.state != 1 || !sql)
        return send(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    pq_fix *fx = calloc(1, sizeof *fx);
    if (!fx) return send(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    qstate *s = &fx->qs;
    size_t len = strlen(sql);
    s->sql = strdup(sql);
    for (int f = 0; f < DB_MAX_FROM; f++) s->cur_slot[f] = -1;
    s->cur_group = -1;
    char *err = NULL;
    if (db_query_parse(db_rt.schema, sql, len, &s->q, &err)) s->q = NULL;
    free(err);
    if (s->q) { /* PostgreSQL's semantics where they differ from SQLite's */
        s->q->like_exact = true;
        if (s->q->sqlite_dates) db_query_unsupported(s->q, "SQLite date function");
        for (int k = 0; k < s->q->norder; k++) /* NULLs sort as larger than any value */
            if (s->q->order_nulls_default[k]) s->q->order_nulls_last[k] = !s->q->order_desc[k];
    }
    const db_query *q = s->q;
    bool select = q ? q->kind == DBQ_SELECT : data_is_select(sql, len);
    if (q && (q->kind == DBQ_INSERT || q->kind == DBQ_UPDATE) && q->table >= 0 && !db_rt.dirty[q->table]) {
        db_pq_make_params(s, nparams, values, formats);
        if (q->kind == DBQ_INSERT && q->ninsert) db_rt_insert_parents(s, true); /* a foreign key's parent exists */
        db_rt_write_checks(s); /* whether the server will refuse it (a CHECK, NOT NULL, a key) */
    }
    bool model = q && select && q->understood && result_format == 0;
    for (int i = 0; model && formats && i < nparams; i++) model = !formats[i];
    PGresult *r = NULL;
    uint64_t t0 = util_now_ns();
    /* DISTINCT, UNION: a hidden ctid would change which rows are distinct: rows map back by value */
    if (model && !q->nouter && (q->distinct || q->narms)) {
        s->by_value = true;
        if (q->distinct && !q->narms && !q->has_order_by && q->limit < 0 && !q->limit_param && !q->offset &&
            !q->offset_param && q->nresult > 0) {
            /* hashed DISTINCT rows come in no fixed order and a program's branches over them then differ from
             * run to run (divergences): ordered by every result column, the same order every time */
            strbuf o = STRBUF_INIT;
            size_t end = len;
            while (end > 0 && (isspace((unsigned char)sql[end - 1]) || sql[end - 1] == ';')) end--;
            sb_printf(&o, "%.*s ORDER BY", (int)end, sql);
            for (int k = 1; k <= q->nresult; k++) sb_printf(&o, "%s %d", k > 1 ? "," : "", k);
            r = o.failed ? NULL : send(conn, o.s, with_params || nparams, nparams, types, values, lengths, formats, 0);
            sb_free(&o);
            if (r && PQresultStatus(r) != PGRES_TUPLES_OK) { /* the program's own statement instead */
                PQclear(r);
                r = NULL;
            }
        }
    } else if (model && !q->aggregate && !q->nouter) {
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
    } else if (model) { /* one row of aggregates (over a subquery's groups: nouter of them) */
        s->agg_vals = calloc((size_t)(q->nouter ? q->nouter : q->nresult), sizeof *s->agg_vals);
    } else if (q && select && q->understood) {
        s->why = "binary format";
    }
    bool with_ctid_failed = !r && s->rowid_col == false && model && !q->distinct && !q->aggregate;
    if (!r) r = send(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
    /* the program's own statement failed too (e.g. in a transaction an earlier failure aborted):
     * a failed statement, not one sympath could not model */
    if (with_ctid_failed && failed(r)) s->why = NULL;
    s->ns = util_now_ns() - t0;
    if (select) {
        int visible = r && PQresultStatus(r) == PGRES_TUPLES_OK ? PQnfields(r) - fx->hidden : 0;
        db_pq_record_result(sql, r, visible, conn);
        if (failed(r)) db_pq_log_error(sql, r, conn);
    } else if (failed(r)) {
        db_pq_record_failure(sql, r, conn);
    }
    if (!select && (failed(r) || !apply_write(s, conn, r, nparams, values, formats))) {
        /* logged as not understood, unless it failed: then it changed nothing */
        s->why = failed(r) ? NULL : "write run concretely";
        if (s->q && !failed(r)) s->q->ninsert = 0; /* (a failed INSERT changed nothing: still understood) */
    }
    if (!select && !failed(r)) {
        /* INSERT/UPDATE/DELETE ... RETURNING: its rows, for the replay (replay_pq.c), then its count */
        if (PQresultStatus(r) == PGRES_TUPLES_OK) db_pq_record_result(sql, r, PQnfields(r), conn);
        db_pq_record_done(sql, r);
        /* PQcmdTuples: the count apply_write modelled, when libpq says the same (db_pq_cmd_tuples) */
        const char *ct = PQcmdTuples(r);
        if (db_rt.changes && *ct && db_rt.changes->value == strtoull(ct, NULL, 10)) {
            fx->res = r;
            fx->tuples = db_rt.changes;
        }
        /* INSERT ... RETURNING of plain columns of the one row it wrote: that row's values (db_pq_values.c) */
        if (s->ret_vals && s->q && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
            PQnfields(r) == s->q->nreturn) {
            fx->res = r;
            fx->nrows = 1;
            s->cur_ret = true;
        }
    }
    bool rows = r && PQresultStatus(r) == PGRES_TUPLES_OK &&
                (s->rowid_col || s->by_value || (s->agg_vals && PQntuples(r) == 1));
    if (rows) {
        db_pq_make_params(s, nparams, values, formats);
        db_rt_record_rows(s);
        fx->res = r;
        fx->nrows = PQntuples(r);
        fx->slots = calloc((size_t)fx->nrows * DB_MAX_FROM + 1, sizeof *fx->slots);
        fx->ins = calloc((size_t)fx->nrows + 1, sizeof *fx->ins);
        fx->groups = calloc((size_t)fx->nrows + 1, sizeof *fx->groups);
        s->cur_agg = s->agg_vals && s->symbolic;
        for (int row = 0; fx->slots && row < fx->nrows; row++) {
            int *sl = &fx->slots[(size_t)row * DB_MAX_FROM];
            for (int f = 0; f < DB_MAX_FROM; f++) sl[f] = -1;
            int64_t ids[DB_MAX_FROM];
            bool null_ids[DB_MAX_FROM];
            if (s->by_value) { /* SELECT DISTINCT: a present slot holding the row's values */
                pq_row pr = {r, row, q};
                db_rt_row_by_values(s, value_holds, &pr, ids, null_ids);
                db_rt_row_seen(s, ids, null_ids);
                memcpy(sl, s->cur_slot, sizeof s->cur_slot);
                if (fx->groups) fx->groups[row] = s->cur_group;
                continue;
            }
            if (!s->rowid_col) {
                s->rows_other++;
                continue;
            }
            int base = PQnfields(r) - fx->hidden;
            for (int f = 0; f < q->nfrom; f++) {
                null_ids[f] = PQgetisnull(r, row, base + f);
                ids[f] = db_pq_ctid_id(PQgetvalue(r, row, base + f));
            }
            db_rt_row_seen(s, ids, null_ids);
            memcpy(sl, s->cur_slot, sizeof s->cur_slot);
            if (fx->ins) fx->ins[row] = s->cur_ins;
            if (fx->groups) fx->groups[row] = s->cur_group;
        }
        db_rt_rows_done(s);
    } else if (!select || failed(r)) {
        s->rows_other = 0;
    } else if (r && PQresultStatus(r) == PGRES_TUPLES_OK) {
        s->rows_other += (uint64_t)PQntuples(r);
    }
    db_rt_log_query(s);
    if (fx->res) {
        fx->next = db_pq_fixes;
        db_pq_fixes = fx;
    } else {
        db_query_free(s->q);
        free(s->sql), free(s->params), free(s->param_bytes), free(s->agg_vals), free(fx);
    }
    return r;
}

/* 1 (instrument/pq_null.c) when the program compares a PGresult pointer with NULL: only then
 * is a NULL result a fault worth a run. Weak: absent, nothing is offered. */
extern const int __sym_pq_null_tested __attribute__((weak));
static bool null_tested(void) { return &__sym_pq_null_tested && __sym_pq_null_tested; }

static pq_prep *find_prep(const PGconn *conn, const char *name)
{
    for (pq_prep *p = preps; p; p = p->next)
        if (p->conn == conn && !strcmp(p->name, name ? name : "")) return p;
    return NULL;
}

PGresult *db_pq_exec(PGconn *conn, const char *sql, bool with_params, int nparams, const Oid *types,
                     const char *const *values, const int *lengths, const int *formats, int result_format)
{
    if (db_fault_node()) return db_pq_fault_result(conn, NULL, -1); /* rows arrive with the result: a node */
    if (db_fault_null_node(null_tested())) return NULL;             /* the command is not sent */
    return exec_fixture(conn, sql, with_params, nparams, types, values, lengths, formats, result_format);
}

static PGresult *prepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types)
{
    PGresult *r = PQprepare(conn, name, query, nparams, types);
    if (db_rt.state != 1 || failed(r)) {
        if (db_rt.state == 1 && query) db_pq_record_failure(query, r, conn);
        return r;
    }
    pq_prep *p = find_prep(conn, name);
    if (!p && (p = calloc(1, sizeof *p))) {
        p->conn = conn;
        p->name = strdup(name ? name : "");
        p->next = preps;
        preps = p;
    }
    if (!p) return r;
    free(p->sql), free(p->types);
    p->sql = strdup(query);
    p->nparams = nparams;
    p->types = NULL;
    if (types && nparams > 0 && (p->types = malloc((size_t)nparams * sizeof *p->types)))
        memcpy(p->types, types, (size_t)nparams * sizeof *p->types);
    return r;
}

PGresult *db_pq_prepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types)
{
    expr *fails;
    if (db_fault_next(&fails)) return db_pq_fault_result(conn, fails, PGRES_COMMAND_OK);
    PGresult *r = prepare(conn, name, query, nparams, types);
    db_pq_fault_note(r, fails, -1);
    return r;
}

PGresult *db_pq_exec_prepared(PGconn *conn, const char *name, int nparams, const char *const *values,
                              const int *lengths, const int *formats, int result_format)
{
    if (db_fault_node()) return db_pq_fault_result(conn, NULL, -1); /* as db_pq_exec */
    if (db_fault_null_node(null_tested())) return NULL;
    pq_prep *p = db_rt.state == 1 ? find_prep(conn, name) : NULL;
    if (!p || !p->sql) return PQexecPrepared(conn, name, nparams, values, lengths, formats, result_format);
    return exec_fixture(conn, p->sql, true, nparams, nparams <= p->nparams ? p->types : NULL, values, lengths, formats,
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
    db_pq_fault_forget(conn);
    PQfinish(conn);
}
