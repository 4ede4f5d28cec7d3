/* db_pq_params.c: PostgreSQL fixture mode: the parameters of PQexecParams / PQexecPrepared as symbolic values (text bytes or decimal digits). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "db_pq_int.h"

#define MAX_PARAMS 64

/* ---------------------------------------------------------------- parameters */

/* Is parameter k (1-based) compared with a text column (1), an integer column (0), or neither (-1)? */
static int param_kind(const db_query *q, const db_sexpr *e, int k)
{
    if (!e) return -1;
    bool has = false;
    int col = -1;
    for (int i = 0; i < e->nkids; i++) {
        const db_sexpr *x = e->kids[i];
        has |= x->kind == DBX_PARAM && x->param == k;
        int ti = x->kind != DBX_COLUMN || x->from < 0                        ? -1
                 : x->from < q->nfrom                                        ? q->from_table[x->from]
                 : x->from >= DB_MAX_FROM && x->from < DB_MAX_FROM + q->nsub ? q->sub_table[x->from - DB_MAX_FROM]
                                                                             : -1;
        if (ti >= 0) col = db_column_is_text(&db_rt.schema->tables[ti].cols[x->column]) ? 1 : 0;
    }
    if (has && col >= 0 &&
        (e->kind == DBX_CMP || e->kind == DBX_IN || e->kind == DBX_BETWEEN || e->kind == DBX_LIKE ||
         (e->kind == DBX_ARITH && col == 0))) /* balance - $1: a number beside a number column */
        return col;
    for (int i = 0; i < e->nkids; i++) {
        int r = param_kind(q, e->kids[i], k);
        if (r >= 0) return r;
    }
    return -1;
}

/* Whether v is a decimal written with 1 to 15 digits after its point and at most 18 in all ("250.00",
 * "-0.5"), and then *k the integer of its digits: the parameter is then the scaled value k / 10^s, so
 * balance - $1 of a numeric(12,2) column is exact, as the server computes it (in doubles 250.01 - 250.00
 * is 0.0099999999999909: a model mismatch on the balance read back). */
static bool decimal_text(const char *v, int64_t *k)
{
    bool neg = *v == '-';
    const char *p = v + neg, *dot = strchr(p, '.');
    if (!dot || dot == p || !dot[1] || strlen(dot + 1) > 15 || strlen(p) - 1 > 18) return false;
    int64_t acc = 0;
    for (; *p; p++) {
        if (p == dot) continue;
        if (*p < '0' || *p > '9') return false;
        acc = acc * 10 + (*p - '0');
    }
    *k = neg ? -acc : acc;
    return true;
}

/* Parameters of an execution as db_vals (db_pq_int.h; text bytes: db_rt_text_param). */
void db_pq_make_params(qstate *s, int nparams, const char *const *values, const int *formats)
{
    expr_ctx *cx = rt_cx();
    s->nparams = nparams < MAX_PARAMS ? nparams : MAX_PARAMS;
    if (s->nparams <= 0) return;
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
        /* UPDATE ... SET balance = balance - $1 or SET qty = $1: the assigned column's kind */
        for (int k = 0; kind < 0 && s->q && s->q->table >= 0 && k < s->q->nset; k++) {
            const db_column *c = &db_rt.schema->tables[s->q->table].cols[s->q->set_col[k]];
            const db_sexpr *sv = s->q->set_val[k];
            if (sv->kind == DBX_PARAM && sv->param == i + 1)
                kind = db_column_is_text(c) ? 1 : 0;
            else
                kind = param_kind(s->q, sv, i + 1);
        }
        int nv = s->q && s->q->table >= 0 ? s->q->ninsert * s->q->ninsert_rows : 0;
        for (int k = 0; k < nv; k++) /* INSERT VALUES ($n), row by row */
            if (s->q->insert_val[k]->kind == DBX_PARAM && s->q->insert_val[k]->param == i + 1)
                kind = db_column_is_text(&db_rt.schema->tables[s->q->table].cols[s->q->insert_col[k % s->q->ninsert]])
                           ? 1
                           : 0;
        bool digits = len > 0 && len <= 18;
        for (size_t k = v[0] == '-' ? 1 : 0; k < len; k++) digits &= v[k] >= '0' && v[k] <= '9';
        digits &= len > (size_t)(v[0] == '-');
        p->null = expr_const(cx, 0, 1);
        if (kind == 0 || (kind < 0 && digits)) {
            if (!digits) { /* a decimal the program wrote ("120.50"): its double; else the server refuses it: 0 */
                char *end = NULL;
                double d = kind == 0 ? strtod(v, &end) : 0;
                bool concrete = kind == 0 && end && end != v && !*end && isfinite(d);
                for (size_t k = 0; concrete && k < len; k++) concrete = !db_rt_byte_at_mem(v + k);
                uint64_t bits = 0;
                if (concrete) memcpy(&bits, &d, sizeof bits);
                p->is_real = concrete;
                p->v = expr_const(cx, bits, 64);
                int64_t k;
                if (concrete && decimal_text(v, &k)) p->scaled = expr_const(cx, (uint64_t)k, 64);
                continue;
            }
            /* the text of a cell the program read (PQgetvalue): that cell's integer */
            int is_int = 0;
            expr *cell = rt_text_value_get(v, len, &is_int);
            if (cell && is_int && cell->value == (uint64_t)strtoll(v, NULL, 10)) {
                p->v = cell;
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
