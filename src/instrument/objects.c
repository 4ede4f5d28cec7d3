/* objects.c: the table of the module's global objects (address, size) that lets the runtime read a symbolic index over a whole array. */
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Target.h>

#include "instrument_int.h"
#include "util/util.h"

/*
 * A load a[i] at a symbolic index i becomes a select over the elements around the
 * concrete address (src/runtime/core/rt_symidx.c). Without bounds the runtime must guess the
 * window; with this table it knows, for every global variable the module defines, where
 * the object starts and ends, so a lookup table (a program's own, or the ctype tables of
 * models_ctype.c) is read whole and the value is exact for every index. KLEE resolves a
 * symbolic pointer to its memory object the same way (Cadar et al., OSDI 2008, sec. 3.2).
 *
 * Emitted: `__sym_objects`, an array of {i8* start, i64 size in bytes}, and
 * `__sym_nobjects` (i64), both private to the executor and read by the runtime through
 * weak declarations. Only definitions of at least 2 bytes and at most
 * OBJECT_TABLE_MAX_BYTES are listed (bigger objects keep the runtime's windowing).
 */
#define OBJECT_TABLE_MAX_BYTES (1u << 20)

int add_object_table(LLVMModuleRef m, uint32_t *nobjects, char **err)
{
    *nobjects = 0;
    LLVMContextRef cx = LLVMGetModuleContext(m);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(cx), 0), i64 = LLVMInt64TypeInContext(cx);
    LLVMTypeRef fields[2] = {i8p, i64};
    LLVMTypeRef ent = LLVMStructTypeInContext(cx, fields, 2, 0);
    size_t cap = 0, n = 0;
    LLVMValueRef *ents = NULL;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (LLVMIsDeclaration(g) || LLVMIsThreadLocal(g)) continue;
        size_t len;
        const char *name = LLVMGetValueName2(g, &len);
        if (!strncmp(name, "llvm.", 5)) continue;
        LLVMTypeRef ty = LLVMGlobalGetValueType(g);
        if (!LLVMTypeIsSized(ty)) continue;
        unsigned long long size = LLVMABISizeOfType(td, ty);
        if (size < 2 || size > OBJECT_TABLE_MAX_BYTES) continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            LLVMValueRef *ne = realloc(ents, nc * sizeof *ne);
            if (!ne) {
                free(ents);
                *err = util_strf("out of memory");
                return -1;
            }
            ents = ne;
            cap = nc;
        }
        LLVMValueRef v[2] = {LLVMConstBitCast(g, i8p), LLVMConstInt(i64, size, 0)};
        ents[n++] = LLVMConstNamedStruct(ent, v, 2);
    }
    LLVMValueRef arr = LLVMConstArray(ent, ents, (unsigned)n);
    free(ents);
    LLVMValueRef tab = LLVMAddGlobal(m, LLVMTypeOf(arr), "__sym_objects");
    LLVMSetInitializer(tab, arr);
    LLVMSetGlobalConstant(tab, 1);
    LLVMValueRef cnt = LLVMAddGlobal(m, i64, "__sym_nobjects");
    LLVMSetInitializer(cnt, LLVMConstInt(i64, n, 0));
    LLVMSetGlobalConstant(cnt, 1);
    *nobjects = (uint32_t)n;
    return 0;
}
