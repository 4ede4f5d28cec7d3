/* pass.c: the instrumentation pass: shadow values for integer/pointer SSA values, memory accesses, branches and switches. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../expr/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

/*
 * The scheme is SymCC's: every integer or pointer SSA value V (at most 64 bits) gets
 * a shadow S(V), an i8* SSA value holding the runtime's `struct expr *` for V, or
 * NULL when V is concrete. S(constant) is the null constant, so an operation whose
 * operands are all statically concrete gets no runtime call at all; the others call
 * the rt_abi.h entry point, whose inlined fast path (rt_fast.bc) tests the shadows
 * for NULL at run time. Memory is shadowed by the runtime (__sym_load/__sym_store).
 *
 * Blocks are visited in reverse post-order, so the definition of every value
 * (and therefore its shadow) is seen before its uses; phis are the exception and
 * get their shadow phi's incoming values once the whole function is done. Only the
 * instructions that were in a block before we touched it are instrumented.
 */

/* ---- pointer map ---- */

static size_t phash(const void *k) { return ((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull; }

int pmap_put(pmap *m, const void *key, void *a, void *b)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 256;
        pmap_ent *ne = calloc(ncap, sizeof *ne);
        if (!ne)
            return -1;
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].key) {
                size_t j = phash(m->e[i].key) & (ncap - 1);
                while (ne[j].key)
                    j = (j + 1) & (ncap - 1);
                ne[j] = m->e[i];
            }
        free(m->e);
        m->e = ne;
        m->cap = ncap;
    }
    size_t j = phash(key) & (m->cap - 1);
    while (m->e[j].key && m->e[j].key != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->e[j].key)
        m->n++;
    m->e[j].key = key;
    m->e[j].a = a;
    m->e[j].b = b;
    return 0;
}

pmap_ent *pmap_get(const pmap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    size_t j = phash(key) & (m->cap - 1);
    while (m->e[j].key) {
        if (m->e[j].key == key)
            return &m->e[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

void pmap_clear(pmap *m)
{
    free(m->e);
    memset(m, 0, sizeof *m);
}

/* ---- small helpers ---- */

void at_before(pass *p) { LLVMPositionBuilderBefore(p->b, p->cur); }
void at_after(pass *p) { LLVMPositionBuilderBefore(p->b, p->next); }

LLVMValueRef shadow_of(pass *p, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) && !LLVMIsAArgument(v))
        return p->null;
    pmap_ent *e = pmap_get(&p->shadow, v);
    return e && e->a ? (LLVMValueRef)e->a : p->null;
}

void set_shadow(pass *p, LLVMValueRef v, LLVMValueRef s)
{
    if (pmap_put(&p->shadow, v, s, NULL))
        p->oom = 1;
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
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
        return LLVMBuildPtrToInt(p->b, v, p->i64, "");
    if (LLVMGetTypeKind(t) == LLVMFloatTypeKind)
        return LLVMBuildZExt(p->b, LLVMBuildBitCast(p->b, v, p->i32, ""), p->i64, "");
    if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind)
        return LLVMBuildBitCast(p->b, v, p->i64, "");
    if (LLVMGetIntTypeWidth(t) < 64)
        return LLVMBuildZExt(p->b, v, p->i64, "");
    return v;
}

/*
 * Runtime function signatures, in enum rt_fn order: return type then parameters,
 * one letter each: v void, p pointer (symx, addresses, arrays), w uint32_t, q uint64_t.
 * If rt_fast.bc already defines the function (with its own `struct expr *` types),
 * that definition is used and rt_call casts pointers to fit.
 */
static const struct { const char *name, *sig; } rt_sigs[RT_COUNT] = {
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
    if (p->rt[which])
        return p->rt[which];
    LLVMValueRef f = LLVMGetNamedFunction(p->m, rt_sigs[which].name);
    if (!f) {
        const char *sig = rt_sigs[which].sig;
        LLVMTypeRef params[10];
        unsigned n = 0;
        for (const char *c = sig + 1; *c; c++)
            params[n++] = sig_type(p, *c);
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
    if (is_null_shadow(p, s))
        return;
    LLVMValueRef a[2] = {c32(p, kind), s};
    rt_call(p, RT_CONCRETIZE, a, 2);
}

void lose_operands(pass *p, uint32_t kind)
{
    int n = LLVMGetNumOperands(p->cur);
    at_before(p);
    for (int i = 0; i < n; i++)
        concretize(p, kind, shadow_of(p, LLVMGetOperand(p->cur, i)));
}

void count_unsupported(pass *p, const char *kind)
{
    if (p->concrete) /* counted once, in the original */
        return;
    if (sites_count_unsupported(p->sites, kind, 1))
        p->oom = 1;
    p->res->unsupported++;
}

void inst_loc(pass *p, LLVMValueRef inst, unsigned *line, unsigned *col, const char **file)
{
    unsigned len = 0;
    *line = LLVMGetDebugLocLine(inst);
    if (*line) {
        *col = LLVMGetDebugLocColumn(inst);
        *file = LLVMGetDebugLocFilename(inst, &len);
        if (!*file || !len)
            *file = p->fb_file;
        return;
    }
    *line = p->fb_line;
    *col = p->fb_col;
    *file = p->fb_file;
}

void clone_record(pass *p, uint32_t a, uint32_t b)
{
    pmap_ent *e = p->pair.n ? pmap_get(&p->pair, p->cur) : NULL;
    if (e && pmap_put(&p->cmap, e->a, (void *)(uintptr_t)a, (void *)(uintptr_t)b))
        p->oom = 1;
}

int clone_fetch(pass *p, uint32_t *a, uint32_t *b)
{
    pmap_ent *e = pmap_get(&p->cmap, p->cur);
    if (!e) {
        p->mismatch = 1;
        *a = *b = 0;
        return -1;
    }
    *a = (uint32_t)(uintptr_t)e->a;
    *b = (uint32_t)(uintptr_t)e->b;
    return 0;
}

/* ---- integer arithmetic, comparisons, casts ---- */

static int is_vector(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind; }

static void do_binop(pass *p, uint32_t op)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0), b = LLVMGetOperand(p->cur, 1);
    if (is_vector(p->cur)) {
        count_unsupported(p, "vector integer arithmetic");
        return;
    }
    if (!tracked_type(p, LLVMTypeOf(p->cur)))
        return; /* wider than 64 bits: its operands have no shadows either */
    LLVMValueRef sa = shadow_of(p, a), sb = shadow_of(p, b);
    if (is_null_shadow(p, sa) && is_null_shadow(p, sb))
        return;
    /* Before the instruction: a division by a symbolic zero must be recorded before it traps. */
    at_before(p);
    LLVMValueRef args[6] = {c32(p, op), c32(p, bit_width(p, LLVMTypeOf(a))), sa, as_i64(p, a), sb, as_i64(p, b)};
    set_shadow(p, p->cur, rt_call(p, RT_BINOP, args, 6));
}

