/* pass_agg.c: shadows of small structs held in registers ({i64, i8*}, {double, double}: C structs returned by value), field by field across load, store, insertvalue, extractvalue, ret and calls. */
#include "pass.h"
#include "../expr/expr.h"
#include "../runtime/rt_abi.h"

/*
 * The x86-64 ABI returns a C struct of at most 16 bytes in registers: clang -O0 loads
 * it from the callee's local as a literal struct ({i64, i8*} for
 * `struct {unsigned size, prio; char *payload;}`), returns that, and the caller takes it
 * apart with extractvalue and stores the pieces into its own local. Without a shadow for
 * the struct value every field of such a result is concrete in the caller.
 *
 * Such a value's shadow is an SSA value of type [n x i8*] (n fields, each an integer of
 * at most 64 bits, a pointer, a float or a double; at most AGG_MAX_FIELDS), field i's
 * shadow at index i. It is kept in p->agg, never in p->shadow, so no code that expects an
 * i8* shadow ever sees one. Sources: a load (one __sym_load per field), an instrumented
 * call (one __sym_get_ret_field per field), insertvalue. Uses: extractvalue, store (one
 * __sym_store per field after the whole is cleared), ret (one __sym_set_ret_field per
 * field). Aggregates of other shapes, phis and selects of aggregates keep no shadow.
 */
#define AGG_MAX_FIELDS 8 /* the runtime's SYM_MAX_RET_FIELDS */

int agg_tracked_type(pass *p, LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMStructTypeKind || LLVMIsOpaqueStruct(t)) return 0;
    unsigned n = LLVMCountStructElementTypes(t);
    if (n == 0 || n > AGG_MAX_FIELDS) return 0;
    for (unsigned i = 0; i < n; i++)
        if (!tracked_type(p, LLVMStructGetTypeAtIndex(t, i))) return 0;
    return 1;
}

LLVMValueRef agg_shadow_of(pass *p, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) && !LLVMIsAArgument(v)) return NULL;
    ptrmap_ent *e = ptrmap_get(&p->agg, v);
    return e ? (LLVMValueRef)e->a : NULL;
}

static void set_agg_shadow(pass *p, LLVMValueRef v, LLVMValueRef s)
{
    if (ptrmap_put(&p->agg, v, s, NULL)) p->oom = 1;
}

/* The all-concrete shadow of a struct of type t. */
static LLVMValueRef null_agg(pass *p, LLVMTypeRef t)
{
    return LLVMConstNull(LLVMArrayType(p->p8, LLVMCountStructElementTypes(t)));
}

/* Field i's shadow in the aggregate shadow s (NULL: none), at the builder. */
static LLVMValueRef field_shadow(pass *p, LLVMValueRef s, unsigned i)
{
    if (!s || is_null_shadow(p, s)) return p->null;
    return LLVMBuildExtractValue(p->b, s, i, "");
}

/* Address of the field at byte offset off of the struct at ptr, as i8*, at the builder. */
static LLVMValueRef field_addr(pass *p, LLVMValueRef ptr, uint64_t off)
{
    LLVMValueRef base = LLVMBuildPointerCast(p->b, ptr, p->p8, "");
    if (!off) return base;
    LLVMValueRef idx = c64(p, off);
    return LLVMBuildGEP2(p->b, p->i8, base, &idx, 1, "");
}

void agg_load(pass *p, LLVMValueRef sptr)
{
    LLVMValueRef I = p->cur, ptr = LLVMGetOperand(I, 0);
    LLVMTypeRef t = LLVMTypeOf(I);
    at_before(p);
    LLVMValueRef s = null_agg(p, t);
    for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++) {
        LLVMTypeRef ft = LLVMStructGetTypeAtIndex(t, i);
        uint64_t size = LLVMStoreSizeOfType(p->td, ft);
        /* a symbolic address is concretized once, with the first field */
        LLVMValueRef args[3] = {field_addr(p, ptr, LLVMOffsetOfElement(p->td, t, i)), c64(p, size), i ? p->null : sptr};
        LLVMValueRef f = rt_call(p, RT_LOAD, args, 3);
        f = resize_shadow(p, EXPR_EXTRACT, (unsigned)(8 * size), bit_width(p, ft), f);
        s = LLVMBuildInsertValue(p->b, s, f, i, "");
    }
    set_agg_shadow(p, I, s);
}

