/* harness_callbacks.c: the function-pointer stand-ins record each call's arguments (callbacks' calls, asserted by the tests). */
#include <stdio.h>
#include <string.h>

#include "harness_int.h"

int unit_callback_arg_kind(const ut_type *t)
{
    switch (t->kind) {
    case UT_INT:
    case UT_BOOL: return t->bits > 0 && t->bits <= 64 ? (t->is_signed ? 'i' : 'u') : 0;
    case UT_ENUM: return 'e';
    case UT_PTR:
        /* the text of a const char * (a key, a value); a char * may be a buffer the callee
         * fills (a reader's line): only its address */
        if (t->pointee && t->pointee->kind == UT_INT && t->pointee->is_plain_char && t->pointee->is_const) return 's';
        return 'p';
    default: return 0;
    }
}

void unit_callback_record_args(strbuf *b, const char *name, const ut_type *f, const char *need)
{
    sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n");
    for (size_t i = 0; i < f->nargs; i++) {
        const ut_type *a = f->args[i];
        switch (unit_callback_arg_kind(a)) {
        case 'i': sb_printf(b, "    sympu_arg_i(\"%s\", %zu, (long long)a%zu);\n", name, i, i); break;
        case 'u': sb_printf(b, "    sympu_arg_u(\"%s\", %zu, (unsigned long long)a%zu);\n", name, i, i); break;
        case 'e':
            if (need[a->id])
                sb_printf(b, "    sympu_arg_e(\"%s\", %zu, sympu_enum_%d((long long)a%zu));\n", name, i, a->id, i);
            else
                sb_printf(b, "    sympu_arg_i(\"%s\", %zu, (long long)a%zu);\n", name, i, i);
            break;
        case 's': sb_printf(b, "    sympu_arg_s(\"%s\", %zu, (const char *)a%zu);\n", name, i, i); break;
        case 'p': sb_printf(b, "    sympu_arg_p(\"%s\", %zu, (const void *)a%zu);\n", name, i, i); break;
        default: break;
        }
    }
    sb_puts(b, "#endif\n");
}