/* LLVM's predicate enum starts at 32 and is ordered differently from nothing else,
 * but translate explicitly rather than rely on arithmetic. */
static uint32_t pred_of(LLVMIntPredicate pr)
{
    switch (pr) {
    case LLVMIntEQ: return PRED_EQ;
    case LLVMIntNE: return PRED_NE;
    case LLVMIntUGT: return PRED_UGT;
    case LLVMIntUGE: return PRED_UGE;
    case LLVMIntULT: return PRED_ULT;
    case LLVMIntULE: return PRED_ULE;
    case LLVMIntSGT: return PRED_SGT;
    case LLVMIntSGE: return PRED_SGE;
    case LLVMIntSLT: return PRED_SLT;
    default: return PRED_SLE;
    }
}

static void do_icmp(pass *p)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0), b = LLVMGetOperand(p->cur, 1);
    if (is_vector(a)) {
        count_unsupported(p, "vector icmp");
        return;
    }
    if (!tracked_type(p, LLVMTypeOf(a)))
        return;
    LLVMValueRef sa = shadow_of(p, a), sb = shadow_of(p, b);
    if (is_null_shadow(p, sa) && is_null_shadow(p, sb))
        return;
    at_before(p);
    LLVMValueRef args[6] = {c32(p, pred_of(LLVMGetICmpPredicate(p->cur))), c32(p, bit_width(p, LLVMTypeOf(a))),
                            sa, as_i64(p, a), sb, as_i64(p, b)};
    set_shadow(p, p->cur, rt_call(p, RT_ICMP, args, 6));
}

/* Shadow of a width change from `from` to `to` bits (both <= 64); op: EXPR_EXTRACT/ZEXT/SEXT. */
static LLVMValueRef resize(pass *p, uint32_t op, unsigned from, unsigned to, LLVMValueRef s)
{
    if (from == to || is_null_shadow(p, s))
        return s;
    LLVMValueRef args[4] = {c32(p, op), c32(p, from), c32(p, to), s};
    return rt_call(p, RT_CAST, args, 4);
}

/* trunc, zext, sext */
static void do_intcast(pass *p, uint32_t op)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0);
    if (is_vector(a)) {
        count_unsupported(p, "vector cast");
        return;
    }
    LLVMValueRef s = shadow_of(p, a);
    if (is_null_shadow(p, s))
        return;
    unsigned from = bit_width(p, LLVMTypeOf(a)), to = bit_width(p, LLVMTypeOf(p->cur));
    at_before(p);
    if (to > 64) {
        concretize(p, CONC_WIDE_INT, s);
        return;
    }
    set_shadow(p, p->cur, resize(p, op, from, to, s));
}

/* ptrtoint, inttoptr, bitcast, addrspacecast, freeze: the value is unchanged, so is its shadow
 * (up to a width change between a pointer's 64 bits and the integer's width). */
static void do_passthrough(pass *p)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0);
    LLVMTypeRef from_t = LLVMTypeOf(a), to_t = LLVMTypeOf(p->cur);
    LLVMValueRef s = shadow_of(p, a);
    if (is_vector(a) || is_vector(p->cur)) {
        count_unsupported(p, "vector cast");
        at_before(p);
        concretize(p, CONC_UNSUPPORTED, s);
        return;
    }
    if (is_null_shadow(p, s))
        return;
    at_before(p);
    if (!tracked_type(p, to_t)) {
        LLVMTypeKind k = LLVMGetTypeKind(to_t);
        int fp = k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMHalfTypeKind ||
                 k == LLVMX86_FP80TypeKind || k == LLVMFP128TypeKind || k == LLVMBFloatTypeKind;
        concretize(p, fp ? CONC_FLOAT : k == LLVMIntegerTypeKind ? CONC_WIDE_INT : CONC_AGGREGATE, s);
        return;
    }
    unsigned from = bit_width(p, from_t), to = bit_width(p, to_t);
    set_shadow(p, p->cur, resize(p, to < from ? EXPR_EXTRACT : EXPR_ZEXT, from, to, s));
}

