/* rt_ops.c: slow paths building expressions for symbolic operations, and the branch/switch/concretization events. */
#include "rt_internal.h"

symx __sym_params[SYM_MAX_PARAMS];
symx __sym_ret;
symx __sym_ret_fields[SYM_MAX_RET_FIELDS];
const void *__sym_byval[SYM_MAX_PARAMS];

/* Safety checks of a division with a symbolic operand (see BK_CHECK in trace.h):
 * divisor == 0 (arg 0) and, for signed division, INT_MIN / -1 (arg 1). A check
 * whose condition folds to a constant (e.g. a concrete non-zero divisor) is not
 * recorded: it cannot go the other way. */
static void division_checks(uint32_t op, unsigned w, expr *a, expr *b)
{
    expr_ctx *cx = rt_cx();
    expr *zero = expr_cmp(cx, PRED_EQ, b, expr_const(cx, 0, w));
    if (zero->op != EXPR_CONST) rt_trace_event(BK_CHECK, 0, (uint32_t)zero->value, zero, 0);
    if (op == EXPR_SDIV || op == EXPR_SREM) {
        expr *min = expr_cmp(cx, PRED_EQ, a, expr_const(cx, 1ull << (w - 1), w));
        expr *m1 = expr_cmp(cx, PRED_EQ, b, expr_const(cx, expr_mask(w), w));
        expr *ovf = expr_and1(cx, min, m1);
        if (ovf->op != EXPR_CONST) rt_trace_event(BK_CHECK, 0, (uint32_t)ovf->value, ovf, 1);
    }
}

symx __sym_binop_slow(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (RT_CONCRETE_NOW()) return NULL;
    expr *A = rt_operand(a, av, width), *B = rt_operand(b, bv, width);
    if (op >= EXPR_UDIV && op <= EXPR_SREM) division_checks(op, width, A, B);
    return rt_norm(expr_binary(rt_cx(), (expr_op)op, A, B));
}

symx __sym_icmp_slow(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (RT_CONCRETE_NOW()) return NULL;
    return rt_norm(expr_cmp(rt_cx(), (expr_pred)pred, rt_operand(a, av, width), rt_operand(b, bv, width)));
}

symx __sym_cast_slow(uint32_t op, uint32_t from_width, uint32_t to_width, symx a)
{
    if (RT_CONCRETE_NOW()) return NULL;
    expr_ctx *cx = rt_cx();
    switch (op) {
    case EXPR_ZEXT: return rt_norm(expr_zext(cx, a, to_width));
    case EXPR_SEXT: return rt_norm(expr_sext(cx, a, to_width));
    default: return rt_norm(expr_extract(cx, a, 0, to_width)); /* trunc */
    }
}

symx __sym_fit_slow(symx e, uint64_t value, uint32_t width)
{
    if (RT_CONCRETE_NOW()) return NULL;
    uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    if (width < e->width) return (e->value & mask) == value ? __sym_cast_slow(EXPR_EXTRACT, e->width, width, e) : 0;
    if (e->value == value) return __sym_cast_slow(EXPR_ZEXT, e->width, width, e);
    uint64_t sign = 1ull << (e->width - 1);
    if ((e->value & sign) && ((e->value | ~(sign | (sign - 1))) & mask) == value)
        return __sym_cast_slow(EXPR_SEXT, e->width, width, e);
    return 0;
}

symx __sym_select_slow(uint32_t width, symx c, uint64_t cv, symx t, uint64_t tv, symx e, uint64_t ev)
{
    if (RT_CONCRETE_NOW()) return NULL;
    return rt_norm(expr_ite(rt_cx(), c, rt_operand(t, tv, width), rt_operand(e, ev, width)));
}

symx __sym_overflow_slow(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (RT_CONCRETE_NOW()) return NULL;
    return rt_norm(expr_binary(rt_cx(), (expr_op)op, rt_operand(a, av, width), rt_operand(b, bv, width)));
}

/*
 * Intrinsics are composed from the core operators:
 *   bswap       concat of the bytes in reverse order
 *   ctpop       sum of the zero-extended bits
 *   ctlz/cttz   ite chain over the bits (the outermost test is the deciding bit)
 *   bitreverse  concat of the bits in reverse order
 *   abs         a <s 0 ? 0 - a : a
 *   min/max     ite over a comparison
 *   fshl/fshr   (a << s) | (b >> (w - s)) with s = c urem w; relies on shifts by
 *               >= w giving 0, which makes s == 0 yield a (fshl) or b (fshr)
 *   *_sat       ite(overflow flag, bound, plain result)
 */
static expr *ite_bits(expr_ctx *cx, expr *a, unsigned w, int leading)
{
    expr *r = expr_const(cx, w, w);
    for (unsigned k = 0; k < w; k++) {
        unsigned bit = leading ? k : w - 1 - k; /* the last bit applied is the outermost test */
        uint64_t count = leading ? w - 1 - bit : bit;
        r = expr_ite(cx, expr_extract(cx, a, bit, 1), expr_const(cx, count, w), r);
    }
    return r;
}

