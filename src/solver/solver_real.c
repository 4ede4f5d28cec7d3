/* solver_real.c: floating-point queries through their real-arithmetic approximation: Z3 over reals and integers, the model rounded and checked by evaluation. */
#include "solver/solver_real.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

/*
 * Why. Z3 bit-blasts IEEE operations: a query with a few double products and
 * comparisons (a price times a quantity above a bound, for each of two database rows)
 * takes it about a second, and a database program asks hundreds. Read as arithmetic
 * over the reals the same query is linear or mildly nonlinear, and Z3's arithmetic
 * solvers answer it in milliseconds. Rounding the real model to the nearest doubles
 * usually keeps every comparison (the model is rarely on a boundary), and expr_eval
 * checks that exactly; when it does not, the caller goes on to the bit-precise query.
 *
 * Interpretations. Each node is read in one of four modes: as a truth value (width-1
 * nodes), as a signed or an unsigned integer (bit-vectors), or as a real (a float-valued
 * node of width 32/64). A symbol read as a float becomes a Z3 real, one read as an
 * integer a Z3 integer in its signed range (width 1: 0..1); a symbol read both ways
 * makes the query inexpressible. Wrap-around, NaN, infinities and rounding are
 * forgotten: that is the approximation.
 */

#define MAX_DEPTH 400      /* deeper constraints are left to the bit-precise query */
#define MAX_NODES 20000    /* translated (node, mode) pairs per query */
#define MAX_VARS 1024      /* symbols per query */
#define MAX_TIMEOUT_MS 400 /* the approximation is a shortcut: never long */

enum mode { M_BOOL = 1, M_SIGNED, M_UNSIGNED, M_REAL };

typedef struct rvar {
    uint32_t idx;
    unsigned width;
    bool is_real;
    Z3_ast ast;
} rvar;

typedef struct rctx {
    Z3_context z;
    Z3_sort int_sort, real_sort;
    ptrmap memo; /* (node | mode) -> Z3 term */
    size_t nmemo;
    Z3_ast *held;
    size_t nheld, held_cap;
    rvar vars[MAX_VARS];
    size_t nvars;
    Z3_ast *bounds; /* range constraints of the variables */
    size_t nbounds;
    ptrmap floats;          /* symbol nodes a floating-point operator reads (directly or through an ite) */
    bool failed;            /* out of memory, Z3 failure, or a symbol read both ways */
    bool unsupported;       /* the failure is an operator the approximation has no reading of */
    const uint64_t *assign; /* the parent's values, by symbol index, [0..na) */
    size_t na;
    bool *pin;      /* symbols that keep the parent's values */
    ptrmap pinned;  /* nodes whose symbols are pinned */
    size_t nopaque; /* opaque nodes made or reused so far (grows whenever a translation involves one) */
} rctx;

static Z3_ast keep(rctx *c, Z3_ast a)
{
    if (!a) {
        c->failed = true;
        return NULL;
    }
    if (c->nheld == c->held_cap) {
        size_t cap = c->held_cap ? 2 * c->held_cap : 256;
        Z3_ast *p = realloc(c->held, cap * sizeof *p);
        if (!p) {
            c->failed = true;
            return NULL;
        }
        c->held = p;
        c->held_cap = cap;
    }
    Z3_inc_ref(c->z, a);
    c->held[c->nheld++] = a;
    return a;
}

/* 2^n as a decimal string (n <= 1100) into buf (at least 340 bytes). */
static void pow2_decimal(unsigned n, char *buf)
{
    unsigned char d[340]; /* little-endian decimal digits */
    size_t len = 1;
    d[0] = 1;
    for (unsigned i = 0; i < n; i++) {
        unsigned carry = 0;
        for (size_t k = 0; k < len; k++) {
            unsigned v = d[k] * 2u + carry;
            d[k] = (unsigned char)(v % 10);
            carry = v / 10;
        }
        if (carry && len < sizeof d) d[len++] = (unsigned char)carry;
    }
    for (size_t k = 0; k < len; k++) buf[k] = (char)('0' + d[len - 1 - k]);
    buf[len] = 0;
}

/* The exact rational value of a finite double as a Z3 real numeral ("m/2^k" or "m*2^k"). */
static Z3_ast real_numeral(rctx *c, double v)
{
    if (!isfinite(v)) {
        c->failed = true;
        return NULL;
    }
    int e;
    double m = frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1 */
    long long mi = (long long)ldexp(m, 53);
    e -= 53;
    while (mi && !(mi & 1) && e < 0) {
        mi /= 2;
        e++;
    }
    char p2[400], txt[800];
    if (e >= 0) {
        pow2_decimal((unsigned)e, p2);
        Z3_ast a = keep(c, Z3_mk_numeral(c->z, p2, c->real_sort));
        snprintf(txt, sizeof txt, "%lld", mi);
        Z3_ast b = keep(c, Z3_mk_numeral(c->z, txt, c->real_sort));
        if (!a || !b) return NULL;
        Z3_ast args[2] = {a, b};
        return keep(c, Z3_mk_mul(c->z, 2, args));
    }
    pow2_decimal((unsigned)-e, p2);
    snprintf(txt, sizeof txt, "%lld/%s", mi, p2);
    return keep(c, Z3_mk_numeral(c->z, txt, c->real_sort));
}

