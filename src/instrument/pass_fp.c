/* pass_fp.c: instrumenting floating-point instructions, float intrinsics and the libm functions sympath models. */
#include <string.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../proto/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

/*
 * float and double values carry shadows like integers (their bit patterns, see
 * expr.h "Floating point"); tracked_type/bit_width/as_i64 in pass_rt.c already treat
 * them so, which makes select, phi, load, store, ret, parameters and bitcasts work
 * unchanged. This file emits the operations themselves: __sym_fp for arithmetic,
 * conversions and the modelled intrinsics and libm calls, __sym_fcmp for fcmp.
 * Other floating-point types (x86_fp80, half, fp128) have no shadow: a symbolic value
 * converted to one is concretized (CONC_FLOAT), a value converted from one is concrete.
 */

int fp_type(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

static int is_vec(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMVectorTypeKind; }

/* __sym_fp(which, width, from_width, operands...) at the builder; NULL shadows skip it. */
static LLVMValueRef emit_fp(pass *p, uint32_t which, unsigned width, unsigned from, LLVMValueRef *ops, unsigned n)
{
    LLVMValueRef sh[3] = {p->null, p->null, p->null}, v[3] = {c64(p, 0), c64(p, 0), c64(p, 0)};
    int any = 0;
    for (unsigned k = 0; k < n && k < 3; k++) {
        sh[k] = shadow_of(p, ops[k]);
        any |= !is_null_shadow(p, sh[k]);
    }
    if (!any) return NULL;
    for (unsigned k = 0; k < n && k < 3; k++) v[k] = as_i64(p, ops[k]);
    LLVMValueRef args[9] = {c32(p, which), c32(p, width), c32(p, from), sh[0], v[0], sh[1], v[1], sh[2], v[2]};
    return rt_call(p, RT_FP, args, 9);
}

void do_fp_inst(pass *p)
{
    LLVMValueRef I = p->cur;
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    LLVMValueRef a = LLVMGetOperand(I, 0);
    LLVMTypeRef at = LLVMTypeOf(a), rt = LLVMTypeOf(I);
    if (is_vec(at) || is_vec(rt)) {
        count_unsupported(p, "vector floating point");
        lose_operands(p, CONC_FLOAT);
        return;
    }
    LLVMValueRef ops[2] = {a, LLVMGetNumOperands(I) > 1 ? LLVMGetOperand(I, 1) : NULL};
    /* the operand or the result is a type without shadows (x86_fp80, half, fp128, i128) */
    int src_ok = tracked_type(p, at), dst_ok = tracked_type(p, rt);
    if (!src_ok || !dst_ok) {
        if (src_ok) lose_operands(p, LLVMGetTypeKind(rt) == LLVMIntegerTypeKind ? CONC_WIDE_INT : CONC_FLOAT);
        return;
    }
    unsigned w = bit_width(p, rt), from = bit_width(p, at);
    uint32_t which;
    switch (op) {
    case LLVMFCmp: {
        LLVMValueRef sa = shadow_of(p, a), sb = shadow_of(p, ops[1]);
        if (is_null_shadow(p, sa) && is_null_shadow(p, sb)) return;
        at_before(p);
        /* LLVMRealPredicate numbers are expr_fpred's */
        LLVMValueRef args[6] = {
            c32(p, (uint32_t)LLVMGetFCmpPredicate(I)), c32(p, from), sa, as_i64(p, a), sb, as_i64(p, ops[1])};
        set_shadow(p, I, rt_call(p, RT_FCMP, args, 6));
        return;
    }
    case LLVMFNeg: which = SYM_F_NEG; break;
    case LLVMFAdd: which = SYM_F_ADD; break;
    case LLVMFSub: which = SYM_F_SUB; break;
    case LLVMFMul: which = SYM_F_MUL; break;
    case LLVMFDiv: which = SYM_F_DIV; break;
    case LLVMFRem: which = SYM_F_REM; break;
    case LLVMFPToSI: which = SYM_F_FPTOSI; break;
    case LLVMFPToUI: which = SYM_F_FPTOUI; break;
    case LLVMSIToFP: which = SYM_F_SITOFP; break;
    case LLVMUIToFP: which = SYM_F_UITOFP; break;
    default: which = SYM_F_FPCONV; break; /* fpext, fptrunc */
    }
    at_before(p);
    LLVMValueRef s =
        emit_fp(p, which, w, from, ops,
                op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul || op == LLVMFDiv || op == LLVMFRem ? 2 : 1);
    if (s) set_shadow(p, I, s);
}

/* Float intrinsics and libm functions, by name without the type suffix. */
static const struct {
    const char *name;
    uint32_t which;
    unsigned nargs;
} fp_funcs[] = {
    {"fabs", SYM_F_ABS, 1},       {"copysign", SYM_F_COPYSIGN, 2}, {"sqrt", SYM_F_SQRT, 1},
    {"fma", SYM_F_FMA, 3},        {"fmuladd", SYM_F_FMULADD, 3},   {"minnum", SYM_F_MINNUM, 2},
    {"maxnum", SYM_F_MAXNUM, 2},  {"fmin", SYM_F_MINNUM, 2},       {"fmax", SYM_F_MAXNUM, 2},
    {"floor", SYM_F_FLOOR, 1},    {"ceil", SYM_F_CEIL, 1},         {"trunc", SYM_F_TRUNC, 1},
    {"round", SYM_F_ROUND, 1},    {"rint", SYM_F_RINT, 1},         {"nearbyint", SYM_F_RINT, 1},
    {"roundeven", SYM_F_RINT, 1}, {"fmod", SYM_F_REM, 2},
};

/* Base name of an intrinsic ("llvm.sqrt.f32" -> "sqrt") or a libm function ("sqrtf" ->
 * "sqrt" when float, "sqrt" when double) into buf; 0 when it has no such form. */
static int base_name(const char *name, int is_libm, LLVMTypeRef t, char *buf, size_t len)
{
    size_t n = strlen(name);
    if (!is_libm) {
        if (strncmp(name, "llvm.", 5) != 0) return 0;
        const char *s = name + 5, *dot = strchr(s, '.');
        if (!dot || (size_t)(dot - s) >= len) return 0;
        memcpy(buf, s, (size_t)(dot - s));
        buf[dot - s] = 0;
        return 1;
    }
    if (n >= len) return 0;
    memcpy(buf, name, n + 1);
    if (LLVMGetTypeKind(t) == LLVMFloatTypeKind) { /* sqrtf */
        if (n < 2 || buf[n - 1] != 'f') return 0;
        buf[n - 1] = 0;
    }
    return 1;
}

/* glibc classification functions and the rounding conversions to integers: name, model,
 * argument width (integer result). */
static const struct {
    const char *name;
    uint32_t which;
    unsigned width;
} fp_class_funcs[] = {
    {"__isnan", SYM_F_ISNAN, 64},
    {"__isnanf", SYM_F_ISNAN, 32},
    {"__isinf", SYM_F_ISINF, 64},
    {"__isinff", SYM_F_ISINF, 32},
    {"__finite", SYM_F_FINITE, 64},
    {"__finitef", SYM_F_FINITE, 32},
    {"__fpclassify", SYM_F_FPCLASSIFY, 64},
    {"__fpclassifyf", SYM_F_FPCLASSIFY, 32},
    {"lrint", SYM_F_LRINT, 64},
    {"lrintf", SYM_F_LRINT, 32},
    {"llrint", SYM_F_LRINT, 64},
    {"llrintf", SYM_F_LRINT, 32},
    {"lround", SYM_F_LROUND, 64},
    {"lroundf", SYM_F_LROUND, 32},
    {"llround", SYM_F_LROUND, 64},
    {"llroundf", SYM_F_LROUND, 32},
};

/* A call of a glibc classification function with its signature (one float/double, an int
 * result): its shadow, as do_fp_call. */
static int do_fp_class_call(pass *p, const char *name)
{
    LLVMValueRef I = p->cur;
    LLVMTypeRef rt = LLVMTypeOf(I);
    if (LLVMGetTypeKind(rt) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(rt) > 64 || LLVMGetNumArgOperands(I) != 1)
        return 0;
    LLVMValueRef a = LLVMGetOperand(I, 0);
    if (!fp_type(LLVMTypeOf(a))) return 0;
    for (size_t i = 0; i < sizeof fp_class_funcs / sizeof *fp_class_funcs; i++) {
        if (strcmp(name, fp_class_funcs[i].name) != 0 || bit_width(p, LLVMTypeOf(a)) != fp_class_funcs[i].width)
            continue;
        at_before(p);
        LLVMValueRef s = emit_fp(p, fp_class_funcs[i].which, bit_width(p, rt), fp_class_funcs[i].width, &a, 1);
        if (s) set_shadow(p, I, s);
        return 1;
    }
    return 0;
}

int do_fp_call(pass *p, const char *name, int is_libm)
{
    LLVMValueRef I = p->cur;
    LLVMTypeRef rt = LLVMTypeOf(I);
    if (is_libm && do_fp_class_call(p, name)) return 1;
    if (!fp_type(rt)) return 0;
    char base[32];
    if (!base_name(name, is_libm, rt, base, sizeof base)) return 0;
    unsigned nargs = LLVMGetNumArgOperands(I);
    for (size_t i = 0; i < sizeof fp_funcs / sizeof *fp_funcs; i++) {
        if (strcmp(base, fp_funcs[i].name) != 0 || nargs != fp_funcs[i].nargs) continue;
        /* libm names must have the libm signature: every argument of the result's type */
        LLVMValueRef ops[3];
        for (unsigned k = 0; k < nargs; k++) {
            ops[k] = LLVMGetOperand(I, k);
            if (LLVMTypeOf(ops[k]) != rt) return 0;
        }
        if (!is_libm && (!strcmp(base, "fmin") || !strcmp(base, "fmax") || !strcmp(base, "fmod")))
            return 0; /* libm names only */
        if (is_libm && (!strcmp(base, "fmuladd") || !strcmp(base, "minnum") || !strcmp(base, "maxnum") ||
                        !strcmp(base, "roundeven")))
            return 0; /* intrinsic names only */
        unsigned w = bit_width(p, rt);
        at_before(p);
        LLVMValueRef s = emit_fp(p, fp_funcs[i].which, w, w, ops, nargs);
        if (s) set_shadow(p, I, s);
        return 1;
    }
    return 0;
}
