/* harness_producer.c: the harness builds a parameter through the unit's own producers (a call sequence), the choice among them symbolic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"
#include "producers_int.h"

/* `sympu_register(&VAR, ...)` of the parameter object (flag p), as the driver registers any parameter. */
static void register_param(strbuf *b, const char *indent, size_t i, const ut_param *p, const char *ts)
{
    sb_printf(b, "%ssympu_register(&sympu_a%zu, -1, sizeof sympu_a%zu, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n",
              indent, i, i, p->type->id, p->name, ts);
}

/* UP_RETURN: each argument an object of flag m filled from inputs, then `sympu_aI = fn(args)`. */
static void gen_return(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, size_t i,
                       const char *ts, const ut_func *fn)
{
    for (size_t k = 0; k < fn->nparams; k++) {
        const ut_param *a = &fn->params[k];
        char *as = harness_unqual(a->type), vn[32];
        snprintf(vn, sizeof vn, "sympu_m%zu", k);
        char *d = unit_declarator(as, vn);
        sb_printf(b, "        %s;\n", d);
        sb_printf(b,
                  "        int sympu_m%zuid = sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"m\", "
                  "\"%s_%s_arg\", \"%s\");\n        (void)sympu_m%zuid;\n",
                  k, vn, vn, a->type->id, p->name, a->name, as, k);
        if (a->type->kind == UT_PTR)
            sb_printf(b, "        sympu_null_ok = %d;\n        sympu_null_ok_deref = %d;\n",
                      o->null_all || unit_null_checked(u, a->name, 0), o->null_all || unit_null_checked(u, a->name, 1));
        sb_printf(b, "        sympu_fill_%d((void *)&%s, \"%s_%s\", 0);\n", a->type->id, vn, p->name, a->name);
        free(d);
        free(as);
    }
    sb_printf(b, "        int sympu_pid = sympu_register(&sympu_a%zu, -1, sizeof sympu_a%zu, 1, 0, sympu_dump_%d, "
                 "\"p\", \"%s\", \"%s\");\n",
              i, i, p->type->id, p->name, ts);
    /* copied in rather than assigned: the parameter may be const (`const sds s`). In record mode the
     * producer's allocations are watched (as the call's are) to tell whether the value is the start of
     * a heap block (kind h: free releases it when the unit has no destructor), then forgotten */
    sb_printf(b, "#ifdef SYMPATH_UNIT_RECORD\n        sympu_in_call = 1;\n#endif\n");
    sb_printf(b, "        __typeof__(%s(", fn->name);
    for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, "%ssympu_m%zu", k ? ", " : "", k);
    sb_printf(b, ")) sympu_v = %s(", fn->name);
    for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, "%ssympu_m%zu", k ? ", " : "", k);
    sb_printf(b, ");\n        char sympu_mkind = 'r';\n");
    sb_printf(b, "#ifdef SYMPATH_UNIT_RECORD\n        sympu_in_call = 0;\n"
                 "        if (sympu_heap_block((const void *)sympu_v)) sympu_mkind = 'h';\n"
                 "        sympu_nallocs = 0;\n#endif\n");
    sb_printf(b, "        memcpy((void *)&sympu_a%zu, &sympu_v, sizeof sympu_a%zu);\n", i, i);
    sb_printf(b, "        sympu_rec(\"make %%d %%c %s", fn->name);
    for (size_t k = 0; k < fn->nparams; k++) sb_puts(b, " %d");
    sb_puts(b, "\\n\", sympu_pid, sympu_mkind");
    for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, ", sympu_m%zuid", k);
    sb_puts(b, ");\n        (void)sympu_pid;\n        (void)sympu_mkind;\n");
}

/* UP_INIT: a fresh object of the pointee type, registered (aliasable), initialised by fn. */
static void gen_init(strbuf *b, const ut_param *p, size_t i, const char *ts, const ut_func *fn)
{
    const ut_type *e = p->type->pointee;
    char *es = harness_unqual(e);
    char *pe = unit_declarator(es, "*sympu_o");
    register_param(b, "        ", i, p, ts);
    sb_printf(b, "        %s = calloc(1, sizeof *sympu_o);\n", pe);
    sb_printf(b,
              "        int sympu_oid = sympu_register(sympu_o, %d, sizeof *sympu_o, 1, 1, sympu_dump_%d, \"-\", "
              "\"%s\", \"%s\");\n",
              e->alias_id, e->id, p->name, es);
    sb_printf(b, "        sympu_rec(\"make %%d i %s\\n\", sympu_oid);\n", fn->name);
    sb_printf(b, "        %s%s(sympu_o);\n", fn->type->ret->kind == UT_VOID ? "" : "(void)", fn->name);
    sb_printf(b, "        sympu_built(sympu_oid);\n        memcpy((void *)&sympu_a%zu, &sympu_o, sizeof sympu_a%zu);\n", i,
              i);
    free(pe);
    free(es);
}

int harness_producer_param(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                           strbuf *warn)
{
    unit_producer pr[UNIT_MAX_PRODUCERS];
    size_t np = unit_param_producers(u, o, f, i, pr, UNIT_MAX_PRODUCERS);
    const ut_param *p = &f->params[i];
    const char *named = np == 0 && !o->raw_inputs ? unit_init_for(o, p->type) : NULL;
    if (named && warn)
        sb_printf(warn, "%s: parameter %s: --init %s: no such function, or it cannot produce %s (built field by field)\n",
                  f->name, p->name, named, p->type->spelling);
    if (np == 0) return 0;
    char *ts = harness_unqual(p->type), vn[32];
    snprintf(vn, sizeof vn, "sympu_a%zu", i);
    char *d = unit_declarator(ts, vn);
    /* the producers give non-NULL values: NULL only with --null-always */
    int null_ok = o->null_all;
    sb_printf(b, "    /* %s: built by the unit's producers; which one is a choice the explorer flips */\n", p->name);
    sb_printf(b, "    %s;\n    {\n", d);
    sb_printf(b, "    unsigned sympu_mk = sympu_choice(\"%s.make\", %zu);\n", p->name, np + (size_t)null_ok);
    for (size_t j = 0; j < np; j++) {
        sb_printf(b, "    %sif (sympu_mk == %zu) { /* %s */\n", j ? "} else " : "", j, pr[j].fn->name);
        if (pr[j].kind == UP_RETURN)
            gen_return(b, u, o, p, i, ts, pr[j].fn);
        else
            gen_init(b, p, i, ts, pr[j].fn);
    }
    if (null_ok) {
        sb_puts(b, "    } else {\n");
        register_param(b, "        ", i, p, ts);
        sb_printf(b, "        memset((void *)&sympu_a%zu, 0, sizeof sympu_a%zu);\n", i, i);
    }
    sb_puts(b, "    }\n    }\n");
    free(d);
    free(ts);
    return 1;
}