static Z3_ast int_numeral(rctx *c, uint64_t v, unsigned w, bool is_signed)
{
    char txt[32];
    if (is_signed)
        snprintf(txt, sizeof txt, "%lld", (long long)expr_sext64(v, w));
    else
        snprintf(txt, sizeof txt, "%llu", (unsigned long long)(v & expr_mask(w)));
    return keep(c, Z3_mk_numeral(c->z, txt, c->int_sort));
}

/* 2^w as a Z3 integer (w <= 64). */
static Z3_ast int_pow2(rctx *c, unsigned w)
{
    char txt[32];
    if (w >= 64)
        snprintf(txt, sizeof txt, "18446744073709551616");
    else
        snprintf(txt, sizeof txt, "%llu", 1ull << w);
    return keep(c, Z3_mk_numeral(c->z, txt, c->int_sort));
}

/* The Z3 variable of symbol e (is_real: read as a float), with its range constraint. */
static Z3_ast var_of(rctx *c, const expr *e, bool is_real)
{
    for (size_t i = 0; i < c->nvars; i++)
        if (c->vars[i].idx == e->aux) {
            if (c->vars[i].is_real == is_real && c->vars[i].width == e->width) return c->vars[i].ast;
            c->failed = true; /* read two ways: not expressible */
            return NULL;
        }
    if (c->nvars == MAX_VARS) {
        c->failed = true;
        return NULL;
    }
    char name[40];
    snprintf(name, sizeof name, "%c%u", is_real ? 'r' : 'i', e->aux);
    Z3_ast v = keep(c, Z3_mk_const(c->z, Z3_mk_string_symbol(c->z, name), is_real ? c->real_sort : c->int_sort));
    if (!v) return NULL;
    c->vars[c->nvars++] = (rvar){e->aux, e->width, is_real, v};
    /* range: finite floats; integers in their signed range (width 1: 0..1) */
    Z3_ast lo, hi;
    if (is_real) {
        double max = e->width == 32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
        lo = real_numeral(c, -max);
        hi = real_numeral(c, max);
    } else if (e->width == 1) {
        lo = int_numeral(c, 0, 1, false);
        hi = int_numeral(c, 1, 1, false);
    } else {
        lo = int_numeral(c, 1ull << (e->width - 1), e->width, true);
        hi = int_numeral(c, expr_mask(e->width - 1), e->width, true);
    }
    if (!lo || !hi) return NULL;
    Z3_ast a = keep(c, Z3_mk_le(c->z, lo, v)), b = keep(c, Z3_mk_le(c->z, v, hi));
    if (!a || !b) return NULL;
    c->bounds[c->nbounds++] = a;
    c->bounds[c->nbounds++] = b;
    return v;
}

static Z3_ast tr(rctx *c, const expr *e, enum mode m);

/* ite(x < 0, x + 2^w, x): the unsigned reading of a signed value x of width w. */
static Z3_ast as_unsigned(rctx *c, Z3_ast x, unsigned w)
{
    Z3_ast zero = int_numeral(c, 0, 64, false), p = int_pow2(c, w);
    if (!x || !zero || !p) return NULL;
    Z3_ast args[2] = {x, p};
    Z3_ast sum = keep(c, Z3_mk_add(c->z, 2, args)), neg = keep(c, Z3_mk_lt(c->z, x, zero));
    if (!sum || !neg) return NULL;
    return keep(c, Z3_mk_ite(c->z, neg, sum, x));
}

/* ite(x >= 2^(w-1), x - 2^w, x): the signed reading of an unsigned value x of width w. */
static Z3_ast as_signed(rctx *c, Z3_ast x, unsigned w)
{
    Z3_ast half = int_pow2(c, w - 1), p = int_pow2(c, w);
    if (!x || !half || !p) return NULL;
    Z3_ast args[2] = {x, p};
    Z3_ast diff = keep(c, Z3_mk_sub(c->z, 2, args)), big = keep(c, Z3_mk_ge(c->z, x, half));
    if (!diff || !big) return NULL;
    return keep(c, Z3_mk_ite(c->z, big, diff, x));
}

/* C's truncation toward zero of a real: ite(x >= 0, to_int(x), -to_int(-x)). */
static Z3_ast trunc_real(rctx *c, Z3_ast x)
{
    Z3_ast zero = real_numeral(c, 0.0);
    if (!x || !zero) return NULL;
    Z3_ast nx = keep(c, Z3_mk_unary_minus(c->z, x));
    Z3_ast ge = keep(c, Z3_mk_ge(c->z, x, zero));
    Z3_ast up = keep(c, Z3_mk_real2int(c->z, x));
    Z3_ast dn = nx ? keep(c, Z3_mk_real2int(c->z, nx)) : NULL;
    Z3_ast ndn = dn ? keep(c, Z3_mk_unary_minus(c->z, dn)) : NULL;
    if (!ge || !up || !ndn) return NULL;
    return keep(c, Z3_mk_ite(c->z, ge, up, ndn));
}

static bool is_const(const expr *e, uint64_t v) { return e->op == EXPR_CONST && e->value == v; }

/* Is e (a bit-vector of width 32/64) a float: a symbol some floating-point operator reads,
 * a float-valued operator, or an ite of such? */
static bool reads_float(rctx *c, const expr *e)
{
    if (e->width != 32 && e->width != 64) return false;
    if (e->op == EXPR_SYMBOL) return ptrmap_get(&c->floats, e) != NULL;
    if (e->op >= EXPR_FADD && e->op <= EXPR_FRINT) return true;
    if (e->op == EXPR_SITOF || e->op == EXPR_UITOF || e->op == EXPR_FCVT) return true;
    if (e->op == EXPR_ITE) return reads_float(c, e->kid[1]) || reads_float(c, e->kid[2]);
    return false;
}

