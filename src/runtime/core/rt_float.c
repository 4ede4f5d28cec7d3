/* rt_float.c: slow paths of the floating-point entry points: float and double operations become expressions over their bit patterns. */
#include "rt_internal.h"

/*
 * Each LLVM operation maps onto expr_fp / expr_fcmp (expr.h, "Floating point"); the
 * sign-bit operations are bit operations, exactly as LLVM defines fneg, fabs and
 * copysign (no rounding, NaN payloads kept). llvm.fmuladd is a multiplication then an
 * addition, each rounded: the executor is compiled for baseline x86-64, which has no
 * FMA instruction, and that is what the code generator emits there.
 */
/* glibc's __isnan, __isinf, __finite, __fpclassify of the fw-bit float A, as a
 * width-bit integer (values in rt_abi.h). */
static expr *classify(expr_ctx *cx, uint32_t which, expr *A, unsigned fw, unsigned width)
{
    uint64_t sign = 1ull << (fw - 1);
    uint64_t inf = fw == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;
    uint64_t min_normal = fw == 32 ? 0x00800000ull : 0x0010000000000000ull;
    expr *mag = expr_binary(cx, EXPR_AND, A, expr_const(cx, sign - 1, fw));
    expr *nan = expr_fcmp(cx, FPRED_UNO, A, A);
    expr *is_inf = expr_fcmp(cx, FPRED_OEQ, mag, expr_const(cx, inf, fw));
    expr *one = expr_const(cx, 1, width), *zero = expr_const(cx, 0, width);
    switch (which) {
    case SYM_F_ISNAN: return expr_ite(cx, nan, one, zero);
    case SYM_F_FINITE: return expr_ite(cx, expr_fcmp(cx, FPRED_OLT, mag, expr_const(cx, inf, fw)), one, zero);
    case SYM_F_ISINF:
        return expr_ite(cx, is_inf,
                        expr_ite(cx, expr_binary(cx, EXPR_ULT, A, expr_const(cx, sign, fw)), one,
                                 expr_const(cx, expr_mask(width), width)),
                        zero);
    default: /* fpclassify */
        return expr_ite(
            cx, nan, zero,
            expr_ite(cx, is_inf, one,
                     expr_ite(cx, expr_fcmp(cx, FPRED_OEQ, A, expr_const(cx, 0, fw)), expr_const(cx, 2, width),
                              expr_ite(cx, expr_fcmp(cx, FPRED_OLT, mag, expr_const(cx, min_normal, fw)),
                                       expr_const(cx, 3, width), expr_const(cx, 4, width)))));
    }
}

