/* harness_list.c: a `T **` parameter the unit walks as an array, built as a NULL-terminated list of pointers (argv's shape). */
#include <stdlib.h>

#include "harness_int.h"

int harness_null_list(const unit_info *u, const ut_func *f, size_t i)
{
    const ut_param *p = &f->params[i];
    const ut_type *t = p->type;
    if (!t || t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_PTR || p->len_param >= 0 || p->buf_param >= 0)
        return 0;
    const ut_type *e = t->pointee;
    if (!e->pointee || e->pointee->kind == UT_FUNC || unit_is_stream(e) || !harness_fillable(e)) return 0;
    return unit_walks_array(u, f->name, p->name);
}

void harness_null_list_fill(strbuf *b, const unit_harness_opts *o, const ut_type *t, const char *name, const char *vn,
                            const char *ind)
{
    const ut_type *e = t->pointee;
    char *ts = harness_unqual(t), *es = harness_unqual(e);
    char *vd = unit_declarator(ts, vn);
    sb_printf(b, "%s%s = NULL;\n", ind, vd);
    sb_printf(b, "%ssympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n", ind, vn, vn,
              t->id, name, ts);
    /* the count a choice (first 1), the elements fresh objects and never NULL before the end */
    sb_printf(b, "%s{\n%s    size_t sympu_k = 1 + sympu_choice(\"%s.count\", %d);\n", ind, ind, name, HARNESS_LIST_MAX);
    sb_printf(b, "%s    %s = calloc(sympu_k + 1, sizeof *%s);\n", ind, vn, vn);
    sb_printf(
        b,
        "%s    sympu_register((void *)%s, %d, sizeof %s[0], sympu_k + 1, 0, sympu_dump_%d, \"a\", \"%s\", \"%s\");\n",
        ind, vn, e->alias_id, vn, e->id, name, es);
    sb_printf(b, "%s    for (size_t k = 0; k < sympu_k; k++) {\n", ind);
    sb_printf(b, "%s        sympu_null_ok = 0;\n%s        sympu_fill_%d((void *)&%s[k], \"%s[]\", 1);\n", ind, ind,
              e->id, vn, name);
    sb_printf(b, "%s        sym_assume(%s[k] != NULL);\n%s    }\n%s}\n", ind, vn, ind, ind);
    if (!o->null_all) /* LCT's lazy NULL: the list itself NULL where the unit checks it */
        sb_printf(b, "%s%s = (__typeof__(%s))sympu_lazy_null((uintptr_t)%s, \"%s\");\n", ind, vn, vn, vn, name);
    free(vd);
    free(es);
    free(ts);
}