static void do_select(pass *p)
{
    LLVMValueRef c = LLVMGetOperand(p->cur, 0), t = LLVMGetOperand(p->cur, 1), e = LLVMGetOperand(p->cur, 2);
    LLVMValueRef sc = shadow_of(p, c), st = shadow_of(p, t), se = shadow_of(p, e);
    if (is_vector(c) || is_vector(p->cur)) {
        count_unsupported(p, "vector select");
        return;
    }
    if (!tracked_type(p, LLVMTypeOf(p->cur))) {
        /* float/aggregate chosen by a symbolic condition: the dependence is lost */
        at_before(p);
        concretize(p, LLVMGetTypeKind(LLVMTypeOf(p->cur)) == LLVMIntegerTypeKind ? CONC_WIDE_INT : CONC_FLOAT, sc);
        return;
    }
    if (is_null_shadow(p, sc) && is_null_shadow(p, st) && is_null_shadow(p, se))
        return;
    at_before(p);
    LLVMValueRef args[7] = {c32(p, bit_width(p, LLVMTypeOf(p->cur))), sc, as_i64(p, c), st, as_i64(p, t),
                            se, as_i64(p, e)};
    set_shadow(p, p->cur, rt_call(p, RT_SELECT, args, 7));
}

/* A shadow phi right before the original (phis stay grouped at the block start);
 * its incoming values are added by finish_phis once every block is done. */
static void do_phi(pass *p)
{
    if (!tracked_type(p, LLVMTypeOf(p->cur)))
        return;
    at_before(p);
    LLVMValueRef sp = LLVMBuildPhi(p->b, p->p8, "sym");
    set_shadow(p, p->cur, sp);
    if (p->nphis + 2 > p->capphis) {
        size_t ncap = p->capphis ? p->capphis * 2 : 64;
        LLVMValueRef *np = realloc(p->phis, ncap * sizeof *np);
        if (!np) {
            p->oom = 1;
            return;
        }
        p->phis = np;
        p->capphis = ncap;
    }
    p->phis[p->nphis++] = p->cur;
    p->phis[p->nphis++] = sp;
}

static void finish_phis(pass *p)
{
    for (size_t i = 0; i < p->nphis; i += 2) {
        LLVMValueRef phi = p->phis[i], sp = p->phis[i + 1];
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef s = shadow_of(p, LLVMGetIncomingValue(phi, k));
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, k);
            LLVMAddIncoming(sp, &s, &bb, 1);
        }
    }
    p->nphis = 0;
}

/* ---- memory ---- */

/*
 * getelementptr = base + sum(index_k * scale_k) + constant. Struct fields and
 * constant indexes fold into the constant (LLVMOffsetOfElement / alloc sizes from
 * the module's data layout); each variable index becomes one __sym_ptr_add step
 * carrying the concrete address reached so far, and the constant is added last.
 * Nothing is emitted when the base and all variable indexes are concrete.
 */
static void do_gep(pass *p)
{
    LLVMValueRef I = p->cur;
    if (is_vector(I)) {
        count_unsupported(p, "vector getelementptr");
        return;
    }
    unsigned n = (unsigned)LLVMGetNumOperands(I);
    LLVMValueRef base = LLVMGetOperand(I, 0);
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(I);
    uint64_t konst = 0;
    LLVMValueRef vidx[64];
    uint64_t vscale[64];
    unsigned nv = 0;
    int any_sym = !is_null_shadow(p, shadow_of(p, base));
    for (unsigned k = 1; k < n; k++) {
        LLVMValueRef idx = LLVMGetOperand(I, k);
        uint64_t scale;
        if (k == 1) {
            scale = LLVMABISizeOfType(p->td, ty);
        } else if (LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
            unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
            konst += LLVMOffsetOfElement(p->td, ty, field);
            ty = LLVMStructGetTypeAtIndex(ty, field);
            continue;
        } else {
            ty = LLVMGetElementType(ty); /* array (or vector) element */
            scale = LLVMABISizeOfType(p->td, ty);
        }
        if (LLVMIsAConstantInt(idx)) {
            konst += (uint64_t)LLVMConstIntGetSExtValue(idx) * scale;
        } else if (nv < 64) {
            vidx[nv] = idx;
            vscale[nv++] = scale;
            any_sym |= !is_null_shadow(p, shadow_of(p, idx));
        } else {
            count_unsupported(p, "getelementptr with more than 64 variable indexes");
            return;
        }
    }
    if (!any_sym)
        return;
    at_before(p);
    LLVMValueRef s = shadow_of(p, base);
    LLVMValueRef addr = LLVMBuildPtrToInt(p->b, base, p->i64, "");
    for (unsigned k = 0; k < nv; k++) {
        LLVMValueRef idx = vidx[k];
        unsigned w = bit_width(p, LLVMTypeOf(idx));
        LLVMValueRef args[6] = {s, addr, shadow_of(p, idx), as_i64(p, idx), c32(p, w), c64(p, vscale[k])};
        s = rt_call(p, RT_PTR_ADD, args, 6);
        LLVMValueRef wide = w < 64 ? LLVMBuildSExt(p->b, idx, p->i64, "") : idx;
        addr = LLVMBuildAdd(p->b, addr, LLVMBuildMul(p->b, wide, c64(p, vscale[k]), ""), "");
    }
    if (konst) {
        LLVMValueRef args[6] = {s, addr, p->null, c64(p, konst), c32(p, 64), c64(p, 1)};
        s = rt_call(p, RT_PTR_ADD, args, 6);
    }
    set_shadow(p, I, s);
}

static void do_load(pass *p)
{
    LLVMValueRef ptr = LLVMGetOperand(p->cur, 0);
    LLVMTypeRef t = LLVMTypeOf(p->cur);
    LLVMValueRef sptr = shadow_of(p, ptr);
    uint64_t size = LLVMStoreSizeOfType(p->td, t);
    if (tracked_type(p, t) && size <= 8) {
        at_before(p);
        LLVMValueRef args[3] = {ptr, c64(p, size), sptr};
        LLVMValueRef s = rt_call(p, RT_LOAD, args, 3);
        /* i1 and odd widths: memory holds whole bytes, the value is the low bits */
        set_shadow(p, p->cur, resize(p, EXPR_EXTRACT, (unsigned)(8 * size), bit_width(p, t), s));
        return;
    }
    /* float, wide, aggregate or vector: no shadow, but a symbolic address is still
     * concretized (and recorded) by the runtime */
    if (is_vector(p->cur))
        count_unsupported(p, "vector load");
    if (!is_null_shadow(p, sptr)) {
        at_before(p);
        LLVMValueRef args[3] = {ptr, c64(p, size < 8 ? size : 8), sptr};
        rt_call(p, RT_LOAD, args, 3);
    }
}

