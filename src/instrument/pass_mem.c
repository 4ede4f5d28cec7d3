/* pass_mem.c: the pass's memory instructions: getelementptr, load, store, alloca, atomics, insertvalue. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../proto/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

/*
 * getelementptr = base + sum(index_k * scale_k) + constant. Struct fields and
 * constant indexes fold into the constant (LLVMOffsetOfElement / alloc sizes from
 * the module's data layout); each variable index becomes one __sym_ptr_add step
 * carrying the concrete address reached so far, and the constant is added last.
 * Nothing is emitted when the base and all variable indexes are concrete.
 */
void do_gep(pass *p)
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
    if (!any_sym) return;
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

void do_load(pass *p)
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
        set_shadow(p, p->cur, resize_shadow(p, EXPR_EXTRACT, (unsigned)(8 * size), bit_width(p, t), s));
        return;
    }
    if (agg_tracked_type(p, t)) {
        agg_load(p, sptr);
        return;
    }
    /* float, wide, aggregate or vector: no shadow, but a symbolic address is still
     * concretized (and recorded) by the runtime */
    if (is_vector(p->cur)) count_unsupported(p, "vector load");
    if (!is_null_shadow(p, sptr)) {
        at_before(p);
        LLVMValueRef args[3] = {ptr, c64(p, size < 8 ? size : 8), sptr};
        rt_call(p, RT_LOAD, args, 3);
    }
}

void do_store(pass *p)
{
    LLVMValueRef val = LLVMGetOperand(p->cur, 0), ptr = LLVMGetOperand(p->cur, 1);
    LLVMTypeRef t = LLVMTypeOf(val);
    uint64_t size = LLVMStoreSizeOfType(p->td, t);
    LLVMValueRef sval = p->null;
    at_before(p);
    if (tracked_type(p, t))
        sval = resize_shadow(p, EXPR_ZEXT, bit_width(p, t), (unsigned)(8 * size), shadow_of(p, val));
    else if (is_vector(val))
        count_unsupported(p, "vector store");
    /* Always called, also for concrete values: the bytes' old shadow must be cleared. */
    LLVMValueRef args[4] = {ptr, c64(p, size), sval, shadow_of(p, ptr)};
    rt_call(p, RT_STORE, args, 4);
    if (agg_tracked_type(p, t)) agg_store(p);
}

/* A fresh stack object must not inherit the shadow of an older frame's bytes at the
 * same address (uninstrumented code may have written them since): mark it concrete. */
void do_alloca(pass *p)
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
void do_atomic(pass *p, const char *kind, int ptr_op, int val_op)
{
    count_unsupported(p, kind);
    lose_operands(p, CONC_UNSUPPORTED);
    LLVMValueRef ptr = LLVMGetOperand(p->cur, ptr_op);
    uint64_t size = LLVMStoreSizeOfType(p->td, LLVMTypeOf(LLVMGetOperand(p->cur, val_op)));
    LLVMValueRef args[4] = {ptr, c64(p, size), p->null, shadow_of(p, ptr)};
    rt_call(p, RT_STORE, args, 4);
}

void do_insertvalue(pass *p)
{
    if (agg_insertvalue(p)) return;
    count_unsupported(p, "insertvalue");
    at_before(p);
    concretize(p, CONC_AGGREGATE, shadow_of(p, LLVMGetOperand(p->cur, 1)));
}
