/* pq_null.c: whether the program tests a libpq result pointer against NULL, told to the runtime so that NULL results are injected only where they matter. */
#include <string.h>

#include "instrument_int.h"

/*
 * libpq's statement functions return NULL when out of memory or when the command cannot be
 * sent, and the runtime can inject that failure (runtime/dbcommon/db_fault.c,
 * db_fault_null_node). For a program that never compares a PGresult pointer with NULL, a
 * NULL result takes the path an error result takes (PQresultStatus(NULL) is
 * PGRES_FATAL_ERROR), so each injected NULL would be a wasted run. LLVM 14's typed pointers
 * name the pointee: an `icmp` of a `%struct.pg_result*` with `null` is the test, whether
 * written `!res`, `res == NULL` or `if (res)`, in any function of the program.
 */

static int is_pg_result_ptr(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind) return 0;
    LLVMTypeRef e = LLVMGetElementType(t);
    if (LLVMGetTypeKind(e) != LLVMStructTypeKind) return 0;
    const char *name = LLVMGetStructName(e);
    return name && (!strcmp(name, "struct.pg_result") || !strncmp(name, "struct.pg_result.", 17));
}

int pq_result_null_tested(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsAICmpInst(i)) continue;
                LLVMValueRef a = LLVMGetOperand(i, 0), c = LLVMGetOperand(i, 1);
                if ((LLVMIsAConstantPointerNull(c) && is_pg_result_ptr(LLVMTypeOf(a))) ||
                    (LLVMIsAConstantPointerNull(a) && is_pg_result_ptr(LLVMTypeOf(c))))
                    return 1;
            }
    return 0;
}

int add_pq_null_flag(LLVMModuleRef m, int tested)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    LLVMValueRef g = LLVMAddGlobal(m, i32, PQ_NULL_FLAG);
    if (!g) return -1;
    LLVMSetInitializer(g, LLVMConstInt(i32, tested ? 1 : 0, 0));
    LLVMSetGlobalConstant(g, 1);
    return 0;
}