static void do_store(pass *p)
{
    LLVMValueRef val = LLVMGetOperand(p->cur, 0), ptr = LLVMGetOperand(p->cur, 1);
    LLVMTypeRef t = LLVMTypeOf(val);
    uint64_t size = LLVMStoreSizeOfType(p->td, t);
    LLVMValueRef sval = p->null;
    at_before(p);
    if (tracked_type(p, t))
        sval = resize(p, EXPR_ZEXT, bit_width(p, t), (unsigned)(8 * size), shadow_of(p, val));
    else if (is_vector(val))
        count_unsupported(p, "vector store");
    /* Always called, also for concrete values: the bytes' old shadow must be cleared. */
    LLVMValueRef args[4] = {ptr, c64(p, size), sval, shadow_of(p, ptr)};
    rt_call(p, RT_STORE, args, 4);
}

/* A fresh stack object must not inherit the shadow of an older frame's bytes at the
 * same address (uninstrumented code may have written them since): mark it concrete. */
static void do_alloca(pass *p)
{
    LLVMValueRef count = LLVMGetOperand(p->cur, 0);
    uint64_t elem = LLVMABISizeOfType(p->td, LLVMGetAllocatedType(p->cur));
    LLVMValueRef size;
    if (LLVMIsAConstantInt(count)) {
        size = c64(p, elem * LLVMConstIntGetZExtValue(count));
    } else {
        at_before(p);
        concretize(p, CONC_SYM_SIZE, shadow_of(p, count));
        at_after(p);
        size = LLVMBuildMul(p->b, as_i64(p, count), c64(p, elem), "");
    }
    at_after(p);
    LLVMValueRef args[4] = {p->cur, size, p->null, p->null};
    rt_call(p, RT_STORE, args, 4);
}

/* atomicrmw / cmpxchg write memory we do not model: the bytes become concrete. */
static void do_atomic(pass *p, const char *kind, int ptr_op, int val_op)
{
    count_unsupported(p, kind);
    lose_operands(p, CONC_UNSUPPORTED);
    LLVMValueRef ptr = LLVMGetOperand(p->cur, ptr_op);
    uint64_t size = LLVMStoreSizeOfType(p->td, LLVMTypeOf(LLVMGetOperand(p->cur, val_op)));
    LLVMValueRef args[4] = {ptr, c64(p, size), p->null, shadow_of(p, ptr)};
    rt_call(p, RT_STORE, args, 4);
}

static void do_insertvalue(pass *p)
{
    count_unsupported(p, "insertvalue");
    at_before(p);
    concretize(p, CONC_AGGREGATE, shadow_of(p, LLVMGetOperand(p->cur, 1)));
}

/* ---- control flow ---- */

static void add_site(pass *p, uint32_t ndirs, const char *kind, uint32_t *id, uint32_t *slot_base)
{
    if (p->concrete) { /* the copy reports its original's site */
        clone_fetch(p, id, slot_base);
        return;
    }
    unsigned line, col;
    const char *file;
    inst_loc(p, p->cur, &line, &col, &file);
    if (sites_add_site(p->sites, ndirs, p->user, line, col, file, p->fname, kind, id, slot_base))
        p->oom = 1;
    if (p->user)
        p->res->user_sites++;
    clone_record(p, *id, *slot_base);
}

/* Conditional br: a site with slots false = slot_base, true = slot_base + 1. */
static void do_br(pass *p)
{
    if (!LLVMIsConditional(p->cur))
        return;
    LLVMValueRef c = LLVMGetCondition(p->cur);
    uint32_t id, slot;
    add_site(p, 2, "br", &id, &slot);
    at_before(p);
    LLVMValueRef args[4] = {c32(p, id), c32(p, slot), LLVMBuildZExt(p->b, c, p->i32, ""), shadow_of(p, c)};
    rt_call(p, RT_BRANCH, args, 4);
}

/*
 * switch: one coverage slot per distinct destination block (as gcov counts switch
 * branches), the default's first; cases sharing a destination share its slot. The
 * case values and their slots go into two private constant arrays.
 */
