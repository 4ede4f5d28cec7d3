/* db_union.c: the row events of SELECT ... UNION [ALL] SELECT ... over the fixture and the mapping of its result rows back to (arm, slots) by their values, for both databases. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "db_rt.h"

/*
 * A compound query's candidate rows are numbered arm by arm: arm a's candidates are the combinations of
 * row slots of its FROM items (one table, or an inner join of up to four: slot of item f is digit f of
 * the combination's index in base rows), and c counts them over the arms in order. Its result values
 * are the cells of the arm's result columns in those slots; "c comes back" is "its slots are present
 * and satisfy the arm's WHERE (and ON)", and for UNION (not ALL) also "no earlier candidate that comes
 * back has the same values" (SQL's duplicate removal: the first of equal rows represents them). ORDER BY
 * keys are result positions, so two candidates compare by db_order_le over arrays of result values.
 */

/* The number of candidates of arm a: rows^nfrom. */
static unsigned arm_combos(const db_query *a)
{
    unsigned n = 1;
    for (int f = 0; f < a->nfrom; f++) n *= db_rt.lim.rows;
    return n;
}

/* The candidates of all arms; more than DB_MAX_COMBOS is DB_MAX_COMBOS + 1. */
static unsigned candidates(const db_query *q)
{
    unsigned n = 0;
    for (int a = 0; a < q->narms && n <= DB_MAX_COMBOS; a++) n += arm_combos(q->arms[a]);
    return n;
}

/* The arm of candidate c, its slot per FROM item in slots[0..nfrom) (when slots is not NULL). */
static const db_query *arm_of(const db_query *q, unsigned c, unsigned *slots)
{
    for (int a = 0; a < q->narms; a++) {
        unsigned n = arm_combos(q->arms[a]);
        if (c >= n) {
            c -= n;
            continue;
        }
        for (int f = 0; slots && f < q->arms[a]->nfrom; f++, c /= db_rt.lim.rows) slots[f] = c % db_rt.lim.rows;
        return q->arms[a];
    }
    return NULL;
}

/* The index of candidate c's arm. */
static int arm_index(const db_query *q, unsigned c)
{
    const db_query *a = arm_of(q, c, NULL);
    for (int k = 0; k < q->narms; k++)
        if (q->arms[k] == a) return k;
    return -1;
}

/* The cells of candidate c's rows, per FROM item of its arm, into rows[]; its arm. */
static const db_query *cand_rows(const db_query *q, unsigned c, const db_val **rows, unsigned *slots)
{
    const db_query *a = arm_of(q, c, slots);
    for (int f = 0; a && f < a->nfrom; f++) {
        int ti = a->from_table[f];
        rows[f] = &db_rt.cells[ti][(size_t)slots[f] * db_rt.schema->tables[ti].ncols];
    }
    return a;
}

/* Candidate c's result values into out[0..nresult). */
#define VAL_BYTES 256 /* bytes of a computed text kept per result value (a literal's: at most 255) */

/* A result value array of q, with room behind it for the bytes of computed texts (vals_free). */
static db_val *vals_new(const db_query *q)
{
    size_t n = (size_t)q->nresult + 1;
    return calloc(1, n * sizeof(db_val) + (size_t)q->nresult * VAL_BYTES * sizeof(expr *));
}

/* Candidate c's result values into out[0..nresult) (from vals_new): cells, or a computed column's value
 * (`'loan' AS kind`, `upper(b.title)`) whose bytes are copied behind out, as db_value_expr's do not last. A
 * value that cannot be computed is NULL. */
static void result_values(const db_query *q, unsigned c, db_val *out)
{
    const db_val *rows[DB_MAX_FROM];
    unsigned slots[DB_MAX_FROM];
    const db_query *a = cand_rows(q, c, rows, slots);
    expr **store = (expr **)(out + q->nresult + 1);
    expr_ctx *cx = rt_cx();
    for (int r = 0; r < q->nresult; r++) {
        if (a->result_col[r] >= 0) {
            out[r] = rows[a->result_from[r]][a->result_col[r]];
            continue;
        }
        const char *why = NULL;
        if (!a->result_expr[r] || db_value_expr(cx, a, a->result_expr[r], rows, NULL, 0, &out[r], &why)) {
            memset(&out[r], 0, sizeof out[r]);
            out[r].null = expr_const(cx, 1, 1);
            out[r].v = expr_const(cx, 0, 64);
            continue;
        }
        if (out[r].is_text && out[r].nbytes <= VAL_BYTES) {
            memcpy(store + (size_t)r * VAL_BYTES, out[r].bytes, out[r].nbytes * sizeof *out[r].bytes);
            out[r].bytes = store + (size_t)r * VAL_BYTES;
        }
    }
}