/* Mark in c->floats the symbols that floating-point operators read in the DAGs of
 * cs[0..n) (at most MAX_NODES nodes are visited). False when out of memory. */
static bool find_floats(rctx *c, const expr *const *cs, size_t n)
{
    ptrmap seen = PTRMAP_INIT;
    size_t cap = 256, sp = 0;
    const expr **st = malloc(cap * sizeof *st);
    bool ok = st != NULL;
    for (size_t i = 0; i < n && ok; i++) {
        st[sp++] = cs[i];
        while (sp && ok) {
            const expr *e = st[--sp];
            if (ptrmap_get(&seen, e)) continue;
            if (seen.n >= MAX_NODES || ptrmap_put(&seen, e, NULL, NULL)) break;
            bool fp_reader = (e->op >= EXPR_FADD && e->op <= EXPR_FUNO) || e->op == EXPR_FTOSI || e->op == EXPR_FTOUI ||
                             e->op == EXPR_FCVT;
            for (unsigned k = 0; k < e->nkids; k++) {
                const expr *kid = e->kid[k];
                /* through ites: (ite c x y) read as a float reads x and y as floats */
                while (fp_reader && kid->op == EXPR_ITE && kid->kid[1]->op == EXPR_SYMBOL) {
                    if (ptrmap_put(&c->floats, kid->kid[1], NULL, NULL)) ok = false;
                    kid = kid->kid[2];
                }
                if (fp_reader && kid->op == EXPR_SYMBOL && ptrmap_put(&c->floats, kid, NULL, NULL)) ok = false;
                if (sp == cap) {
                    const expr **p = realloc(st, 2 * cap * sizeof *st);
                    if (!p) {
                        ok = false;
                        break;
                    }
                    st = p;
                    cap *= 2;
                }
                st[sp++] = e->kid[k];
            }
        }
    }
    free(st);
    ptrmap_clear(&seen);
    return ok;
}

/* kid0 op kid1 (op one of + - * /, / over the reals only), both read in mode m. */
static Z3_ast arith(rctx *c, char op, const expr *e, enum mode m)
{
    Z3_ast a = tr(c, e->kid[0], m), b = tr(c, e->kid[1], m);
    if (!a || !b) return NULL;
    /* x + c with c's top bit set, read unsigned, is almost always x - (2^w - c) wrapped: a digit's
     * value c - '0' is c + 208 in 8 bits. Read without the wrap it would be c + 208 and the query
     * UNSAT over the integers (the clinic app's dates) */
    if (m == M_UNSIGNED && op == '+' && e->width > 1) {
        uint64_t top = 1ull << (e->width - 1);
        if (e->kid[1]->op == EXPR_CONST && (e->kid[1]->value & top))
            b = int_numeral(c, e->kid[1]->value, e->width, true);
        if (e->kid[0]->op == EXPR_CONST && (e->kid[0]->value & top))
            a = int_numeral(c, e->kid[0]->value, e->width, true);
        if (!a || !b) return NULL;
    }
    Z3_ast args[2] = {a, b};
    switch (op) {
    case '+': return keep(c, Z3_mk_add(c->z, 2, args));
    case '-': return keep(c, Z3_mk_sub(c->z, 2, args));
    case '*': return keep(c, Z3_mk_mul(c->z, 2, args));
    default: return keep(c, Z3_mk_div(c->z, a, b));
    }
}

