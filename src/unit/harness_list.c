/* harness_list.c: a parameter the unit walks as an array with no length, built as a list ended by NULL (argv's shape) or by a zeroed struct (an option table). */
#include <stdio.h>
#include <stdlib.h>

#include "harness_int.h"

int harness_list_type(const ut_type *t)
{
    if (!t || t->kind != UT_PTR || !t->pointee) return 0;
    const ut_type *e = t->pointee;
    if (e->kind == UT_PTR)
        return e->pointee && e->pointee->kind != UT_FUNC && !unit_is_stream(e) && harness_fillable(e);
    int bd, bl, bc;
    return e->kind == UT_STRUCT && e->complete && !unit_buffer_struct(e, &bd, &bl, &bc) && harness_fillable(e);
}

int harness_null_list(const unit_info *u, const ut_func *f, size_t i)
{
    const ut_param *p = &f->params[i];
    if (p->len_param >= 0 || p->buf_param >= 0 || !harness_list_type(p->type)) return 0;
    return p->walked || unit_walks_array(u, f->name, p->name);
}

void harness_null_list_elems(strbuf *b, const ut_type *t, const char *name, const char *depth, const char *vn,
                             const char *ind)
{
    const ut_type *e = t->pointee;
    char *es = harness_unqual(e);
    /* the count a choice (first 1); pointers fresh objects, never NULL before the end; the end zeroed */
    sb_printf(b, "%s{\n%s    char sympu_ln[256];\n", ind, ind);
    sb_printf(b, "%s    snprintf(sympu_ln, sizeof sympu_ln, \"%%s.count\", %s);\n", ind, name);
    sb_printf(b, "%s    size_t sympu_k = 1 + sympu_choice(sympu_ln, %d);\n", ind, HARNESS_LIST_MAX);
    sb_printf(b, "%s    %s = calloc(sympu_k + 1, sizeof *%s);\n", ind, vn, vn);
    sb_printf(b,
              "%s    sympu_register((void *)%s, %d, sizeof %s[0], sympu_k + 1, 0, sympu_dump_%d, \"a\", %s, \"%s\");\n",
              ind, vn, e->alias_id, vn, e->id, name, es);
    sb_printf(b, "%s    snprintf(sympu_ln, sizeof sympu_ln, \"%%s[]\", %s);\n", ind, name);
    sb_printf(b, "%s    for (size_t k = 0; k < sympu_k; k++) {\n", ind);
    if (e->kind == UT_PTR) sb_printf(b, "%s        sympu_null_ok = 0;\n", ind);
    sb_printf(b, "%s        sympu_fill_%d((void *)&%s[k], sympu_ln, %s);\n", ind, e->id, vn, depth);
    if (e->kind == UT_PTR) sb_printf(b, "%s        sym_assume(%s[k] != NULL);\n", ind, vn);
    sb_printf(b, "%s    }\n%s}\n", ind, ind);
    free(es);
}

void harness_null_list_fill(strbuf *b, const unit_harness_opts *o, const ut_type *t, const char *name, const char *vn,
                            const char *ind)
{
    char *ts = harness_unqual(t);
    char *vd = unit_declarator(ts, vn);
    sb_printf(b, "%s%s = NULL;\n", ind, vd);
    sb_printf(b, "%ssympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n", ind, vn, vn,
              t->id, name, ts);
    char nl[300];
    snprintf(nl, sizeof nl, "\"%s\"", name);
    harness_null_list_elems(b, t, nl, "1", vn, ind);
    if (!o->null_all) /* LCT's lazy NULL: the list itself NULL where the unit checks it */
        sb_printf(b, "%s%s = (__typeof__(%s))sympu_lazy_null((uintptr_t)%s, \"%s\");\n", ind, vn, vn, vn, name);
    free(vd);
    free(ts);
}
