/* db_union.c: the row events of SELECT ... UNION [ALL] SELECT ... over the fixture and the mapping of its result rows back to (arm, slot) by their values, for both databases. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "db_rt.h"

/*
 * A compound query's candidate rows are numbered c = arm * rows + slot: slot `slot` of the one table
 * of arm `arm` (db_query.arms). Its result values are that slot's cells of the arm's result columns;
 * "c comes back" is "the slot is present and satisfies the arm's WHERE", and for UNION (not ALL)
 * also "no earlier candidate that comes back has the same values" (SQL's duplicate removal: the
 * first of equal rows represents them). ORDER BY keys are result positions, so two candidates
 * compare by db_order_le over arrays of result values.
 */

static unsigned slots_per_arm(void) { return db_rt.lim.rows; }

static const db_query *arm_of(const db_query *q, unsigned c) { return q->arms[c / slots_per_arm()]; }

/* The cells of candidate c's table row. */
static const db_val *cand_row(const db_query *q, unsigned c)
{
    int ti = arm_of(q, c)->from_table[0];
    return &db_rt.cells[ti][(size_t)(c % slots_per_arm()) * db_rt.schema->tables[ti].ncols];
}

/* Candidate c's result values into out[0..nresult). */
static void result_values(const db_query *q, unsigned c, db_val *out)
{
    const db_query *a = arm_of(q, c);
    const db_val *row = cand_row(q, c);
    for (int r = 0; r < q->nresult; r++) out[r] = row[a->result_col[r]];
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

void db_rt_union_events(qstate *s, int64_t limit, int64_t offset)
{
    db_query *q = s->q;
    unsigned n = (unsigned)q->narms * slots_per_arm();
    for (int a = 0; a < q->narms; a++) {
        int ti = q->arms[a]->from_table[0];
        if (db_rt.dirty[ti]) return; /* changed by the program: run concretely */
        if (db_rt.ins[ti]) {
            s->why = "UNION over rows the program inserted";
            return;
        }
        q->arms[a]->like_exact = q->like_exact;
    }
    if (n > DB_MAX_COMBOS) {
        s->why = "UNION with more than 256 row slots";
        return;
    }
    bool windowed = limit >= 0 || offset > 0;
    if (windowed && db_rt.pg && q->order_implicit) {
        s->why = "LIMIT/OFFSET on a UNION without ORDER BY (PostgreSQL's order)";
        return;
    }
    expr_ctx *cx = rt_cx();
    db_val *va = calloc((size_t)q->nresult + 1, sizeof *va), *vb = calloc((size_t)q->nresult + 1, sizeof *vb);
    if (!va || !vb) {
        free(va), free(vb);
        s->why = "out of memory";
        return;
    }
    expr *cond[DB_MAX_COMBOS], *ev[DB_MAX_COMBOS];
    for (unsigned c = 0; c < n; c++) {
        const db_query *arm = arm_of(q, c);
        const db_val *rows[1] = {cand_row(q, c)};
        const char *why = NULL;
        expr *w = db_where_expr(cx, arm, rows, s->params, s->nparams, &why);
        if (!w) {
            s->why = why ? why : "out of memory";
            free(va), free(vb);
            return;
        }
        cond[c] = expr_and1(cx, db_rt.alive[arm->from_table[0]][c % slots_per_arm()], w);
        ev[c] = cond[c];
        if (!q->union_all) /* the first of equal rows stands for them */
            for (unsigned d = 0; d < c; d++)
                ev[c] = expr_and1(cx, ev[c], expr_not(cx, expr_and1(cx, cond[d], same_values(q, d, c, va, vb))));
    }
    for (unsigned c = 0; c < n; c++) {
        int ti = arm_of(q, c)->from_table[0];
        unsigned k = c % slots_per_arm();
        s->expected[c] = (uint8_t)(ev[c]->value & 1);
        s->match[c] = ev[c];
        expr *e = rt_norm(ev[c]);
        uint32_t beyond = k > (unsigned)db_rt.counts[ti]->value ? BK_ROW_BEYOND : 0;
        if (e) rt_trace_event(BK_ROW, db_rt_row_site(s), (uint32_t)(e->value & 1), e, (uint32_t)ti << 16 | beyond | c);
    }
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
    unsigned n = (unsigned)q->narms * slots_per_arm();
    uint8_t buf[256];
    /* first a predicted candidate not returned yet (UNION ALL returns equal rows once each), then
     * any predicted one, then any present one */
    for (int pass = 0; pass < 3; pass++)
        for (unsigned c = 0; c < n && c < DB_MAX_COMBOS; c++) {
            const db_query *a = arm_of(q, c);
            int ti = a->from_table[0];
            unsigned k = c % slots_per_arm();
            if (k >= (unsigned)db_rt.counts[ti]->value || !(db_rt.alive[ti][k]->value & 1)) continue;
            if (pass < 2 && (!s->symbolic || !s->expected[c] || (pass == 0 && s->seen[c]))) continue;
            const db_val *row = cand_row(q, c);
            bool all = true;
            for (int r = 0; r < q->nresult && all; r++) {
                db_cell cell;
                db_rt_concrete_cell(&row[a->result_col[r]], buf, &cell);
                all = same(ctx, r, &row[a->result_col[r]], &cell);
            }
            if (all) return (int64_t)c;
        }
    return -1;
}

/* ORDER BY + LIMIT: the candidate `me` just returned is at position pos of the ordered rows that
 * come back (as db_rows.c's window_position: fewer than pos+1 others sort strictly before it, at
 * least pos no later); a concretely false one is a model mismatch. */
static void window_position(qstate *s, unsigned me, uint32_t pos)
{
    const db_query *q = s->q;
    unsigned n = (unsigned)q->narms * slots_per_arm();
    expr_ctx *cx = rt_cx();
    db_val *vm = calloc((size_t)q->nresult + 1, sizeof *vm), *vo = calloc((size_t)q->nresult + 1, sizeof *vo);
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
    unsigned n = (unsigned)q->narms * slots_per_arm();
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
        db_val *va = calloc((size_t)q->nresult + 1, sizeof *va), *vb = calloc((size_t)q->nresult + 1, sizeof *vb);
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
    if (db_rt.dirty[arm_of(q, c)->from_table[0]]) return;
    s->cur_slot[0] = (int)(c % slots_per_arm());
    s->cur_slot[1] = (int)(c / slots_per_arm());
}

const db_val *db_rt_union_cell(const qstate *s, int i, const int *slots)
{
    const db_query *q = s->q;
    if (!q->narms || i < 0 || i >= q->nresult || slots[0] < 0 || slots[1] < 0 || slots[1] >= q->narms) return NULL;
    const db_query *a = q->arms[slots[1]];
    int ti = a->from_table[0];
    if (db_rt.dirty[ti]) return NULL;
    return &db_rt.cells[ti][(size_t)slots[0] * db_rt.schema->tables[ti].ncols + a->result_col[i]];
}
