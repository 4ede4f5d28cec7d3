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

int unit_callback_text_len(const ut_type *f, size_t i)
{
    if (!f || i + 1 >= f->nargs || unit_callback_arg_kind(f->args[i]) != 's') return 0;
    /* the names of a function type's parameters are not kept: a length is an unsigned integer of
     * a pointer's width (size_t), `int value` after a key is no length (inih-like handlers) */
    const ut_type *n = f->args[i + 1];
    return n->kind == UT_INT && !n->is_char && !n->is_signed && n->bits == 8 * sizeof(void *);
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
        case 's':
            /* text and its length (`const char *at, size_t length`): the bytes, not a C string */
            if (unit_callback_text_len(f, i))
                sb_printf(b, "    sympu_arg_m(\"%s\", %zu, (const char *)a%zu, (unsigned long long)a%zu);\n", name, i,
                          i, i + 1);
            else
                sb_printf(b, "    sympu_arg_s(\"%s\", %zu, (const char *)a%zu);\n", name, i, i);
            break;
        case 'p': sb_printf(b, "    sympu_arg_p(\"%s\", %zu, (const void *)a%zu);\n", name, i, i); break;
        default: break;
        }
    }
    sb_puts(b, "#endif\n");
}

int unit_callback_is_reader(const ut_type *f)
{
    if (!f || f->kind != UT_FUNC || f->variadic || f->nargs < 2) return 0;
    const ut_type *r = f->ret, *buf = f->args[0], *n = f->args[1];
    int chars = r->kind == UT_PTR && r->pointee->kind == UT_INT && r->pointee->is_plain_char && !r->pointee->is_const;
    chars &=
        buf->kind == UT_PTR && buf->pointee->kind == UT_INT && buf->pointee->is_plain_char && !buf->pointee->is_const;
    return chars && n->kind == UT_INT;
}

void unit_callback_reader_body(strbuf *b, const char *name, unsigned max)
{
    /* the end of the input first (the all-zero input ends the unit's read loop); flipping the
     * choice asks for one more line, whose bytes are fresh inputs: the test case grows by a
     * line per call instead of the run reading forever */
    sb_printf(b, "    if (sympu_choice(\"%s_more\", 2) == 0 || a0 == NULL || a1 < 2) {\n", name);
    sb_printf(b, "        sympu_rec(\"mock %s p 0\\n\");\n        return NULL;\n    }\n", name);
    sb_printf(b, "    size_t max = (size_t)a1 - 1 < %u ? (size_t)a1 - 1 : %u;\n", max, max);
    sb_printf(b, "    sym_bytes(a0, max, \"%s_line\");\n    a0[max] = 0;\n", name);
    sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n    {\n        char lit[6 * 4096 + 1];\n");
    sb_printf(b, "        if (max <= 4096 && sympu_escape(a0, max, lit, sizeof lit) == 0)\n");
    sb_printf(b, "            sympu_rec(\"mock %s s %%s\\n\", lit);\n", name);
    sb_printf(b, "        else\n            sympu_rec(\"mock %s p -1\\n\");\n    }\n#endif\n", name);
    sb_puts(b, "    return a0;\n");
}