/* Whether candidate c's slots are all present and alive now (concretely). */
static bool cand_live(const db_query *q, unsigned c)
{
    unsigned slots[DB_MAX_FROM];
    const db_query *a = arm_of(q, c, slots);
    for (int f = 0; f < a->nfrom; f++) {
        int ti = a->from_table[f];
        if (slots[f] >= (unsigned)db_rt.counts[ti]->value || !(db_rt.alive[ti][slots[f]]->value & 1)) return false;
    }
    return true;
}

/* "Candidates x and y hold the same result values" (NULLs equal, as UNION compares rows). */
static expr *same_values(const db_query *q, unsigned x, unsigned y, db_val *vx, db_val *vy)
{
    expr_ctx *cx = rt_cx();
    result_values(q, x, vx);
    result_values(q, y, vy);
    expr *eq = expr_const(cx, 1, 1);
    for (int r = 0; r < q->nresult; r++) {
        if (vx[r].is_text != vy[r].is_text) return expr_const(cx, 0, 1);
        db_query k = {0}; /* one key: result column r */
        k.ngroup = 1;
        k.group_col[0] = r;
        const db_val *a[1] = {vx}, *b[1] = {vy};
        eq = expr_and1(cx, eq, db_group_eq(cx, &k, a, b));
    }
    return eq;
}

/* ORDER BY (no LIMIT window): the expected candidates sorted now as the model sorts them, each
 * "no later than the next" assumed (as db_rows.c's order_expected does for one SELECT). */
static void order_expected(qstate *s, unsigned n, db_val *va, db_val *vb)
{
    const db_query *q = s->q;
    unsigned idx[DB_MAX_COMBOS], m = 0;
    const db_val *a[1] = {va}, *b[1] = {vb};
    expr_ctx *cx = rt_cx();
    for (unsigned c = 0; c < n; c++) {
        if (!s->expected[c]) continue;
        unsigned k = m++;
        while (k > 0) {
            result_values(q, idx[k - 1], va);
            result_values(q, c, vb);
            if (db_order_le(cx, q, a, b)->value & 1) break;
            idx[k] = idx[k - 1];
            k--;
        }
        idx[k] = c;
    }
    for (unsigned k = 0; k + 1 < m; k++) {
        result_values(q, idx[k], va);
        result_values(q, idx[k + 1], vb);
        expr *le = db_order_le(cx, q, a, b);
        if (le->value & 1) db_rt_assume(le);
    }
}

/* SELECT agg(c) FROM (... UNION [ALL] ...), or over a WITH query that is a UNION (db_query.nouter, sql_groups.c):
 * the one result row's values in s->agg_vals, outer aggregate k over the candidates that come back (ev) of their
 * value of result column outer_res[k] (-1: COUNT(*)). One that is not modelled (a value that cannot be computed, a
 * SUM that overflows) is left zero: read concretely. */
static void outer_aggregates(qstate *s, expr *const *ev, unsigned n)
{
    const db_query *q = s->q;
    expr_ctx *cx = rt_cx();
    db_val **vals = calloc((size_t)n + 1, sizeof *vals);
    bool *bad = calloc((size_t)q->nresult + 1, sizeof *bad);
    bool ok = vals && bad;
    for (unsigned c = 0; ok && c < n; c++) {
        const db_val *rows[DB_MAX_FROM];
        unsigned slots[DB_MAX_FROM];
        const db_query *a = cand_rows(q, c, rows, slots);
        if (!(vals[c] = vals_new(q))) ok = false;
        for (int r = 0; ok && r < q->nresult; r++) {
            const char *why = NULL;
            bad[r] |= a->result_col[r] < 0 &&
                      (!a->result_expr[r] || db_value_expr(cx, a, a->result_expr[r], rows, NULL, 0, &vals[c][r], &why));
        }
        if (ok) result_values(q, c, vals[c]); /* (the same values, their bytes kept) */
    }
    for (int k = 0; k < q->nouter; k++) {
        int r = q->outer_res[k];
        memset(&s->agg_vals[k], 0, sizeof s->agg_vals[k]);
        if (!ok || (r >= 0 && bad[r])) continue;
        const db_val *col[DB_MAX_COMBOS];
        for (unsigned c = 0; r >= 0 && c < n; c++) col[c] = &vals[c][r];
        expr *ovf = NULL;
        const char *why = NULL;
        if (db_aggregate(cx, q->outer_agg[k], n, ev, r < 0 ? NULL : col, &s->agg_vals[k], &ovf, &why) ||
            (ovf && (ovf->value & 1)))
            memset(&s->agg_vals[k], 0, sizeof s->agg_vals[k]);
        else if (ovf)
            db_rt_assume(expr_not(cx, ovf));
        db_rt_outer_default(q, k, &s->agg_vals[k]);
    }
    for (unsigned c = 0; vals && c < n; c++) free(vals[c]);
    free(vals), free(bad);
}

