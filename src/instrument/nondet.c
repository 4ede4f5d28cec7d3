/* nondet.c: definitions for the __VERIFIER_nondet_<T> functions a program declares but nobody defines: an input of the declared return type. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>

#include "instrument_int.h"
#include "../proto/trace.h"
#include "util/util.h"

#define PREFIX "__VERIFIER_nondet_"

/* The input functions libsympath-rt.a (rt_input.c) and replay.c define themselves (weak). */
static const char *const runtime_nondet[] = {
    "int",   "uint",   "unsigned", "long",  "ulong",  "longlong", "ulonglong", "char",   "uchar",
    "schar", "short",  "ushort",   "bool",  "_Bool",  "size_t",   "u8",        "u16",    "u32",
    "u64",   "loff_t", "sector_t", "float", "double", "pointer",  "pchar",     "int128", "uint128",
};

int nondet_is_runtime_name(const char *name)
{
    if (strncmp(name, PREFIX, strlen(PREFIX)) != 0) return 0;
    const char *t = name + strlen(PREFIX);
    for (size_t i = 0; i < sizeof runtime_nondet / sizeof *runtime_nondet; i++)
        if (!strcmp(t, runtime_nondet[i])) return 1;
    return 0;
}

static int has(const char *s, const char *word) { return strstr(s, word) != NULL; }

/*
 * Signedness of an integer return the IR does not say (i32, i64, no-prototype calls),
 * from the name's suffix: "unsigned", "uint", "ulong", "u<digits>", "size_t", ... are
 * unsigned, everything else signed (C's default).
 */
int nondet_name_unsigned(const char *name)
{
    const char *t = strncmp(name, PREFIX, strlen(PREFIX)) ? name : name + strlen(PREFIX);
    if (has(t, "unsigned") || has(t, "uint") || has(t, "ulong") || has(t, "ushort") || has(t, "uchar") ||
        has(t, "size_t") || has(t, "bool") || has(t, "Bool"))
        return 1;
    return t[0] == 'u' && t[1] >= '0' && t[1] <= '9';
}

/* The input type of the test-case XML for an integer of `width` bits and signedness `sgn`. */
static input_type int_itype(const char *name, unsigned width, int sgn)
{
    const char *t = name + strlen(PREFIX);
    int is_char = has(t, "char"), is_fixed = has(t, "int8") || has(t, "int16") || has(t, "int32") || has(t, "int64");
    switch (width) {
    case 1: return IT_BOOL;
    case 8: return is_char ? (sgn ? IT_SCHAR : IT_UCHAR) : (sgn ? IT_S8 : IT_U8);
    case 16: return is_fixed ? (sgn ? IT_S16 : IT_U16) : (sgn ? IT_SHORT : IT_USHORT);
    case 32: return is_fixed ? (sgn ? IT_S32 : IT_U32) : (sgn ? IT_INT : IT_UINT);
    default:
        if (is_fixed) return sgn ? IT_S64 : IT_U64;
        if (has(t, "long") && !has(t, "longlong") && !has(t, "long_long")) return sgn ? IT_LONG : IT_ULONG;
        return sgn ? IT_LONGLONG : IT_ULONGLONG;
    }
}

/* Append "name (type)" to the newline-separated list *notes. */
static void note(char **notes, const char *name, LLVMTypeRef ty)
{
    char *ts = LLVMPrintTypeToString(ty);
    char *n = util_strf("%s%s%s (returns %s)", *notes ? *notes : "", *notes ? "\n" : "", name, ts);
    LLVMDisposeMessage(ts);
    if (n) {
        free(*notes);
        *notes = n;
    }
}

static LLVMValueRef get_fn(LLVMModuleRef g, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, unsigned n)
{
    LLVMValueRef f = LLVMGetNamedFunction(g, name);
    return f ? f : LLVMAddFunction(g, name, LLVMFunctionType(ret, params, n, 0));
}

