/* db_pq_values.c: PostgreSQL fixture mode: values of modelled results (PQgetvalue, PQgetisnull, PQgetlength, a write's PQcmdTuples) as expressions of the fixture's cells (digits, or a double's text registered for strtod), and their release. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include "../../db/db.h"
#include "db_pq_int.h"

/* ---------------------------------------------------------------- values */

/* The fixture cell behind (row, col) of a modelled result, or NULL (concrete). */
static const db_val *cell_of(const PGresult *res, int row, int col, pq_fix **out)
{
    pq_fix *fx = db_pq_find_fix(res);
    *out = fx;
    if (fx && fx->qs.cur_ret && !rt.trace_full && row == 0 && col >= 0 && col < fx->qs.q->nreturn &&
        PQfformat(res, col) == 0) /* INSERT ... RETURNING: the row written */
        return fx->qs.ret_vals[col].v ? &fx->qs.ret_vals[col] : NULL;
    if (!fx || fx->qs.cur_ret || rt.trace_full || row < 0 || row >= fx->nrows || col < 0 || !fx->qs.q ||
        col >= fx->qs.q->nresult || PQfformat(res, col) != 0 || fx->qs.q->result_col[col] == DB_RESULT_CONCRETE)
        return NULL;
    const qstate *s = &fx->qs;
    if (s->cur_agg) return row == 0 && s->agg_vals[col].v ? &s->agg_vals[col] : NULL;
    if ((!s->rowid_col && !s->by_value) || !fx->slots) return NULL;
    if (s->q->narms) return db_rt_union_cell(s, col, &fx->slots[(size_t)row * DB_MAX_FROM]); /* UNION: (slot, arm) */
    if (s->q->result_expr[col] && s->q->result_agg[col] == DB_AGG_NONE) { /* price * qty: over the row's slots */
        int slots[DB_MAX_FROM];
        for (int f = 0; f < s->q->nfrom; f++) slots[f] = fx->slots[(size_t)row * DB_MAX_FROM + f];
        if (slots[0] < 0 && s->q->nfrom == 1 && fx->ins && fx->ins[row])
            return db_rt_computed_cell(s, col, NULL, fx->ins[row]->cells);
        return db_rt_computed_cell(s, col, slots, NULL);
    }
    int f = s->q->result_from[col];
    int slot = fx->slots[(size_t)row * DB_MAX_FROM + f];
    if (s->q->ngroup && s->q->result_agg[col] != DB_AGG_NONE) { /* GROUP BY: the row's group */
        int grp = fx->groups ? fx->groups[row] : -1;
        const db_val *g = grp >= 0 && s->group_vals ? &s->group_vals[(size_t)grp * s->q->nresult + col] : NULL;
        return g && g->v ? g : NULL;
    }
    if (s->q->result_col[col] < 0) return NULL; /* an aggregate or computed column of no row the model knows */
    if (slot < 0 && fx->ins && fx->ins[row]) return &fx->ins[row]->cells[s->q->result_col[col]];
    if (slot < 0) return NULL;
    int ti = s->q->from_table[f];
    return &db_rt.cells[ti][(size_t)slot * db_rt.schema->tables[ti].ncols + s->q->result_col[col]];
}

/* The PostgreSQL kind of result column col (integer columns of aggregates: int8). */
static db_pg_kind col_kind(const pq_fix *fx, int col)
{
    const db_query *q = fx->qs.q;
    unsigned n;
    if (fx->qs.cur_ret)
        return q->return_col[col] < 0 ? DB_PG_INT8
                                      : db_pg_column_kind(&db_rt.schema->tables[q->table].cols[q->return_col[col]], &n);
    if (fx->qs.cur_agg || q->result_col[col] < 0 || (q->ngroup && q->result_agg[col] != DB_AGG_NONE)) return DB_PG_INT8;
    int ti = q->from_table[q->result_from[col]];
    return db_pg_column_kind(&db_rt.schema->tables[ti].cols[q->result_col[col]], &n);
}

/* 10^k for k <= 18 */
static uint64_t pow10u(unsigned k)
{
    uint64_t p = 1;
    while (k--) p *= 10;
    return p;
}