static Z3_ast tr_bool(rctx *c, const expr *e)
{
    Z3_context z = c->z;
    switch (e->op) {
    case EXPR_CONST: return keep(c, e->value & 1 ? Z3_mk_true(z) : Z3_mk_false(z));
    case EXPR_SYMBOL: {
        Z3_ast v = var_of(c, e, false), one = int_numeral(c, 1, 1, false);
        return v && one ? keep(c, Z3_mk_eq(z, v, one)) : NULL;
    }
    case EXPR_NOT: {
        Z3_ast a = tr(c, e->kid[0], M_BOOL);
        return a ? keep(c, Z3_mk_not(z, a)) : NULL;
    }
    case EXPR_AND:
    case EXPR_OR:
    case EXPR_XOR: {
        Z3_ast a = tr(c, e->kid[0], M_BOOL), b = tr(c, e->kid[1], M_BOOL);
        if (!a || !b) return NULL;
        Z3_ast args[2] = {a, b};
        if (e->op == EXPR_XOR) return keep(c, Z3_mk_xor(z, a, b));
        return keep(c, e->op == EXPR_AND ? Z3_mk_and(z, 2, args) : Z3_mk_or(z, 2, args));
    }
    case EXPR_EQ: {
        enum mode m = e->kid[0]->width == 1 ? M_BOOL : M_SIGNED;
        if (reads_float(c, e->kid[0]) || reads_float(c, e->kid[1])) { /* bits equal: values equal */
            m = M_REAL;
            /* but -0.0 has other bits than 0.0: a model's zero is +0.0, never -0.0 */
            uint64_t neg0 = 1ull << (e->kid[0]->width - 1);
            if (is_const(e->kid[0], neg0) || is_const(e->kid[1], neg0)) return keep(c, Z3_mk_false(z));
        }
        Z3_ast a = tr(c, e->kid[0], m), b = tr(c, e->kid[1], m);
        return a && b ? keep(c, Z3_mk_eq(z, a, b)) : NULL;
    }
    case EXPR_ULT:
    case EXPR_SLT: {
        enum mode m = e->op == EXPR_ULT ? M_UNSIGNED : M_SIGNED;
        Z3_ast a = tr(c, e->kid[0], m), b = tr(c, e->kid[1], m);
        return a && b ? keep(c, Z3_mk_lt(z, a, b)) : NULL;
    }
    case EXPR_FOEQ:
    case EXPR_FOLT:
    case EXPR_FOLE: {
        Z3_ast a = tr(c, e->kid[0], M_REAL), b = tr(c, e->kid[1], M_REAL);
        if (!a || !b) return NULL;
        if (e->op == EXPR_FOEQ) return keep(c, Z3_mk_eq(z, a, b));
        return keep(c, e->op == EXPR_FOLT ? Z3_mk_lt(z, a, b) : Z3_mk_le(z, a, b));
    }
    case EXPR_FUNO: return keep(c, Z3_mk_false(z)); /* no NaN over the reals */
    case EXPR_UADDO:
    case EXPR_SADDO:
    case EXPR_USUBO:
    case EXPR_SSUBO:
    case EXPR_UMULO:
    case EXPR_SMULO: { /* the exact result out of the kids' range (SQLite's `stock * 2` turning REAL on overflow) */
        bool sgn = e->op == EXPR_SADDO || e->op == EXPR_SSUBO || e->op == EXPR_SMULO;
        unsigned w = e->kid[0]->width;
        Z3_ast a = tr(c, e->kid[0], sgn ? M_SIGNED : M_UNSIGNED), b = tr(c, e->kid[1], sgn ? M_SIGNED : M_UNSIGNED);
        if (!a || !b || w < 2 || w > 64) return NULL;
        Z3_ast args[2] = {a, b};
        Z3_ast r = keep(c, e->op == EXPR_UADDO || e->op == EXPR_SADDO   ? Z3_mk_add(z, 2, args)
                           : e->op == EXPR_USUBO || e->op == EXPR_SSUBO ? Z3_mk_sub(z, 2, args)
                                                                        : Z3_mk_mul(z, 2, args));
        Z3_ast lo = sgn ? int_numeral(c, 1ull << (w - 1), w, true) : int_numeral(c, 0, w, false);
        Z3_ast hi = sgn ? int_numeral(c, expr_mask(w - 1), w, true) : int_numeral(c, expr_mask(w), w, false);
        if (!r || !lo || !hi) return NULL;
        Z3_ast out[2] = {keep(c, Z3_mk_lt(z, r, lo)), keep(c, Z3_mk_gt(z, r, hi))};
        return out[0] && out[1] ? keep(c, Z3_mk_or(z, 2, out)) : NULL;
    }
    case EXPR_ITE: {
        Z3_ast k = tr(c, e->kid[0], M_BOOL), a = tr(c, e->kid[1], M_BOOL), b = tr(c, e->kid[2], M_BOOL);
        return k && a && b ? keep(c, Z3_mk_ite(z, k, a, b)) : NULL;
    }
    default: c->failed = c->unsupported = true; return NULL;
    }
}

/* Is e a 0/1 value wider than 1 bit: a zero-extended truth value? */
static bool is_bit01(const expr *e) { return e->op == EXPR_ZEXT && e->kid[0]->width == 1; }

/* Is e the constant 2^k - 1 for some 1 <= k < width (a low-bits mask)? k in *k. */
static bool low_mask(const expr *e, unsigned *k)
{
    if (e->op != EXPR_CONST || e->value == 0) return false;
    uint64_t v = e->value;
    if ((v & (v + 1)) != 0) return false;
    unsigned n = 0;
    while (v) v >>= 1, n++;
    *k = n;
    return n < e->width;
}

