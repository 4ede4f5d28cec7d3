/* db_rows.c: the row events of a query over the fixture (Emmi et al. 2007) and the check of the rows the database returned, shared by the SQLite (db_sqlite.c) and PostgreSQL (db_pq.c) interceptions. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_rt.h"

/*
 * Combinations of rows of a query's FROM items, numbered in mixed radix (item 0 fastest): item
 * f's digit is a fixture slot 0..rows-1, or, for the optional side of an outer join
 * (q->nullable[f]), also `rows`, its NULL row (every column NULL).
 */
static unsigned radix(const db_query *q, int f) { return db_rt.lim.rows + (q->nullable[f] ? 1u : 0u); }

/* Slot of FROM item f in combination number c (db_rt.lim.rows: the NULL row). */
static unsigned combo_slot(const db_query *q, unsigned c, int f)
{
    for (int i = 0; i < f; i++) c /= radix(q, i);
    return c % radix(q, f);
}

static unsigned combos(const db_query *q)
{
    unsigned n = 1;
    for (int f = 0; f < q->nfrom; f++) n *= radix(q, f);
    return n;
}

/* The most groups (result rows) a GROUP BY query can return over the fixture: one per slot (and NULL row)
 * of the FROM item all its keys are plain columns of, else one per combination; 1 for aggregates alone. */
static unsigned max_groups(const db_query *q)
{
    if (!q->ngroup) return 1;
    int f = q->group_from[0];
    for (int k = 0; k < q->ngroup; k++)
        if (q->group_expr[k] || q->group_from[k] != f) return combos(q);
    return radix(q, f);
}

/* The NULL row of table ti (every cell NULL; built once per run, in the run's expressions). */
static const db_val *null_row(int ti)
{
    static db_val **rows;
    if (!rows && !(rows = calloc((size_t)db_rt.schema->ntables, sizeof *rows))) return NULL;
    if (rows[ti]) return rows[ti];
    const db_table *t = &db_rt.schema->tables[ti];
    db_val *r = calloc((size_t)t->ncols + 1, sizeof *r);
    if (!r) return NULL;
    expr_ctx *cx = rt_cx();
    for (int c = 0; c < t->ncols; c++) {
        r[c].null = expr_const(cx, 1, 1);
        r[c].v = expr_const(cx, 0, 64);
        r[c].is_text = db_column_is_text(&t->cols[c]);
        r[c].is_real = db_column_is_real(&t->cols[c]);
        if (r[c].is_text) r[c].len = expr_const(cx, 0, 8);
    }
    return rows[ti] = r;
}

/* The cells of each FROM item's row in combination c; -1 when out of memory. */
static int combo_rows(const db_query *q, unsigned c, const db_val **rows)
{
    for (int f = 0; f < q->nfrom; f++) {
        int ti = q->from_table[f];
        unsigned k = combo_slot(q, c, f);
        rows[f] = k < db_rt.lim.rows ? &db_rt.cells[ti][(size_t)k * db_rt.schema->tables[ti].ncols] : null_row(ti);
        if (!rows[f]) return -1;
    }
    return 0;
}

static const inserted *view_inserted(int ti, unsigned i);

/* The rows of GROUP BY candidate c of s (qstate.ncand): combination c, or for c >= s->ncombos the inserted row
 * c - ncombos of the one FROM item's table; -1 when out of memory or past the candidates. */
static int cand_rows(const qstate *s, unsigned c, const db_val **rows)
{
    if (c < s->ncombos || !s->ncand) return combo_rows(s->q, c, rows);
    const inserted *r = c < s->ncand ? view_inserted(s->q->from_table[0], c - s->ncombos) : NULL;
    if (!r) return -1;
    rows[0] = r->cells;
    return 0;
}

/* The site of a query's BK_ROW events: its SQL text's FNV-1a hash with the top bit set (no
 * branch site has it), so the tree tells the events of different queries apart. Not the last
 * branch site executed, which other events carry: it also moves with concrete branches, and two
 * runs of one symbolic path that reached the query after different concrete branches had
 * differing events there (a divergence; an inventory program: 45 divergences in 12 s before, 23
 * after). */