/* The digits of an integer cell (db_pq.c, "PQgetvalue") or of a write's row count (PQcmdTuples). */
bool db_pq_shadow_digits(expr *v, expr *null, char *p, int len)
{
    expr_ctx *cx = rt_cx();
    int64_t cv = (int64_t)v->value;
    char want[32];
    int n = snprintf(want, sizeof want, "%lld", (long long)cv);
    if ((null && (null->value & 1)) || len < 1 || n != len || memcmp(want, p, (size_t)len))
        return false; /* the server wrote another text: concrete */
    bool neg = cv < 0;
    bool shadowed = false;
    unsigned digits = (unsigned)(len - neg);
    /* the magnitude: |v| has `digits` digits (and the cell is not NULL) */
    expr *lo, *hi;
    expr *cond;
    if (!neg) {
        lo = expr_cmp(cx, PRED_SLE, expr_const(cx, digits == 1 ? 0 : pow10u(digits - 1), 64), v);
        hi = digits >= 19 ? expr_const(cx, 1, 1) : expr_cmp(cx, PRED_SLE, v, expr_const(cx, pow10u(digits) - 1, 64));
    } else {
        lo = digits >= 19 ? expr_const(cx, 1, 1)
                          : expr_cmp(cx, PRED_SLE, expr_const(cx, (uint64_t) - (int64_t)(pow10u(digits) - 1), 64), v);
        hi = expr_cmp(cx, PRED_SLE, v, expr_const(cx, (uint64_t) - (int64_t)pow10u(digits - 1), 64));
    }
    cond = expr_and1(cx, lo, hi);
    if (null) cond = expr_and1(cx, expr_not(cx, null), cond);
    if (!(cond->value & 1)) return false;
    if (rt_norm(cond)) rt_trace_event(BK_CONCRETIZE, 0, 1, cond, CONC_EXTERNAL_CALL);
    expr *a = neg ? expr_binary(cx, EXPR_SUB, expr_const(cx, 0, 64), v) : v;
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
            shadowed = true;
        }
    }
    return shadowed;
}

char *db_pq_getvalue(const PGresult *res, int row, int col)
{
    char *p = PQgetvalue(res, row, col);
    __sym_ret = NULL;
    pq_fix *fx;
    const db_val *c = p ? cell_of(res, row, col, &fx) : NULL;
    if (!c) return p;
    int len = PQgetlength(res, row, col);
    if (c->is_text) {
        /* a timestamptz cell prints its zone after the modelled text ('+00' in the runs' UTC sessions):
         * the zone stays concrete */
        int n = (int)c->len->value;
        bool zoned = n == 19 && len == n + 3 && !strcmp(p + n, "+00");
        if ((c->null->value & 1) || (n != len && !zoned)) return p;
        for (int i = 0; i <= n && i < (int)c->nbytes; i++) {
            expr *b = rt_norm(c->bytes[i]);
            if (b && b->value == (uint8_t)p[i]) {
                rt_shadow_put((uintptr_t)(p + i), &b, 1);
                fx->shadowed = true;
            }
        }
        return p;
    }
    if (c->is_real) { /* the server's shortest round-trip digits: the strtod model gives the cell's double */
        if (!(c->null->value & 1)) {
            rt_text_value_put(p, (size_t)len, c->v, 0);
            fx->shadowed = true;
        }
        return p;
    }
    db_pg_kind k = col_kind(fx, col);
    if (k == DB_PG_INT8 || k == DB_PG_INT4 || k == DB_PG_INT2) {
        if (db_pq_shadow_digits(c->v, c->null, p, len)) fx->shadowed = true;
        /* and the whole text, for atoi/strtol (rt_textval.c) */
        if (!(c->null->value & 1)) rt_text_value_put(p, (size_t)len, c->v, 1);
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

char *db_pq_cmd_tuples(PGresult *res)
{
    char *p = PQcmdTuples(res);
    __sym_ret = NULL;
    pq_fix *fx = db_pq_find_fix(res);
    if (!p || !fx || !fx->tuples || rt.trace_full) return p;
    int len = (int)strlen(p);
    /* the digits for strcmp and friends, the whole text for atoi/strtol (rt_textval.c) */
    if (db_pq_shadow_digits(fx->tuples, NULL, p, len)) {
        rt_text_value_put(p, (size_t)len, fx->tuples, 1);
        fx->tuples_text = p;
    }
    return p;
}

int db_pq_nfields(const PGresult *res)
{
    __sym_ret = NULL;
    pq_fix *fx = db_pq_find_fix(res);
    return PQnfields(res) - (fx ? fx->hidden : 0);
}

void db_pq_clear(PGresult *res)
{
    __sym_ret = NULL;
    db_pq_fault_forget(res);
    for (pq_fix **pp = &db_pq_fixes; *pp; pp = &(*pp)->next)
        if ((*pp)->res == res) {
            pq_fix *fx = *pp;
            *pp = fx->next;
            if (fx->shadowed) /* the values' memory goes back to malloc: no stale shadows on it */
                for (int row = 0; row < fx->nrows; row++)
                    for (int col = 0; col < PQnfields(res); col++) {
                        rt_shadow_clear((uintptr_t)PQgetvalue(res, row, col), (size_t)PQgetlength(res, row, col) + 1);
                        rt_text_value_clear(PQgetvalue(res, row, col), (size_t)PQgetlength(res, row, col) + 1);
                    }
            if (fx->tuples_text) { /* the PQcmdTuples text lives in the PGresult */
                rt_shadow_clear((uintptr_t)fx->tuples_text, strlen(fx->tuples_text) + 1);
                rt_text_value_clear(fx->tuples_text, strlen(fx->tuples_text) + 1);
            }
            qstate *s = &fx->qs;
            db_query_free(s->q);
            free(s->sql), free(s->params), free(s->param_bytes), free(s->agg_vals), free(s->group_vals),
                free(s->ret_vals), free(fx->slots), free(fx->ins), free(fx->groups), free(fx);
            break;
        }
    PQclear(res);
}
