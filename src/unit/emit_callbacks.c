/* emit_callbacks.c: the calls a test's callbacks receive (count and arguments) as CMocka expectations. */
#include <stdio.h>

#include "emit_int.h"

void emit_callback_checks(strbuf *b, const ut_type *ft)
{
    for (size_t i = 0; i < ft->nargs; i++) {
        int k = unit_callback_arg_kind(ft->args[i]);
        if (k == 'p' || k == 's')
            sb_printf(b, "    check_expected_ptr(a%zu);\n", i);
        else if (k)
            sb_printf(b, "    check_expected(a%zu);\n", i);
    }
}

int emit_callback_expects(strbuf *b, const names *n, const char *indent, size_t make)
{
    for (size_t i = 0; i < n->r->nargs; i++) {
        const ur_arg *a = &n->r->args[i];
        if (a->make != make) continue;
        const ur_value *v = &a->value;
        strbuf e = STRBUF_INIT;
        if (v->kind == 's') {
            /* the record holds the literal's body, escaped */
            sb_printf(b, "%sexpect_string(%s, a%d, \"%s\");\n", indent, a->name, a->index, v->text);
        } else if (v->kind == 'm' && v->text[0]) {
            /* bytes with a length (`on_url(p, at, length)`): no NUL after them */
            sb_printf(b, "%sexpect_memory(%s, a%d, \"%s\", sizeof \"%s\" - 1);\n", indent, a->name, a->index, v->text,
                      v->text);
        } else if (v->kind == 'm') {
            sb_printf(b, "%sexpect_any(%s, a%d); /* no bytes */\n", indent, a->name, a->index);
        } else if (v->kind == 'p' && v->text[0] == '-') {
            sb_printf(b, "%sexpect_any(%s, a%d); /* an address the unit made */\n", indent, a->name, a->index);
        } else if (v->kind == 'v') {
            sb_printf(b, "%sexpect_any(%s, a%d); /* a text longer than 200 bytes */\n", indent, a->name, a->index);
        } else if (value_expr(&e, n, v, 0) == 0) {
            if (v->kind == 'p')
                sb_printf(b, "%sexpect_value(%s, a%d, (uintptr_t)%s);\n", indent, a->name, a->index, e.s);
            else
                sb_printf(b, "%sexpect_value(%s, a%d, %s);\n", indent, a->name, a->index, e.s);
        } else {
            sb_free(&e);
            return -1;
        }
        sb_free(&e);
    }
    return 0;
}

int emit_callback_reader_return(strbuf *b, const ut_type *ft)
{
    if (!unit_callback_is_reader(ft)) return 0;
    sb_puts(b, "    const char *line = (const char *)(uintptr_t)mock(); /* the next line, NULL at the end */\n");
    sb_puts(b, "    if (line == NULL) return NULL;\n    size_t len = strlen(line);\n");
    sb_puts(b, "    if (len > (size_t)a1 - 1) len = (size_t)a1 - 1;\n    memcpy(a0, line, len);\n");
    sb_puts(b, "    a0[len] = '\\0';\n    return a0;\n");
    return 1;
}

int emit_callback_fill_return(strbuf *b, const ut_type *ft)
{
    int k = unit_callback_fill_arg(ft);
    if (k < 0) return 0;
    sb_puts(b, "    const char *bytes = (const char *)(uintptr_t)mock(); /* the bytes read, NULL: a failed read */\n");
    sb_printf(b, "    if (bytes == NULL) return 0;\n    memcpy(a%d, bytes, (size_t)a%d);\n", k, k + 1);
    if (ft->ret->kind == UT_BOOL)
        sb_puts(b, "    return 1;\n");
    else
        sb_printf(b, "    return (%s)a%d;\n", ft->ret->spelling, k + 1);
    return 1;
}

int emit_callback_alloc_return(strbuf *b, const char *name, const ut_type *ft)
{
    size_t idx[2];
    size_t n = unit_callback_alloc_sizes(ft, idx);
    int freed = unit_callback_freed_arg(name, ft);
    if (freed >= 0) sb_printf(b, "    free(a%d);\n", freed);
    if (n == 0) return 0;
    int old = unit_callback_realloc_arg(name, ft);
    if (old >= 0) {
        sb_puts(b, "    int oom = mock_type(int); /* queued: 1 out of memory */\n");
        sb_printf(
            b, "    if (a%zu == 0) { /* size 0 frees the block */\n        free(a%d);\n        return NULL;\n    }\n",
            idx[0], old);
        sb_puts(b, "    if (oom) return NULL;\n");
        sb_printf(b, "    return realloc(a%d, a%zu); /* the block moved to the size asked for */\n", old, idx[0]);
        return 1;
    }
    sb_puts(b, "    if (mock_type(int)) return NULL; /* queued: out of memory */\n");
    if (n > 1)
        sb_printf(b, "    return calloc(a%zu, a%zu); /* a zeroed block of the size asked for */\n", idx[0], idx[1]);
    else
        sb_printf(b, "    return calloc(1, a%zu); /* a zeroed block of the size asked for */\n", idx[0]);
    return 1;
}
