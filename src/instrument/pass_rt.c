/* pass_rt.c: the pass's helpers: shadows of values, runtime declarations and calls, concretization, source locations, sites of concrete-mode copies. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../proto/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

#include <llvm-c/DebugInfo.h>

int is_vector(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind; }

void at_before(pass *p) { LLVMPositionBuilderBefore(p->b, p->cur); }
void at_after(pass *p) { LLVMPositionBuilderBefore(p->b, p->next); }

LLVMValueRef shadow_of(pass *p, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) && !LLVMIsAArgument(v)) return p->null;
    ptrmap_ent *e = ptrmap_get(&p->shadow, v);
    return e && e->a ? (LLVMValueRef)e->a : p->null;
}

void set_shadow(pass *p, LLVMValueRef v, LLVMValueRef s)
{
    if (ptrmap_put(&p->shadow, v, s, NULL)) p->oom = 1;
}

int is_null_shadow(pass *p, LLVMValueRef s) { return s == p->null || (LLVMIsConstant(s) && LLVMIsNull(s)); }

int tracked_type(pass *p, LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMPointerTypeKind || (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 64) ||
           k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

unsigned bit_width(pass *p, LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : k == LLVMFloatTypeKind ? 32 : 64;
}

LLVMValueRef c32(pass *p, uint64_t v) { return LLVMConstInt(p->i32, v, 0); }
LLVMValueRef c64(pass *p, uint64_t v) { return LLVMConstInt(p->i64, v, 0); }

LLVMValueRef as_i64(pass *p, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) return LLVMBuildPtrToInt(p->b, v, p->i64, "");
    if (LLVMGetTypeKind(t) == LLVMFloatTypeKind)
        return LLVMBuildZExt(p->b, LLVMBuildBitCast(p->b, v, p->i32, ""), p->i64, "");
    if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind) return LLVMBuildBitCast(p->b, v, p->i64, "");
    if (LLVMGetIntTypeWidth(t) < 64) return LLVMBuildZExt(p->b, v, p->i64, "");
    return v;
}

/*
 * Runtime function signatures, in enum rt_fn order: return type then parameters,
 * one letter each: v void, p pointer (symx, addresses, arrays), w uint32_t, q uint64_t.
 * If rt_fast.bc already defines the function (with its own `struct expr *` types),
 * that definition is used and rt_call casts pointers to fit.
 */
static const struct {
    const char *name, *sig;
} rt_sigs[RT_COUNT] = {
    [RT_BINOP] = {"__sym_binop", "pwwpqpq"},
    [RT_ICMP] = {"__sym_icmp", "pwwpqpq"},
    [RT_CAST] = {"__sym_cast", "pwwwp"},
    [RT_SELECT] = {"__sym_select", "pwpqpqpq"},
    [RT_OVERFLOW] = {"__sym_overflow", "pwwpqpq"},
    [RT_INTRINSIC] = {"__sym_intrinsic", "pwwpqpqpq"},
    [RT_PTR_ADD] = {"__sym_ptr_add", "ppqpqwq"},
    [RT_LOAD] = {"__sym_load", "ppqp"},
    [RT_STORE] = {"__sym_store", "vpqpp"},
    [RT_MEMCPY] = {"__sym_memcpy", "vppqp"},
    [RT_MEMSET] = {"__sym_memset", "vppqp"},
    [RT_SET_PARAM] = {"__sym_set_param", "vwp"},
    [RT_GET_PARAM] = {"__sym_get_param", "pwqw"},
    [RT_SET_RET] = {"__sym_set_ret", "vp"},
    [RT_GET_RET] = {"__sym_get_ret", "pqw"},
    [RT_BRANCH] = {"__sym_branch", "vwwwp"},
    [RT_SWITCH] = {"__sym_switch", "vwwqpppww"},
    [RT_CONCRETIZE] = {"__sym_concretize", "vwp"},
    [RT_ERROR] = {"__sym_error", "vww"},
    [RT_FORK] = {"__sym_fork", "w"},
    [RT_EXTERNAL_PTR] = {"__sym_external_ptr", "vp"},
    [RT_CONCRETIZE_CALL] = {"__sym_concretize_call", "vwp"},
    [RT_EXTERNAL_PTR_CALL] = {"__sym_external_ptr_call", "vpw"},
    [RT_SET_VARARG] = {"__sym_set_vararg", "vwp"},
    [RT_FP] = {"__sym_fp", "pwwwpqpqpq"},
    [RT_FCMP] = {"__sym_fcmp", "pwwpqpq"},
    [RT_SET_RET_FIELD] = {"__sym_set_ret_field", "vwp"},
    [RT_GET_RET_FIELD] = {"__sym_get_ret_field", "pwqw"},
    [RT_SET_BYVAL] = {"__sym_set_byval", "vwp"},
    [RT_GET_BYVAL] = {"__sym_get_byval", "vwpq"},
};

