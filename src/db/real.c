/* real.c: REAL values (IEEE doubles) of the SQL layer: SQLite's conversions, comparisons and fixture text. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "db.h"

#define BITS_M2_63 0xc3e0000000000000ull /* -2^63 */
#define BITS_2_63 0x43e0000000000000ull  /* 2^63 */
#define BITS_MZERO 0x8000000000000000ull /* -0.0 */

expr *db_real_const(expr_ctx *cx, double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return expr_const(cx, b, 64);
}

expr *db_int_to_real(expr_ctx *cx, expr *i) { return expr_fp(cx, EXPR_SITOF, 64, 0, i, NULL, NULL); }

expr *db_real_to_int(expr_ctx *cx, expr *r)
{
    /* SQLite's doubleToInt64: <= -2^63 gives INT64_MIN, >= 2^63 INT64_MAX, else truncation
     * (cvttsd2si, which is exact inside the range) */
    expr *lo = expr_fcmp(cx, FPRED_OLE, r, expr_const(cx, BITS_M2_63, 64));
    expr *hi = expr_fcmp(cx, FPRED_OGE, r, expr_const(cx, BITS_2_63, 64));
    expr *t = expr_fp(cx, EXPR_FTOSI, 64, 0, r, NULL, NULL);
    return expr_ite(cx, lo, expr_const(cx, (uint64_t)1 << 63, 64),
                    expr_ite(cx, hi, expr_const(cx, ~((uint64_t)1 << 63), 64), t));
}

/* Integer i against double r by exact value: (double)i rounds monotonically, so a strict
 * order of (double)i and r is the order of i and r; when they are equal r is integral and
 * i compares with r's integer (2^63 itself lies above every integer). */
static void int_vs_real(expr_ctx *cx, expr *i, expr *r, expr **lt, expr **eq)
{
    expr *d = db_int_to_real(cx, i);
    if (i->op == EXPR_CONST && (int64_t)i->value >= -(1ll << 53) && (int64_t)i->value <= (1ll << 53)) {
        *lt = expr_fcmp(cx, FPRED_OLT, d, r); /* exactly representable: compare as doubles */
        *eq = expr_fcmp(cx, FPRED_OEQ, d, r);
        return;
    }
    expr *deq = expr_fcmp(cx, FPRED_OEQ, d, r);
    expr *top = expr_fcmp(cx, FPRED_OEQ, r, expr_const(cx, BITS_2_63, 64));
    expr *ri = expr_fp(cx, EXPR_FTOSI, 64, 0, r, NULL, NULL);
    *lt = expr_binary(cx, EXPR_OR, expr_fcmp(cx, FPRED_OLT, d, r),
                      expr_and1(cx, deq, expr_binary(cx, EXPR_OR, top, expr_cmp(cx, PRED_SLT, i, ri))));
    *eq = expr_and1(cx, expr_and1(cx, deq, expr_not(cx, top)), expr_cmp(cx, PRED_EQ, i, ri));
}

/* Whether a and b are scaled values of one scale: v = FDIV(SITOF(k), u) with the same constant u. */
static bool same_scale(const db_val *a, const db_val *b)
{
    return a->is_real && b->is_real && a->scaled && b->scaled && a->v->op == EXPR_FDIV && b->v->op == EXPR_FDIV &&
           a->v->kid[1]->op == EXPR_CONST && a->v->kid[1] == b->v->kid[1];
}