static void do_switch(pass *p)
{
    LLVMValueRef I = p->cur, v = LLVMGetOperand(I, 0);
    if (!tracked_type(p, LLVMTypeOf(v))) {
        count_unsupported(p, "switch on integer wider than 64 bits");
        return;
    }
    unsigned ncases = ((unsigned)LLVMGetNumOperands(I) - 2) / 2;
    LLVMBasicBlockRef *dests = malloc((ncases + 1) * sizeof *dests);
    LLVMValueRef *vals = malloc((ncases + 1) * sizeof *vals), *slots = malloc((ncases + 1) * sizeof *slots);
    if (!dests || !vals || !slots) {
        free(dests), free(vals), free(slots);
        p->oom = 1;
        return;
    }
    unsigned ndest = 0;
    dests[ndest++] = LLVMGetSwitchDefaultDest(I);
    unsigned *which = (unsigned *)malloc((ncases + 1) * sizeof *which);
    if (!which) {
        free(dests), free(vals), free(slots);
        p->oom = 1;
        return;
    }
    for (unsigned i = 0; i < ncases; i++) {
        LLVMBasicBlockRef d = LLVMGetSuccessor(I, i + 1);
        unsigned k = 0;
        while (k < ndest && dests[k] != d)
            k++;
        if (k == ndest)
            dests[ndest++] = d;
        which[i] = k;
    }
    uint32_t id, slot;
    add_site(p, ndest, "switch", &id, &slot);
    for (unsigned i = 0; i < ncases; i++) {
        vals[i] = LLVMConstInt(p->i64, LLVMConstIntGetZExtValue(LLVMGetOperand(I, 2 + 2 * i)), 0);
        slots[i] = c32(p, slot + which[i]);
    }
    LLVMValueRef gcases = p->null, gslots = p->null;
    if (ncases) {
        gcases = LLVMAddGlobal(p->m, LLVMArrayType(p->i64, ncases), "__sym_switch_cases");
        LLVMSetInitializer(gcases, LLVMConstArray(p->i64, vals, ncases));
        gslots = LLVMAddGlobal(p->m, LLVMArrayType(p->i32, ncases), "__sym_switch_slots");
        LLVMSetInitializer(gslots, LLVMConstArray(p->i32, slots, ncases));
        LLVMValueRef g[2] = {gcases, gslots};
        for (int k = 0; k < 2; k++) {
            LLVMSetGlobalConstant(g[k], 1);
            LLVMSetLinkage(g[k], LLVMPrivateLinkage);
            LLVMSetUnnamedAddress(g[k], LLVMGlobalUnnamedAddr);
        }
    }
    at_before(p);
    LLVMValueRef args[8] = {c32(p, id), c32(p, bit_width(p, LLVMTypeOf(v))), as_i64(p, v), shadow_of(p, v),
                            gcases, gslots, c32(p, ncases), c32(p, slot)};
    rt_call(p, RT_SWITCH, args, 8);
    free(dests), free(vals), free(slots), free(which);
}

static void do_ret(pass *p)
{
    if (LLVMGetNumOperands(p->cur) < 1)
        return;
    LLVMValueRef v = LLVMGetOperand(p->cur, 0);
    if (!tracked_type(p, LLVMTypeOf(v)))
        return;
    at_before(p);
    LLVMValueRef s = shadow_of(p, v);
    rt_call(p, RT_SET_RET, &s, 1);
}

/* ---- dispatch ---- */

static const char *opcode_name(LLVMOpcode op)
{
    switch (op) {
    case LLVMIndirectBr: return "indirectbr";
    case LLVMInvoke: return "invoke";
    case LLVMCallBr: return "callbr";
    case LLVMResume: return "resume";
    case LLVMLandingPad: return "landingpad";
    case LLVMCleanupRet: return "cleanupret";
    case LLVMCatchRet: return "catchret";
    case LLVMCatchPad: return "catchpad";
    case LLVMCleanupPad: return "cleanuppad";
    case LLVMCatchSwitch: return "catchswitch";
    case LLVMVAArg: return "va_arg";
    case LLVMExtractElement: return "extractelement";
    case LLVMInsertElement: return "insertelement";
    case LLVMShuffleVector: return "shufflevector";
    case LLVMUserOp1: case LLVMUserOp2: return "userop";
    default: return "unknown instruction";
    }
}

/* Concrete mode: no value is symbolic, so only coverage, error hooks and the calls'
 * targets remain; everything else of the copy runs as compiled. */
static void instrument_inst_concrete(pass *p)
{
    switch (LLVMGetInstructionOpcode(p->cur)) {
    case LLVMBr: do_br(p); break;
    case LLVMSwitch: do_switch(p); break;
    case LLVMCall: do_call_concrete(p); break;
    default: break;
    }
}

static void instrument_inst(pass *p)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(p->cur);
    if (p->concrete) {
        instrument_inst_concrete(p);
        return;
    }
    switch (op) {
    case LLVMAdd: do_binop(p, EXPR_ADD); break;
    case LLVMSub: do_binop(p, EXPR_SUB); break;
    case LLVMMul: do_binop(p, EXPR_MUL); break;
    case LLVMUDiv: do_binop(p, EXPR_UDIV); break;
    case LLVMSDiv: do_binop(p, EXPR_SDIV); break;
    case LLVMURem: do_binop(p, EXPR_UREM); break;
    case LLVMSRem: do_binop(p, EXPR_SREM); break;
    case LLVMShl: do_binop(p, EXPR_SHL); break;
    case LLVMLShr: do_binop(p, EXPR_LSHR); break;
    case LLVMAShr: do_binop(p, EXPR_ASHR); break;
    case LLVMAnd: do_binop(p, EXPR_AND); break;
    case LLVMOr: do_binop(p, EXPR_OR); break;
    case LLVMXor: do_binop(p, EXPR_XOR); break;
    case LLVMICmp: do_icmp(p); break;
    case LLVMTrunc: do_intcast(p, EXPR_EXTRACT); break;
    case LLVMZExt: do_intcast(p, EXPR_ZEXT); break;
    case LLVMSExt: do_intcast(p, EXPR_SEXT); break;
    case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMFreeze:
        do_passthrough(p);
        break;
    case LLVMFNeg: case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem:
    case LLVMFCmp: case LLVMFPToSI: case LLVMFPToUI: case LLVMSIToFP: case LLVMUIToFP:
    case LLVMFPTrunc: case LLVMFPExt:
        do_fp_inst(p);
        break;
    case LLVMSelect: do_select(p); break;
    case LLVMPHI: do_phi(p); break;
    case LLVMGetElementPtr: do_gep(p); break;
    case LLVMLoad: do_load(p); break;
    case LLVMStore: do_store(p); break;
    case LLVMAlloca: do_alloca(p); break;
    case LLVMBr: do_br(p); break;
    case LLVMSwitch: do_switch(p); break;
    case LLVMRet: do_ret(p); break;
    case LLVMCall: do_call(p); break;
    case LLVMExtractValue: do_extractvalue(p); break;
    case LLVMInsertValue: do_insertvalue(p); break;
    case LLVMAtomicRMW: do_atomic(p, "atomicrmw", 0, 1); break;
    case LLVMAtomicCmpXchg: do_atomic(p, "cmpxchg", 0, 1); break;
    /* instructions without values */
    case LLVMUnreachable: case LLVMFence:
        break;
    default:
        count_unsupported(p, opcode_name(op));
        lose_operands(p, CONC_UNSUPPORTED);
        break;
    }
}

