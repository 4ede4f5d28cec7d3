/* expr_fp.c: floating-point operators: concrete semantics (x86-64 SSE, computed by the host), shape rules and the builders. */
#include "expr/expr_int.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- bit patterns <-> host values ---- */

static inline float f32(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
static inline double f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
static inline uint64_t b32(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static inline uint64_t b64(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* A float operand of width w (32/64) widened to double: exact, so comparisons and
 * conversions of floats can be computed in double without changing results. */
static inline double as_double(uint64_t bits, unsigned w) { return w == 32 ? (double)f32(bits) : f64(bits); }

double expr_fp_value(uint64_t bits, unsigned w) { return as_double(bits, w); }
uint64_t expr_fp_bits(double v, unsigned w) { return w == 32 ? b32((float)v) : b64(v); }

/*
 * cvttss2si / cvttsd2si with a 32- or 64-bit destination: truncation toward zero, or
 * the integer indefinite 0x80..0 for NaN and truncations that do not fit (Intel SDM,
 * CVTTSD2SI). Every float and double is exactly a double, so one version serves both.
 */
uint64_t expr_fp_cvtt(double x, unsigned dst_bits)
{
    double t = trunc(x);
    if (dst_bits == 32) return (t >= -0x1p31 && t < 0x1p31) ? (uint64_t)(uint32_t)(int32_t)t : 0x80000000ull;
    return (t >= -0x1p63 && t < 0x1p63) ? (uint64_t)(int64_t)t : 0x8000000000000000ull;
}

/* The integer conversions as clang-14 -O2 / -O0 code for x86-64 computes them (expr.h). */
static uint64_t to_int(bool is_signed, unsigned w, double x, double two63)
{
    if (is_signed ? w <= 32 : w <= 16) return expr_fp_cvtt(x, 32) & expr_mask(w);
    if (!is_signed && w <= 32) return expr_fp_cvtt(x, 64) & expr_mask(w);
    if (is_signed) return expr_fp_cvtt(x, 64) & expr_mask(w);
    uint64_t r1 = expr_fp_cvtt(x, 64), r2 = expr_fp_cvtt(two63, 64);
    return (r1 | (r2 & (uint64_t)((int64_t)r1 >> 63))) & expr_mask(w);
}

static double round_mode(double x, uint32_t rm)
{
    switch (rm) {
    case FRM_RNA: return round(x);
    case FRM_RTP: return ceil(x);
    case FRM_RTN: return floor(x);
    case FRM_RTZ: return trunc(x);
    default: return nearbyint(x); /* the default environment rounds to nearest even */
    }
}
static float round_modef(float x, uint32_t rm)
{
    switch (rm) {
    case FRM_RNA: return roundf(x);
    case FRM_RTP: return ceilf(x);
    case FRM_RTN: return floorf(x);
    case FRM_RTZ: return truncf(x);
    default: return nearbyintf(x);
    }
}

uint64_t expr_fp_eval_op(expr_op op, unsigned width, uint32_t aux, unsigned kw, uint64_t a, uint64_t b, uint64_t c)
{
    const uint64_t m = expr_mask(width);
    switch (op) {
    case EXPR_FOEQ: return as_double(a, kw) == as_double(b, kw);
    case EXPR_FOLT: return as_double(a, kw) < as_double(b, kw);
    case EXPR_FOLE: return as_double(a, kw) <= as_double(b, kw);
    case EXPR_FUNO: return isnan(as_double(a, kw)) || isnan(as_double(b, kw));
    case EXPR_FTOSI:
    case EXPR_FTOUI: {
        double x = as_double(a, kw);
        /* x - 2^63 in the source format, as the program computes it */
        double x63 = kw == 32 ? (double)(f32(a) - 0x1p63f) : x - 0x1p63;
        return to_int(op == EXPR_FTOSI, width, x, x63);
    }
    case EXPR_SITOF: {
        int64_t v = expr_sext64(a, kw);
        return width == 32 ? b32((float)v) : b64((double)v);
    }
    case EXPR_UITOF: {
        uint64_t v = a & expr_mask(kw);
        return width == 32 ? b32((float)v) : b64((double)v);
    }
    case EXPR_FCVT:
        if (width == kw) return a & m;
        return width == 32 ? b32((float)f64(a)) : b64((double)f32(a));
    default: break;
    }
    if (width == 32) {
        float x = f32(a), y = f32(b), z = f32(c);
        switch (op) {
        case EXPR_FADD: return b32(x + y);
        case EXPR_FSUB: return b32(x - y);
        case EXPR_FMUL: return b32(x * y);
        case EXPR_FDIV: return b32(x / y);
        case EXPR_FREM: return b32(fmodf(x, y));
        case EXPR_FSQRT: return b32(sqrtf(x));
        case EXPR_FMA: return b32(fmaf(x, y, z));
        case EXPR_FMIN: return b32(fminf(x, y));
        case EXPR_FMAX: return b32(fmaxf(x, y));
        case EXPR_FRINT: return b32(round_modef(x, aux));
        default: return 0;
        }
    }
    double x = f64(a), y = f64(b), z = f64(c);
    switch (op) {
    case EXPR_FADD: return b64(x + y);
    case EXPR_FSUB: return b64(x - y);
    case EXPR_FMUL: return b64(x * y);
    case EXPR_FDIV: return b64(x / y);
    case EXPR_FREM: return b64(fmod(x, y));
    case EXPR_FSQRT: return b64(sqrt(x));
    case EXPR_FMA: return b64(fma(x, y, z));
    case EXPR_FMIN: return b64(fmin(x, y));
    case EXPR_FMAX: return b64(fmax(x, y));
    case EXPR_FRINT: return b64(round_mode(x, aux));
    default: return 0;
    }
}

static inline bool fw(unsigned w) { return w == 32 || w == 64; }

bool expr_fp_shape_ok(expr_op op, unsigned width, uint32_t aux, const expr *k0, const expr *k1, const expr *k2)
{
    if (aux != 0 && !(op == EXPR_FRINT && aux <= FRM_RTZ)) return false;
    switch (op) {
    case EXPR_FADD:
    case EXPR_FSUB:
    case EXPR_FMUL:
    case EXPR_FDIV:
    case EXPR_FREM:
    case EXPR_FMIN:
    case EXPR_FMAX: return fw(width) && k0->width == width && k1->width == width;
    case EXPR_FSQRT:
    case EXPR_FRINT: return fw(width) && k0->width == width;
    case EXPR_FMA: return fw(width) && k0->width == width && k1->width == width && k2->width == width;
    case EXPR_FOEQ:
    case EXPR_FOLT:
    case EXPR_FOLE:
    case EXPR_FUNO: return width == 1 && fw(k0->width) && k1->width == k0->width;
    case EXPR_FTOSI:
    case EXPR_FTOUI: return fw(k0->width);
    case EXPR_SITOF:
    case EXPR_UITOF: return fw(width);
    case EXPR_FCVT: return fw(width) && fw(k0->width) && width != k0->width;
    default: return false;
    }
}

/* ---- builders ---- */

static expr *mk(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *k0, expr *k1, expr *k2)
{
    uint64_t v =
        expr_eval_op(op, width, aux, k0 ? k0->width : 0, k0 ? k0->value : 0, k1 ? k1->value : 0, k2 ? k2->value : 0);
    return expr_intern_node(cx, op, width, aux, k0, k1, k2, v);
}

expr *expr_fp(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *a, expr *b, expr *c)
{
    if (!expr_op_is_fp(op) || op == EXPR_FOEQ || op == EXPR_FOLT || op == EXPR_FOLE || op == EXPR_FUNO)
        abort(); /* caller bug */
    assert(a && expr_fp_shape_ok(op, width, aux, a, b, c));
    if (a->op == EXPR_CONST && (!b || b->op == EXPR_CONST) && (!c || c->op == EXPR_CONST))
        return expr_const(cx, expr_eval_op(op, width, aux, a->width, a->value, b ? b->value : 0, c ? c->value : 0),
                          width);
    /* fptrunc(fpext(x)) = x: C's float promotion, e.g. (float)((double)f * 2.0) starts so */
    if (op == EXPR_FCVT && a->op == EXPR_FCVT && a->kid[0]->width == width && width < a->width) return a->kid[0];
    /* FMIN/FMAX/FADD/FMUL are commutative bit for bit except in NaN payloads and the
     * sign of a zero min/max; keep the operands as given. */
    return mk(cx, op, width, aux, a, b, c);
}

/*
 * A monotone chain of an integer: SITOF(k), then any FDIV/FMUL by a positive finite constant
 * and FCVT (a DECIMAL cell k / 10^s, a FLOAT4 cell k / 4, an int scaled by a constant). Every step rounds
 * monotonically, so f(k) is non-decreasing in k and a comparison of f(k) with a constant is a
 * range of k: the comparison becomes an integer one, which the solver decides without
 * floating-point reasoning. Returns k, or NULL when n is no such chain.
 */
static expr *monotone_int(const expr *n)
{
    if (n->op == EXPR_SITOF) return n->kid[0]->width <= 64 ? n->kid[0] : NULL;
    if (n->op == EXPR_FCVT) return monotone_int(n->kid[0]); /* a rounding to the other width: monotone too */
    if ((n->op == EXPR_FDIV || n->op == EXPR_FMUL) && n->kid[1]->op == EXPR_CONST) {
        double c = as_double(n->kid[1]->value, n->width);
        return isfinite(c) && c > 0 ? monotone_int(n->kid[0]) : NULL;
    }
    return NULL;
}

/* f(k) of the chain n for a concrete k (monotone_int). */
static uint64_t chain_eval(const expr *n, uint64_t k)
{
    if (n->op == EXPR_SITOF) return expr_eval_op(EXPR_SITOF, n->width, 0, n->kid[0]->width, k, 0, 0);
    uint64_t v = chain_eval(n->kid[0], k);
    if (n->op == EXPR_FCVT) return expr_eval_op(EXPR_FCVT, n->width, 0, n->kid[0]->width, v, 0, 0);
    return expr_eval_op(n->op, n->width, 0, n->width, v, n->kid[1]->value, 0);
}

/* The least k of width w (signed) with f(k) >= c (ge) or f(k) > c (!ge); *none when there is none. */
static int64_t chain_first(const expr *n, unsigned w, uint64_t c, bool ge, bool *none)
{
    int64_t lo = w >= 64 ? INT64_MIN : -(INT64_C(1) << (w - 1)), hi = w >= 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1;
    unsigned fw_ = n->width;
#define ABOVE(k) (expr_eval_op(ge ? EXPR_FOLE : EXPR_FOLT, 1, 0, fw_, c, chain_eval(n, (uint64_t)(k)), 0) & 1)
    *none = !ABOVE(hi);
    if (*none) return hi;
    while (lo < hi) { /* invariant: ABOVE(hi) */
        int64_t mid = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo) / 2);
        if (ABOVE(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
#undef ABOVE
    return lo;
}

/* FOLT/FOLE/FOEQ of a monotone chain of k and a non-NaN constant, as a comparison of k; NULL
 * when the operands have another shape. */
static expr *fcmp_monotone(expr_ctx *cx, expr_op op, expr *a, expr *b)
{
    bool chain_left = b->op == EXPR_CONST;
    expr *n = chain_left ? a : b, *cst = chain_left ? b : a;
    if (cst->op != EXPR_CONST || isnan(as_double(cst->value, cst->width))) return NULL;
    expr *k = monotone_int(n);
    /* not a bare sitofp(k): an integer read as a double stays as it was, which the FP sampler
     * handles better (tests/db/catalog.c: 34/36 directions with it left alone, 21/36 rewritten) */
    if (!k || n->op == EXPR_SITOF) return NULL;
    unsigned w = k->width;
    uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
    bool none_ge, none_gt;
    int64_t first_ge = chain_first(n, w, cst->value, true, &none_ge);  /* f(k) >= c from here */
    int64_t first_gt = chain_first(n, w, cst->value, false, &none_gt); /* f(k) > c from here */
    expr *no = expr_const(cx, 0, 1);
    expr *ge_c = none_ge ? no : expr_cmp(cx, PRED_SGE, k, expr_const(cx, (uint64_t)first_ge & mask, w));
    expr *gt_c = none_gt ? no : expr_cmp(cx, PRED_SGE, k, expr_const(cx, (uint64_t)first_gt & mask, w));
    switch (op) {
    case EXPR_FOEQ: return expr_and1(cx, ge_c, expr_not(cx, gt_c));
    case EXPR_FOLT: return chain_left ? expr_not(cx, ge_c) : gt_c; /* f < c | c < f */
    case EXPR_FOLE: return chain_left ? expr_not(cx, gt_c) : ge_c; /* f <= c | c <= f */
    default: return NULL;
    }
}

/* A tree of ITEs whose leaves are constants or monotone chains (an AVG over a count that is one
 * of a few values), at most 64 leaves: a comparison with a constant distributes over it. */
static bool ite_of_chains(const expr *n, int *leaves)
{
    if (n->op == EXPR_ITE) return ite_of_chains(n->kid[1], leaves) && ite_of_chains(n->kid[2], leaves);
    if (++*leaves > 64) return false;
    return n->op == EXPR_CONST || (monotone_int(n) && n->op != EXPR_SITOF);
}

static expr *fcmp_node(expr_ctx *cx, expr_op op, expr *a, expr *b);

static expr *fcmp_ite(expr_ctx *cx, expr_op op, expr *a, expr *b)
{
    if (a->op == EXPR_ITE)
        return expr_ite(cx, a->kid[0], fcmp_ite(cx, op, a->kid[1], b), fcmp_ite(cx, op, a->kid[2], b));
    if (b->op == EXPR_ITE)
        return expr_ite(cx, b->kid[0], fcmp_ite(cx, op, a, b->kid[1]), fcmp_ite(cx, op, a, b->kid[2]));
    return fcmp_node(cx, op, a, b);
}

static expr *fcmp_node(expr_ctx *cx, expr_op op, expr *a, expr *b)
{
    if (a->op == EXPR_CONST && b->op == EXPR_CONST)
        return expr_const(cx, expr_eval_op(op, 1, 0, a->width, a->value, b->value, 0), 1);
    /* x < x is false, x <= x and x == x hold unless x is NaN (a self-join comparing a row's cell
     * with itself: bit-blasted, each took Z3 its whole time-out) */
    if (a == b && op == EXPR_FOLT) return expr_const(cx, 0, 1);
    if (a == b && (op == EXPR_FOLE || op == EXPR_FOEQ)) return expr_not(cx, fcmp_node(cx, EXPR_FUNO, a, a));
    if (op == EXPR_FUNO && (monotone_int(a) || (a->op == EXPR_CONST && !isnan(as_double(a->value, a->width)))) &&
        (monotone_int(b) || (b->op == EXPR_CONST && !isnan(as_double(b->value, b->width)))))
        return expr_const(cx, 0, 1); /* a chain of an integer is never NaN */
    if (op != EXPR_FUNO && (a->op == EXPR_CONST) != (b->op == EXPR_CONST)) {
        expr *r = fcmp_monotone(cx, op, a, b);
        if (r) return r;
        int leaves = 0;
        expr *t = a->op == EXPR_CONST ? b : a;
        if (t->op == EXPR_ITE && ite_of_chains(t, &leaves)) return fcmp_ite(cx, op, a, b);
    }
    /* FOEQ and FUNO are symmetric: constants on the right, as for EQ */
    if ((op == EXPR_FOEQ || op == EXPR_FUNO) && a->op == EXPR_CONST) {
        expr *t = a;
        a = b;
        b = t;
    }
    /* x uno NaN-free constant = x uno x (isnan(x)), so isnan written either way is one node */
    if (op == EXPR_FUNO && b->op == EXPR_CONST && !isnan(as_double(b->value, b->width))) b = a;
    return mk(cx, op, 1, 0, a, b, NULL);
}

/*
 * The sixteen fcmp predicates over four node kinds:
 *   oeq = FOEQ(a,b)            une = NOT oeq
 *   olt = FOLT(a,b)            uge = NOT olt
 *   ogt = FOLT(b,a)            ule = NOT ogt
 *   ole = FOLE(a,b)            ugt = NOT ole
 *   oge = FOLE(b,a)            ult = NOT oge
 *   uno = FUNO(a,b)            ord = NOT uno
 *   one = FOLT(a,b) OR FOLT(b,a)   ueq = NOT one
 * (an unordered predicate is the negation of the ordered opposite), so the negation of
 * any predicate is one NOT away.
 */
expr *expr_fcmp(expr_ctx *cx, expr_fpred pred, expr *a, expr *b)
{
    assert(a->width == b->width && fw(a->width));
    switch (pred) {
    case FPRED_FALSE: return expr_const(cx, 0, 1);
    case FPRED_TRUE: return expr_const(cx, 1, 1);
    case FPRED_OEQ: return fcmp_node(cx, EXPR_FOEQ, a, b);
    case FPRED_UNE: return expr_not(cx, fcmp_node(cx, EXPR_FOEQ, a, b));
    case FPRED_OLT: return fcmp_node(cx, EXPR_FOLT, a, b);
    case FPRED_UGE: return expr_not(cx, fcmp_node(cx, EXPR_FOLT, a, b));
    case FPRED_OGT: return fcmp_node(cx, EXPR_FOLT, b, a);
    case FPRED_ULE: return expr_not(cx, fcmp_node(cx, EXPR_FOLT, b, a));
    case FPRED_OLE: return fcmp_node(cx, EXPR_FOLE, a, b);
    case FPRED_UGT: return expr_not(cx, fcmp_node(cx, EXPR_FOLE, a, b));
    case FPRED_OGE: return fcmp_node(cx, EXPR_FOLE, b, a);
    case FPRED_ULT: return expr_not(cx, fcmp_node(cx, EXPR_FOLE, b, a));
    case FPRED_UNO: return fcmp_node(cx, EXPR_FUNO, a, b);
    case FPRED_ORD: return expr_not(cx, fcmp_node(cx, EXPR_FUNO, a, b));
    case FPRED_ONE:
    case FPRED_UEQ: {
        expr *lt = fcmp_node(cx, EXPR_FOLT, a, b), *gt = fcmp_node(cx, EXPR_FOLT, b, a);
        expr *one = expr_not(cx, expr_and1(cx, expr_not(cx, lt), expr_not(cx, gt)));
        return pred == FPRED_ONE ? one : expr_not(cx, one);
    }
    }
    abort(); /* caller bug: not a predicate */
}
