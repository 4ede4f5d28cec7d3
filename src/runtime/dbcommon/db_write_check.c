/* db_write_check.c: a write that breaks a constraint the model knows fails in the engine: whether it does is a branch of the path. */
#include <stdlib.h>
#include <string.h>
#include "db_rt.h"

/*
 * `UPDATE items SET stock = stock - ? WHERE id = ?` under `CHECK (stock >= 0)`, or an INSERT of a
 * duplicate e-mail into a UNIQUE column, fails in the engine (SQLITE_CONSTRAINT, PostgreSQL's
 * check_violation / unique_violation), and the program's handling of the failure is a path
 * like any other. The fixture decides which happens, so before the statement runs its
 * failure condition over the rows it writes is recorded as one BK_ROW event (at the query's
 * row site, like db_rt_insert_parents' events): the solver can ask for the fixture in which
 * the write succeeds (the stock is large enough) or fails. Before, nothing asked for it: a
 * fixture whose row made the UPDATE fail kept it failing in every run that reused it.
 */

/* Whether cells `row` of table t break a modelled CHECK, or a NOT NULL column among those
 * `written` (column bit set) holds NULL; width 1. */
static expr *row_breaks(expr_ctx *cx, const db_table *t, const db_val *row, uint64_t written)
{
    expr *bad = expr_not(cx, db_row_checks(cx, t, row));
    for (int c = 0; c < t->ncols && c < 64; c++)
        if (t->cols[c].notnull && (written >> c & 1) && c != t->rowid_alias)
            bad = expr_binary(cx, EXPR_OR, bad, row[c].null);
    return bad;
}

/* UPDATE: some live row the WHERE clause hits gets new cells that break a CHECK or NOT NULL; NULL when a
 * value is not modelled. */
static expr *update_breaks(qstate *s, const db_table *t, db_val **rows, expr ***alive, unsigned n)
{
    const db_query *q = s->q;
    expr_ctx *cx = rt_cx();
    db_val *next = calloc((size_t)t->ncols, sizeof *next);
    uint64_t written = 0;
    expr *any = expr_const(cx, 0, 1);
    for (int i = 0; i < q->nset; i++)
        if (q->set_col[i] < 64) written |= 1ull << q->set_col[i];
    for (unsigned k = 0; k < n && next && any; k++) {
        const db_val *row[1] = {rows[k]};
        const char *why = NULL;
        expr *w = db_where_expr(cx, q, row, s->params, s->nparams, &why);
        memcpy(next, rows[k], (size_t)t->ncols * sizeof *next);
        for (int i = 0; i < q->nset && w; i++) {
            db_val v;
            db_val *out = &next[q->set_col[i]];
            if (db_value_expr(cx, q, q->set_val[i], row, s->params, s->nparams, &v, &why) ||
                db_val_store(cx, &t->cols[q->set_col[i]], &v, out)) {
                w = NULL;
            } else if (out->is_text && out->nbytes) { /* (db_value_expr's storage is reused by the next call) */
                expr **b = malloc(out->nbytes * sizeof *b);
                if (b) memcpy(b, out->bytes, out->nbytes * sizeof *b);
                out->bytes = b;
                w = b ? w : NULL;
            }
        }
        any = w ? expr_binary(cx, EXPR_OR, any,
                              expr_and1(cx, expr_and1(cx, *alive[k], w), row_breaks(cx, t, next, written)))
                : NULL;
    }
    free(next);
    return any;
}

/* INSERT ... VALUES: some row breaks a CHECK or NOT NULL, or equals a live row on a key whose columns it
 * gives (or its INTEGER PRIMARY KEY, when given); NULL when a value is not modelled. */
static expr *insert_breaks(qstate *s, const db_table *t, db_val **rows, expr ***alive, unsigned n)
{
    const db_query *q = s->q;
    expr_ctx *cx = rt_cx();
    uint64_t given = 0;
    for (int i = 0; i < q->ninsert; i++)
        if (q->insert_col[i] < 64) given |= 1ull << q->insert_col[i];
    db_key keys[17];
    int nkeys = 0;
    for (int k = 0; k < t->nkeys && nkeys < 16; k++) {
        bool all = true;
        for (int i = 0; i < t->keys[k].ncols; i++) all &= t->keys[k].cols[i] < 64 && (given >> t->keys[k].cols[i] & 1);
        if (all) keys[nkeys++] = t->keys[k];
    }
    if (t->rowid_alias >= 0 && t->rowid_alias < 64 && (given >> t->rowid_alias & 1))
        keys[nkeys++] = (db_key){.ncols = 1, .cols = {t->rowid_alias}};
    db_val *p = calloc((size_t)t->ncols, sizeof *p);
    expr *any = p ? expr_const(cx, 0, 1) : NULL;
    for (int r = 0; r < q->ninsert_rows && any; r++) {
        if (db_rt_insert_cells(s, DB_ROWID_UNWRITTEN, r, NULL, NULL, p)) {
            any = NULL;
            break;
        }
        any = expr_binary(cx, EXPR_OR, any, row_breaks(cx, t, p, given));
        for (unsigned k = 0; k < n; k++)
            for (int j = 0; j < nkeys; j++)
                any = expr_binary(cx, EXPR_OR, any, expr_and1(cx, *alive[k], db_rt_same_key(cx, &keys[j], rows[k], p)));
    }
    free(p);
    return any;
}

void db_rt_write_checks(qstate *s)
{
    const db_query *q = s ? s->q : NULL;
    if (!q || q->table < 0 || db_rt.dirty[q->table]) return;
    bool update = q->kind == DBQ_UPDATE && q->understood && q->nfrom == 1 && q->nset;
    bool insert = q->kind == DBQ_INSERT && q->ninsert && q->ninsert_rows && !q->insert_src && !q->upsert &&
                  !q->or_replace && !q->on_conflict;
    if (!update && !insert) return;
    const db_table *t = &db_rt.schema->tables[q->table];
    db_rt_use_view();
    db_val **rows;
    expr ***alive;
    unsigned n;
    if (db_rt_table_rows(q->table, &rows, &alive, &n)) return;
    expr *bad = update ? update_breaks(s, t, rows, alive, n) : insert_breaks(s, t, rows, alive, n);
    free(rows), free(alive);
    expr *e = rt_norm(bad);
    if (e)
        rt_trace_event(BK_ROW, db_rt_row_site(s), (uint32_t)(e->value & 1), e, (uint32_t)q->table << 16 | BK_ROW_WRITE);
}