static LLVMTypeRef sig_type(pass *p, char c)
{
    switch (c) {
    case 'v': return p->vd;
    case 'p': return p->p8;
    case 'w': return p->i32;
    default: return p->i64;
    }
}

LLVMValueRef rt_decl(pass *p, enum rt_fn which)
{
    if (p->rt[which]) return p->rt[which];
    LLVMValueRef f = LLVMGetNamedFunction(p->m, rt_sigs[which].name);
    if (!f) {
        const char *sig = rt_sigs[which].sig;
        LLVMTypeRef params[10];
        unsigned n = 0;
        for (const char *c = sig + 1; *c; c++) params[n++] = sig_type(p, *c);
        f = LLVMAddFunction(p->m, rt_sigs[which].name, LLVMFunctionType(sig_type(p, sig[0]), params, n, 0));
        if (which == RT_ERROR) {
            unsigned k = LLVMGetEnumAttributeKindForName("noreturn", 8);
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(p->cx, k, 0));
        }
    }
    p->rt[which] = f;
    return f;
}

LLVMValueRef rt_call(pass *p, enum rt_fn which, LLVMValueRef *args, unsigned n)
{
    LLVMValueRef f = rt_decl(p, which);
    LLVMTypeRef fty = LLVMGlobalGetValueType(f);
    LLVMTypeRef pt[10];
    LLVMGetParamTypes(fty, pt);
    LLVMValueRef a[10];
    for (unsigned i = 0; i < n; i++) {
        a[i] = args[i];
        LLVMTypeRef at = LLVMTypeOf(a[i]);
        if (at != pt[i]) {
            if (LLVMGetTypeKind(pt[i]) == LLVMPointerTypeKind)
                a[i] = LLVMBuildPointerCast(p->b, a[i], pt[i], "");
            else
                a[i] = LLVMBuildIntCast2(p->b, a[i], pt[i], 0, "");
        }
    }
    LLVMTypeRef rt = LLVMGetReturnType(fty);
    int is_void = LLVMGetTypeKind(rt) == LLVMVoidTypeKind;
    LLVMValueRef r = LLVMBuildCall2(p->b, fty, f, a, n, is_void ? "" : "sym");
    if (!is_void && LLVMGetTypeKind(rt) == LLVMPointerTypeKind && rt != p->p8)
        r = LLVMBuildPointerCast(p->b, r, p->p8, "sym");
    return r;
}

void concretize(pass *p, uint32_t kind, LLVMValueRef s)
{
    if (is_null_shadow(p, s)) return;
    LLVMValueRef a[2] = {c32(p, kind), s};
    rt_call(p, RT_CONCRETIZE, a, 2);
}

void lose_operands(pass *p, uint32_t kind)
{
    int n = LLVMGetNumOperands(p->cur);
    at_before(p);
    for (int i = 0; i < n; i++) concretize(p, kind, shadow_of(p, LLVMGetOperand(p->cur, i)));
}

void count_unsupported(pass *p, const char *kind)
{
    if (p->concrete) /* counted once, in the original */
        return;
    if (sites_count_unsupported(p->sites, kind, 1)) p->oom = 1;
    p->res->unsupported++;
}

void inst_loc(pass *p, LLVMValueRef inst, unsigned *line, unsigned *col, const char **file)
{
    unsigned len = 0;
    *line = LLVMGetDebugLocLine(inst);
    if (*line) {
        *col = LLVMGetDebugLocColumn(inst);
        *file = LLVMGetDebugLocFilename(inst, &len);
        if (!*file || !len) *file = p->fb_file;
        return;
    }
    *line = p->fb_line;
    *col = p->fb_col;
    *file = p->fb_file;
}

void clone_record(pass *p, uint32_t a, uint32_t b)
{
    ptrmap_ent *e = p->pair.n ? ptrmap_get(&p->pair, p->cur) : NULL;
    if (e && ptrmap_put(&p->cmap, e->a, (void *)(uintptr_t)a, (void *)(uintptr_t)b)) p->oom = 1;
}

int clone_fetch(pass *p, uint32_t *a, uint32_t *b)
{
    ptrmap_ent *e = ptrmap_get(&p->cmap, p->cur);
    if (!e) {
        p->mismatch = 1;
        *a = *b = 0;
        return -1;
    }
    *a = (uint32_t)(uintptr_t)e->a;
    *b = (uint32_t)(uintptr_t)e->b;
    return 0;
}

/* Shadow of a width change from `from` to `to` bits (both <= 64); op: EXPR_EXTRACT/ZEXT/SEXT. */
LLVMValueRef resize_shadow(pass *p, uint32_t op, unsigned from, unsigned to, LLVMValueRef s)
{
    if (from == to || is_null_shadow(p, s)) return s;
    LLVMValueRef args[4] = {c32(p, op), c32(p, from), c32(p, to), s};
    return rt_call(p, RT_CAST, args, 4);
}