void agg_store(pass *p)
{
    LLVMValueRef val = LLVMGetOperand(p->cur, 0), ptr = LLVMGetOperand(p->cur, 1);
    LLVMValueRef s = agg_shadow_of(p, val);
    if (!s || is_null_shadow(p, s)) return;
    LLVMTypeRef t = LLVMTypeOf(val);
    at_after(p); /* after do_store's clearing of the whole */
    for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++) {
        LLVMTypeRef ft = LLVMStructGetTypeAtIndex(t, i);
        uint64_t size = LLVMStoreSizeOfType(p->td, ft);
        LLVMValueRef f = resize_shadow(p, EXPR_ZEXT, bit_width(p, ft), (unsigned)(8 * size), field_shadow(p, s, i));
        LLVMValueRef args[4] = {field_addr(p, ptr, LLVMOffsetOfElement(p->td, t, i)), c64(p, size), f, p->null};
        rt_call(p, RT_STORE, args, 4);
    }
}

int agg_extractvalue(pass *p)
{
    LLVMValueRef I = p->cur, agg = LLVMGetOperand(I, 0);
    LLVMValueRef s = agg_shadow_of(p, agg);
    if (!s || LLVMGetNumIndices(I) != 1) return 0;
    if (!tracked_type(p, LLVMTypeOf(I))) return 1; /* cannot happen for these types */
    at_before(p);
    set_shadow(p, I, field_shadow(p, s, LLVMGetIndices(I)[0]));
    return 1;
}

int agg_insertvalue(pass *p)
{
    LLVMValueRef I = p->cur, agg = LLVMGetOperand(I, 0), v = LLVMGetOperand(I, 1);
    LLVMTypeRef t = LLVMTypeOf(I);
    if (!agg_tracked_type(p, t) || LLVMGetNumIndices(I) != 1) return 0;
    LLVMValueRef s = agg_shadow_of(p, agg), sv = shadow_of(p, v);
    if ((!s || is_null_shadow(p, s)) && is_null_shadow(p, sv)) return 1; /* all concrete */
    at_before(p);
    set_agg_shadow(p, I, LLVMBuildInsertValue(p->b, s ? s : null_agg(p, t), sv, LLVMGetIndices(I)[0], ""));
    return 1;
}

void agg_ret(pass *p, LLVMValueRef v)
{
    LLVMValueRef s = agg_shadow_of(p, v);
    at_before(p);
    /* every field is set, concrete ones to NULL: a callee of this function may have left
     * its own fields in the slots */
    for (unsigned i = 0; i < LLVMCountStructElementTypes(LLVMTypeOf(v)); i++) {
        LLVMValueRef args[2] = {c32(p, i), field_shadow(p, s, i)};
        rt_call(p, RT_SET_RET_FIELD, args, 2);
    }
}

void agg_call_result(pass *p)
{
    LLVMValueRef I = p->cur;
    LLVMTypeRef t = LLVMTypeOf(I);
    unsigned n = LLVMCountStructElementTypes(t);
    at_before(p);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef args[2] = {c32(p, i), p->null};
        rt_call(p, RT_SET_RET_FIELD, args, 2);
    }
    at_after(p);
    LLVMValueRef s = null_agg(p, t);
    for (unsigned i = 0; i < n; i++) {
        LLVMTypeRef ft = LLVMStructGetTypeAtIndex(t, i);
        LLVMValueRef args[3] = {c32(p, i), as_i64(p, LLVMBuildExtractValue(p->b, I, i, "")), c32(p, bit_width(p, ft))};
        s = LLVMBuildInsertValue(p->b, s, rt_call(p, RT_GET_RET_FIELD, args, 3), i, "");
    }
    set_agg_shadow(p, I, s);
}