static Z3_ast tr_int(rctx *c, const expr *e, bool sgn)
{
    Z3_context z = c->z;
    enum mode m = sgn ? M_SIGNED : M_UNSIGNED;
    if (e->width == 1 && e->op != EXPR_CONST && e->op != EXPR_SYMBOL) { /* a truth value as 0/1 (signed: 0/-1) */
        Z3_ast b = tr(c, e, M_BOOL), one = int_numeral(c, sgn ? ~0ull : 1, sgn ? 64 : 1, sgn),
               zero = int_numeral(c, 0, 1, false);
        return b && one && zero ? keep(c, Z3_mk_ite(z, b, one, zero)) : NULL;
    }
    switch (e->op) {
    case EXPR_CONST: return int_numeral(c, e->value, e->width, sgn && e->width > 1);
    case EXPR_SYMBOL: {
        Z3_ast v = var_of(c, e, false);
        return sgn || e->width == 1 ? v : as_unsigned(c, v, e->width);
    }
    case EXPR_ADD: return arith(c, '+', e, m);
    case EXPR_SUB: return arith(c, '-', e, m);
    case EXPR_MUL: return arith(c, '*', e, m);
    case EXPR_ZEXT: /* the widened value is non-negative and fits: the same reading both ways */
        return tr(c, e->kid[0], M_UNSIGNED);
    case EXPR_SEXT: {
        Z3_ast a = tr(c, e->kid[0], M_SIGNED);
        return sgn ? a : as_unsigned(c, a, e->width);
    }
    case EXPR_FTOSI:
    case EXPR_FTOUI: {
        Z3_ast t = trunc_real(c, tr(c, e->kid[0], M_REAL));
        if (!t) return NULL;
        bool from_signed = e->op == EXPR_FTOSI;
        if (from_signed == sgn) return t;
        return sgn ? as_signed(c, t, e->width) : as_unsigned(c, t, e->width);
    }
    case EXPR_EXTRACT: /* the low bits: the same value when it fits (a wider int truncated) */
        if (e->aux == 0) return tr(c, e->kid[0], m);
        break;
    case EXPR_ITE: {
        Z3_ast k = tr(c, e->kid[0], M_BOOL), a = tr(c, e->kid[1], m), b = tr(c, e->kid[2], m);
        return k && a && b ? keep(c, Z3_mk_ite(z, k, a, b)) : NULL;
    }
    case EXPR_AND:
    case EXPR_OR:
    case EXPR_XOR: {
        unsigned k;
        if (is_bit01(e->kid[0]) && is_bit01(e->kid[1])) { /* (a != 0) | (b == 0): a truth value as 0/1 */
            Z3_ast ab[2] = {tr(c, e->kid[0]->kid[0], M_BOOL), tr(c, e->kid[1]->kid[0], M_BOOL)};
            if (!ab[0] || !ab[1]) return NULL;
            Z3_ast b = keep(c, e->op == EXPR_AND  ? Z3_mk_and(z, 2, ab)
                               : e->op == EXPR_OR ? Z3_mk_or(z, 2, ab)
                                                  : Z3_mk_xor(z, ab[0], ab[1]));
            Z3_ast one = int_numeral(c, 1, 2, false), zero = int_numeral(c, 0, 1, false);
            return b && one && zero ? keep(c, Z3_mk_ite(z, b, one, zero)) : NULL;
        }
        int mk = e->op != EXPR_AND ? -1 : low_mask(e->kid[1], &k) ? 0 : low_mask(e->kid[0], &k) ? 1 : -1;
        if (mk >= 0) { /* x & (2^k - 1): x mod 2^k, whichever way x is read (a year's & 3) */
            Z3_ast x = tr(c, e->kid[1 - mk], m), p = int_pow2(c, k);
            return x && p ? keep(c, Z3_mk_mod(z, x, p)) : NULL;
        }
        break;
    }
    case EXPR_UDIV:
    case EXPR_UREM: /* by a constant: the unsigned reading's quotient / remainder */
        if (e->kid[1]->op == EXPR_CONST && e->kid[1]->value) {
            Z3_ast x = tr(c, e->kid[0], M_UNSIGNED), d = int_numeral(c, e->kid[1]->value, e->width, false);
            if (!x || !d) return NULL;
            Z3_ast r = keep(c, e->op == EXPR_UDIV ? Z3_mk_div(z, x, d) : Z3_mk_mod(z, x, d));
            return sgn && r ? as_signed(c, r, e->width) : r;
        }
        break;
    case EXPR_SHL:
    case EXPR_LSHR:
    case EXPR_ASHR: /* by a constant: a product or a floor quotient by 2^k (a date's leap days, yy >> 2) */
        if (e->kid[1]->op == EXPR_CONST && e->kid[1]->value > 0 && e->kid[1]->value < e->width) {
            bool arith_shift = e->op == EXPR_ASHR;
            Z3_ast x = tr(c, e->kid[0], e->op == EXPR_SHL ? m : arith_shift ? M_SIGNED : M_UNSIGNED);
            Z3_ast p = int_pow2(c, (unsigned)e->kid[1]->value);
            if (!x || !p) return NULL;
            Z3_ast args[2] = {x, p};
            if (e->op == EXPR_SHL) return keep(c, Z3_mk_mul(z, 2, args)); /* wrap-around ignored, as for * */
            Z3_ast r = keep(c, Z3_mk_div(z, x, p)); /* Z3's div by a positive divisor is the floor */
            if (!r) return NULL;
            if (arith_shift) return sgn ? r : as_unsigned(c, r, e->width);
            return r; /* below 2^(w-k): the same value read either way */
        }
        break;
    default: break;
    }
    c->failed = c->unsupported = true; /* other bit operations, division */
    return NULL;
}