symx __sym_fp_slow(uint32_t which, uint32_t width, uint32_t from_width, symx a, uint64_t av, symx b, uint64_t bv,
                   symx c, uint64_t cv)
{
    if (RT_CONCRETE_NOW()) return NULL;
    expr_ctx *cx = rt_cx();
    unsigned fw = from_width;
    if ((fw != 32 && fw != 64 && which != SYM_F_SITOFP && which != SYM_F_UITOFP) || fw < 1 || fw > 64 || width < 1 ||
        width > 64) {
        rt_count_conc(CONC_FLOAT);
        return NULL;
    }
    unsigned bw = which == SYM_F_SITOFP || which == SYM_F_UITOFP ? 0 : fw; /* b, c: floats like a */
    if ((a && a->width != fw) || (b && b->width != bw) || (c && c->width != bw)) {
        rt_count_conc(CONC_FLOAT); /* a shadow of another width: a caller/callee type mismatch */
        return NULL;
    }
    expr *A = rt_operand(a, av, fw);
    uint64_t sign = 1ull << (fw - 1);
    expr *r;
    switch (which) {
    case SYM_F_ADD:
    case SYM_F_SUB:
    case SYM_F_MUL:
    case SYM_F_DIV:
    case SYM_F_REM: {
        static const expr_op ops[] = {EXPR_FADD, EXPR_FSUB, EXPR_FMUL, EXPR_FDIV, EXPR_FREM};
        r = expr_fp(cx, ops[which - SYM_F_ADD], fw, 0, A, rt_operand(b, bv, fw), NULL);
        break;
    }
    case SYM_F_NEG: r = expr_binary(cx, EXPR_XOR, A, expr_const(cx, sign, fw)); break;
    case SYM_F_ABS: r = expr_binary(cx, EXPR_AND, A, expr_const(cx, sign - 1, fw)); break;
    case SYM_F_COPYSIGN: {
        expr *mag = expr_binary(cx, EXPR_AND, A, expr_const(cx, ~sign & expr_mask(fw), fw));
        expr *sg = expr_binary(cx, EXPR_AND, rt_operand(b, bv, fw), expr_const(cx, sign, fw));
        r = expr_binary(cx, EXPR_OR, mag, sg);
        break;
    }
    case SYM_F_SQRT: r = expr_fp(cx, EXPR_FSQRT, fw, 0, A, NULL, NULL); break;
    case SYM_F_FMA: r = expr_fp(cx, EXPR_FMA, fw, 0, A, rt_operand(b, bv, fw), rt_operand(c, cv, fw)); break;
    case SYM_F_FMULADD:
        r = expr_fp(cx, EXPR_FADD, fw, 0, expr_fp(cx, EXPR_FMUL, fw, 0, A, rt_operand(b, bv, fw), NULL),
                    rt_operand(c, cv, fw), NULL);
        break;
    case SYM_F_MINNUM: r = expr_fp(cx, EXPR_FMIN, fw, 0, A, rt_operand(b, bv, fw), NULL); break;
    case SYM_F_MAXNUM: r = expr_fp(cx, EXPR_FMAX, fw, 0, A, rt_operand(b, bv, fw), NULL); break;
    case SYM_F_FLOOR: r = expr_fp(cx, EXPR_FRINT, fw, FRM_RTN, A, NULL, NULL); break;
    case SYM_F_CEIL: r = expr_fp(cx, EXPR_FRINT, fw, FRM_RTP, A, NULL, NULL); break;
    case SYM_F_TRUNC: r = expr_fp(cx, EXPR_FRINT, fw, FRM_RTZ, A, NULL, NULL); break;
    case SYM_F_ROUND: r = expr_fp(cx, EXPR_FRINT, fw, FRM_RNA, A, NULL, NULL); break;
    case SYM_F_RINT: r = expr_fp(cx, EXPR_FRINT, fw, FRM_RNE, A, NULL, NULL); break;
    case SYM_F_FPTOSI: r = expr_fp(cx, EXPR_FTOSI, width, 0, A, NULL, NULL); break;
    case SYM_F_FPTOUI: r = expr_fp(cx, EXPR_FTOUI, width, 0, A, NULL, NULL); break;
    case SYM_F_SITOFP:
    case SYM_F_UITOFP:
        if (width != 32 && width != 64) {
            rt_count_conc(CONC_FLOAT);
            return NULL;
        }
        r = expr_fp(cx, which == SYM_F_SITOFP ? EXPR_SITOF : EXPR_UITOF, width, 0, A, NULL, NULL);
        break;
    case SYM_F_FPCONV:
        if (width == fw) return a;
        if (width != 32 && width != 64) {
            rt_count_conc(CONC_FLOAT);
            return NULL;
        }
        r = expr_fp(cx, EXPR_FCVT, width, 0, A, NULL, NULL);
        break;
    case SYM_F_LRINT:
    case SYM_F_LROUND:
        /* x86-64 glibc: cvtsd2si of x in the rounding mode (lrint), of x rounded half away
         * from zero (lround); out of range, the integer indefinite, as EXPR_FTOSI gives */
        r = expr_fp(cx, EXPR_FTOSI, width, 0,
                    expr_fp(cx, EXPR_FRINT, fw, which == SYM_F_LRINT ? FRM_RNE : FRM_RNA, A, NULL, NULL), NULL, NULL);
        break;
    case SYM_F_ISNAN:
    case SYM_F_ISINF:
    case SYM_F_FINITE:
    case SYM_F_FPCLASSIFY: r = classify(cx, which, A, fw, width); break;
    default: rt_count_conc(CONC_FLOAT); return NULL;
    }
    return rt_norm(r);
}

symx __sym_fcmp_slow(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv)
{
    if (RT_CONCRETE_NOW()) return NULL;
    if ((width != 32 && width != 64) || pred > FPRED_TRUE || (a && a->width != width) || (b && b->width != width)) {
        rt_count_conc(CONC_FLOAT);
        return NULL;
    }
    return rt_norm(expr_fcmp(rt_cx(), (expr_fpred)pred, rt_operand(a, av, width), rt_operand(b, bv, width)));
}