/* ---- functions ---- */

static int in_list(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

/* Blocks in reverse post-order from the entry, then unreachable blocks in layout order.
 * Returns a malloc'ed array of n blocks, or NULL when out of memory. */
static LLVMBasicBlockRef *rpo_blocks(LLVMValueRef fn, unsigned *count)
{
    unsigned n = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *bbs = malloc(n * sizeof *bbs), *out = malloc(n * sizeof *out);
    LLVMBasicBlockRef *stack = malloc(n * sizeof *stack);
    unsigned *next = calloc(n, sizeof *next);
    char *seen = calloc(n, 1);
    pmap index = {0};
    int ok = bbs && out && stack && next && seen;
    unsigned nout = 0;
    if (ok) {
        LLVMGetBasicBlocks(fn, bbs);
        for (unsigned i = 0; i < n && ok; i++)
            ok = !pmap_put(&index, bbs[i], (void *)(uintptr_t)i, NULL);
    }
    if (ok) {
        /* iterative DFS; a block is emitted (post-order) when all its successors are done */
        unsigned sp = 0;
        stack[sp++] = bbs[0];
        seen[0] = 1;
        while (sp) {
            LLVMBasicBlockRef bb = stack[sp - 1];
            unsigned bi = (unsigned)(uintptr_t)pmap_get(&index, bb)->a;
            LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
            unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
            if (next[bi] < ns) {
                LLVMBasicBlockRef s = LLVMGetSuccessor(term, next[bi]++);
                unsigned si = (unsigned)(uintptr_t)pmap_get(&index, s)->a;
                if (!seen[si]) {
                    seen[si] = 1;
                    stack[sp++] = s;
                }
            } else {
                out[nout++] = bb;
                sp--;
            }
        }
        for (unsigned i = 0; i < nout / 2; i++) {
            LLVMBasicBlockRef t = out[i];
            out[i] = out[nout - 1 - i];
            out[nout - 1 - i] = t;
        }
        for (unsigned i = 0; i < n; i++)
            if (!seen[i])
                out[nout++] = bbs[i];
    }
    free(bbs), free(stack), free(next), free(seen);
    pmap_clear(&index);
    if (!ok) {
        free(out);
        return NULL;
    }
    *count = n;
    return out;
}

/* Parameters' shadows at entry (not in main: its arguments come from libc). */
static void entry_params(pass *p, LLVMValueRef first)
{
    unsigned n = LLVMCountParams(p->fn);
    LLVMPositionBuilderBefore(p->b, first);
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetParam(p->fn, i);
        if (LLVMGetEnumAttributeAtIndex(p->fn, i + 1, byval)) {
            /* the caller's copy is made by the code generator, without its shadow */
            count_unsupported(p, "byval parameter");
            continue;
        }
        if (p->is_main || !tracked_type(p, LLVMTypeOf(a)))
            continue;
        LLVMValueRef args[3] = {c32(p, i), as_i64(p, a), c32(p, bit_width(p, LLVMTypeOf(a)))};
        set_shadow(p, a, rt_call(p, RT_GET_PARAM, args, 3));
    }
    /* where the dispatch to the concrete copy may split the entry block */
    p->prologue_end = LLVMGetPreviousInstruction(first);
}

static void instrument_block(pass *p, LLVMBasicBlockRef bb, int is_entry)
{
    size_t n = 0, cap = 64;
    LLVMValueRef *insts = malloc(cap * sizeof *insts);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && insts; i = LLVMGetNextInstruction(i)) {
        if (n == cap) {
            LLVMValueRef *ni = realloc(insts, 2 * cap * sizeof *ni);
            if (!ni) {
                free(insts);
                insts = NULL;
                break;
            }
            insts = ni;
            cap *= 2;
        }
        insts[n++] = i;
    }
    if (!insts) {
        p->oom = 1;
        return;
    }
    if (is_entry && n && !p->concrete)
        entry_params(p, insts[0]);
    for (size_t k = 0; k < n; k++) {
        p->cur = insts[k];
        p->next = k + 1 < n ? insts[k + 1] : NULL;
        /* inserted code carries the original instruction's line (backtraces, and the
         * verifier wants locations on inlinable calls) */
        LLVMSetCurrentDebugLocation2(p->b, LLVMInstructionGetDebugLoc(p->cur));
        instrument_inst(p);
    }
    LLVMSetCurrentDebugLocation2(p->b, NULL);
    free(insts);
}

/* Name, kind and fallback location of the function about to be instrumented. */
static void begin_function(pass *p, LLVMValueRef fn, const char *name)
{
    p->fn = fn;
    /* the helpers of a `sympath unit` harness (sympu_*) are not the program's own code */
    p->user = !in_list(name, p->cfg->model_names, p->cfg->n_models) && strncmp(name, "sympu_", 6) != 0;
    p->is_main = !strcmp(name, "main");
    /* the program's main under --sym-args/--sym-stdin/--sym-file (build.c) keeps its name in reports */
    p->fname = !strcmp(name, "__sym_user_main") ? "main" : name;
    p->in_reach_error = !strcmp(p->fname, "reach_error");
    p->fb_line = p->fb_col = 0;
    p->fb_file = "?";
    p->prologue_end = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !p->fb_line; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetDebugLocLine(i)) {
                unsigned flen = 0;
                const char *f = LLVMGetDebugLocFilename(i, &flen);
                p->fb_line = LLVMGetDebugLocLine(i);
                p->fb_col = LLVMGetDebugLocColumn(i);
                p->fb_file = f && flen ? f : "?";
                break;
            }
}