static Z3_ast tr_real(rctx *c, const expr *e)
{
    Z3_context z = c->z;
    if (e->width != 32 && e->width != 64) {
        c->failed = c->unsupported = true;
        return NULL;
    }
    uint64_t sign = 1ull << (e->width - 1);
    switch (e->op) {
    case EXPR_CONST: return real_numeral(c, expr_fp_value(e->value, e->width));
    case EXPR_SYMBOL: return var_of(c, e, true);
    case EXPR_FADD: return arith(c, '+', e, M_REAL);
    case EXPR_FSUB: return arith(c, '-', e, M_REAL);
    case EXPR_FMUL: return arith(c, '*', e, M_REAL);
    case EXPR_FDIV: return arith(c, '/', e, M_REAL);
    case EXPR_FMA: {
        Z3_ast a = tr(c, e->kid[0], M_REAL), b = tr(c, e->kid[1], M_REAL), d = tr(c, e->kid[2], M_REAL);
        if (!a || !b || !d) return NULL;
        Z3_ast args[2] = {a, b};
        Z3_ast p = keep(c, Z3_mk_mul(z, 2, args));
        if (!p) return NULL;
        Z3_ast sum[2] = {p, d};
        return keep(c, Z3_mk_add(z, 2, sum));
    }
    case EXPR_FMIN:
    case EXPR_FMAX: {
        Z3_ast a = tr(c, e->kid[0], M_REAL), b = tr(c, e->kid[1], M_REAL);
        Z3_ast lt = a && b ? keep(c, Z3_mk_lt(z, a, b)) : NULL;
        if (!lt) return NULL;
        return keep(c, e->op == EXPR_FMIN ? Z3_mk_ite(z, lt, a, b) : Z3_mk_ite(z, lt, b, a));
    }
    case EXPR_FCVT: return tr(c, e->kid[0], M_REAL);
    case EXPR_FRINT: { /* rint/round/floor/ceil/trunc; a tie to nearest goes up (checked by evaluation) */
        Z3_ast a = tr(c, e->kid[0], M_REAL);
        if (!a) return NULL;
        if (e->aux == FRM_RTZ) {
            Z3_ast t = trunc_real(c, a);
            return t ? keep(c, Z3_mk_int2real(z, t)) : NULL;
        }
        if (e->aux == FRM_RTP) a = keep(c, Z3_mk_unary_minus(z, a)); /* ceil x = -floor(-x) */
        Z3_ast half = real_numeral(c, 0.5), args[2] = {a, half};
        if (a && half && (e->aux == FRM_RNE || e->aux == FRM_RNA)) a = keep(c, Z3_mk_add(z, 2, args));
        Z3_ast f = a ? keep(c, Z3_mk_real2int(z, a)) : NULL;
        Z3_ast r = f ? keep(c, Z3_mk_int2real(z, f)) : NULL;
        return r && e->aux == FRM_RTP ? keep(c, Z3_mk_unary_minus(z, r)) : r;
    }
    case EXPR_SITOF:
    case EXPR_UITOF: {
        Z3_ast a = tr(c, e->kid[0], e->op == EXPR_SITOF ? M_SIGNED : M_UNSIGNED);
        return a ? keep(c, Z3_mk_int2real(z, a)) : NULL;
    }
    case EXPR_XOR: /* fneg: the sign bit flipped */
        if (is_const(e->kid[1], sign) || is_const(e->kid[0], sign)) {
            Z3_ast a = tr(c, is_const(e->kid[1], sign) ? e->kid[0] : e->kid[1], M_REAL);
            return a ? keep(c, Z3_mk_unary_minus(z, a)) : NULL;
        }
        break;
    case EXPR_AND: /* fabs: the sign bit cleared */
        if (is_const(e->kid[1], sign - 1) || is_const(e->kid[0], sign - 1)) {
            Z3_ast a = tr(c, is_const(e->kid[1], sign - 1) ? e->kid[0] : e->kid[1], M_REAL);
            Z3_ast zero = real_numeral(c, 0.0);
            Z3_ast neg = a && zero ? keep(c, Z3_mk_lt(z, a, zero)) : NULL;
            Z3_ast na = neg ? keep(c, Z3_mk_unary_minus(z, a)) : NULL;
            return na ? keep(c, Z3_mk_ite(z, neg, na, a)) : NULL;
        }
        break;
    case EXPR_ITE: {
        Z3_ast k = tr(c, e->kid[0], M_BOOL), a = tr(c, e->kid[1], M_REAL), b = tr(c, e->kid[2], M_REAL);
        return k && a && b ? keep(c, Z3_mk_ite(z, k, a, b)) : NULL;
    }
    default: break;
    }
    c->failed = c->unsupported = true; /* sqrt, fmod, a float assembled from bits */
    return NULL;
}

/* Mark the symbols below e in c->pin: they keep the parent's values. */
static void pin_under(rctx *c, const expr *e)
{
    if (c->failed || ptrmap_get(&c->pinned, e)) return;
    if (c->pinned.n >= MAX_NODES || ptrmap_put(&c->pinned, e, NULL, NULL)) {
        c->failed = true;
        return;
    }
    if (e->op == EXPR_SYMBOL && e->aux < c->na) c->pin[e->aux] = true;
    for (unsigned k = 0; k < e->nkids; k++) pin_under(c, e->kid[k]);
}

/* A node the approximation cannot read (a bit operation, sqrt, a float assembled from bytes):
 * its value in the parent run, in mode m, with the symbols below it pinned to the parent's
 * values, so that the value stays right. NULL (c->failed) for a non-finite float. */
static Z3_ast opaque(rctx *c, const expr *e, enum mode m)
{
    if (e->depth > MAX_DEPTH) {
        c->failed = true;
        return NULL;
    }
    uint64_t v = expr_eval(e, c->assign, c->na);
    pin_under(c, e);
    if (c->failed) return NULL;
    c->nopaque++;
    switch (m) {
    case M_BOOL: return keep(c, v & 1 ? Z3_mk_true(c->z) : Z3_mk_false(c->z));
    case M_SIGNED: return int_numeral(c, v, e->width, e->width > 1);
    case M_UNSIGNED: return int_numeral(c, v, e->width, false);
    default: return real_numeral(c, expr_fp_value(v, e->width));
    }
}

/* Node e read in mode m, memoised per (node, mode); NULL (and c->failed) when not expressible. */
static Z3_ast tr(rctx *c, const expr *e, enum mode m)
{
    if (c->failed) return NULL;
    const void *key = (const void *)((uintptr_t)e | (uintptr_t)m);
    ptrmap_ent *hit = ptrmap_get(&c->memo, key);
    if (hit) {
        if (hit->b) c->nopaque++; /* the term holds an opaque value */
        return hit->a;
    }
    size_t opaque_before = c->nopaque;
    if (++c->nmemo > MAX_NODES) {
        c->failed = true;
        return NULL;
    }
    Z3_ast r;
    switch (m) {
    case M_BOOL: r = e->width == 1 ? tr_bool(c, e) : NULL; break;
    case M_SIGNED: r = tr_int(c, e, true); break;
    case M_UNSIGNED: r = tr_int(c, e, false); break;
    default: r = tr_real(c, e); break;
    }
    if (!r && c->failed && c->unsupported && (m != M_REAL || e->width == 32 || e->width == 64) &&
        (m != M_BOOL || e->width == 1)) {
        c->failed = c->unsupported = false;
        r = opaque(c, e, m);
    }
    if (!r || ptrmap_put(&c->memo, key, (void *)r, c->nopaque != opaque_before ? (void *)c : NULL)) {
        c->failed = true;
        return NULL;
    }
    return r;
}

