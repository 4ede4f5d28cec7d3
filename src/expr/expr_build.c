/* expr_build.c: the simplifying constructors (constant folding, identities, canonical comparisons). */
#include "expr/expr_int.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>

/*
 * Every constructor here returns a node whose concrete semantics equal those of
 * the operation it was asked to build; simplification only changes the shape.
 * Rules are local (they look at most two levels down). A rule may call another
 * constructor on a strictly narrower or strictly shallower piece (extract of an
 * extract, EQ peeling at most EQ_PEEL operators), so the recursion depth is
 * bounded by the width (<= 64), never by the size of the expression.
 *
 * A freshly built node's `value` is the operator applied to its kids' values,
 * so in the runtime every node carries the value of the current run.
 *
 * Canonical forms the rest of sympath may rely on:
 *   - comparisons are EQ, ULT, SLT, possibly under one NOT;
 *   - constants are the right operand of commutative operators (ADD, MUL, AND,
 *     OR, XOR, EQ, UADDO, SADDO, UMULO, SMULO);
 *   - x - c is built as x + (-c);
 *   - concat(0, x) is built as zext(x);
 *   - ite(not c, t, e) is built as ite(c, e, t).
 */

static inline bool is_const(const expr *e) { return e->op == EXPR_CONST; }
static inline bool is_cval(const expr *e, uint64_t v) { return e->op == EXPR_CONST && e->value == v; }

/* Build op over kids with the value computed from the kids' values (no simplification). */
static expr *mk(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *k0, expr *k1, expr *k2)
{
    uint64_t v =
        expr_eval_op(op, width, aux, k0 ? k0->width : 0, k0 ? k0->value : 0, k1 ? k1->value : 0, k2 ? k2->value : 0);
    return expr_intern_node(cx, op, width, aux, k0, k1, k2, v);
}

expr *expr_const(expr_ctx *cx, uint64_t value, unsigned width)
{
    assert(width >= 1 && width <= 64);
    return expr_intern_node(cx, EXPR_CONST, width, 0, NULL, NULL, NULL, value);
}

expr *expr_symbol(expr_ctx *cx, uint32_t index, unsigned width, uint64_t value)
{
    assert(width >= 1 && width <= 64);
    return expr_intern_node(cx, EXPR_SYMBOL, width, index, NULL, NULL, NULL, value);
}

static inline expr *cst(expr_ctx *cx, uint64_t v, unsigned width) { return expr_const(cx, v, width); }

expr *expr_not(expr_ctx *cx, expr *a)
{
    if (is_const(a)) return cst(cx, ~a->value, a->width);
    if (a->op == EXPR_NOT) return a->kid[0];
    return mk(cx, EXPR_NOT, a->width, 0, a, NULL, NULL);
}

static bool is_commutative(expr_op op)
{
    switch (op) {
    case EXPR_ADD:
    case EXPR_MUL:
    case EXPR_AND:
    case EXPR_OR:
    case EXPR_XOR:
    case EXPR_EQ:
    case EXPR_UADDO:
    case EXPR_SADDO:
    case EXPR_UMULO:
    case EXPR_SMULO: return true;
    default: return false;
    }
}

/* EQ(a, c) with c a constant and a not: peel invertible operators off a, moving them
 * to the constant side. At most EQ_PEEL steps, so a long chain of such operators
 * (say x = (x ^ 3) + 1 in a loop) costs O(1) per comparison, not O(chain). */
enum { EQ_PEEL = 8 };

static expr *eq_const(expr_ctx *cx, expr *a, uint64_t c)
{
    for (int step = 0; step < EQ_PEEL; step++) {
        unsigned w = a->width;
        if (w == 1) return c ? a : expr_not(cx, a); /* EQ(x,1) = x, EQ(x,0) = NOT x */
        expr *x = a->kid[0];
        switch (a->op) {
        case EXPR_ZEXT:
            /* zext(x) == c  iff  c fits in x's width and x == c; clang's bool idiom
             * icmp ne (zext i1 %b to i8), 0 becomes NOT(NOT b) = b this way */
            if (c & ~expr_mask(x->width)) return expr_const(cx, 0, 1);
            break;
        case EXPR_SEXT: {
            /* sext(x) == c  iff  c is the sign extension of its low bits and x == those bits */
            uint64_t low = c & expr_mask(x->width);
            if (((uint64_t)expr_sext64(low, x->width) & expr_mask(w)) != c) return expr_const(cx, 0, 1);
            c = low;
            break;
        }
        case EXPR_XOR: /* x ^ k == c  iff  x == c ^ k */
            if (a->kid[1]->op != EXPR_CONST) goto done;
            c ^= a->kid[1]->value;
            break;
        case EXPR_ADD: /* x + k == c  iff  x == c - k (adding k is a bijection mod 2^w) */
            if (a->kid[1]->op != EXPR_CONST) goto done;
            c = (c - a->kid[1]->value) & expr_mask(w);
            break;
        case EXPR_NOT: /* ~x == c  iff  x == ~c */ c = ~c & expr_mask(w); break;
        default: goto done;
        }
        a = x;
        if (a->op == EXPR_CONST) return expr_const(cx, a->value == c, 1);
    }
done:
    return mk(cx, EXPR_EQ, 1, 0, a, expr_const(cx, c, a->width), NULL);
}