/* Copy the attributes at index idx of `from` onto `to` (same context). */
static void copy_attrs(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex idx)
{
    unsigned n = LLVMGetAttributeCountAtIndex(from, idx);
    if (!n) return;
    LLVMAttributeRef *a = calloc(n, sizeof *a);
    if (!a) return;
    LLVMGetAttributesAtIndex(from, idx, a);
    for (unsigned i = 0; i < n; i++) LLVMAddAttributeAtIndex(to, idx, a[i]);
    free(a);
}

static int enum_attr(LLVMValueRef f, LLVMAttributeIndex idx, const char *kind)
{
    return LLVMGetEnumAttributeAtIndex(f, idx, LLVMGetEnumAttributeKindForName(kind, strlen(kind))) != NULL;
}

/* Fill `bytes` bytes at ptr (an i8*) with symbolic input bytes named after the function. */
static void fill_bytes(LLVMModuleRef g, LLVMBuilderRef b, LLVMValueRef ptr, unsigned long long bytes, const char *name)
{
    LLVMContextRef cx = LLVMGetModuleContext(g);
    LLVMTypeRef p8 = LLVMPointerType(LLVMInt8TypeInContext(cx), 0), i64 = LLVMInt64TypeInContext(cx);
    LLVMTypeRef ps[3] = {p8, i64, p8};
    LLVMValueRef fb = get_fn(g, "sym_bytes", LLVMVoidTypeInContext(cx), ps, 3);
    LLVMValueRef args[3] = {LLVMBuildPointerCast(b, ptr, p8, ""), LLVMConstInt(i64, bytes, 0),
                            LLVMBuildGlobalStringPtr(b, name, "nondet.name")};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fb), fb, args, 3, "");
}

/*
 * Give the new function f (a copy of declaration d's signature) a body reading one
 * input of its return type. Returns 1 when the type is an input, 0 when it is not
 * (the body then returns zero).
 */
static int define_body(LLVMModuleRef g, LLVMTargetDataRef td, LLVMValueRef d, LLVMValueRef f, const char *name)
{
    LLVMContextRef cx = LLVMGetModuleContext(g);
    LLVMTypeRef fty = LLVMGlobalGetValueType(f), rt = LLVMGetReturnType(fty);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(cx), i64 = LLVMInt64TypeInContext(cx);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(cx, f, "entry"));
    int ok = 1;
    switch (LLVMGetTypeKind(rt)) {
    case LLVMIntegerTypeKind: {
        unsigned w = LLVMGetIntTypeWidth(rt);
        if (w > 64) {
            ok = 0;
            break;
        }
        int sgn;
        if (enum_attr(d, LLVMAttributeReturnIndex, "signext"))
            sgn = 1;
        else if (enum_attr(d, LLVMAttributeReturnIndex, "zeroext"))
            sgn = 0;
        else
            sgn = !nondet_name_unsigned(name);
        if (w == 1) sgn = 0;
        LLVMTypeRef ps[3] = {i32, i32, i32};
        LLVMValueRef in = get_fn(g, "__sym_input_int", i64, ps, 3);
        LLVMValueRef args[3] = {LLVMConstInt(i32, int_itype(name, w, sgn), 0), LLVMConstInt(i32, w, 0),
                                LLVMConstInt(i32, sgn, 0)};
        LLVMValueRef v = LLVMBuildCall2(b, LLVMGlobalGetValueType(in), in, args, 3, "");
        LLVMBuildRet(b, w == 64 ? v : LLVMBuildTrunc(b, v, rt, ""));
        break;
    }
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMX86_FP80TypeKind:
    case LLVMFP128TypeKind: {
        /* float and double: the runtime's own input functions; wider: a double, extended
         * (concrete in the executor beyond double precision) */
        int single = LLVMGetTypeKind(rt) == LLVMFloatTypeKind;
        LLVMTypeRef et = single ? LLVMFloatTypeInContext(cx) : LLVMDoubleTypeInContext(cx);
        LLVMValueRef in = get_fn(g, single ? PREFIX "float" : PREFIX "double", et, NULL, 0);
        LLVMValueRef v = LLVMBuildCall2(b, LLVMGlobalGetValueType(in), in, NULL, 0, "");
        LLVMBuildRet(b, et == rt ? v : LLVMBuildFPExt(b, v, rt, ""));
        break;
    }
    case LLVMPointerTypeKind: {
        LLVMTypeRef p8 = LLVMPointerType(LLVMInt8TypeInContext(cx), 0);
        LLVMValueRef in = get_fn(g, PREFIX "pointer", p8, NULL, 0);
        LLVMValueRef v = LLVMBuildCall2(b, LLVMGlobalGetValueType(in), in, NULL, 0, "");
        LLVMBuildRet(b, LLVMBuildPointerCast(b, v, rt, ""));
        break;
    }
    case LLVMVoidTypeKind: {
        /* a struct returned in memory: the caller's buffer is the sret parameter */
        unsigned np = LLVMCountParams(f);
        LLVMAttributeRef sret =
            np ? LLVMGetEnumAttributeAtIndex(d, 1, LLVMGetEnumAttributeKindForName("sret", 4)) : NULL;
        if (!sret) {
            ok = 0;
            LLVMBuildRetVoid(b);
            break;
        }
        LLVMTypeRef st = LLVMGetTypeAttributeValue(sret);
        fill_bytes(g, b, LLVMGetParam(f, 0), LLVMABISizeOfType(td, st), name);
        LLVMBuildRetVoid(b);
        break;
    }
    case LLVMStructTypeKind:
    case LLVMArrayTypeKind:
    case LLVMVectorTypeKind: {
        /* a small struct returned in registers (its ABI-coerced type): bytes of a local */
        LLVMValueRef tmp = LLVMBuildAlloca(b, rt, "nondet.tmp");
        fill_bytes(g, b, tmp, LLVMABISizeOfType(td, rt), name);
        LLVMBuildRet(b, LLVMBuildLoad2(b, rt, tmp, ""));
        break;
    }
    default: ok = 0; break;
    }
    if (!ok && LLVMGetTypeKind(rt) != LLVMVoidTypeKind) {
        LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f);
        LLVMValueRef i;
        while ((i = LLVMGetFirstInstruction(bb))) LLVMInstructionEraseFromParent(i);
        LLVMPositionBuilderAtEnd(b, bb);
        LLVMBuildRet(b, LLVMConstNull(rt));
    }
    LLVMDisposeBuilder(b);
    return ok;
}