/* The value of variable v in model mdl as the symbol's bits: the nearest double / float,
 * or the integer in its width. False when the model has no usable value. */
static bool model_bits(rctx *c, Z3_model mdl, const rvar *v, uint64_t *out)
{
    Z3_ast val = NULL;
    if (!Z3_model_eval(c->z, mdl, v->ast, true, &val) || !val) return false;
    val = keep(c, val);
    if (!val) return false;
    if (Z3_is_algebraic_number(c->z, val)) val = keep(c, Z3_get_algebraic_number_lower(c->z, val, 30));
    if (!val || Z3_get_ast_kind(c->z, val) != Z3_NUMERAL_AST) return false;
    if (!v->is_real) {
        const char *t = Z3_get_numeral_string(c->z, val);
        if (!t) return false;
        *out = (uint64_t)strtoll(t, NULL, 10) & expr_mask(v->width);
        return true;
    }
    const char *t = Z3_get_numeral_decimal_string(c->z, val, 40);
    if (!t) return false;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", t);
    char *q = strchr(buf, '?'); /* Z3 marks a truncated expansion */
    if (q) *q = 0;
    *out = v->width == 32 ? expr_fp_bits((double)strtof(buf, NULL), 32) : expr_fp_bits(strtod(buf, NULL), 64);
    return true;
}

/* Mark the symbols of constraint e (its symbol set) in pin[]: they keep the parent's values. */
static void pin_symbols(solver *s, const expr *e, bool *pin, size_t na)
{
    symset ss = s->sets[e->id];
    for (uint32_t k = 0; k < ss.len; k++) {
        uint32_t x = s->pool[ss.off + k];
        if (x < na) pin[x] = true;
    }
}

/* Is the target, under its NOTs, a NaN test or an equality with -0.0: a question the
 * approximation answers by its own assumption (no NaN, no -0.0), not by the query? */
static bool about_nan(const expr *t)
{
    while (t->op == EXPR_NOT && t->width == 1) t = t->kid[0];
    if (t->op == EXPR_FUNO) return true;
    if (t->op != EXPR_EQ || (t->kid[0]->width != 32 && t->kid[0]->width != 64)) return false;
    uint64_t neg0 = 1ull << (t->kid[0]->width - 1);
    return is_const(t->kid[0], neg0) || is_const(t->kid[1], neg0);
}

/* Assert part under the tracker "t<k>" (k = its index in parts), kept in trk[k]. */
static bool assert_tracked(rctx *c, Z3_solver zs, Z3_ast part, size_t k, Z3_ast *trk)
{
    char name[32];
    snprintf(name, sizeof name, "t%zu", k);
    trk[k] = keep(c, Z3_mk_const(c->z, Z3_mk_string_symbol(c->z, name), Z3_mk_bool_sort(c->z)));
    Z3_ast imp = trk[k] ? keep(c, Z3_mk_implies(c->z, trk[k], part)) : NULL;
    if (!imp) return false;
    Z3_solver_assert(c->z, zs, imp);
    return true;
}

/* After an UNSAT check: the kept-constraint indices of the unsat core into core[] (owner[k]
 * maps tracker k to its constraint, SIZE_MAX for a pinned value). 0 when the core holds a
 * pinned value (the approximation's own choice, not the query's) or cannot be read. */
static size_t read_core(rctx *c, Z3_solver zs, const Z3_ast *trk, const size_t *owner, size_t ntrk, size_t *core)
{
    Z3_ast_vector v = Z3_solver_get_unsat_core(c->z, zs);
    if (!v) return 0;
    Z3_ast_vector_inc_ref(c->z, v);
    size_t n = 0;
    unsigned cn = Z3_ast_vector_size(c->z, v);
    for (unsigned i = 0; i < cn; i++) {
        Z3_ast a = Z3_ast_vector_get(c->z, v, i);
        size_t k = 0;
        while (k < ntrk && trk[k] != a) k++;
        if (k == ntrk || owner[k] == SIZE_MAX) {
            n = 0;
            break;
        }
        core[n++] = owner[k];
    }
    Z3_ast_vector_dec_ref(c->z, v);
    return n;
}