expr *expr_binary(expr_ctx *cx, expr_op op, expr *a, expr *b)
{
    assert(a->width == b->width);
    const unsigned w = a->width;
    const uint64_t m = expr_mask(w);
    bool arith = op >= EXPR_ADD && op <= EXPR_XOR;
    if (!arith && op != EXPR_EQ && op != EXPR_ULT && op != EXPR_SLT && !(op >= EXPR_UADDO && op <= EXPR_SMULO))
        abort(); /* caller bug: not a binary operator */
    const unsigned rw = arith ? w : 1;

    if (is_const(a) && is_const(b)) return cst(cx, expr_eval_op(op, rw, 0, w, a->value, b->value, 0), rw);
    if (is_const(a) && is_commutative(op)) {
        expr *t = a;
        a = b;
        b = t;
    }
    /* from here on, a is not a constant when b is one, for commutative ops */
    const bool bc = is_const(b);
    const uint64_t c = b->value; /* meaningful only when bc */

    switch (op) {
    case EXPR_ADD:
        if (bc && c == 0) return a;
        if (bc && a->op == EXPR_ADD && is_const(a->kid[1])) /* (x + k) + c = x + (k + c) */
            return expr_binary(cx, EXPR_ADD, a->kid[0], cst(cx, a->kid[1]->value + c, w));
        break;
    case EXPR_SUB:
        if (a == b) return cst(cx, 0, w);
        if (bc) return expr_binary(cx, EXPR_ADD, a, cst(cx, 0 - c, w));
        break;
    case EXPR_MUL:
        if (bc && c == 0) return b;
        if (bc && c == 1) return a;
        break;
    case EXPR_UDIV:
        if (bc && c == 1) return a;
        break;
    case EXPR_SDIV:
        if (bc && c == 1 && w > 1) return a;
        break;
    case EXPR_UREM:
    case EXPR_SREM:
        if (bc && c == 1) return cst(cx, 0, w);
        break;
    case EXPR_SHL:
    case EXPR_LSHR:
    case EXPR_ASHR:
        if (bc && c == 0) return a;
        if (bc && c >= w && op != EXPR_ASHR) return cst(cx, 0, w);
        if (is_cval(a, 0)) return a;
        break;
    case EXPR_AND:
        if (a == b) return a;
        if (bc && c == 0) return b;
        if (bc && c == m) return a;
        break;
    case EXPR_OR:
        if (a == b) return a;
        if (bc && c == 0) return a;
        if (bc && c == m) return b;
        break;
    case EXPR_XOR:
        if (a == b) return cst(cx, 0, w);
        if (bc && c == 0) return a;
        if (bc && c == m) return expr_not(cx, a);
        if (bc && a->op == EXPR_XOR && is_const(a->kid[1])) /* (x ^ k) ^ c = x ^ (k ^ c) */
            return expr_binary(cx, EXPR_XOR, a->kid[0], cst(cx, a->kid[1]->value ^ c, w));
        break;
    case EXPR_EQ:
        if (a == b) return cst(cx, 1, 1);
        if (bc) return eq_const(cx, a, c);
        break;
    case EXPR_ULT:
        if (a == b || (bc && c == 0) || is_cval(a, m)) /* x < x, x < 0, max < x: false */
            return cst(cx, 0, 1);
        break;
    case EXPR_SLT:
        if (a == b) return cst(cx, 0, 1);
        break;
    case EXPR_UADDO:
    case EXPR_SADDO:
    case EXPR_USUBO:
    case EXPR_SSUBO:
        if (bc && c == 0) return cst(cx, 0, 1);
        if (op == EXPR_USUBO && a == b) return cst(cx, 0, 1);
        break;
    case EXPR_UMULO:
        if (bc && (c == 0 || c == 1)) return cst(cx, 0, 1);
        break;
    case EXPR_SMULO:
        if (bc && (c == 0 || (c == 1 && w > 1))) return cst(cx, 0, 1);
        break;
    default: break;
    }
    return mk(cx, op, rw, 0, a, b, NULL);
}