void db_rt_union_events(qstate *s, int64_t limit, int64_t offset)
{
    db_query *q = s->q;
    unsigned n = candidates(q);
    bool joins = false;
    for (int a = 0; a < q->narms; a++) {
        for (int f = 0; f < q->arms[a]->nfrom; f++) {
            int ti = q->arms[a]->from_table[f];
            if (db_rt.dirty[ti]) return; /* changed by the program: run concretely */
            if (db_rt.ins[ti]) {
                s->why = "UNION over rows the program inserted";
                return;
            }
        }
        joins |= q->arms[a]->nfrom > 1;
        q->arms[a]->like_exact = q->like_exact;
    }
    if (n > DB_MAX_COMBOS) {
        s->why = "UNION with more than 256 row slot combinations";
        return;
    }
    bool windowed = limit >= 0 || offset > 0;
    if (windowed && db_rt.pg && q->order_implicit) {
        s->why = "LIMIT/OFFSET on a UNION without ORDER BY (PostgreSQL's order)";
        return;
    }
    if (windowed && !q->order_window && joins) { /* a join's scan order is the engine's */
        s->why = "LIMIT/OFFSET on a UNION ALL of joins without ORDER BY";
        return;
    }
    expr_ctx *cx = rt_cx();
    db_val *va = vals_new(q), *vb = vals_new(q);
    if (!va || !vb) {
        free(va), free(vb);
        s->why = "out of memory";
        return;
    }
    expr *cond[DB_MAX_COMBOS], *ev[DB_MAX_COMBOS];
    for (unsigned c = 0; c < n; c++) {
        const db_val *rows[DB_MAX_FROM];
        unsigned slots[DB_MAX_FROM];
        const db_query *arm = cand_rows(q, c, rows, slots);
        const char *why = NULL;
        expr *w = db_where_expr(cx, arm, rows, s->params, s->nparams, &why);
        if (!w) {
            s->why = why ? why : "out of memory";
            free(va), free(vb);
            return;
        }
        cond[c] = w;
        for (int f = 0; f < arm->nfrom; f++)
            cond[c] = expr_and1(cx, db_rt.alive[arm->from_table[f]][slots[f]], cond[c]);
        ev[c] = cond[c];
        if (!q->union_all) /* the first of equal rows stands for them */
            for (unsigned d = 0; d < c; d++)
                ev[c] = expr_and1(cx, ev[c], expr_not(cx, expr_and1(cx, cond[d], same_values(q, d, c, va, vb))));
    }
    for (unsigned c = 0; c < n; c++) {
        unsigned slots[DB_MAX_FROM];
        const db_query *arm = arm_of(q, c, slots);
        uint32_t beyond = 0;
        for (int f = 0; f < arm->nfrom; f++)
            if (slots[f] > (unsigned)db_rt.counts[arm->from_table[f]]->value) beyond = BK_ROW_BEYOND;
        s->expected[c] = (uint8_t)(ev[c]->value & 1);
        s->match[c] = ev[c];
        expr *e = rt_norm(ev[c]);
        if (e)
            rt_trace_event(BK_ROW, db_rt_row_site(s), (uint32_t)(e->value & 1), e,
                           (uint32_t)arm->from_table[0] << 16 | beyond | c);
    }
    if (q->nouter && s->agg_vals) outer_aggregates(s, ev, n);
    bool ordered = q->norder && !(db_rt.pg && q->order_implicit);
    if (windowed && q->order_window) { /* the rows at positions offset.. in ORDER BY order (db_rt_union_row_seen) */
        s->window = true;
        s->win_limit = limit, s->win_offset = offset;
    } else if (windowed) { /* UNION ALL: matches offset+1..offset+limit in arm then slot order */
        int64_t skip = offset, left = limit < 0 ? INT64_MAX : limit;
        for (unsigned c = 0; c < n; c++)
            if (s->expected[c] && (skip-- > 0 || left-- <= 0)) s->expected[c] = 0;
    } else if (ordered) {
        order_expected(s, n, va, vb);
    }
    free(va), free(vb);
    s->symbolic = true;
}