int define_nondet_inputs(LLVMModuleRef m, const char *bc_path, nondet_result *res, char **err)
{
    memset(res, 0, sizeof *res);
    remove(bc_path);
    LLVMContextRef cx = LLVMGetModuleContext(m);
    LLVMModuleRef g = NULL;
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    for (LLVMValueRef d = LLVMGetFirstFunction(m); d; d = LLVMGetNextFunction(d)) {
        size_t len;
        const char *name = LLVMGetValueName2(d, &len);
        if (!LLVMIsDeclaration(d) || strncmp(name, PREFIX, strlen(PREFIX)) || nondet_is_runtime_name(name)) continue;
        if (!g) {
            g = LLVMModuleCreateWithNameInContext("sympath-nondet", cx);
            LLVMSetDataLayout(g, LLVMGetDataLayoutStr(m));
            LLVMSetTarget(g, LLVMGetTarget(m));
        }
        LLVMValueRef f = LLVMAddFunction(g, name, LLVMGlobalGetValueType(d));
        copy_attrs(d, f, LLVMAttributeReturnIndex);
        for (unsigned i = 0; i < LLVMCountParams(d); i++) copy_attrs(d, f, i + 1);
        if (define_body(g, td, d, f, name)) {
            res->generated++;
        } else {
            res->unsupported++;
            note(&res->unsupported_list, name, LLVMGetReturnType(LLVMGlobalGetValueType(d)));
        }
    }
    LLVMDisposeTargetData(td);
    if (!g) return 0;
    if (write_bitcode_file(g, bc_path)) {
        *err = util_strf("cannot write %s: %s", bc_path, strerror(errno));
        LLVMDisposeModule(g);
        return -1;
    }
    if (LLVMLinkModules2(m, g)) { /* takes g */
        *err = util_strf("cannot link the generated input functions");
        return -1;
    }
    return 0;
}