/*
 * LLVM's ten icmp predicates over three node kinds:
 *   NE = NOT EQ, UGT(a,b) = ULT(b,a), UGE(a,b) = NOT ULT(a,b), ULE(a,b) = NOT ULT(b,a),
 * and the same with SLT for the signed ones. The negation of any predicate is then
 * exactly one NOT away (NOT NOT x folds), so "X" and "not X" are pointer-related.
 */
expr *expr_cmp(expr_ctx *cx, expr_pred pred, expr *a, expr *b)
{
    switch (pred) {
    case PRED_EQ: return expr_binary(cx, EXPR_EQ, a, b);
    case PRED_NE: return expr_not(cx, expr_binary(cx, EXPR_EQ, a, b));
    case PRED_ULT: return expr_binary(cx, EXPR_ULT, a, b);
    case PRED_UGT: return expr_binary(cx, EXPR_ULT, b, a);
    case PRED_UGE: return expr_not(cx, expr_binary(cx, EXPR_ULT, a, b));
    case PRED_ULE: return expr_not(cx, expr_binary(cx, EXPR_ULT, b, a));
    case PRED_SLT: return expr_binary(cx, EXPR_SLT, a, b);
    case PRED_SGT: return expr_binary(cx, EXPR_SLT, b, a);
    case PRED_SGE: return expr_not(cx, expr_binary(cx, EXPR_SLT, a, b));
    case PRED_SLE: return expr_not(cx, expr_binary(cx, EXPR_SLT, b, a));
    }
    abort(); /* caller bug: not a predicate */
}

expr *expr_zext(expr_ctx *cx, expr *a, unsigned width)
{
    assert(width >= a->width && width <= 64);
    if (width == a->width) return a;
    if (is_const(a)) return cst(cx, a->value, width);
    if (a->op == EXPR_ZEXT) a = a->kid[0];
    return mk(cx, EXPR_ZEXT, width, 0, a, NULL, NULL);
}

expr *expr_sext(expr_ctx *cx, expr *a, unsigned width)
{
    assert(width >= a->width && width <= 64);
    if (width == a->width) return a;
    if (is_const(a)) return cst(cx, (uint64_t)expr_sext64(a->value, a->width), width);
    if (a->op == EXPR_ZEXT) /* a strictly widening zext has sign bit 0 */
        return expr_zext(cx, a->kid[0], width);
    if (a->op == EXPR_SEXT) a = a->kid[0];
    return mk(cx, EXPR_SEXT, width, 0, a, NULL, NULL);
}

/* Are the low `width` bits of e available without building an extract node
 * (e is a constant or an extension of a `width`-bit node)? trunc_free builds them. */
static bool truncs_free(const expr *e, unsigned width)
{
    return is_const(e) || ((e->op == EXPR_ZEXT || e->op == EXPR_SEXT) && e->kid[0]->width == width);
}
static expr *trunc_free(expr_ctx *cx, expr *e, unsigned width)
{
    return is_const(e) ? cst(cx, e->value, width) : e->kid[0];
}

expr *expr_extract(expr_ctx *cx, expr *a, unsigned lo, unsigned width)
{
    assert(width >= 1 && lo + width <= a->width);
    if (lo == 0 && width == a->width) return a;
    if (is_const(a)) return cst(cx, a->value >> lo, width);
    expr *x = a->kid[0];
    switch (a->op) {
    case EXPR_EXTRACT: return expr_extract(cx, x, a->aux + lo, width);
    case EXPR_CONCAT: {
        expr *h = a->kid[0], *l = a->kid[1];
        if (lo + width <= l->width) return expr_extract(cx, l, lo, width);
        if (lo >= l->width) return expr_extract(cx, h, lo - l->width, width);
        break;
    }
    case EXPR_ZEXT:
        if (lo + width <= x->width) return expr_extract(cx, x, lo, width);
        if (lo >= x->width) return cst(cx, 0, width);
        /* straddles the top of x: the high part is zeros */
        return expr_zext(cx, expr_extract(cx, x, lo, x->width - lo), width);
    case EXPR_SEXT:
        if (lo + width <= x->width) return expr_extract(cx, x, lo, width);
        if (lo == 0) return expr_sext(cx, x, width);
        break;
    case EXPR_ADD:
    case EXPR_SUB:
    case EXPR_MUL:
    case EXPR_AND:
    case EXPR_OR:
    case EXPR_XOR:
        /* The low bits of these depend only on the operands' low bits, so a truncated
         * C integer promotion like trunc(add(sext a, sext b)) becomes add(a, b). Only
         * when both operands truncate for free, so the DAG never grows. */
        if (lo == 0 && truncs_free(a->kid[0], width) && truncs_free(a->kid[1], width))
            return expr_binary(cx, (expr_op)a->op, trunc_free(cx, a->kid[0], width), trunc_free(cx, a->kid[1], width));
        break;
    default: break;
    }
    return mk(cx, EXPR_EXTRACT, width, lo, a, NULL, NULL);
}