static void instrument_body(pass *p, LLVMValueRef fn)
{
    unsigned nb;
    LLVMBasicBlockRef *order = rpo_blocks(fn, &nb);
    if (!order) {
        p->oom = 1;
        return;
    }
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    for (unsigned i = 0; i < nb && !p->oom; i++)
        instrument_block(p, order[i], order[i] == entry);
    free(order);
    finish_phis(p);
}

/* Map every instruction of fn to the one at the same place in its copy (which was made
 * from fn before either was instrumented, so the two have the same shape). */
static int pair_instructions(pass *p, LLVMValueRef fn, LLVMValueRef copy)
{
    LLVMBasicBlockRef a = LLVMGetFirstBasicBlock(fn), b = LLVMGetFirstBasicBlock(copy);
    for (; a && b; a = LLVMGetNextBasicBlock(a), b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef i = LLVMGetFirstInstruction(a), j = LLVMGetFirstInstruction(b);
        for (; i && j; i = LLVMGetNextInstruction(i), j = LLVMGetNextInstruction(j)) {
            if (LLVMGetInstructionOpcode(i) != LLVMGetInstructionOpcode(j))
                return -1;
            if (pmap_put(&p->pair, i, j, NULL)) {
                p->oom = 1;
                return 0;
            }
        }
        if (i || j)
            return -1;
    }
    return a || b ? -1 : 0;
}

/* May F's entry call its copy? Not main (run once, its arguments come from libc), not a
 * variadic function (the extra arguments cannot be forwarded), not with arguments the
 * code generator copies (byval and the like: the copy would be copied again). */
static int can_dispatch(pass *p, LLVMValueRef fn)
{
    if (p->is_main || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
        return 0;
    static const char *const attrs[] = {"byval", "inalloca", "preallocated", "byref"};
    unsigned n = LLVMCountParams(fn);
    for (unsigned k = 0; k < sizeof attrs / sizeof *attrs; k++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(attrs[k], strlen(attrs[k]));
        for (unsigned i = 0; kind && i < n; i++)
            if (LLVMGetEnumAttributeAtIndex(fn, i + 1, kind))
                return 0;
    }
    return 1;
}

/*
 * The dispatch at F's entry, once F is instrumented:
 *
 *   sym.dispatch:  static allocas; parameter prologue (__sym_get_param ...)
 *                  br (__sym_shadow_active == 0 && every parameter shadow == NULL),
 *                     sym.concrete, old entry
 *   sym.concrete:  r = F.sym_concrete(params); __sym_set_ret(NULL); ret r
 *
 * Static allocas move to the new entry block so that they stay static (the optimiser
 * folds only those into the frame); the shadow clears after them stay behind, since only
 * the instrumented path needs them.
 */
static void insert_dispatch(pass *p, LLVMValueRef fn, LLVMValueRef copy)
{
    LLVMBasicBlockRef old = LLVMGetEntryBasicBlock(fn);
    LLVMBasicBlockRef disp = LLVMInsertBasicBlockInContext(p->cx, old, "sym.dispatch");
    LLVMBasicBlockRef conc = LLVMAppendBasicBlockInContext(p->cx, fn, "sym.concrete");
    LLVMSetCurrentDebugLocation2(p->b, NULL); /* moved instructions keep their own locations */
    LLVMPositionBuilderAtEnd(p->b, disp);
    for (LLVMValueRef i = LLVMGetFirstInstruction(old), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (LLVMIsAAllocaInst(i) && LLVMIsAConstant(LLVMGetOperand(i, 0))) {
            size_t len;
            char *name = strdup(LLVMGetValueName2(i, &len));
            LLVMInstructionRemoveFromParent(i);
            LLVMInsertIntoBuilderWithName(p->b, i, name ? name : "");
            free(name);
        }
    }
    if (p->prologue_end) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(old), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            size_t len;
            char *name = strdup(LLVMGetValueName2(i, &len));
            LLVMInstructionRemoveFromParent(i);
            LLVMInsertIntoBuilderWithName(p->b, i, name ? name : "");
            free(name);
            if (i == p->prologue_end)
                break;
        }
    }
    /* The call of the copy needs a location in F's scope (the verifier wants one on
     * calls between functions with debug info). */
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if (sp)
        LLVMSetCurrentDebugLocation2(p->b, LLVMDIBuilderCreateDebugLocation(p->cx, p->fb_line, p->fb_col, sp, NULL));
    LLVMValueRef active = LLVMGetNamedGlobal(p->m, "__sym_shadow_active");
    if (!active)
        active = LLVMAddGlobal(p->m, p->i32, "__sym_shadow_active");
    LLVMTypeRef aty = LLVMGlobalGetValueType(active);
    LLVMValueRef cond = LLVMBuildICmp(p->b, LLVMIntEQ, LLVMBuildLoad2(p->b, aty, active, ""),
                                      LLVMConstInt(aty, 0, 0), "");
    unsigned n = LLVMCountParams(fn);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef s = shadow_of(p, LLVMGetParam(fn, i));
        if (!is_null_shadow(p, s))
            cond = LLVMBuildAnd(p->b, cond, LLVMBuildICmp(p->b, LLVMIntEQ, s, p->null, ""), "");
    }
    LLVMBuildCondBr(p->b, cond, conc, old);

    LLVMPositionBuilderAtEnd(p->b, conc);
    LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
    if (!args) {
        p->oom = 1;
        LLVMBuildUnreachable(p->b);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        args[i] = LLVMGetParam(fn, i);
    LLVMTypeRef fty = LLVMGlobalGetValueType(copy);
    LLVMValueRef r = LLVMBuildCall2(p->b, fty, copy, args, n, "");
    free(args);
    LLVMSetInstructionCallConv(r, LLVMGetFunctionCallConv(copy));
    LLVMValueRef none = p->null;
    rt_call(p, RT_SET_RET, &none, 1);
    if (LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind)
        LLVMBuildRetVoid(p->b);
    else
        LLVMBuildRet(p->b, r);
    LLVMSetCurrentDebugLocation2(p->b, NULL);
    p->res->dispatches++;
}