int64_t db_rt_union_by_values(const qstate *s, bool (*same)(void *ctx, int r, const db_val *v, const db_cell *c),
                              void *ctx)
{
    const db_query *q = s->q;
    unsigned n = candidates(q);
    uint8_t buf[256];
    db_val *v = vals_new(q);
    if (!v) return -1;
    /* first a predicted candidate not returned yet (UNION ALL returns equal rows once each), then
     * any predicted one, then any present one */
    for (int pass = 0; pass < 3; pass++)
        for (unsigned c = 0; c < n && c < DB_MAX_COMBOS; c++) {
            if (!cand_live(q, c)) continue;
            if (pass < 2 && (!s->symbolic || !s->expected[c] || (pass == 0 && s->seen[c]))) continue;
            result_values(q, c, v);
            bool all = true;
            for (int r = 0; r < q->nresult && all; r++) {
                db_cell cell;
                db_rt_concrete_cell(&v[r], buf, &cell);
                all = same(ctx, r, &v[r], &cell);
            }
            if (all) {
                free(v);
                return (int64_t)c;
            }
        }
    free(v);
    return -1;
}

/* ORDER BY + LIMIT: the candidate `me` just returned is at position pos of the ordered rows that
 * come back (as db_rows.c's window_position: fewer than pos+1 others sort strictly before it, at
 * least pos no later); a concretely false one is a model mismatch. */
static void window_position(qstate *s, unsigned me, uint32_t pos)
{
    const db_query *q = s->q;
    unsigned n = candidates(q);
    expr_ctx *cx = rt_cx();
    db_val *vm = vals_new(q), *vo = vals_new(q);
    if (!vm || !vo) {
        free(vm), free(vo);
        return;
    }
    const db_val *mine[1] = {vm}, *other[1] = {vo};
    result_values(q, me, vm);
    expr *before = expr_const(cx, 0, 16), *no_later = expr_const(cx, 0, 16);
    for (unsigned c = 0; c < n; c++) {
        if (c == me) continue;
        result_values(q, c, vo);
        db_rt_position_count(q, s->match[c], mine, other, &before, &no_later);
    }
    free(vm), free(vo);
    db_rt_position_at(s, before, no_later, pos);
}

void db_rt_union_row_seen(qstate *s, int64_t id)
{
    const db_query *q = s->q;
    for (int f = 0; f < DB_MAX_FROM; f++) s->cur_slot[f] = -1;
    s->cur_ins = NULL;
    s->cur_group = -1;
    unsigned n = candidates(q);
    if (id < 0 || id >= (int64_t)n || id >= DB_MAX_COMBOS) {
        s->rows_other++;
        s->nreturned++;
        return;
    }
    unsigned c = (unsigned)id;
    s->rows_fixture++;
    if (s->symbolic) {
        s->seen[c] = 1;
        s->mismatches += !s->expected[c];
    }
    if (s->symbolic && s->window) {
        window_position(s, c, (uint32_t)s->win_offset + s->nreturned);
    } else if (s->symbolic && q->norder && !(db_rt.pg && q->order_implicit) && s->prev_combo >= 0) {
        /* the order the program sees is kept */
        db_val *va = vals_new(q), *vb = vals_new(q);
        if (va && vb) {
            result_values(q, (unsigned)s->prev_combo, va);
            result_values(q, c, vb);
            const db_val *a[1] = {va}, *b[1] = {vb};
            expr *le = db_order_le(rt_cx(), q, a, b);
            if (le->value & 1)
                db_rt_assume(le);
            else
                s->mismatches++;
        }
        free(va), free(vb);
    }
    s->nreturned++;
    s->prev_combo = (int)c;
    const db_query *a = arm_of(q, c, NULL);
    for (int f = 0; f < a->nfrom; f++)
        if (db_rt.dirty[a->from_table[f]]) return;
    s->cur_slot[0] = (int)c; /* the candidate, and its arm */
    s->cur_slot[1] = arm_index(q, c);
}

const db_val *db_rt_union_cell(const qstate *s, int i, const int *slots)
{
    const db_query *q = s->q;
    if (!q->narms || i < 0 || i >= q->nresult || slots[0] < 0 || slots[1] < 0 || slots[1] >= q->narms ||
        (unsigned)slots[0] >= candidates(q))
        return NULL;
    const db_val *rows[DB_MAX_FROM];
    unsigned cs[DB_MAX_FROM];
    const db_query *a = cand_rows(q, (unsigned)slots[0], rows, cs);
    if (a != q->arms[slots[1]]) return NULL;
    for (int f = 0; f < a->nfrom; f++)
        if (db_rt.dirty[a->from_table[f]]) return NULL;
    if (a->result_col[i] < 0) return NULL; /* a computed column: read concretely */
    return &rows[a->result_from[i]][a->result_col[i]];
}