expr *expr_resize(expr_ctx *cx, expr *a, unsigned width)
{
    if (width > a->width) return expr_zext(cx, a, width);
    return expr_extract(cx, a, 0, width);
}

/* Are hi and lo extracts of one node with hi directly above lo? */
static inline bool adjacent(const expr *hi, const expr *lo)
{
    return hi->op == EXPR_EXTRACT && lo->op == EXPR_EXTRACT && hi->kid[0] == lo->kid[0] &&
           hi->aux == lo->aux + lo->width;
}

/*
 * Concatenation merges adjacent extracts back into one extract, which is what
 * turns a multi-byte load of a stored value, rebuilt byte by byte from the
 * shadow memory, back into the stored value. Three shapes merge:
 *   concat(ext(v,l+w2,w1), ext(v,l,w2))               -> ext(v,l,w1+w2)
 *   concat(ext(v,l+w2,w1), concat(ext(v,l,w2), rest)) -> concat(ext(v,l,w1+w2), rest)
 *   concat(concat(rest, ext(v,l+w2,w1)), ext(v,l,w2)) -> concat(rest, ext(v,l,w1+w2))
 * With the first rule alone both the left- and the right-associated byte chains
 * collapse as they are built; the other two cover mixed chains.
 */
expr *expr_concat(expr_ctx *cx, expr *hi, expr *lo)
{
    unsigned w = hi->width + lo->width;
    assert(w <= 64);
    if (is_const(hi) && is_const(lo)) return cst(cx, hi->value << lo->width | lo->value, w);
    if (is_cval(hi, 0)) return expr_zext(cx, lo, w);
    if (adjacent(hi, lo)) return expr_extract(cx, hi->kid[0], lo->aux, w);
    if (lo->op == EXPR_CONCAT && adjacent(hi, lo->kid[0])) {
        expr *m = expr_extract(cx, hi->kid[0], lo->kid[0]->aux, hi->width + lo->kid[0]->width);
        return expr_concat(cx, m, lo->kid[1]);
    }
    if (hi->op == EXPR_CONCAT && adjacent(hi->kid[1], lo)) {
        expr *m = expr_extract(cx, lo->kid[0], lo->aux, hi->kid[1]->width + lo->width);
        return expr_concat(cx, hi->kid[0], m);
    }
    return mk(cx, EXPR_CONCAT, w, 0, hi, lo, NULL);
}

expr *expr_ite(expr_ctx *cx, expr *c, expr *t, expr *e)
{
    assert(c->width == 1 && t->width == e->width);
    if (is_const(c)) return c->value ? t : e;
    if (t == e) return t;
    if (c->op == EXPR_NOT) {
        expr *s = t;
        c = c->kid[0];
        t = e;
        e = s;
    }
    if (t->width == 1 && is_const(t) && is_const(e))
        return t->value ? c : expr_not(cx, c); /* t != e here, so (1,0) or (0,1) */
    return mk(cx, EXPR_ITE, t->width, 0, c, t, e);
}

expr *expr_and1(expr_ctx *cx, expr *a, expr *b)
{
    assert(a->width == 1 && b->width == 1);
    if (is_const(a)) return a->value ? b : a;
    if (is_const(b)) return b->value ? a : b;
    if (a == b) return a;
    if ((a->op == EXPR_NOT && a->kid[0] == b) || (b->op == EXPR_NOT && b->kid[0] == a)) return cst(cx, 0, 1);
    return expr_binary(cx, EXPR_AND, a, b);
}
