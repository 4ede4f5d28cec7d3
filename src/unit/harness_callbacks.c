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

/* Whether t is a size_t (the parameter names of a function type are not kept): an unsigned
 * integer of a pointer's width, no char. */
static int is_size(const ut_type *t)
{
    return t && t->kind == UT_INT && !t->is_char && !t->is_signed && t->bits == 8 * sizeof(void *);
}

int unit_callback_text_len(const ut_type *f, size_t i)
{
    if (!f || i + 1 >= f->nargs || unit_callback_arg_kind(f->args[i]) != 's') return 0;
    /* the names of a function type's parameters are not kept: a length is an unsigned integer of
     * a pointer's width (size_t), `int value` after a key is no length (inih-like handlers) */
    const ut_type *n = f->args[i + 1];
    return n->kind == UT_INT && !n->is_char && !n->is_signed && n->bits == 8 * sizeof(void *);
}

int unit_callback_bytes_len(const ut_type *f, size_t i)
{
    if (!f || i + 1 >= f->nargs || unit_callback_arg_kind(f->args[i]) != 'p' || !is_size(f->args[i + 1])) return 0;
    const ut_type *pt = f->args[i]->pointee;
    if (!pt || !(pt->kind == UT_VOID || (pt->kind == UT_INT && pt->is_char))) return 0;
    /* bytes the unit hands over (libcsv's field callback `void cb1(void *field, size_t len, void *data)`,
     * a writer's `const void *buf, size_t n`), not a buffer the callee fills and reports on */
    return pt->is_const || (f->ret && f->ret->kind == UT_VOID);
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
            else if (i + 1 < f->nargs && f->args[i + 1]->kind == UT_INT && !f->args[i + 1]->is_char)
                /* `const char *buf, int len` (names unknown: maybe a key and its value): the bytes when
                 * no NUL ends them within the integer's value, else the text */
                sb_printf(b, "    sympu_arg_sn(\"%s\", %zu, (const char *)a%zu, (long long)a%zu);\n", name, i, i,
                          i + 1);
            else
                sb_printf(b, "    sympu_arg_s(\"%s\", %zu, (const char *)a%zu);\n", name, i, i);
            break;
        case 'p':
            if (unit_callback_bytes_len(f, i))
                sb_printf(b, "    sympu_arg_m(\"%s\", %zu, (const char *)a%zu, (unsigned long long)a%zu);\n", name, i,
                          i, i + 1);
            else
                sb_printf(b, "    sympu_arg_p(\"%s\", %zu, (const void *)a%zu);\n", name, i, i);
            break;
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

int unit_callback_fill_arg(const ut_type *f)
{
    if (!f || f->kind != UT_FUNC || f->variadic || unit_callback_is_reader(f)) return -1;
    const ut_type *r = f->ret;
    if (!r || !(r->kind == UT_BOOL || (r->kind == UT_INT && !r->is_char))) return -1;
    int k = -1;
    for (size_t i = 0; i + 1 < f->nargs; i++) {
        const ut_type *p = f->args[i], *e = p->kind == UT_PTR ? p->pointee : NULL, *n = f->args[i + 1];
        if (!e || e->is_const || n->kind != UT_INT || n->is_char) continue;
        /* `void *user, int code` is a handler's user pointer and a value, no buffer */
        if ((e->kind == UT_VOID && is_size(n)) || (e->kind == UT_INT && e->is_char)) k = (int)i;
    }
    return k;
}

void unit_callback_fill_body(strbuf *b, const char *name, const ut_type *f, unsigned max)
{
    int k = unit_callback_fill_arg(f);
    sb_printf(b, "    if (sympu_choice(\"%s_fail\", 2) == 0 && a%d != NULL && (size_t)a%d <= %u) {\n", name, k, k + 1,
              max);
    sb_printf(b, "        size_t n = (size_t)a%d;\n        sym_bytes(a%d, n, \"%s_data\");\n", k + 1, k, name);
    sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n        {\n            char lit[8 * 4096 + 1];\n");
    sb_printf(b, "            sympu_escape_n((const char *)a%d, n, lit, sizeof lit);\n", k);
    sb_printf(b, "            sympu_rec(\"mock %s s %%s\\n\", lit);\n        }\n#endif\n", name);
    sb_printf(b, "        return %s;\n    }\n", f->ret->kind == UT_BOOL ? "1" : "n");
    sb_printf(b, "    sympu_rec(\"mock %s p 0\\n\");\n    return 0;\n", name);
}

size_t unit_callback_alloc_sizes(const ut_type *f, size_t idx[2])
{
    if (!f || f->kind != UT_FUNC || f->variadic || !f->ret || f->ret->kind != UT_PTR) return 0;
    const ut_type *e = f->ret->pointee;
    /* a block of bytes (void *, char *), not a node of the caller's (an accessor's result) */
    if (!e || !(e->kind == UT_VOID || (e->kind == UT_INT && e->is_char))) return 0;
    size_t n = 0;
    for (size_t i = 0; i < f->nargs && n < 2; i++)
        if (is_size(f->args[i])) idx[n++] = i;
    return n;
}

int unit_callback_realloc_arg(const char *name, const ut_type *f)
{
    size_t idx[2];
    if (!name || !strstr(name, "realloc") || unit_callback_alloc_sizes(f, idx) != 1) return -1;
    /* the block comes before its new size, as realloc's; a void * after it is the user's data */
    for (size_t i = 0; i < idx[0]; i++) {
        const ut_type *a = f->args[i];
        if (a->kind == UT_PTR && a->pointee && a->pointee->kind == UT_VOID && !a->pointee->is_const) return (int)i;
    }
    return -1;
}

int unit_callback_freed_arg(const char *name, const ut_type *f)
{
    if (!name || !f || f->kind != UT_FUNC || f->variadic || !f->ret || f->ret->kind != UT_VOID || f->nargs == 0)
        return -1;
    if (!strstr(name, "free") && !strstr(name, "dealloc")) return -1;
    const ut_type *a = f->args[0];
    return a->kind == UT_PTR && a->pointee && a->pointee->kind == UT_VOID && !a->pointee->is_const ? 0 : -1;
}

/* The block size of an allocator stand-in's call, as a C expression of its arguments into b:
 * `(size_t)a0`, or `(size_t)a0 * a2` for a calloc-like pair (the harness checks the product). */
static void alloc_size_expr(strbuf *b, const size_t *idx, size_t n)
{
    sb_printf(b, "(size_t)a%zu", idx[0]);
    if (n > 1) sb_printf(b, " * a%zu", idx[1]);
}

int unit_callback_alloc_body(strbuf *b, const char *name, const ut_type *f)
{
    size_t idx[2];
    size_t n = unit_callback_alloc_sizes(f, idx);
    if (n == 0) return 0;
    /* the block first (the all-zero input): the unit runs on; flipping NAME_null is out of memory.
     * A size past SYMPU_ALLOC_MAX (or a product that overflows) is out of memory too, for the
     * sanitizers' allocator aborts on such requests instead of returning NULL */
    sb_printf(b, "    int oom = sympu_choice(\"%s_null\", 2) == 1;\n", name);
    if (n > 1) sb_printf(b, "    oom |= a%zu != 0 && (size_t)a%zu > SIZE_MAX / a%zu;\n", idx[1], idx[0], idx[1]);
    sb_puts(b, "    oom |= ");
    alloc_size_expr(b, idx, n);
    sb_puts(b, " > SYMPU_ALLOC_MAX;\n");
    sb_printf(b, "    sympu_rec(\"mock %s i %%d\\n\", oom);\n", name);
    int old = unit_callback_realloc_arg(name, f);
    if (old >= 0) { /* the block moves: its bytes kept, the old one freed; size 0 frees it (Lua's lua_Alloc) */
        sb_printf(b, "    if (a%zu == 0) {\n        free(a%d);\n        return NULL;\n    }\n", idx[0], old);
        sb_printf(b, "    if (oom) return NULL;\n    return realloc(a%d, (size_t)a%zu);\n", old, idx[0]);
        return 1;
    }
    sb_puts(b, "    if (oom) return NULL;\n    return calloc(1, ");
    alloc_size_expr(b, idx, n);
    sb_puts(b, ");\n");
    return 1;
}