/*
 * The function a model's dispatch calls when nothing is symbolic: for __sym_model_X where
 * libc's X computes the same (model_is_libc_when_concrete), X itself, declared with the
 * model's type (the models have libc's signatures), so concrete calls run glibc's own code;
 * otherwise the model's concrete copy.
 */
static LLVMValueRef libc_target(pass *p, const char *name, LLVMValueRef fn, LLVMValueRef copy)
{
    static const char pre[] = "__sym_model_";
    if (strncmp(name, pre, sizeof pre - 1) || !model_is_libc_when_concrete(name + sizeof pre - 1))
        return copy;
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    LLVMValueRef x = LLVMGetNamedFunction(p->m, name + sizeof pre - 1);
    if (!x)
        x = LLVMAddFunction(p->m, name + sizeof pre - 1, fty);
    else if (LLVMGlobalGetValueType(x) != fty || !LLVMIsDeclaration(x))
        return copy; /* declared otherwise, or the program's own X: keep the model's copy */
    return x;
}

/*
 * F, then its concrete-mode copy if it has one (same sites: the copy's branches are
 * looked up through the instruction pairing), then the dispatch. The shadows of F's
 * parameters are still in p->shadow for the dispatch, so it is built before clearing.
 */
static void instrument_function(pass *p, LLVMValueRef fn)
{
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    char *cname = util_strf("%s%s", name, CONCRETE_SUFFIX);
    if (!cname) {
        p->oom = 1;
        return;
    }
    LLVMValueRef copy = LLVMGetNamedFunction(p->m, cname);
    free(cname);
    if (copy && LLVMIsDeclaration(copy))
        copy = NULL;
    if (copy && pair_instructions(p, fn, copy)) {
        p->mismatch = 1;
        return;
    }
    begin_function(p, fn, name);
    instrument_body(p, fn);
    if (copy && !p->oom) {
        pmap saved = p->shadow; /* F's parameter shadows, for the dispatch */
        memset(&p->shadow, 0, sizeof p->shadow);
        LLVMValueRef prologue_end = p->prologue_end;
        p->concrete = 1;
        p->fn = copy;
        instrument_body(p, copy);
        pmap_clear(&p->shadow);
        p->concrete = 0;
        p->fn = fn;
        p->shadow = saved;
        p->prologue_end = prologue_end;
        if (can_dispatch(p, fn))
            insert_dispatch(p, fn, libc_target(p, name, fn, copy));
    }
    pmap_clear(&p->shadow);
    pmap_clear(&p->pair);
    pmap_clear(&p->cmap);
    p->res->functions++;
}

int instrument_module(LLVMModuleRef m, const instr_config *cfg, site_table *sites, instr_result *res, char **err)
{
    pass P = {0}, *p = &P;
    memset(res, 0, sizeof *res);
    p->m = m;
    p->cx = LLVMGetModuleContext(m);
    p->b = LLVMCreateBuilderInContext(p->cx);
    p->td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    p->cfg = cfg;
    p->sites = sites;
    p->res = res;
    p->i1 = LLVMInt1TypeInContext(p->cx);
    p->i8 = LLVMInt8TypeInContext(p->cx);
    p->i32 = LLVMInt32TypeInContext(p->cx);
    p->i64 = LLVMInt64TypeInContext(p->cx);
    p->p8 = LLVMPointerType(p->i8, 0);
    p->vd = LLVMVoidTypeInContext(p->cx);
    p->null = LLVMConstPointerNull(p->p8);

    /* The function list first: the pass adds declarations while it runs. */
    size_t nf = 0, capf = 64;
    LLVMValueRef *fns = malloc(capf * sizeof *fns);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && fns; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && !in_list(name, cfg->rt_fast_names, cfg->n_rt_fast))
            strip_function_memory_attrs(f);
        /* concrete-mode copies are instrumented together with their originals */
        size_t ls = strlen(CONCRETE_SUFFIX);
        if (LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) || in_list(name, cfg->rt_fast_names, cfg->n_rt_fast) ||
            (len > ls && !strcmp(name + len - ls, CONCRETE_SUFFIX)))
            continue;
        if (nf == capf) {
            LLVMValueRef *nfns = realloc(fns, 2 * capf * sizeof *nfns);
            if (!nfns) {
                free(fns);
                fns = NULL;
                break;
            }
            fns = nfns;
            capf *= 2;
        }
        fns[nf++] = f;
    }
    if (!fns)
        p->oom = 1;
    for (size_t i = 0; i < nf && !p->oom && !p->mismatch; i++)
        instrument_function(p, fns[i]);
    free(fns);
    free(p->phis);
    pmap_clear(&p->shadow);
    pmap_clear(&p->pair);
    pmap_clear(&p->cmap);
    LLVMDisposeTargetData(p->td);
    LLVMDisposeBuilder(p->b);
    if (p->oom) {
        *err = util_strf("instrumentation: out of memory");
        return -1;
    }
    if (p->mismatch) {
        *err = util_strf("internal error (a bug in sympath's instrumenter): a concrete-mode copy does not "
                          "match its original, or makes a call that needs shadows");
        return -1;
    }
    return 0;
}