void db_num_cmp(expr_ctx *cx, const db_val *a, const db_val *b, expr **lt, expr **eq)
{
    if (same_scale(a, b)) {
        /* k / u against k' / u: the order of k and k'. Exact for PostgreSQL's numeric, which
         * compares decimals exactly; for SQLite's doubles while |k| < 10^15 (every cell: its
         * domain constraint), where k -> k / 10^s is strictly increasing (consecutive quotients
         * are 10^-s apart, more than two units in the last place) — no FP query for
         * ORDER BY price or a.price < b.price */
        *lt = expr_cmp(cx, PRED_SLT, a->scaled, b->scaled);
        *eq = expr_cmp(cx, PRED_EQ, a->scaled, b->scaled);
    } else if (a->is_real && b->is_real) {
        *lt = expr_fcmp(cx, FPRED_OLT, a->v, b->v);
        *eq = expr_fcmp(cx, FPRED_OEQ, a->v, b->v);
    } else if (!a->is_real && !b->is_real) {
        *lt = expr_cmp(cx, PRED_SLT, a->v, b->v);
        *eq = expr_cmp(cx, PRED_EQ, a->v, b->v);
    } else if (!a->is_real) {
        int_vs_real(cx, a->v, b->v, lt, eq);
    } else { /* a real, b integer: a < b iff not (b < a or b = a); no NaN */
        expr *blt;
        int_vs_real(cx, b->v, a->v, &blt, eq);
        *lt = expr_not(cx, expr_binary(cx, EXPR_OR, blt, *eq));
    }
}

/* A NULL whose flag is the constant 1. */
static int const_null(const db_val *v) { return v->null && v->null->op == EXPR_CONST && (v->null->value & 1); }

int db_val_store(expr_ctx *cx, const db_column *c, const db_val *v, db_val *out)
{
    bool text = db_column_is_text(c), real = db_column_is_real(c);
    if (v->is_text != text) return -1;
    if (c->date && v->is_text && !const_null(v) && db_val_is_number_text(v)) return -1;
    if (const_null(v) && v->is_real != real) { /* a NULL of the column's kind */
        expr *null = v->null;
        memset(out, 0, sizeof *out);
        out->null = null;
        out->is_text = text;
        out->is_real = real;
        out->v = expr_const(cx, 0, 64);
        out->len = expr_const(cx, 0, 8);
        return 0;
    }
    if (text) {
        *out = *v;
        return 0;
    }
    if (!real) {
        if (v->is_real) return -1;
        *out = *v;
        return 0;
    }
    db_val r = *v;
    r.is_real = true;
    if (!v->is_real) r.v = db_int_to_real(cx, v->v);
    /* SQLite stores -0.0 as 0.0 (an integral REAL is kept as an integer on disk) */
    r.v = expr_ite(cx, expr_cmp(cx, PRED_EQ, r.v, expr_const(cx, BITS_MZERO, 64)), expr_const(cx, 0, 64), r.v);
    *out = r;
    return 0;
}

void db_real_text(uint64_t bits, char *buf, size_t n)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    if (isinf(d)) {
        snprintf(buf, n, "%s", d < 0 ? "-9e999" : "9e999"); /* SQLite reads an overflowing literal as Inf */
        return;
    }
    if (isnan(d)) { /* never a fixture value; SQLite would store NULL */
        snprintf(buf, n, "NULL");
        return;
    }
    snprintf(buf, n, "%.17g", d);
    if (!strpbrk(buf, ".en")) strncat(buf, ".0", n - strlen(buf) - 1);
}

/* 10^s as a double (exact for s <= 22); 2^-s for s < 0 (the FLOAT4 cells' k / 4: s = -2) */
static double pow10d(int s)
{
    double p = 1.0;
    if (s < 0) return (double)(1u << -s);
    while (s-- > 0) p *= 10.0;
    return p;
}

expr *db_scaled_value(expr_ctx *cx, expr *k, int scale)
{
    return expr_fp(cx, EXPR_FDIV, 64, 0, db_int_to_real(cx, k), db_real_const(cx, pow10d(scale)), NULL);
}

uint64_t db_scaled_bits(int64_t k, int scale)
{
    volatile double d = (double)k; /* volatile: one rounding per step, as the expression */
    d = d / pow10d(scale);
    uint64_t b;
    double dd = d;
    memcpy(&b, &dd, sizeof b);
    return b;
}

void db_scaled_text(uint64_t bits, int scale, char *buf, size_t n)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    if (!isfinite(d)) {
        db_real_text(bits, buf, n);
        return;
    }
    snprintf(buf, n, "%.*f", scale, d);
}