uint32_t db_rt_row_site(const qstate *s)
{
    uint32_t h = 2166136261u;
    for (const char *p = s->sql ? s->sql : ""; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    return h | 0x80000000u;
}

/*
 * "Combination c comes back" before WHERE: its fixture rows are present, the ON condition of
 * each optional item with a row holds, and each optional item with its NULL row has no present
 * slot satisfying its ON condition (with the other items' rows of c). NULL with *why when a
 * condition is not modelled.
 */
static expr *combo_present(qstate *s, unsigned c, const db_val **rows, const char **why)
{
    const db_query *q = s->q;
    expr_ctx *cx = rt_cx();
    expr *present = expr_const(cx, 1, 1);
    for (int f = 0; f < q->nfrom; f++) {
        unsigned k = combo_slot(q, c, f);
        if (k < db_rt.lim.rows) present = expr_and1(cx, present, db_rt.alive[q->from_table[f]][k]);
    }
    for (int f = 0; f < q->nfrom; f++) {
        if (!q->nullable[f]) continue;
        unsigned k = combo_slot(q, c, f);
        if (k < db_rt.lim.rows) {
            expr *on = db_cond_expr(cx, q, q->on[f], rows, s->params, s->nparams, why);
            if (!on) return NULL;
            present = expr_and1(cx, present, on);
            continue;
        }
        int ti = q->from_table[f];
        const db_val *with[DB_MAX_FROM];
        memcpy(with, rows, sizeof with);
        for (unsigned j = 0; j < db_rt.lim.rows; j++) { /* no slot of f matches */
            with[f] = &db_rt.cells[ti][(size_t)j * db_rt.schema->tables[ti].ncols];
            expr *on = db_cond_expr(cx, q, q->on[f], with, s->params, s->nparams, why);
            if (!on) return NULL;
            present = expr_and1(cx, present, expr_not(cx, expr_and1(cx, db_rt.alive[ti][j], on)));
        }
    }
    return present;
}

/* ---------------------------------------------------------------- the slots subqueries range over */

static unsigned tracked_rows(int ti);

/* The i-th (i < tracked_rows(ti)) row the program inserted into table ti that the model tracks, oldest first (the
 * list holds the newest first). */
static const inserted *view_inserted(int ti, unsigned i)
{
    const inserted *r = db_rt.ins[ti];
    for (unsigned k = tracked_rows(ti) - 1 - i; k > 0; k--) r = r->next;
    return r;
}
static const db_val *view_row(int ti, unsigned k)
{
    if (k >= db_rt.lim.rows) return view_inserted(ti, k - db_rt.lim.rows)->cells;
    return &db_rt.cells[ti][(size_t)k * db_rt.schema->tables[ti].ncols];
}
static expr *view_alive(int ti, unsigned k)
{
    return k >= db_rt.lim.rows ? view_inserted(ti, k - db_rt.lim.rows)->alive : db_rt.alive[ti][k];
}
/* a write run concretely, or a row inserted that the model does not track: the rows are not the view's */
static bool view_changed(int ti) { return db_rt.dirty[ti] || db_rt.untracked[ti]; }
static unsigned view_extra(int ti) { return tracked_rows(ti); }

/* Point the SQL translation's subqueries at this run's fixture and the rows the program inserted (src/db
 * db_set_fixture_view). */
void db_rt_use_view(void)
{
    static db_fixture_view v = {0, view_row, view_alive, view_changed, view_extra};
    v.rows = db_rt.lim.rows;
    db_set_fixture_view(&v);
}

/* A LIMIT or OFFSET of this execution: the literal, or the value of bound parameter `param`
 * (pinned by an assumption when it is symbolic: the window is not something the solver moves).
 * Returns 0 and *v, or -1 when the parameter is unbound or not an integer. */
static int window_value(qstate *s, int64_t lit, int param, int64_t *v)
{
    *v = lit;
    if (!param) return 0;
    if (param > s->nparams || !s->params[param - 1].null || s->params[param - 1].is_text ||
        s->params[param - 1].is_real || (s->params[param - 1].null->value & 1))
        return -1;
    expr *pv = s->params[param - 1].v;
    *v = (int64_t)pv->value;
    if (rt_norm(pv)) db_rt_assume(expr_cmp(rt_cx(), PRED_EQ, pv, expr_const(rt_cx(), pv->value, 64)));
    return 0;
}

/*
 * ORDER BY (without a LIMIT window): the rows the events say come back are ordered now, at the
 * query's first step, as the model orders them: "each sorts no later than the next" for the
 * expected combinations in that order. Recording it only as the program reads each row (as
 * db_rt_row_seen also does) would leave a branch on the first row's value free to reorder the
 * rows, and the run diverges. Rows the program inserted are ordered by row_seen only.
 */
static void order_expected(qstate *s, unsigned n)
{
    const db_query *q = s->q;
    unsigned idx[DB_MAX_COMBOS], m = 0;
    const db_val *a[DB_MAX_FROM], *b[DB_MAX_FROM];
    expr_ctx *cx = rt_cx();
    for (unsigned c = 0; c < n; c++) {
        if (!s->expected[c]) continue;
        /* insertion by the concrete order (stable: ties keep slot order) */
        unsigned k = m++;
        while (k > 0) {
            if (cand_rows(s, idx[k - 1], a) || cand_rows(s, c, b)) return;
            if (db_order_le(cx, q, a, b)->value & 1) break;
            idx[k] = idx[k - 1];
            k--;
        }
        idx[k] = c;
    }
    for (unsigned k = 0; k + 1 < m; k++) {
        if (cand_rows(s, idx[k], a) || cand_rows(s, idx[k + 1], b)) return;
        expr *le = db_order_le(cx, q, a, b);
        if (le->value & 1) db_rt_assume(le);
    }
}

/* After db_value_expr/db_group_value: false when the value's integer arithmetic overflowed in
 * this run (SQLite computed a REAL: the caller reads it concretely); else true, with "no
 * overflow" assumed, so that the model covers the values that do not overflow. */
static bool no_overflow(void)
{
    expr *ovf = db_value_overflow();
    if (ovf && (ovf->value & 1)) return false;
    if (ovf) db_rt_assume(expr_not(rt_cx(), ovf));
    return true;
}

void db_rt_outer_default(const db_query *q, int k, db_val *v)
{
    if (!q->outer_dflt[k] || !v->null) return;
    expr_ctx *cx = rt_cx();
    if (q->outer_dflt[k] == 3 && v->is_text) { /* coalesce(MAX(day), 'never') */
        if (db_text_default(cx, v, q->outer_dflt_s[k])) memset(v, 0, sizeof *v);
        return;
    }
    if (v->is_text || q->outer_dflt[k] == 3 || (q->outer_dflt[k] == 2 && !v->is_real)) {
        memset(v, 0, sizeof *v);
        return;
    }
    expr *d = !v->is_real             ? expr_const(cx, (uint64_t)q->outer_dflt_i[k], 64)
              : q->outer_dflt[k] == 1 ? db_real_const(cx, (double)q->outer_dflt_i[k])
                                      : db_real_const(cx, q->outer_dflt_r[k]);
    v->v = expr_ite(cx, v->null, d, v->v);
    v->scaled = NULL; /* (k / 10^s no longer: the default is no such integer) */
    v->null = expr_const(cx, 0, 1);
}

/* SELECT agg(c) FROM (SELECT ..., COUNT(*) AS c ... GROUP BY ...) (db_query.nouter, sql_groups.c): the one result
 * row's values in s->agg_vals, each the outer aggregate over the groups that come back (ev[i]: the group whose first
 * combination is i) of the group's value: the subquery's aggregate (s->group_vals) or key column (rows[i]'s cell).
 * A value that is not modelled (a group value read concretely, an outer SUM that overflows) is left zero: read
 * concretely. */
static void outer_aggregates(qstate *s, expr *const *ev, const db_val *const *const *rows, unsigned n)
{
    const db_query *q = s->q;
    expr_ctx *cx = rt_cx();
    for (int k = 0; k < q->nouter; k++) {
        const db_val *vals[DB_MAX_COMBOS];
        int r = q->outer_res[k];
        bool ok = true;
        for (unsigned i = 0; r >= 0 && i < n && ok; i++) {
            vals[i] = q->result_agg[r] == DB_AGG_NONE ? &rows[i][q->result_from[r]][q->result_col[r]]
                                                      : &s->group_vals[(size_t)i * q->nresult + r];
            ok = vals[i]->null != NULL;
        }
        memset(&s->agg_vals[k], 0, sizeof s->agg_vals[k]);
        expr *ovf = NULL;
        const char *why = NULL;
        if (!ok || db_aggregate(cx, q->outer_agg[k], n, ev, r < 0 ? NULL : vals, &s->agg_vals[k], &ovf, &why) ||
            (ovf && (ovf->value & 1)))
            memset(&s->agg_vals[k], 0, sizeof s->agg_vals[k]);
        else if (ovf)
            db_rt_assume(expr_not(cx, ovf));
        db_rt_outer_default(q, k, &s->agg_vals[k]);
    }
}

/*
 * GROUP BY (one table): one event per slot i, "slot i is the first row of a group that comes
 * back": i matches (conds[i]), no earlier matching slot has the same keys, and HAVING holds
 * over the group (the matching slots with i's keys). Like the row events, there is one per slot,
 * present or not; the other side of an absent slot's event asks for one more group. The
 * aggregates of the result columns are folded over the same rows (s->group_vals).
 */
/*
 * The groups of GROUP BY query q over its n slot combinations (conds[i]: combination i matches; rowp[i]: its rows):
 * ev[i] = "i is the first combination of a group that comes back" (i matches, no earlier matching combination has
 * its keys, HAVING holds over the group), and vals[i * nresult + r] the group's aggregate of result column r
 * (zero, i.e. read concretely, for a key column, a column read concretely or a value not modelled). When ovf is not
 * NULL, *ovf (width 1) is the overflow check of the groups' integer SUMs (NULL when no result column is one):
 * SQLite fails the step with "integer overflow" when the SUM of some group overflows 64 bits, whether HAVING keeps
 * the group or not. Exactly that ("some group exists and a partial sum of its SUM overflows") only in a run where
 * some summed cell is BIG_ADDEND or more in magnitude: the partial sums of every group, a 64-bit adder per row and
 * group, in the prefix of every later query cost Z3 its time-out on GROUP BY programs (tests/db/daily.c: 0.1 s ->
 * 62 s in Z3). *big (NULL when ovf is) is "some summed cell of a matching row is that big", checked first in every
 * run: when false its negation keeps every sum in range (at most 256 rows of less than 2^55) and *ovf is NULL; its
 * true side asks for a fixture with such a cell, whose run then holds the exact check in *ovf as well.
 */
#define BIG_ADDEND ((uint64_t)1 << 55)

static int group_fold(const db_query *q, const db_val *params, int nparams, expr *const *conds,
                      const db_val *const *const *rowp, unsigned n, expr **ev, db_val *vals, expr **ovf, expr **big_out,
                      const char **why)
{
    expr *exact = NULL, *big = NULL; /* the exact overflow check; "a summed cell of a matching row is big" */
    expr_ctx *cx = rt_cx();
    for (unsigned i = 0; i < n; i++) {
        expr *sel[DB_MAX_COMBOS];
        const db_val *args[DB_MAX_COMBOS];
        expr *first = conds[i];
        for (unsigned j = 0; j < n; j++) {
            expr *same = j == i ? NULL : db_group_eq(cx, q, rowp[i], rowp[j]);
            if (j != i && !same) {
                *why = "GROUP BY key not translated";
                return -1;
            }
            sel[j] = j == i ? conds[i] : expr_and1(cx, conds[j], same);
            if (j < i) first = expr_and1(cx, first, expr_not(cx, sel[j]));
        }
        expr *having = db_having_expr(cx, q, rowp[i], n, sel, rowp, params, nparams, why);
        if (!having) return -1;
        ev[i] = expr_and1(cx, first, having);
        for (int r = 0; r < q->nresult; r++) {
            if (q->result_agg[r] == DB_AGG_NONE || q->result_agg[r] == DB_AGG_CONCRETE)
                continue; /* (read concretely) */
            db_val *out = &vals[(size_t)i * q->nresult + r];
            const char *w = NULL;
            if (q->result_agg[r] == DB_AGG_EXPR) { /* COALESCE(SUM(x), 0), SUM(price * qty), AVG(x) */
                if (db_group_value(cx, q, q->result_expr[r], rowp[i], n, sel, rowp, params, nparams, out, &w) ||
                    !no_overflow())
                    memset(out, 0, sizeof *out); /* read concretely */
                continue;
            }
            int f = q->result_from[r], col = q->result_col[r];
            for (unsigned j = 0; j < n; j++) args[j] = col < 0 ? NULL : &rowp[j][f][col];
            expr *o = NULL;
            if (db_aggregate(cx, q->result_agg[r], n, sel, col < 0 ? NULL : args, out, ovf ? &o : NULL, why)) return -1;
            if (!o) continue;
            if (o->op != EXPR_CONST || (o->value & 1)) { /* group i exists and its SUM overflows */
                o = expr_and1(cx, first, o);
                exact = exact ? expr_binary(cx, EXPR_OR, exact, o) : o;
            }
            for (unsigned j = 0; i == 0 && j < n; j++) { /* (the cells are the same for every group) */
                const db_val *v = args[j];
                if (!v || !v->v || v->is_real || v->is_text || v->v->width != 64) continue;
                expr *b = expr_binary(cx, EXPR_OR, expr_cmp(cx, PRED_SGE, v->v, expr_const(cx, BIG_ADDEND, 64)),
                                      expr_cmp(cx, PRED_SLE, v->v, expr_const(cx, (uint64_t)0 - BIG_ADDEND, 64)));
                b = expr_and1(cx, expr_and1(cx, conds[j], expr_not(cx, v->null)), b);
                big = big ? expr_binary(cx, EXPR_OR, big, b) : b;
            }
        }
    }
    if (ovf) {
        *ovf = big && (big->value & 1) ? exact : NULL;
        *big_out = big;
    }
    return 0;
}

static void group_events(qstate *s, expr *const *slot_conds, unsigned ncombos)
{
    const db_query *q = s->q;
    /* the rows the program inserted (one table: they follow the slots as candidates, oldest first) */
    unsigned nins = q->nfrom == 1 ? tracked_rows(q->table) : 0;
    for (int f = 0; q->nfrom > 1 && f < q->nfrom; f++)
        if (db_rt.ins[q->from_table[f]]) {
            s->why = "GROUP BY over a join with rows the program inserted";
            return;
        }
    if (ncombos + nins > DB_MAX_COMBOS) {
        s->why = "GROUP BY over more than 256 slots and inserted rows";
        return;
    }
    s->ncombos = ncombos;
    s->ncand = ncombos + nins;
    unsigned n = s->ncand;
    expr_ctx *cx = rt_cx();
    expr *conds[DB_MAX_COMBOS];
    memcpy(conds, slot_conds, ncombos * sizeof *conds);
    static const db_val *rows[DB_MAX_COMBOS][DB_MAX_FROM];
    const db_val *const *rowp[DB_MAX_COMBOS];
    for (unsigned k = 0; k < n; k++) {
        if (cand_rows(s, k, rows[k])) {
            s->why = "out of memory";
            return;
        }
        rowp[k] = rows[k];
        if (k < ncombos) continue;
        const char *why = NULL; /* an inserted row: alive and WHERE */
        expr *w = db_where_expr(cx, q, rows[k], s->params, s->nparams, &why);
        if (!w) {
            s->why = why ? why : "out of memory";
            return;
        }
        conds[k] = expr_and1(cx, view_inserted(q->table, k - ncombos)->alive, w);
    }
    free(s->group_vals);
    if (!(s->group_vals = calloc((size_t)n * (size_t)q->nresult + 1, sizeof *s->group_vals))) {
        s->why = "out of memory";
        return;
    }
    expr *ev[DB_MAX_COMBOS];
    const char *why = NULL;
    if (group_fold(q, s->params, s->nparams, conds, rowp, n, ev, s->group_vals, &s->agg_overflow, &s->agg_big, &why)) {
        s->why = why ? why : "out of memory";
        return;
    }
    for (unsigned i = 0; s->window && i < n; i++) /* the ORDER BY keys of a LIMIT over groups are modelled */
        for (int k = 0; k < q->ngroup_order; k++) {
            int r = q->group_order[k];
            if (q->result_agg[r] != DB_AGG_NONE && !s->group_vals[(size_t)i * q->nresult + r].v) {
                s->why = "ORDER BY an aggregate read concretely, with a LIMIT";
                return;
            }
        }
    if (q->nouter && s->agg_vals) outer_aggregates(s, ev, rowp, n);
    for (unsigned i = 0; i < n; i++) {
        s->group_ev[i] = ev[i];
        s->match[i] = conds[i];
        s->expected[i] = (uint8_t)(ev[i]->value & 1);
        expr *e = rt_norm(ev[i]);
        uint32_t beyond = 0, which = i;
        for (int f = 0; i < ncombos && f < q->nfrom; f++) {
            unsigned k = combo_slot(q, i, f);
            if (k < db_rt.lim.rows && k > (unsigned)db_rt.counts[q->from_table[f]]->value) beyond = BK_ROW_BEYOND;
        }
        if (i >= ncombos) which = BK_ROW_INSERTED | view_inserted(q->table, i - ncombos)->index;
        if (e)
            rt_trace_event(BK_ROW, db_rt_row_site(s), (uint32_t)(e->value & 1), e,
                           (uint32_t)q->table << 16 | beyond | which);
    }
    if (q->norder) order_expected(s, n);
    s->symbolic = true;
}

/*
 * The events of one execution of an understood SELECT (see db_rt.h):
 * one BK_ROW per combination of row slots of its FROM items, in a fixed order and
 * number (every slot, present or not), so that no value of a row count changes
 * how many events a query records: "slot k of each item is present and the
 * combination satisfies WHERE/ON". The event of an absent slot is the "one more
 * row" node of Emmi et al.
 */
void db_rt_record_rows(qstate *s)
{
    s->symbolic = false;
    s->agg_big = NULL;
    s->ncand = s->ncombos = 0;
    s->window = false;
    s->nreturned = 0;
    s->prev_combo = -1;
    memset(s->expected, 0, sizeof s->expected);
    memset(s->group_ev, 0, sizeof s->group_ev);
    memset(s->seen, 0, sizeof s->seen);
    if (!s->q || !s->q->understood || s->why || (!s->rowid_col && !s->by_value && !s->agg_vals)) return;
    db_rt_use_view();
    const db_query *q = s->q;
    int64_t limit = -1, offset = 0;
    if (window_value(s, q->limit, q->limit_param, &limit) || window_value(s, q->offset, q->offset_param, &offset)) {
        s->why = "LIMIT/OFFSET of a parameter that is not an integer";
        return;
    }
    if (limit < 0) limit = -1;
    if (offset < 0) offset = 0;
    if ((q->ngroup || q->aggregate) && limit >= 0 && !q->narms) { /* LIMIT over groups (no OFFSET: sql.c) */
        if (limit < (int64_t)max_groups(q) && !(q->ngroup && q->group_window)) {
            s->why =
                "LIMIT with aggregates or GROUP BY below the number of groups, without an ORDER BY of result columns";
            return;
        }
        if (limit < (int64_t)max_groups(q)) { /* the first `limit` groups in ORDER BY order (group_position) */
            s->window = true;
            s->win_limit = limit, s->win_offset = 0;
        }
        limit = -1;
    }
    if (q->narms) { /* UNION [ALL]: candidates are the arms' slots (db_union.c) */
        db_rt_union_events(s, limit, offset);
        return;
    }
    for (int f = 0; f < q->nfrom; f++)
        if (db_rt.dirty[q->from_table[f]]) return;
    unsigned n = combos(q);
    if (n > DB_MAX_COMBOS) {
        s->why = "join with more than 256 slot combinations";
        return;
    }
    expr_ctx *cx = rt_cx();
    for (unsigned c = 0;
         q->norder && (q->order_expr[0] || q->order_expr[1] || q->order_expr[2] || q->order_expr[3]) && c < n;
         c++) { /* an ORDER BY key that is an expression translates over every row, without overflow (db_order_le) */
        const db_val *rows[DB_MAX_FROM];
        const char *why = NULL;
        expr *ovf = NULL;
        if (combo_rows(q, c, rows)) break;
        if (!db_order_exprs_ok(cx, q, rows, &why, &ovf) || (ovf && (ovf->value & 1))) {
            s->why = why ? why : "ORDER BY key whose integer arithmetic overflows";
            return;
        }
        if (ovf) db_rt_assume(expr_not(cx, ovf));
    }
    expr *conds[DB_MAX_COMBOS];
    for (unsigned c = 0; c < n; c++) {
        const db_val *rows[DB_MAX_FROM];
        const char *why = NULL;
        expr *present = combo_rows(q, c, rows) ? NULL : combo_present(s, c, rows, &why);
        expr *w = present ? db_where_expr(cx, q, rows, s->params, s->nparams, &why) : NULL;
        if (!w) {
            s->why = why ? why : "out of memory";
            return;
        }
        conds[c] = expr_and1(cx, present, w);
    }
    if (q->ngroup) {
        group_events(s, conds, n);
        return;
    }
    for (unsigned c = 0; c < n; c++) {
        expr *e = rt_norm(conds[c]);
        s->expected[c] = (uint8_t)(conds[c]->value & 1);
        uint32_t beyond = 0; /* some slot lies past its table's first absent one */
        for (int f = 0; f < q->nfrom; f++) {
            unsigned k = combo_slot(q, c, f);
            if (k < db_rt.lim.rows && k > (unsigned)db_rt.counts[q->from_table[f]]->value) beyond = BK_ROW_BEYOND;
        }
        if (e)
            rt_trace_event(BK_ROW, db_rt_row_site(s), (uint32_t)(e->value & 1), e,
                           (uint32_t)q->table << 16 | beyond | c);
    }
    /* rows the program inserted earlier in the run (their number is fixed by the path so far) */
    memset(s->expected_ins, 0, sizeof s->expected_ins);
    memset(s->seen_ins, 0, sizeof s->seen_ins);
    const db_val *ins_rows[DB_MAX_INSERTED];
    expr *ins_conds[DB_MAX_INSERTED];
    unsigned nins = 0;
    if (q->nfrom == 1)
        for (const inserted *r = db_rt.ins[q->table]; r; r = r->next) {
            if (r->index >= DB_MAX_INSERTED) continue;
            const db_val *rows[1] = {r->cells};
            const char *why = NULL;
            expr *w = db_where_expr(cx, q, rows, s->params, s->nparams, &why);
            if (!w) {
                s->why = why;
                return;
            }
            w = expr_and1(cx, r->alive, w);
            s->expected_ins[r->index] = (uint8_t)(w->value & 1);
            ins_rows[nins] = r->cells;
            ins_conds[nins++] = w;
            if (rt_norm(w))
                rt_trace_event(BK_ROW, db_rt_row_site(s), (uint32_t)(w->value & 1), w,
                               (uint32_t)q->table << 16 | BK_ROW_INSERTED | r->index);
        }
    if ((limit >= 0 || offset > 0) && q->order_window) {
        /* LIMIT/OFFSET in ORDER BY order: which matches come back depends on their order (and,
         * on ties, on the database); each returned row records its position (db_rt_row_seen) */
        s->window = true;
        s->win_limit = limit, s->win_offset = offset;
        for (unsigned c = 0; c < n; c++) s->match[c] = conds[c];
        for (unsigned k = 0; k < DB_MAX_INSERTED; k++) s->match_ins[k] = NULL;
        for (const inserted *r = db_rt.ins[q->table]; q->nfrom == 1 && r; r = r->next)
            if (r->index < DB_MAX_INSERTED) s->ins_cells[r->index] = r->cells;
        for (unsigned k = 0; k < nins; k++)
            for (const inserted *r = db_rt.ins[q->table]; r; r = r->next)
                if (r->cells == ins_rows[k] && r->index < DB_MAX_INSERTED) s->match_ins[r->index] = ins_conds[k];
    } else if (limit >= 0 || offset > 0) {
        /* LIMIT n OFFSET m of one table in scan order: matches m+1..m+n come back */
        int64_t skip = offset, left = limit < 0 ? INT64_MAX : limit;
        for (unsigned c = 0; c < n; c++)
            if (s->expected[c] && (skip-- > 0 || left-- <= 0)) s->expected[c] = 0;
        for (unsigned k = 0; k < DB_MAX_INSERTED; k++) /* inserted rows follow, oldest first */
            if (s->expected_ins[k] && (skip-- > 0 || left-- <= 0)) s->expected_ins[k] = 0;
    }
    if (q->norder && !s->window && !s->agg_vals) order_expected(s, n);
    if (s->agg_vals) { /* the one result row of COUNT/SUM/MIN/MAX over these rows */
        expr *sel[DB_MAX_COMBOS + DB_MAX_INSERTED];
        const db_val *vals[DB_MAX_COMBOS + DB_MAX_INSERTED];
        for (int i = 0; i < q->nresult; i++) {
            if (q->result_col[i] == DB_RESULT_CONCRETE) { /* group_concat(...): read concretely */
                memset(&s->agg_vals[i], 0, sizeof s->agg_vals[i]);
                continue;
            }
            if (q->result_agg[i] == DB_AGG_EXPR) { /* over every combination and inserted row */
                static const db_val *rows[DB_MAX_COMBOS + DB_MAX_INSERTED][DB_MAX_FROM];
                const db_val *const *rowp[DB_MAX_COMBOS + DB_MAX_INSERTED];
                unsigned m = 0;
                for (unsigned c = 0; c < n; c++) {
                    if (combo_rows(q, c, rows[m])) break;
                    sel[m] = conds[c];
                    rowp[m] = rows[m];
                    m++;
                }
                for (unsigned k = 0; k < nins; k++) {
                    rows[m][0] = ins_rows[k];
                    sel[m] = ins_conds[k];
                    rowp[m] = rows[m];
                    m++;
                }
                const char *why = NULL;
                if (i == 0) s->agg_overflow = expr_const(cx, 0, 1);
                if (m == 0 ||
                    db_group_value(cx, q, q->result_expr[i], rowp[0], m, sel, rowp, s->params, s->nparams,
                                   &s->agg_vals[i], &why) ||
                    !no_overflow()) {
                    memset(&s->agg_vals[i], 0, sizeof s->agg_vals[i]); /* read concretely */
                    s->why = why;
                }
                continue;
            }
            int f = q->result_from[i], col = q->result_col[i];
            unsigned m = 0;
            for (unsigned c = 0; c < n; c++) {
                const db_val *rows[DB_MAX_FROM];
                if (combo_rows(q, c, rows)) break;
                sel[m] = conds[c];
                vals[m++] = col < 0 ? NULL : &rows[f][col];
            }
            for (unsigned k = 0; k < nins; k++) {
                sel[m] = ins_conds[k];
                vals[m++] = col < 0 ? NULL : &ins_rows[k][col];
            }
            const char *why = NULL;
            expr *ovf = NULL;
            if (i == 0) s->agg_overflow = expr_const(cx, 0, 1);
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

/* The ORDER BY keys of the group whose first row is combination g (db_query.group_order): aggregates
 * from s->group_vals, plain result columns from g's cells. -1 when out of memory. */
static int group_keys(const qstate *s, unsigned g, const db_val **keys)
{
    const db_query *q = s->q;
    const db_val *rows[DB_MAX_FROM];
    if (cand_rows(s, g, rows)) return -1;
    for (int k = 0; k < q->ngroup_order; k++) {
        int r = q->group_order[k];
        keys[k] = q->result_agg[r] != DB_AGG_NONE ? &s->group_vals[(size_t)g * q->nresult + r]
                                                  : &rows[q->result_from[r]][q->result_col[r]];
    }
    return 0;
}

/*
 * LIMIT over groups in ORDER BY order (db_query.group_window): the group just returned (first row
 * `me`) is at position pos among the groups that come back: fewer than pos+1 other groups sort
 * strictly before it and at least pos sort no later (ties go either way), as window_position says of
 * rows; the group events (s->group_ev) fix which groups exist. A concretely false one is a mismatch.
 */
static void group_position(qstate *s, unsigned me, uint32_t pos)
{
    const db_query *q = s->q;
    expr_ctx *cx = rt_cx();
    const db_val *mine[4], *other[4];
    bool nulls_last[4];
    for (int k = 0; k < q->ngroup_order; k++) /* SQLite: NULLs first ascending; PostgreSQL the opposite */
        nulls_last[k] = q->like_exact ? !q->group_order_desc[k] : q->group_order_desc[k];
    if (group_keys(s, me, mine)) return;
    expr *before = expr_const(cx, 0, 16), *no_later = expr_const(cx, 0, 16);
    for (unsigned g = 0; g < s->ncand; g++) {
        if (g == me || !s->group_ev[g] || group_keys(s, g, other)) continue;
        expr *me_first = db_keys_le(cx, q->ngroup_order, mine, other, q->group_order_desc, nulls_last);
        expr *it_first = db_keys_le(cx, q->ngroup_order, other, mine, q->group_order_desc, nulls_last);
        before =
            expr_binary(cx, EXPR_ADD, before, expr_zext(cx, expr_and1(cx, s->group_ev[g], expr_not(cx, me_first)), 16));
        no_later = expr_binary(cx, EXPR_ADD, no_later, expr_zext(cx, expr_and1(cx, s->group_ev[g], it_first), 16));
    }
    db_rt_position_at(s, before, no_later, pos);
}

/*
 * LIMIT/OFFSET in ORDER BY order: the row just returned (combination `me`, or the inserted row
 * s->cur_ins when me is UINT32_MAX) is at position pos of the ordered matches. With ties the
 * database may order equal rows either way, so the exact statement is: fewer than pos+1 other
 * matching rows sort strictly before it, and at least pos sort no later than it. The row
 * events fix which rows match, so this count constraint is what keeps a later solution
 * from changing which rows the window holds (the cheapest row stays the cheapest). A
 * concretely false one is a model mismatch, not an assumption.
 */
static void window_position(qstate *s, uint32_t me, uint32_t pos)
{
    const db_query *q = s->q;
    expr_ctx *cx = rt_cx();
    const db_val *mine[DB_MAX_FROM], *other[DB_MAX_FROM];
    if (me == UINT32_MAX)
        mine[0] = s->cur_ins->cells;
    else if (combo_rows(q, me, mine))
        return;
    expr *before = expr_const(cx, 0, 16), *no_later = expr_const(cx, 0, 16);
    unsigned n = combos(q);
    for (unsigned c = 0; c < n + DB_MAX_INSERTED; c++) {
        expr *m;
        if (c < n) {
            if (c == me) continue;
            m = s->match[c];
            if (combo_rows(q, c, other)) return;
        } else {
            unsigned k = c - n;
            if (!s->match_ins[k] || (me == UINT32_MAX && s->cur_ins->index == k)) continue;
            m = s->match_ins[k];
            other[0] = s->ins_cells[k];
        }
        db_rt_position_count(q, m, mine, other, &before, &no_later);
    }
    db_rt_position_at(s, before, no_later, pos);
}

void db_rt_position_count(const db_query *q, expr *m, const db_val *const *mine, const db_val *const *other,
                          expr **before, expr **no_later)
{
    expr_ctx *cx = rt_cx();
    expr *me_first = db_order_le(cx, q, mine, other), *it_first = db_order_le(cx, q, other, mine);
    *before = expr_binary(cx, EXPR_ADD, *before, expr_zext(cx, expr_and1(cx, m, expr_not(cx, me_first)), 16));
    *no_later = expr_binary(cx, EXPR_ADD, *no_later, expr_zext(cx, expr_and1(cx, m, it_first), 16));
}

void db_rt_position_at(qstate *s, expr *before, expr *no_later, uint32_t pos)
{
    expr_ctx *cx = rt_cx();
    expr *p = expr_const(cx, pos, 16);
    expr *at = expr_and1(cx, expr_cmp(cx, PRED_ULE, before, p), expr_cmp(cx, PRED_ULE, p, no_later));
    if (at->value & 1)
        db_rt_assume(at);
    else
        s->mismatches++;
}

/* The rows of an execution (see db_rt.h): the hidden ids of the current result row. */
void db_rt_row_seen(qstate *s, const int64_t *ids, const bool *null_ids)
{
    if (s->q->narms) { /* UNION [ALL]: ids[0] is the candidate db_rt_row_by_values found */
        db_rt_union_row_seen(s, ids[0]);
        return;
    }
    for (int f = 0; f < DB_MAX_FROM; f++) s->cur_slot[f] = -1;
    s->cur_ins = NULL;
    s->cur_group = -1;
    const db_query *q = s->q;
    bool all = true;
    unsigned combo = 0, weight = 1;
    for (int f = 0; f < q->nfrom; f++) {
        int ti = q->from_table[f];
        int64_t rowid = ids[f];
        unsigned count = (unsigned)db_rt.counts[ti]->value;
        unsigned k = UINT32_MAX;
        if (null_ids[f] && q->nullable[f])
            k = db_rt.lim.rows; /* the NULL row of an outer join */
        else
            for (unsigned j = 0; j < count && j < db_rt.lim.rows; j++) /* (a deleted slot's rowid may be reused) */
                if (db_rt.rowids[ti][j] == rowid && (db_rt.alive[ti][j]->value & 1)) k = j, s->cur_slot[f] = (int)j;
        all &= k != UINT32_MAX;
        combo += (k == UINT32_MAX ? 0 : k) * weight;
        weight *= radix(q, f);
    }
    const inserted *ins_row = NULL; /* one table: the inserted row the returned row is */
    for (const inserted *r = !all && q->nfrom == 1 ? db_rt.ins[q->table] : NULL; r; r = r->next)
        if (r->rowid == ids[0]) ins_row = r;
    /* GROUP BY: the group's first matching candidate with the same keys (a slot combination, or after them an
     * inserted row: qstate.ncand) */
    unsigned cand = all ? combo : ins_row && s->ncand > s->ncombos ? s->ncombos + ins_row->index : UINT32_MAX;
    bool grouped = s->symbolic && q->ngroup && cand < s->ncand && cand < DB_MAX_COMBOS;
    if (grouped) {
        const db_val *mine[DB_MAX_FROM], *rep[DB_MAX_FROM];
        if (!cand_rows(s, cand, mine))
            for (unsigned i = 0; i <= cand; i++) {
                bool candidate = s->match[i] && (s->match[i]->value & 1) && !cand_rows(s, i, rep);
                expr *same = candidate ? db_group_eq(rt_cx(), q, rep, mine) : NULL;
                if (same && (same->value & 1)) {
                    cand = i;
                    break;
                }
            }
        for (int f = 0; f < q->nfrom; f++) {
            unsigned k = cand < s->ncombos ? combo_slot(q, cand, f) : db_rt.lim.rows;
            s->cur_slot[f] = k < db_rt.lim.rows ? (int)k : -1;
        }
        if (cand >= s->ncombos) s->cur_ins = view_inserted(q->table, cand - s->ncombos);
        s->cur_group = (int)cand;
        if (all) combo = cand;
    }
    if (all && s->symbolic && q->norder && s->prev_combo >= 0) {
        /* ORDER BY: the order the program sees is kept (the previous row sorts first) */
        const db_val *a[DB_MAX_FROM], *b[DB_MAX_FROM];
        if (!combo_rows(q, (unsigned)s->prev_combo, a) && !combo_rows(q, combo, b)) {
            expr *le = db_order_le(rt_cx(), q, a, b);
            if (le->value & 1)
                db_rt_assume(le);
            else /* the database ordered otherwise than the model says */
                s->mismatches++;
        }
    }
    if (all) s->prev_combo = (int)combo;
    if (all) {
        s->rows_fixture++;
        if (s->symbolic && combo < DB_MAX_COMBOS) {
            s->seen[combo] = 1;
            s->mismatches += !s->expected[combo];
        }
    } else if (grouped) { /* a group whose rows the program inserted (its first candidate is cand) */
        s->rows_other++;
        s->seen[cand] = 1;
        s->mismatches += !s->expected[cand];
    } else {
        s->rows_other++;
        if (q->nfrom == 1) /* a row the program inserted? */
            for (const inserted *r = db_rt.ins[q->table]; r; r = r->next)
                if (r->rowid == ids[0]) {
                    s->cur_ins = r;
                    if (s->symbolic && r->index < DB_MAX_INSERTED) {
                        s->seen_ins[r->index] = 1;
                        s->mismatches += !s->expected_ins[r->index];
                    }
                }
    }
    uint32_t pos = (uint32_t)s->win_offset + s->nreturned++;
    if (s->symbolic && s->window && q->ngroup && s->cur_group >= 0)
        group_position(s, (unsigned)s->cur_group, pos);
    else if (s->symbolic && s->window && !q->ngroup && (all || s->cur_ins))
        window_position(s, all ? combo : UINT32_MAX, pos);
    for (int f = 0; f < q->nfrom; f++)
        if (db_rt.dirty[q->from_table[f]]) s->cur_slot[f] = -1, s->cur_ins = NULL;
}

void db_rt_rows_done(qstate *s)
{
    if (!s->symbolic || !(s->rowid_col || s->by_value)) return;
    if (s->window) { /* the window holds min(limit, matches - offset) rows */
        int64_t nmatch = 0;
        for (unsigned k = 0; k < DB_MAX_COMBOS; k++) nmatch += s->expected[k];
        for (unsigned k = 0; k < DB_MAX_INSERTED; k++) nmatch += s->expected_ins[k];
        int64_t want = nmatch > s->win_offset ? nmatch - s->win_offset : 0;
        if (s->win_limit >= 0 && want > s->win_limit) want = s->win_limit;
        s->mismatches += (int64_t)s->nreturned != want;
        return;
    }
    for (unsigned k = 0; k < DB_MAX_COMBOS; k++) s->mismatches += s->expected[k] && !s->seen[k];
    for (unsigned k = 0; k < DB_MAX_INSERTED; k++) s->mismatches += s->expected_ins[k] && !s->seen_ins[k];
}

/* ---------------------------------------------------------------- text parameters */

/* The byte at p as an expression: its shadow when that still describes it, else NULL (db_rt.h). */
expr *db_rt_byte_at_mem(const char *p)
{
    expr *b = rt.trace_full ? NULL : rt_shadow_get((uintptr_t)p);
    return b && b->value == (uint8_t)*p ? b : NULL;
}

/*
 * Text parameters keep the shadows of the program's bytes. With n < 0 (NUL-terminated) the
 * length is symbolic too: the bytes are read on past the concrete terminator as long as
 * they are symbolic (memory with shadows was written by the program, so it exists), up to
 * the first concrete zero or 255 bytes; the length is the index of the first zero among
 * them (an ite chain), and bytes from it on read as 0, as the text's encoding requires.
 * So a string read from input can grow, shrink or change to match a row. With n >= 0 the
 * length is n.
 */
void db_rt_text_param(db_val *p, expr **storage, const char *text, int n)
{
    expr_ctx *cx = rt_cx();
    size_t len = n < 0 ? strlen(text) : (size_t)n;
    memset(p, 0, sizeof *p);
    size_t span = len; /* bytes that may belong to the string */
    if (n < 0)
        while (span < 255 && db_rt_byte_at_mem(text + span)) span++;
    if (len <= 255) {
        p->is_text = true;
        p->null = expr_const(cx, 0, 1);
        p->nbytes = (unsigned)span;
        p->bytes = storage;
        expr *raw[256];
        for (size_t i = 0; i < span; i++) {
            expr *b = db_rt_byte_at_mem(text + i);
            raw[i] = b ? b : expr_const(cx, (uint8_t)text[i], 8);
        }
        if (n < 0) {
            /* len = index of the first zero byte (span when none); built from the end */
            expr *l = expr_const(cx, span, 8);
            for (size_t i = span; i-- > 0;)
                l = expr_ite(cx, expr_cmp(cx, PRED_EQ, raw[i], expr_const(cx, 0, 8)), expr_const(cx, i, 8), l);
            p->len = l;
            for (size_t i = 0; i < span; i++) /* zero from the length on */
                p->bytes[i] =
                    expr_ite(cx, expr_cmp(cx, PRED_ULT, expr_const(cx, i, 8), l), raw[i], expr_const(cx, 0, 8));
        } else {
            p->len = expr_const(cx, len, 8);
            memcpy(p->bytes, raw, span * sizeof *raw);
        }
    }
}

/* ---------------------------------------------------------------- the program's writes */

/* Deep copy of a value (text bytes into new storage that lives as long as the run). */
static int copy_val(const db_val *v, db_val *out)
{
    *out = *v;
    if (v->is_text && v->nbytes) {
        out->bytes = malloc(v->nbytes * sizeof *out->bytes);
        if (!out->bytes) return -1;
        memcpy(out->bytes, v->bytes, v->nbytes * sizeof *out->bytes);
    }
    return 0;
}

/* Whether text t[0..n) is a valid text of date kind k, or (PostgreSQL's now() in a timestamp) a valid datetime
 * followed by '.' and 1 to 6 digits of a fraction of a second: ISO texts that sort by bytes as by time. */
static bool date_text_ok(db_date_kind k, const uint8_t *t, unsigned n)
{
    char buf[DB_TEXT_MAX + 1];
    if (n > DB_TEXT_MAX) return false;
    memcpy(buf, t, n);
    buf[n] = 0;
    if (db_date_text_valid(k, buf)) return true;
    if (k != DB_DATE_DATETIME || n < 21 || n > 26 || buf[19] != '.') return false;
    for (unsigned i = 20; i < n; i++)
        if (!isdigit((unsigned char)buf[i])) return false;
    buf[19] = 0;
    return db_date_text_valid(k, buf);
}

/* Column c of a row the program inserted into table ti (row id rowid), whose DEFAULT sympath does not model: the
 * engine's value (db_rt.read_cell) as a constant cell in *out (text bytes malloc'ed). -1 when there is no reader,
 * the value cannot be read or the model could not hold it (a scaled DECIMAL/FLOAT4 cell, a text past
 * DB_TEXT_MAX, a date text that is not ISO-8601). */
static int engine_cell(int ti, int c, int64_t rowid, db_val *out)
{
    const db_column *col = &db_rt.schema->tables[ti].cols[c];
    uint8_t buf[DB_TEXT_MAX + 1];
    db_cell cell = {0};
    if (!db_rt.read_cell || col->scale || col->single || db_rt.read_cell(db_rt.read_ctx, ti, rowid, c, &cell, buf))
        return -1;
    expr_ctx *cx = rt_cx();
    db_val v = {0};
    v.null = expr_const(cx, cell.null, 1);
    v.v = expr_const(cx, cell.null ? 0 : (uint64_t)cell.i, 64);
    v.is_real = db_column_is_real(col);
    if (db_column_is_text(col)) {
        unsigned n = cell.null ? 0 : cell.len;
        if (n > DB_TEXT_MAX || (n && col->date && !date_text_ok(col->date, cell.text, n))) return -1;
        v.is_text = true;
        v.v = expr_const(cx, 0, 64);
        v.len = expr_const(cx, n, 8);
        v.nbytes = n;
        v.bytes = calloc(n ? n : 1, sizeof *v.bytes);
        if (!v.bytes) return -1;
        for (unsigned i = 0; i < n; i++) v.bytes[i] = expr_const(cx, cell.text[i], 8);
    }
    *out = v;
    return 0;
}

/* The cells of row `row` of an INSERT ... VALUES (or, INSERT ... SELECT, the SELECT's result columns over src_rows,
 * one row per FROM item of it) into cells[0..ncols), their text bytes copied: columns not given get their DEFAULT
 * (NULL when none), except an INTEGER PRIMARY KEY, which is `rowid`. -1 when a value or default is not modelled. */
int db_rt_insert_cells(qstate *s, int64_t rowid, int row, const db_val *const *src_rows, const db_val *src_vals,
                       db_val *cells)
{
    const db_query *q = s->q;
    const db_table *t = &db_rt.schema->tables[q->table];
    expr_ctx *cx = rt_cx();
    for (int c = 0; c < t->ncols; c++) {
        cells[c].null = expr_const(cx, c != t->rowid_alias, 1);
        cells[c].v = expr_const(cx, c == t->rowid_alias ? (uint64_t)rowid : 0, 64);
        if (db_column_is_text(&t->cols[c])) {
            cells[c].is_text = true;
            cells[c].len = expr_const(cx, 0, 8);
        }
        cells[c].is_real = db_column_is_real(&t->cols[c]);
    }
    uint64_t unmodelled = 0; /* omitted columns get their DEFAULT (src/db/check.c), or the engine's value */
    if (db_insert_defaults(cx, t, q, cells, &unmodelled)) return -1;
    for (int c = 0; c < t->ncols && c < 64; c++)
        if ((unmodelled >> c & 1) && rowid != DB_ROWID_UNWRITTEN && engine_cell(q->table, c, rowid, &cells[c]))
            return -1;
    for (int i = 0; i < q->ninsert; i++) {
        db_val v;
        const char *why = NULL;
        if (src_vals && src_vals[i].null) { /* a group's value (INSERT ... SELECT ... GROUP BY) */
            v = src_vals[i];
        } else if (src_vals && q->insert_src->result_agg[i] != DB_AGG_NONE) {
            return -1; /* an aggregate not modelled */
        } else if (src_rows &&
                   q->insert_src->result_expr[i]) { /* SELECT $1, id, qty * 2 FROM ...: over the source rows */
            if (db_value_expr(cx, q->insert_src, q->insert_src->result_expr[i], src_rows, s->params, s->nparams, &v,
                              &why))
                return -1;
            expr *ovf = db_value_overflow(); /* (SQLite would store a REAL) */
            if (ovf && (ovf->value & 1)) return -1;
            if (ovf) db_rt_assume(expr_not(cx, ovf));
        } else if (src_rows) {
            v = src_rows[q->insert_src->result_from[i]][q->insert_src->result_col[i]];
        } else if (db_value_expr(cx, q, q->insert_val[row * q->ninsert + i], NULL, s->params, s->nparams, &v, &why)) {
            return -1;
        }
        if (db_val_store(cx, &t->cols[q->insert_col[i]], &v, &v) || copy_val(&v, &cells[q->insert_col[i]]))
            return -1; /* not modelled: the row stays concrete (an "other" row) */
    }
    return 0;
}

/* Remember a row the program inserted into table ti: cells (taken), alive when `alive` holds (NULL: always). */
static void link_row(int ti, int64_t rowid, expr *alive, db_val *cells)
{
    inserted *r = calloc(1, sizeof *r);
    if (!r) {
        free(cells);
        return;
    }
    r->rowid = rowid;
    r->alive = alive ? alive : expr_const(rt_cx(), 1, 1);
    unsigned n = 0;
    for (inserted *o = db_rt.ins[ti]; o; o = o->next) n++;
    r->index = n;
    r->cells = cells;
    r->next = db_rt.ins[ti];
    db_rt.ins[ti] = r;
}

/* After INSERT ... VALUES added row `row` of its VALUES (db_rt.h): remember its cells' expressions
 * (insert_cells); a value or default sympath does not model leaves the row concrete. INSERT ... SELECT: the
 * values are the SELECT's result columns over src_rows (a row per FROM item), and the row exists when `alive`
 * holds. */
static void track_row(qstate *s, int64_t rowid, int row, const db_val *const *src_rows, const db_val *src_vals,
                      expr *alive)
{
    const db_query *q = s->q;
    int ti = q->table;
    if (!q->ninsert || (!src_rows && row >= q->ninsert_rows) || db_rt.dirty[ti]) return;
    db_rt_use_view();
    db_val *cells = calloc((size_t)db_rt.schema->tables[ti].ncols, sizeof *cells);
    if (!cells || db_rt_insert_cells(s, rowid, row, src_rows, src_vals, cells)) {
        free(cells);
        return;
    }
    link_row(ti, rowid, alive, cells);
}

/* The rows of table ti the program inserted that the model tracks. */
static unsigned tracked_rows(int ti)
{
    unsigned n = 0;
    for (const inserted *o = db_rt.ins[ti]; o; o = o->next) n++;
    return n;
}

/* After an INSERT that added n rows to table ti, of which `before` were tracked before it: fewer
 * newly tracked than n leave rows the model does not know (db_rt.untracked). */
static void note_untracked(int ti, unsigned before, int n)
{
    if (n > 0 && tracked_rows(ti) - before < (unsigned)n) db_rt.untracked[ti] = true;
}

void db_rt_track_insert(qstate *s, int64_t rowid)
{
    unsigned before = tracked_rows(s->q->table);
    track_row(s, rowid, 0, NULL, NULL, NULL);
    note_untracked(s->q->table, before, 1);
}

/* Whether row id of s's INSERT target holds, in the engine, the concrete values of cells in every column the
 * INSERT gives (the others hold defaults); a column the engine's value of cannot be read (db_rt.read_cell; a
 * scaled cell) counts as equal. */
static bool engine_row_is(const qstate *s, int64_t id, const db_val *cells)
{
    const db_query *q = s->q;
    for (int i = 0; i < q->ninsert; i++) {
        int c = q->insert_col[i];
        db_val e;
        if (engine_cell(q->table, c, id, &e)) continue;
        bool same = (e.null->value & 1) == (cells[c].null->value & 1);
        if (same && !(e.null->value & 1)) {
            if (e.is_text) {
                same = cells[c].is_text && e.len->value == cells[c].len->value;
                for (unsigned k = 0; same && k < e.len->value && k < e.nbytes; k++)
                    same = k < cells[c].nbytes && e.bytes[k]->value == cells[c].bytes[k]->value;
            } else {
                same = !cells[c].is_text && e.v->value == cells[c].v->value;
            }
        }
        if (e.is_text) free(e.bytes);
        if (!same) return false;
    }
    return true;
}

/* A join's INSERT ... SELECT: the row id (of ids[0..n), the rows the engine added in its plan's order) of each
 * candidate k that holds (cond[k]), the first unused one whose given columns hold the candidate's concrete values
 * (engine_row_is), in id[k] (-1 for the others). -1 when a candidate matches no row. */
static int match_added(qstate *s, const db_val *const (*rows)[DB_MAX_FROM], const db_val *vals, expr *const *cond,
                       unsigned ncand, const int64_t *ids, int n, int64_t *id)
{
    int nres = s->q->insert_src->nresult;
    bool used[DB_MAX_COMBOS] = {0};
    int ncols = db_rt.schema->tables[s->q->table].ncols;
    db_val *tmp = calloc((size_t)ncols, sizeof *tmp);
    if (!tmp) return -1;
    int rc = 0;
    for (unsigned k = 0; k < ncand && !rc; k++) {
        id[k] = -1;
        if (!(cond[k]->value & 1)) continue;
        memset(tmp, 0, (size_t)ncols * sizeof *tmp);
        if (db_rt_insert_cells(s, DB_ROWID_UNWRITTEN, 0, rows[k], vals ? &vals[(size_t)k * nres] : NULL, tmp)) {
            rc = -1;
            break;
        }
        int m = 0;
        while (m < n && (used[m] || !engine_row_is(s, ids[m], tmp))) m++;
        if (m == n)
            rc = -1;
        else
            used[m] = true, id[k] = ids[m];
    }
    free(tmp);
    return rc;
}

/*
 * INSERT ... SELECT (q->insert_src: columns or expressions of one table's row or of an inner join's rows): one
 * tracked row per combination of slots of the source's FROM items (combos(); one slot per item for a single
 * table), alive when the slots are present and satisfy the SELECT's WHERE (and ON conditions), so what later
 * queries read of the target depends on the fixture as the INSERT did. The n rows the database added (ids[0..n),
 * in the order it added them) are the candidates that hold now: from one table, in slot (scan) order; from a join,
 * whose order is the engine's plan, each added row goes to a candidate that holds with the same concrete values
 * (engine_row_is: the cells read back by row id), each candidate once. On SQLite a given INTEGER PRIMARY KEY makes
 * a row's rowid its value. Not tracked when a source table has rows the program inserted or changed, when the
 * candidates that hold are not n rows, or when a join's row matches no candidate.
 */
static void track_insert_select(qstate *s, const int64_t *ids, int n, int64_t base)
{
    const db_query *q = s->q, *src = q->insert_src;
    for (int f = 0; f < src->nfrom; f++) {
        int ts = src->from_table[f];
        if (db_rt.dirty[ts] || db_rt.ins[ts]) return;
    }
    if (db_rt.dirty[q->table]) return;
    s->q->insert_src->like_exact = q->like_exact;
    db_rt_use_view();
    expr_ctx *cx = rt_cx();
    const db_table *tt = &db_rt.schema->tables[q->table];
    int alias = -1;
    for (int i = 0; !db_rt.pg && i < q->ninsert; i++)
        if (q->insert_col[i] == tt->rowid_alias) alias = i;
    unsigned ncand = combos(src);
    if (ncand > DB_MAX_COMBOS) return;
    expr *cond[DB_MAX_COMBOS];
    static const db_val *rows[DB_MAX_COMBOS][DB_MAX_FROM];
    int held = 0;
    for (unsigned k = 0; k < ncand; k++) {
        if (combo_rows(src, k, rows[k])) return;
        const char *why = NULL;
        expr *w = db_where_expr(cx, src, rows[k], s->params, s->nparams, &why);
        if (!w) return;
        expr *present = expr_const(cx, 1, 1);
        for (int f = 0; f < src->nfrom; f++)
            present = expr_and1(cx, present, db_rt.alive[src->from_table[f]][combo_slot(src, k, f)]);
        cond[k] = expr_and1(cx, present, w);
    }
    db_val *vals = NULL; /* GROUP BY: a row per group that comes back, of the group's values */
    if (src->ngroup) {
        const db_val *const *rowp[DB_MAX_COMBOS];
        expr *ev[DB_MAX_COMBOS];
        for (unsigned k = 0; k < ncand; k++) rowp[k] = rows[k];
        const char *why = NULL;
        if (!(vals = calloc((size_t)ncand * (size_t)src->nresult + 1, sizeof *vals)) ||
            group_fold(src, s->params, s->nparams, cond, rowp, ncand, ev, vals, NULL, NULL, &why)) {
            free(vals);
            return;
        }
        memcpy(cond, ev, ncand * sizeof *ev); /* a candidate per group: its first combination */
    }
    for (unsigned k = 0; k < ncand; k++) held += (int)(cond[k]->value & 1);
    if (held != n) {
        free(vals);
        return;
    }
    /* the rows it inserted (sqlite3_changes, PQcmdTuples): the candidates that hold */
    bool untracked_src = false;
    for (int f = 0; f < src->nfrom; f++) untracked_src |= db_rt.untracked[src->from_table[f]];
    expr *count = expr_const(cx, 0, 64);
    for (unsigned k = 0; k < ncand; k++) count = expr_binary(cx, EXPR_ADD, count, expr_zext(cx, cond[k], 64));
    if (!untracked_src) db_rt.changes = count;
    int j = 0;
    int64_t joined[DB_MAX_COMBOS];
    bool join = (src->nfrom > 1 || src->ngroup) && alias < 0; /* the engine's order is its plan's */
    if (join && match_added(s, (const db_val *const(*)[DB_MAX_FROM])rows, vals, cond, ncand, ids, n, joined)) {
        free(vals);
        return;
    }
    expr *next = base >= 0 ? expr_const(cx, (uint64_t)base, 64) : NULL; /* SQLite: the rowid it gives next - 1 */
    for (unsigned k = 0; k < ncand; k++) {
        int64_t id = -1; /* a candidate not inserted in this run has no row id */
        if (cond[k]->value & 1) {
            id = join ? joined[k] : ids[j++];
            if (alias >= 0) {
                if (src->result_expr[alias] || src->ngroup) break; /* the key computed: not tracked */
                const db_val *key = &rows[k][src->result_from[alias]][src->result_col[alias]];
                if (key->is_text || key->is_real || (key->null->value & 1)) break;
                id = (int64_t)key->v->value;
            }
        }
        track_row(s, id, 0, rows[k], vals ? &vals[(size_t)k * src->nresult] : NULL, cond[k]);
        inserted *r = db_rt.ins[q->table];
        if (!r || r->alive != cond[k]) continue;
        if (next && !join && alias < 0 && tt->rowid_alias >= 0) {
            /* the INTEGER PRIMARY KEY of a candidate: one more than the last one, for each candidate that holds */
            next = expr_binary(cx, EXPR_ADD, next, expr_zext(cx, cond[k], 64));
            db_val *key = &r->cells[tt->rowid_alias];
            key->v = next;
            key->null = expr_const(cx, 0, 1);
        }
    }
    free(vals);
}

static void track_inserts(qstate *s, const int64_t *rowids, int n)
{
    if (s->q->insert_src) {
        track_insert_select(s, rowids, n, -1);
        return;
    }
    if (!s->q->ninsert || n != s->q->ninsert_rows) return;
    for (int r = 0; r < n; r++) track_row(s, rowids[r], r, NULL, NULL, NULL);
}

void db_rt_track_inserts(qstate *s, const int64_t *rowids, int n)
{
    unsigned before = tracked_rows(s->q->table);
    track_inserts(s, rowids, n);
    note_untracked(s->q->table, before, n);
}

static void track_insert_sqlite(qstate *s, int changes, int64_t last_rowid);

void db_rt_track_insert_sqlite(qstate *s, int changes, int64_t last_rowid)
{
    unsigned before = tracked_rows(s->q->table);
    track_insert_sqlite(s, changes, last_rowid);
    note_untracked(s->q->table, before, changes);
}

static void track_insert_sqlite(qstate *s, int changes, int64_t last_rowid)
{
    const db_query *q = s->q;
    if (q->insert_src && changes >= 0 && changes <= DB_MAX_COMBOS) { /* INSERT ... SELECT: consecutive rowids */
        int64_t ids[DB_MAX_COMBOS], base = changes > 0 ? last_rowid - changes : -1;
        for (int r = 0; r < changes; r++) ids[r] = last_rowid - (changes - 1 - r);
        if (changes == 0) { /* nothing inserted: the largest rowid, which the next row's follows */
            sqlite3_stmt *st = NULL;
            char *sql = NULL, *name = db_sql_ident(db_rt.schema->tables[q->table].name);
            if (name && asprintf(&sql, "SELECT coalesce(max(rowid), 0) FROM %s", name) >= 0 &&
                sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
                base = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
            free(sql), free(name);
        }
        track_insert_select(s, ids, changes, base);
        return;
    }
    if (!q->ninsert || changes != q->ninsert_rows || changes > DB_MAX_INSERT_ROWS) return;
    const db_table *t = &db_rt.schema->tables[q->table];
    int alias = -1; /* the INTEGER PRIMARY KEY among the columns given: each row's rowid is its value */
    for (int i = 0; i < q->ninsert; i++)
        if (q->insert_col[i] == t->rowid_alias) alias = i;
    int64_t rowids[DB_MAX_INSERT_ROWS];
    for (int r = 0; r < changes; r++) {
        rowids[r] = last_rowid - (changes - 1 - r); /* automatic rowids: one more than the largest, in turn */
        if (alias < 0) continue;
        db_val v;
        const char *why = NULL;
        if (db_value_expr(rt_cx(), q, q->insert_val[r * q->ninsert + alias], NULL, s->params, s->nparams, &v, &why) ||
            v.is_text || v.is_real)
            return; /* a text or REAL key: rows left concrete */
        if (!(v.null->value & 1))
            rowids[r] = (int64_t)v.v->value;
        else if (r < changes - 1)
            return; /* an automatic rowid before the last row, among given ones: rows left concrete */
    }
    track_inserts(s, rowids, changes);
}

/* ite(c, a, b) of two values of one column (text bytes in new storage); -1 when out of memory. */
static int ite_val(expr_ctx *cx, expr *c, const db_val *a, const db_val *b, db_val *out)
{
    memset(out, 0, sizeof *out);
    out->is_text = a->is_text;
    out->is_real = a->is_real;
    out->null = expr_ite(cx, c, a->null, b->null);
    if (!a->is_text) {
        out->v = expr_ite(cx, c, a->v, b->v);
        return 0;
    }
    out->day = db_date_day_ite(cx, c, a, b);
    out->len = expr_ite(cx, c, a->len, b->len);
    out->nbytes = a->nbytes > b->nbytes ? a->nbytes : b->nbytes;
    out->bytes = malloc((out->nbytes ? out->nbytes : 1) * sizeof *out->bytes);
    if (!out->bytes) return -1;
    expr *z = expr_const(cx, 0, 8);
    for (unsigned i = 0; i < out->nbytes; i++)
        out->bytes[i] = expr_ite(cx, c, i < a->nbytes ? a->bytes[i] : z, i < b->nbytes ? b->bytes[i] : z);
    return 0;
}

/* The rows of table ti an UPDATE or DELETE may hit: its slots, then the rows the program inserted; their
 * cells and "alive" flags in *rows and *alive (malloc'ed, *n entries). -1 when out of memory. */
int db_rt_table_rows(int ti, db_val ***rows, expr ****alive, unsigned *n)
{
    const db_table *t = &db_rt.schema->tables[ti];
    unsigned m = db_rt.lim.rows;
    for (inserted *r = db_rt.ins[ti]; r; r = r->next) m++;
    *rows = calloc(m, sizeof **rows);
    *alive = calloc(m, sizeof **alive);
    if (!*rows || !*alive) {
        free(*rows), free(*alive);
        return -1;
    }
    *n = 0;
    for (unsigned k = 0; k < db_rt.lim.rows; k++, (*n)++)
        (*rows)[*n] = &db_rt.cells[ti][(size_t)k * t->ncols], (*alive)[*n] = &db_rt.alive[ti][k];
    for (inserted *r = db_rt.ins[ti]; r; r = r->next, (*n)++) (*rows)[*n] = r->cells, (*alive)[*n] = &r->alive;
    return 0;
}

/*
 * ON DELETE CASCADE, as the engine applies it (SQLite with PRAGMA foreign_keys on, PostgreSQL always):
 * after rows of table pt were deleted (phit[j]: parent row j, prows[j] its cells, was hit), each row of a
 * table with a cascading key to pt (one-column or composite) whose key columns are non-NULL and equal a
 * deleted row's is deleted too, and then its own children (at most 4 levels). A child table already
 * concrete (dirty) is left alone.
 */
static void cascade_delete(expr_ctx *cx, int pt, db_val *const *prows, expr *const *phit, unsigned np, int depth)
{
    const db_schema *sc = db_rt.schema;
    for (int ci = 0; ci < sc->ntables && depth < 4; ci++) {
        const db_table *c = &sc->tables[ci];
        db_fkey keys[8];
        int nk = 0;
        for (int col = 0; col < c->ncols && nk < 8; col++)
            if (c->cols[col].fk_table == pt && c->cols[col].fk_cascade)
                keys[nk++] =
                    (db_fkey){.ncols = 1, .cols = {col}, .ref_table = pt, .ref_cols = {c->cols[col].fk_column}};
        for (int k = 0; k < c->nfkeys && nk < 8; k++)
            if (c->fkeys[k].ref_table == pt && c->fkeys[k].cascade) keys[nk++] = c->fkeys[k];
        db_val **rows;
        expr ***alive;
        unsigned n;
        if (!nk || db_rt.dirty[ci] || db_rt_table_rows(ci, &rows, &alive, &n)) continue;
        expr **hit = calloc(n ? n : 1, sizeof *hit);
        for (unsigned r = 0; hit && r < n; r++) {
            hit[r] = expr_const(cx, 0, 1);
            for (int k = 0; k < nk; k++)
                for (unsigned j = 0; j < np; j++) {
                    expr *same = phit[j];
                    for (int i = 0; i < keys[k].ncols; i++)
                        same = expr_and1(cx, same,
                                         db_val_same(cx, &rows[r][keys[k].cols[i]], &prows[j][keys[k].ref_cols[i]]));
                    hit[r] = expr_binary(cx, EXPR_OR, hit[r], same);
                }
            hit[r] = expr_and1(cx, *alive[r], hit[r]);
            *alive[r] = expr_and1(cx, *alive[r], expr_not(cx, hit[r]));
        }
        if (hit) cascade_delete(cx, ci, rows, hit, n, depth + 1);
        free(hit), free(rows), free(alive);
    }
}

/*
 * An understood UPDATE or DELETE that SQLite ran: every row of the table (fixture slots and
 * tracked inserted rows) it may have hit gets hit = alive & WHERE; DELETE clears alive where
 * hit (and follows ON DELETE CASCADE when fk_actions: cascade_delete), UPDATE replaces each assigned
 * cell by ite(hit, new value over the old row, old value).
 * Returns 0, or 1 when the statement is not modelled (the table becomes concrete).
 */
int db_rt_apply_dml(qstate *s, bool changed, bool fk_actions)
{
    const db_query *q = s->q;
    if (!q->understood || q->nfrom != 1) return changed;
    db_rt_use_view();
    int ti = q->table;
    const db_table *t = &db_rt.schema->tables[ti];
    for (int i = 0; i < q->nset; i++)
        if (q->set_col[i] == t->rowid_alias) return 1; /* rowids move: the mapping of result rows would be lost */
    expr_ctx *cx = rt_cx();
    db_val **rows;
    expr ***alive;
    unsigned n;
    if (db_rt_table_rows(ti, &rows, &alive, &n)) return 1;
    expr **hit = calloc(n, sizeof *hit);
    db_val *newv = calloc((size_t)n * (q->nset ? (size_t)q->nset : 1), sizeof *newv);
    if (!hit || !newv) {
        free(rows), free(alive), free(hit), free(newv);
        return 1;
    }
    int rc = 0;
    /* first everything that can fail, then the changes */
    for (unsigned k = 0; k < n && !rc; k++) {
        const db_val *row[1] = {rows[k]};
        const char *why = NULL;
        expr *w = db_where_expr(cx, q, row, s->params, s->nparams, &why);
        if (!w) {
            rc = 1;
            break;
        }
        hit[k] = expr_and1(cx, *alive[k], w);
        for (int i = 0; i < q->nset && !rc; i++) {
            db_val v;
            rc = db_value_expr(cx, q, q->set_val[i], row, s->params, s->nparams, &v, &why) ||
                 db_val_store(cx, &t->cols[q->set_col[i]], &v, &v) ||
                 ite_val(cx, hit[k], &v, &rows[k][q->set_col[i]], &newv[(size_t)k * q->nset + i]);
        }
    }
    if (!rc && q->returning) {
        /* RETURNING: which rows come back is a branch of the path, one BK_ROW per row the statement may hit (a
         * fixed number: the slots, then the rows inserted so far), as a SELECT's row events; its concrete
         * outcome maps the rows returned to their rows (db_sqlite.c) */
        s->dml_hit = s->dml_hit_ins = 0;
        unsigned k = 0;
        for (; k < db_rt.lim.rows; k++) {
            uint32_t bit = (uint32_t)(hit[k]->value & 1);
            if (bit && k < 64) s->dml_hit |= 1ull << k;
            expr *e = rt_norm(hit[k]);
            uint32_t beyond = k > (unsigned)db_rt.counts[ti]->value ? BK_ROW_BEYOND : 0;
            if (e) rt_trace_event(BK_ROW, db_rt_row_site(s), bit, e, (uint32_t)ti << 16 | beyond | k);
        }
        for (const inserted *r = db_rt.ins[ti]; r && k < n; r = r->next, k++) {
            uint32_t bit = (uint32_t)(hit[k]->value & 1);
            if (bit && r->index < 64) s->dml_hit_ins |= 1ull << r->index;
            expr *e = rt_norm(hit[k]);
            if (e && r->index < DB_MAX_INSERTED)
                rt_trace_event(BK_ROW, db_rt_row_site(s), bit, e, (uint32_t)ti << 16 | BK_ROW_INSERTED | r->index);
        }
    }
    if (!rc) {
        /* sqlite3_changes: the rows hit */
        expr *count = expr_const(cx, 0, 64);
        for (unsigned k = 0; k < n; k++) count = expr_binary(cx, EXPR_ADD, count, expr_zext(cx, hit[k], 64));
        if (!db_rt.untracked[ti]) db_rt.changes = count; /* else a row the model does not know may be hit too */
    }
    if (!rc)
        for (unsigned k = 0; k < n; k++) {
            if (q->kind == DBQ_DELETE) *alive[k] = expr_and1(cx, *alive[k], expr_not(cx, hit[k]));
            for (int i = 0; i < q->nset; i++) rows[k][q->set_col[i]] = newv[(size_t)k * q->nset + i];
        }
    if (!rc && q->kind == DBQ_DELETE && fk_actions) cascade_delete(cx, ti, rows, hit, n, 0);
    free(rows), free(alive), free(hit), free(newv);
    return rc;
}

/*
 * Before an INSERT ... VALUES runs, where the engine enforces foreign keys (PostgreSQL always, SQLite after
 * PRAGMA foreign_keys = ON: `enforced`), each row's non-NULL value of a one-column FOREIGN KEY must be the
 * key of a live row of the parent table, or the statement fails. One BK_ROW event per such value: "it is
 * NULL or its parent exists" over the parent's slots and tracked rows, so the solver can ask for the
 * fixture with the parent (the INSERT succeeds) or without it (the program's handling of the failure).
 * Nothing is recorded for a parent table that is concrete or the table itself (a row may be its own parent).
 */
void db_rt_insert_parents(qstate *s, bool enforced)
{
    const db_query *q = s->q;
    if (!enforced || !q || q->kind != DBQ_INSERT || !q->ninsert || !q->ninsert_rows || q->insert_src || q->table < 0)
        return;
    const db_table *t = &db_rt.schema->tables[q->table];
    expr_ctx *cx = rt_cx();
    db_rt_use_view();
    for (int r = 0; r < q->ninsert_rows; r++)
        for (int i = 0; i < q->ninsert; i++) {
            const db_column *col = &t->cols[q->insert_col[i]];
            int pt = col->fk_table, pc = col->fk_column;
            if (pt < 0 || pt == q->table || db_rt.dirty[pt] || db_rt.untracked[pt]) continue;
            db_val v;
            const char *why = NULL;
            if (db_value_expr(cx, q, q->insert_val[r * q->ninsert + i], NULL, s->params, s->nparams, &v, &why) ||
                db_val_store(cx, col, &v, &v))
                continue;
            db_val **rows;
            expr ***alive;
            unsigned n;
            if (db_rt_table_rows(pt, &rows, &alive, &n)) continue;
            expr *exists = v.null;
            for (unsigned k = 0; k < n; k++)
                if (rows[k][pc].is_text == v.is_text)
                    exists = expr_binary(cx, EXPR_OR, exists,
                                         expr_and1(cx, expr_and1(cx, *alive[k], expr_not(cx, rows[k][pc].null)),
                                                   db_val_same(cx, &rows[k][pc], &v)));
            free(rows), free(alive);
            expr *e = rt_norm(exists);
            if (e)
                rt_trace_event(BK_ROW, db_rt_row_site(s), (uint32_t)(e->value & 1), e,
                               (uint32_t)pt << 16 | (uint32_t)r);
        }
}

/* Whether row a equals row b on key k (every column non-NULL and the same value), width 1. */
expr *db_rt_same_key(expr_ctx *cx, const db_key *k, const db_val *a, const db_val *b)
{
    expr *e = expr_const(cx, 1, 1);
    for (int i = 0; i < k->ncols; i++) {
        const db_val *x = &a[k->cols[i]], *y = &b[k->cols[i]];
        e = expr_and1(cx, e, expr_and1(cx, expr_not(cx, x->null), expr_not(cx, y->null)));
        e = expr_and1(cx, e, db_val_same(cx, x, y));
    }
    return e;
}

/*
 * INSERT ... ON CONFLICT (cols) DO UPDATE SET ... [WHERE w] (q->upsert) and SQLite's INSERT OR REPLACE
 * (q->or_replace) of one row, after the engine ran it. The proposed row p (insert_cells) conflicts with
 * row k of the table (slots, tracked inserted rows) when k is alive and equal to p on the conflict
 * target (OR REPLACE: on any PRIMARY KEY or UNIQUE key; NULLs never conflict): m_k. Upsert: the row
 * hit is h_k = m_k & w(k, p), whose assigned cells become ite(h_k, value over (k, p), old), and p is
 * inserted, alive, when no m_k holds; sqlite3_changes is ite(some m_k, some h_k, 1). OR REPLACE: every
 * row with m_k is deleted (alive & !m_k) and p inserted. The values RETURNING gives (q->return_col) are
 * those of the row written: p's unless some h_k, then row k's new ones (s->ret_vals).
 * rowid: the id of the row the engine inserted, -1 when it inserted none or the caller cannot tell
 * (PostgreSQL: found afterwards by remap_ctids); `known` says whether rowid tells which happened, and
 * the model must then agree. Returns 0, or 1 when not modelled (the caller makes the table concrete).
 */
int db_rt_track_upsert(qstate *s, int64_t rowid, bool known)
{
    const db_query *q = s->q;
    int ti = q->table;
    if (!q->ninsert || q->ninsert_rows != 1 || db_rt.dirty[ti] || db_rt.untracked[ti]) return 1;
    db_rt_use_view();
    const db_table *t = &db_rt.schema->tables[ti];
    expr_ctx *cx = rt_cx();
    db_key keys[16];
    int nkeys = 0;
    if (q->upsert) {
        keys[nkeys].ncols = q->nconflict;
        memcpy(keys[nkeys++].cols, q->conflict_col, sizeof q->conflict_col);
    } else {
        for (int k = 0; k < t->nkeys && nkeys < 15; k++) keys[nkeys++] = t->keys[k];
        if (t->rowid_alias >= 0) keys[nkeys++] = (db_key){.ncols = 1, .cols = {t->rowid_alias}};
    }
    db_val *p = calloc((size_t)t->ncols, sizeof *p);
    db_val **rows = NULL;
    expr ***alive = NULL, **hit = NULL;
    db_val *newv = NULL;
    unsigned n = 0;
    int rc = !p || db_rt_insert_cells(s, rowid, 0, NULL, NULL, p) || db_rt_table_rows(ti, &rows, &alive, &n);
    if (!rc) {
        hit = calloc(n + 1, sizeof *hit);
        newv = calloc((size_t)(n + 1) * (q->nset ? (size_t)q->nset : 1), sizeof *newv);
        rc = !hit || !newv;
    }
    expr *conflict = expr_const(cx, 0, 1), *any_hit = expr_const(cx, 0, 1);
    /* first everything that can fail, then the changes */
    for (unsigned k = 0; k < n && !rc; k++) {
        expr *m = expr_const(cx, 0, 1);
        for (int j = 0; j < nkeys; j++) m = expr_binary(cx, EXPR_OR, m, db_rt_same_key(cx, &keys[j], rows[k], p));
        m = expr_and1(cx, *alive[k], m);
        conflict = expr_binary(cx, EXPR_OR, conflict, m);
        if (!q->upsert) {
            hit[k] = m;
            continue;
        }
        const db_val *both[2] = {rows[k], p};
        const char *why = NULL;
        expr *w = q->upsert_where ? db_cond_expr(cx, q, q->upsert_where, both, s->params, s->nparams, &why) : m;
        if (!w) {
            rc = 1;
            break;
        }
        hit[k] = expr_and1(cx, m, w);
        any_hit = expr_binary(cx, EXPR_OR, any_hit, hit[k]);
        for (int i = 0; i < q->nset && !rc; i++) {
            db_val v;
            rc = db_value_expr(cx, q, q->set_val[i], both, s->params, s->nparams, &v, &why) ||
                 db_val_store(cx, &t->cols[q->set_col[i]], &v, &v) ||
                 ite_val(cx, hit[k], &v, &rows[k][q->set_col[i]], &newv[(size_t)k * q->nset + i]);
        }
    }
    for (int i = 0; i < q->nset && !rc; i++) /* the rowid moves: result rows would no longer map back */
        if (q->set_col[i] == t->rowid_alias) rc = 1;
    if (!rc && known && (rowid >= 0) != !(conflict->value & 1) && q->upsert) rc = 1; /* not what the engine did */
    if (rc) {
        free(p), free(rows), free(alive), free(hit), free(newv);
        return 1;
    }
    for (unsigned k = 0; k < n; k++) {
        if (q->or_replace) *alive[k] = expr_and1(cx, *alive[k], expr_not(cx, hit[k]));
        for (int i = 0; i < q->nset; i++) rows[k][q->set_col[i]] = newv[(size_t)k * q->nset + i];
    }
    expr *added = q->upsert ? expr_not(cx, conflict) : NULL;
    if (q->nreturn && (s->ret_vals = calloc((size_t)q->nreturn, sizeof *s->ret_vals))) {
        for (int i = 0; i < q->nreturn; i++) {
            int c = q->return_col[i];
            if (c < 0) continue; /* an expression: read concretely */
            db_val v = p[c], w;
            for (unsigned k = 0; q->upsert && k < n; k++) {
                if (ite_val(cx, hit[k], &rows[k][c], &v, &w)) {
                    free(s->ret_vals);
                    s->ret_vals = NULL;
                    break;
                }
                v = w;
            }
            if (!s->ret_vals) break;
            s->ret_vals[i] = v;
        }
    }
    if (!db_rt.untracked[ti])
        db_rt.changes = q->upsert ? expr_ite(cx, conflict, expr_zext(cx, any_hit, 64), expr_const(cx, 1, 64))
                                  : expr_const(cx, 1, 64);
    link_row(ti, rowid, added, p);
    free(rows), free(alive), free(hit), free(newv);
    return 0;
}

const db_val *db_rt_computed_cell(const qstate *s, int i, const int *slots, const db_val *ins)
{
    static db_val ring[4];
    static unsigned next;
    const db_query *q = s->q;
    if (!q || i < 0 || i >= q->nresult || !q->result_expr || !q->result_expr[i] || q->result_agg[i] != DB_AGG_NONE)
        return NULL;
    const db_val *rows[DB_MAX_FROM] = {NULL};
    for (int f = 0; f < q->nfrom; f++) {
        if (!slots) {
            if (f > 0 || !ins) return NULL;
            rows[0] = ins;
            continue;
        }
        if (slots[f] < 0) return NULL; /* an outer join's NULL row: read concretely */
        int ti = q->from_table[f];
        rows[f] = &db_rt.cells[ti][(size_t)slots[f] * db_rt.schema->tables[ti].ncols];
    }
    db_val *out = &ring[next++ % 4];
    const char *why = NULL;
    if (db_value_expr(rt_cx(), q, q->result_expr[i], rows, s->params, s->nparams, out, &why)) return NULL;
    return no_overflow() ? out : NULL;
}

void db_rt_row_by_values(const qstate *s, bool (*same)(void *ctx, int r, const db_val *v, const db_cell *c), void *ctx,
                         int64_t *ids, bool *null_ids)
{
    const db_query *q = s->q;
    for (int f = 0; f < DB_MAX_FROM; f++) ids[f] = -1, null_ids[f] = false;
    if (q->narms) {
        ids[0] = db_rt_union_by_values(s, same, ctx);
        return;
    }
    unsigned n = combos(q);
    uint8_t buf[256];
    for (int pass = 0; pass < 2; pass++)
        for (unsigned c = 0; c < n && c < DB_MAX_COMBOS; c++) {
            if (pass == 0 && !s->expected[c]) continue;
            const db_val *rows[DB_MAX_FROM];
            int slot[DB_MAX_FROM];
            bool all = !combo_rows(q, c, rows);
            for (int f = 0; all && f < q->nfrom; f++) { /* each slot present (or an outer join's NULL row) */
                int ti = q->from_table[f];
                unsigned k = combo_slot(q, c, f);
                slot[f] = k < db_rt.lim.rows ? (int)k : -1;
                all = k >= db_rt.lim.rows || (k < (unsigned)db_rt.counts[ti]->value && (db_rt.alive[ti][k]->value & 1));
            }
            for (int r = 0; all && r < q->nresult; r++) {
                const db_val *v = q->result_expr[r] ? db_rt_computed_cell(s, r, slot, NULL) /* upper(name) */
                                                    : &rows[q->result_from[r]][q->result_col[r]];
                db_cell cell;
                if (v) db_rt_concrete_cell(v, buf, &cell);
                all = v && same(ctx, r, v, &cell);
            }
            if (!all) continue;
            for (int f = 0; f < q->nfrom; f++) {
                null_ids[f] = slot[f] < 0;
                ids[f] = slot[f] < 0 ? 0 : db_rt.rowids[q->from_table[f]][slot[f]];
            }
            return;
        }
}
