/* model_addr.c: a stream reader passed as a function pointer (ini_parse_stream(fgets, f, ...)) is passed as its model. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

/*
 * do_call sends direct calls of a libc function X to its model __sym_model_X; a call through a
 * pointer that holds X's address would reach the real X, which reads the real file behind a
 * symbolic stream (sympath unit's FILE * parameters, --sym-file) and loses its bytes. For the
 * stream readers below the address itself is replaced by the model's in the program's
 * instructions (directly, or inside a pointer cast `(reader_fn)fgets`), so the indirect call
 * reaches the model. sympath's own functions (__sym_*: the models call the real X) and the
 * callee operand of direct calls (do_call's business) are left alone; addresses inside global
 * initialisers (an ops table) are not replaced.
 */
static const char *const stream_readers[] = {"fgets", "fgetc", "getc", "fread", "getline", "getdelim"};

static int in_sympath_function(LLVMValueRef inst)
{
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
    size_t len;
    const char *n = LLVMGetValueName2(fn, &len);
    return !strncmp(n, "__sym_", 6);
}

/* Replace operand `from` by `to` in the program's instructions (not a direct call's callee). */
static void replace_operands(LLVMValueRef from, LLVMValueRef to)
{
    /* the users first: setting an operand unlinks its use from `from`'s list */
    size_t n = 0, cap = 0;
    LLVMValueRef *users = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(from); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || in_sympath_function(user)) continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 8;
            LLVMValueRef *nu = realloc(users, nc * sizeof *nu);
            if (!nu) break;
            users = nu;
            cap = nc;
        }
        users[n++] = user;
    }
    for (size_t k = 0; k < n; k++) {
        LLVMValueRef user = users[k];
        int nops = LLVMGetNumOperands(user);
        int call = LLVMIsACallInst(user) != NULL;
        for (int i = 0; i < nops; i++)
            if (LLVMGetOperand(user, (unsigned)i) == from && !(call && i == nops - 1))
                LLVMSetOperand(user, (unsigned)i, to);
    }
    free(users);
}

void redirect_model_addresses(LLVMModuleRef m)
{
    for (size_t i = 0; i < sizeof stream_readers / sizeof *stream_readers; i++) {
        LLVMValueRef f = LLVMGetNamedFunction(m, stream_readers[i]);
        if (!f || !LLVMIsDeclaration(f)) continue; /* absent, or the program's own */
        char name[64];
        strcpy(name, "__sym_model_");
        strcat(name, stream_readers[i]);
        LLVMValueRef model = LLVMGetNamedFunction(m, name);
        if (!model || LLVMIsDeclaration(model)) continue;
        /* pointer casts of the address first (their users are instructions), then the address */
        for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef ce = LLVMGetUser(u);
            if (LLVMIsAConstantExpr(ce) && LLVMGetConstOpcode(ce) == LLVMBitCast)
                replace_operands(ce, LLVMConstBitCast(model, LLVMTypeOf(ce)));
        }
        replace_operands(f, LLVMConstBitCast(model, LLVMTypeOf(f)));
    }
}