symx __sym_intrinsic_slow(uint32_t which, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv, symx c, uint64_t cv)
{
    if (RT_CONCRETE_NOW()) return NULL;
    expr_ctx *cx = rt_cx();
    unsigned w = width;
    expr *A = rt_operand(a, av, w), *r = NULL;
    expr *zero = expr_const(cx, 0, w);
    expr *smin = expr_const(cx, 1ull << (w - 1), w), *smax = expr_const(cx, expr_mask(w) >> 1, w);
    switch (which) {
    case SYM_I_BSWAP:
        r = expr_extract(cx, A, 0, 8);
        for (unsigned i = 1; i < w / 8; i++) r = expr_concat(cx, r, expr_extract(cx, A, 8 * i, 8));
        break;
    case SYM_I_CTPOP:
        r = zero;
        for (unsigned i = 0; i < w; i++) r = expr_binary(cx, EXPR_ADD, r, expr_zext(cx, expr_extract(cx, A, i, 1), w));
        break;
    case SYM_I_CTLZ: r = ite_bits(cx, A, w, 1); break;
    case SYM_I_CTTZ: r = ite_bits(cx, A, w, 0); break;
    case SYM_I_BITREVERSE:
        r = expr_extract(cx, A, 0, 1);
        for (unsigned i = 1; i < w; i++) r = expr_concat(cx, r, expr_extract(cx, A, i, 1));
        break;
    case SYM_I_ABS: r = expr_ite(cx, expr_cmp(cx, PRED_SLT, A, zero), expr_binary(cx, EXPR_SUB, zero, A), A); break;
    case SYM_I_SMIN:
    case SYM_I_SMAX:
    case SYM_I_UMIN:
    case SYM_I_UMAX: {
        expr *B = rt_operand(b, bv, w);
        int sgn = which == SYM_I_SMIN || which == SYM_I_SMAX;
        int mn = which == SYM_I_SMIN || which == SYM_I_UMIN;
        expr *lt = expr_cmp(cx, sgn ? PRED_SLT : PRED_ULT, A, B);
        r = mn ? expr_ite(cx, lt, A, B) : expr_ite(cx, lt, B, A);
        break;
    }
    case SYM_I_FSHL:
    case SYM_I_FSHR: {
        expr *B = rt_operand(b, bv, w), *C = rt_operand(c, cv, w);
        expr *s = expr_binary(cx, EXPR_UREM, C, expr_const(cx, w, w));
        expr *rs = expr_binary(cx, EXPR_SUB, expr_const(cx, w, w), s);
        if (which == SYM_I_FSHL)
            r = expr_binary(cx, EXPR_OR, expr_binary(cx, EXPR_SHL, A, s), expr_binary(cx, EXPR_LSHR, B, rs));
        else
            r = expr_binary(cx, EXPR_OR, expr_binary(cx, EXPR_LSHR, B, s), expr_binary(cx, EXPR_SHL, A, rs));
        break;
    }
    case SYM_I_UADD_SAT:
    case SYM_I_USUB_SAT:
    case SYM_I_SADD_SAT:
    case SYM_I_SSUB_SAT: {
        expr *B = rt_operand(b, bv, w);
        int add = which == SYM_I_UADD_SAT || which == SYM_I_SADD_SAT;
        expr *sum = expr_binary(cx, add ? EXPR_ADD : EXPR_SUB, A, B);
        if (which == SYM_I_UADD_SAT)
            r = expr_ite(cx, expr_binary(cx, EXPR_UADDO, A, B), expr_const(cx, expr_mask(w), w), sum);
        else if (which == SYM_I_USUB_SAT)
            r = expr_ite(cx, expr_binary(cx, EXPR_USUBO, A, B), zero, sum);
        else {
            /* signed overflow saturates towards the sign of a */
            expr *bound = expr_ite(cx, expr_cmp(cx, PRED_SLT, A, zero), smin, smax);
            r = expr_ite(cx, expr_binary(cx, add ? EXPR_SADDO : EXPR_SSUBO, A, B), bound, sum);
        }
        break;
    }
    default: rt_count_conc(CONC_UNSUPPORTED); return NULL;
    }
    return rt_norm(r);
}

symx __sym_ptr_add_slow(symx base, uint64_t basev, symx idx, uint64_t idxv, uint32_t idx_width, uint64_t scale)
{
    if (RT_CONCRETE_NOW()) return NULL;
    expr_ctx *cx = rt_cx();
    expr *B = rt_operand(base, basev, 64), *I;
    if (idx)
        I = idx->width < 64 ? expr_sext(cx, idx, 64) : idx;
    else
        I = expr_const(cx, (uint64_t)expr_sext64(idxv, idx_width ? idx_width : 64), 64);
    if (scale != 1) I = expr_binary(cx, EXPR_MUL, I, expr_const(cx, scale, 64));
    return rt_norm(expr_binary(cx, EXPR_ADD, B, I));
}

void __sym_branch_slow(uint32_t site, uint32_t slot_base, uint32_t taken, symx cond)
{
    if (cond->op != EXPR_CONST) rt_trace_event(BK_BRANCH, site, taken, cond, slot_base);
}

/* One BK_SWITCH event per case tested, in order, up to the matching one: the
 * switch behaves like the chain of equality tests it compiles to. */
void __sym_switch_slow(uint32_t site, uint32_t width, uint64_t value, symx e, const uint64_t *cases,
                       const uint32_t *slots, uint32_t ncases)
{
    expr_ctx *cx = rt_cx();
    for (uint32_t i = 0; i < ncases; i++) {
        int hit = cases[i] == value;
        expr *cond = expr_cmp(cx, PRED_EQ, e, expr_const(cx, cases[i] & expr_mask(e->width), e->width));
        if (cond->op != EXPR_CONST) rt_trace_event(BK_SWITCH, site, hit, cond, slots[i]);
        if (hit) break;
    }
}

void __sym_concretize_slow(uint32_t kind, symx e) { rt_count_conc(kind); }