int fp_real_solve(solver *s, size_t nkept, size_t nsyms, const uint64_t *parent, size_t parent_n, size_t *core,
                  size_t *ncore)
{
    *ncore = 0;
    if (nkept == 0 || nsyms > MAX_VARS) return 0;
    for (size_t i = 0; i < nkept; i++)
        if (s->kept[i]->depth > MAX_DEPTH) return 0;
    size_t na = parent_n;
    for (size_t i = 0; i < nsyms; i++)
        if ((size_t)s->kept_syms[i] + 1 > na) na = (size_t)s->kept_syms[i] + 1;
    rctx c;
    memset(&c, 0, sizeof c);
    c.z = s->z3;
    c.int_sort = Z3_mk_int_sort(c.z);
    c.real_sort = Z3_mk_real_sort(c.z);
    size_t maxparts = nkept + MAX_VARS;
    Z3_ast *parts = malloc(maxparts * sizeof *parts), *trk = malloc(maxparts * sizeof *trk);
    size_t *owner = malloc(maxparts * sizeof *owner);
    c.bounds = malloc(2 * MAX_VARS * sizeof *c.bounds);
    uint64_t *assign = calloc(na + 1, sizeof *assign);
    bool *pin = calloc(na + 1, sizeof *pin), *opaque_part = NULL; /* opaque_part[i]: kept[i] holds an opaque value */
    int found = 0;
    Z3_solver zs = NULL;
    if (!parts || !trk || !owner || !c.bounds || !assign || !pin) goto out;
    if (parent_n) memcpy(assign, parent, parent_n * sizeof *assign);
    if (!find_floats(&c, s->kept, nkept)) goto out;
    c.assign = assign;
    c.na = na;
    c.pin = pin;
    if (!(opaque_part = calloc(nkept, sizeof *opaque_part))) goto out;

    /* the target must be expressible; a prefix constraint that is not is left out, its symbols pinned */
    size_t nparts = 0;
    for (size_t i = nkept; i-- > 0;) {
        size_t opaque_before = c.nopaque;
        Z3_ast a = tr(&c, s->kept[i], M_BOOL);
        if (i == nkept - 1 && about_nan(s->kept[i])) goto out; /* nothing to learn here */
        opaque_part[i] = c.nopaque != opaque_before;
        if (a) {
            owner[nparts] = i;
            parts[nparts++] = a;
        } else if (i == nkept - 1 || !c.failed) {
            goto out;
        } else {
            c.failed = false;
            pin_symbols(s, s->kept[i], pin, na);
        }
    }
    if (c.nvars == 0) goto out;
    for (size_t i = 0; i < c.nvars; i++) {
        const rvar *v = &c.vars[i];
        if (v->idx < na && pin[v->idx]) { /* the parent's value, as a numeral of the variable's sort */
            Z3_ast val = v->is_real ? real_numeral(&c, expr_fp_value(assign[v->idx], v->width))
                                    : int_numeral(&c, assign[v->idx], v->width, v->width > 1);
            Z3_ast eq = val ? keep(&c, Z3_mk_eq(c.z, v->ast, val)) : NULL;
            if (!eq) goto out;
            owner[nparts] = SIZE_MAX;
            parts[nparts++] = eq;
        }
    }
    if (c.failed) goto out;

    zs = Z3_mk_solver(c.z);
    if (!zs) goto out;
    Z3_solver_inc_ref(c.z, zs);
    Z3_params p = Z3_mk_params(c.z);
    Z3_params_inc_ref(c.z, p);
    unsigned tmo = s->timeout_ms && s->timeout_ms < MAX_TIMEOUT_MS ? s->timeout_ms : MAX_TIMEOUT_MS;
    Z3_params_set_uint(c.z, p, Z3_mk_string_symbol(c.z, "timeout"), tmo);
    Z3_params_set_bool(c.z, p, Z3_mk_string_symbol(c.z, "ctrl_c"), false); /* Ctrl-C is sympath's */
    Z3_solver_set_params(c.z, zs, p);
    Z3_params_dec_ref(c.z, p);
    for (size_t i = 0; i < c.nbounds; i++) Z3_solver_assert(c.z, zs, c.bounds[i]);
    for (size_t i = 0; i < nparts; i++)
        if (!assert_tracked(&c, zs, parts[i], i, trk)) goto out;
    sv_memory_bound_on();
    Z3_lbool zr = Z3_solver_check_assumptions(c.z, zs, (unsigned)nparts, trk);
    sv_memory_after_check();
    if (zr == Z3_L_FALSE) *ncore = read_core(&c, zs, trk, owner, nparts, core);
    bool pinned_core = false;
    for (size_t i = 0; i < *ncore; i++) pinned_core |= opaque_part[core[i]];
    if (pinned_core) *ncore = 0; /* a pinned value may be what makes it UNSAT */
    if (zr == Z3_L_FALSE) found = -1;
    if (zr != Z3_L_TRUE) goto out;
    Z3_model mdl = Z3_solver_get_model(c.z, zs);
    if (!mdl) goto out;
    Z3_model_inc_ref(c.z, mdl);
    bool ok = true;
    for (size_t i = 0; i < c.nvars && ok; i++) {
        const rvar *v = &c.vars[i];
        if (v->idx >= na || pin[v->idx]) continue;
        uint64_t bits;
        ok = model_bits(&c, mdl, v, &bits);
        if (ok) assign[v->idx] = bits;
    }
    Z3_model_dec_ref(c.z, mdl);
    for (size_t i = nkept; ok && i-- > 0;) ok = (expr_eval(s->kept[i], assign, na) & 1) == 1;
    if (ok) {
        for (size_t i = 0; i < nsyms; i++)
            s->vals[i] = assign[s->kept_syms[i]] & expr_mask(s->sym_width[s->kept_syms[i]]);
        found = 1;
    }
out:
    if (zs) Z3_solver_dec_ref(c.z, zs);
    for (size_t i = c.nheld; i-- > 0;) Z3_dec_ref(c.z, c.held[i]);
    free(c.held);
    ptrmap_clear(&c.memo);
    ptrmap_clear(&c.floats);
    ptrmap_clear(&c.pinned);
    free(opaque_part);
    free(c.bounds);
    free(parts);
    free(trk);
    free(owner);
    free(assign);
    free(pin);
    return found;
}
