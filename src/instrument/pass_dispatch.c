/* pass_dispatch.c: concrete-mode dispatch: pairing F's instructions with its copy's, and the entry test that calls F.sym_concrete (or libc's own function) when nothing is symbolic. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../proto/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

#include <llvm-c/DebugInfo.h>

/* Map every instruction of fn to the one at the same place in its copy (which was made
 * from fn before either was instrumented, so the two have the same shape). */
int pair_instructions(pass *p, LLVMValueRef fn, LLVMValueRef copy)
{
    LLVMBasicBlockRef a = LLVMGetFirstBasicBlock(fn), b = LLVMGetFirstBasicBlock(copy);
    for (; a && b; a = LLVMGetNextBasicBlock(a), b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef i = LLVMGetFirstInstruction(a), j = LLVMGetFirstInstruction(b);
        for (; i && j; i = LLVMGetNextInstruction(i), j = LLVMGetNextInstruction(j)) {
            if (LLVMGetInstructionOpcode(i) != LLVMGetInstructionOpcode(j)) return -1;
            if (ptrmap_put(&p->pair, i, j, NULL)) {
                p->oom = 1;
                return 0;
            }
        }
        if (i || j) return -1;
    }
    return a || b ? -1 : 0;
}

/* May F's entry call its copy? Not main (run once, its arguments come from libc), not a
 * variadic function (the extra arguments cannot be forwarded), not with arguments the
 * code generator copies (byval and the like: the copy would be copied again). */
int can_dispatch(pass *p, LLVMValueRef fn)
{
    if (p->is_main || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn))) return 0;
    static const char *const attrs[] = {"byval", "inalloca", "preallocated", "byref"};
    unsigned n = LLVMCountParams(fn);
    for (unsigned k = 0; k < sizeof attrs / sizeof *attrs; k++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(attrs[k], strlen(attrs[k]));
        for (unsigned i = 0; kind && i < n; i++)
            if (LLVMGetEnumAttributeAtIndex(fn, i + 1, kind)) return 0;
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
void insert_dispatch(pass *p, LLVMValueRef fn, LLVMValueRef copy)
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
            if (i == p->prologue_end) break;
        }
    }
    /* The call of the copy needs a location in F's scope (the verifier wants one on
     * calls between functions with debug info). */
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if (sp)
        LLVMSetCurrentDebugLocation2(p->b, LLVMDIBuilderCreateDebugLocation(p->cx, p->fb_line, p->fb_col, sp, NULL));
    LLVMValueRef active = LLVMGetNamedGlobal(p->m, "__sym_shadow_active");
    if (!active) active = LLVMAddGlobal(p->m, p->i32, "__sym_shadow_active");
    LLVMTypeRef aty = LLVMGlobalGetValueType(active);
    LLVMValueRef cond =
        LLVMBuildICmp(p->b, LLVMIntEQ, LLVMBuildLoad2(p->b, aty, active, ""), LLVMConstInt(aty, 0, 0), "");
    unsigned n = LLVMCountParams(fn);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef s = shadow_of(p, LLVMGetParam(fn, i));
        if (!is_null_shadow(p, s)) cond = LLVMBuildAnd(p->b, cond, LLVMBuildICmp(p->b, LLVMIntEQ, s, p->null, ""), "");
    }
    LLVMBuildCondBr(p->b, cond, conc, old);

    LLVMPositionBuilderAtEnd(p->b, conc);
    LLVMValueRef *args = malloc((n ? n : 1) * sizeof *args);
    if (!args) {
        p->oom = 1;
        LLVMBuildUnreachable(p->b);
        return;
    }
    for (unsigned i = 0; i < n; i++) args[i] = LLVMGetParam(fn, i);
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
LLVMValueRef libc_target(pass *p, const char *name, LLVMValueRef fn, LLVMValueRef copy)
{
    static const char pre[] = "__sym_model_";
    if (strncmp(name, pre, sizeof pre - 1) || !model_is_libc_when_concrete(name + sizeof pre - 1)) return copy;
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    LLVMValueRef x = LLVMGetNamedFunction(p->m, name + sizeof pre - 1);
    if (!x)
        x = LLVMAddFunction(p->m, name + sizeof pre - 1, fty);
    else if (LLVMGlobalGetValueType(x) != fty || !LLVMIsDeclaration(x))
        return copy; /* declared otherwise, or the program's own X: keep the model's copy */
    return x;
}
