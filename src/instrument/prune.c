/* prune.c: drops the libc models a program cannot reach, so that it does not pay for instrumenting and compiling all of them. */
#include <string.h>

#include "instrument_int.h"
#include "util/util.h"

/*
 * models.bc defines a hundred-odd functions (src/runtime/libc/models_*.c); a program calls a
 * few. A model definition is removed when nothing uses it and, for a model
 * __sym_model_X, when the module does not call a libc X either (else the pass redirects
 * those calls to it; a program's own X is not redirected). Repeated to a fixpoint: removing sscanf's model removes the last use of
 * its scanning core, and of the fgetc calls that kept fgetc's model. Only functions the
 * models defined are touched; the program's own functions all stay (their branch sites
 * count as coverage, used or not).
 */
/* Whether v is used by a function other than `self`. The model of X calls the real X for its
 * concrete result and that call is not redirected (model_redirect_ok), so it must not keep the
 * model alive; a call of X from any other function, another model included, is redirected and
 * does. A use through a constant expression (a bitcast of the callee) is followed, at most 4
 * deep; any other use (a global's initializer) counts. */
static int used_except_by(LLVMValueRef v, LLVMValueRef self, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user)) {
            if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) != self) return 1;
        } else if (!LLVMIsAConstantExpr(user) || depth >= 4 || used_except_by(user, self, depth + 1)) {
            return 1;
        }
    }
    return 0;
}

int prune_unused_models(LLVMModuleRef m, const char *const *names, size_t n, const char *keep, uint32_t *removed)
{
    static const char pre[] = "__sym_model_";
    *removed = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            LLVMValueRef f = LLVMGetNamedFunction(m, names[i]);
            if (!f || LLVMIsDeclaration(f) || LLVMGetFirstUse(f) || (keep && !strcmp(names[i], keep))) continue;
            if (!strncmp(names[i], pre, sizeof pre - 1)) {
                LLVMValueRef real = LLVMGetNamedFunction(m, names[i] + sizeof pre - 1);
                if (real && LLVMIsDeclaration(real) && used_except_by(real, f, 0))
                    continue; /* calls of X will be redirected here (not if X is the program's own) */
            }
            LLVMDeleteFunction(f);
            (*removed)++;
            changed = 1;
        }
    }
    return 0;
}
