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

/* The arguments first.. of fn for parameter p, each an object of flag m filled from inputs (a
 * buffer/length pair a symbolic array): the locals PRE<k> (PREb<k>, PREn<k> for a pair) and their
 * object ids PRE<k>id. */
static void gen_args(strbuf *b, const unit_harness_opts *o, const ut_param *p, const ut_func *fn, size_t first,
                     const char *pre)
{
    for (size_t k = first; k < fn->nparams; k++) {
        const ut_param *a = &fn->params[k];
        char *as = harness_unqual(a->type), vn[32], bn[32], nn[32], path[160];
        snprintf(vn, sizeof vn, "%s%zu", pre, k);
        snprintf(bn, sizeof bn, "%sb%zu", pre, k);
        snprintf(nn, sizeof nn, "%sn%zu", pre, k);
        snprintf(path, sizeof path, "%s_%s", p->name, a->name);
        /* a buffer/length pair (`te_compile(expr, variables, var_count, ...)`): the symbolic array of
         * the driver's parameters, its length argument the element count */
        if (a->len_param >= 0)
            harness_pair_buffer(b, o, a->type, fn->params[a->len_param].name, bn, nn, a->len_param > (int)k,
                                a->capacity, "        ");
        else if (a->buf_param > (int)k)
            sb_printf(b, "        size_t %sn%d = sym_size_t(\"%s_%s\");\n        sym_assume(%sn%d <= %u);\n", pre,
                      a->buf_param, p->name, a->name, pre, a->buf_param, o->buf_len);
        char *d = unit_declarator(as, vn);
        if (a->len_param >= 0)
            sb_printf(b, "        %s = %s;\n", d, bn);
        else if (a->buf_param >= 0)
            sb_printf(b, "        %s = (%s)%sn%d;\n", d, as, pre, a->buf_param);
        else
            sb_printf(b, "        %s;\n", d);
        sb_printf(b,
                  "        int %s%zuid = sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"m\", "
                  "\"%s_%s_arg\", \"%s\");\n        (void)%s%zuid;\n",
                  pre, k, vn, vn, a->type->id, p->name, a->name, as, pre, k);
        if (a->len_param >= 0 || a->buf_param >= 0) {
            if (a->len_param >= 0) harness_pair_elems(b, o, a->type, path, bn, nn, a->capacity, "        ");
            free(d);
            free(as);
            continue;
        }
        if (a->type->kind == UT_PTR)
            sb_printf(b, "        sympu_null_ok = %d;\n        sympu_null_ok_deref = %d;\n", o->null_all, o->null_all);
        sb_printf(b, "        sympu_fill_%d((void *)&%s, \"%s_%s\", 0);\n", a->type->id, vn, p->name, a->name);
        free(d);
        free(as);
    }
}

/* UP_RETURN: each argument an object of flag m filled from inputs, then `sympu_aI = fn(args)`. */
static void gen_return(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, size_t i,
                       const char *ts, const ut_func *fn)
{
    (void)u;
    gen_args(b, o, p, fn, 0, "sympu_m");
    sb_printf(b,
              "        int sympu_pid = sympu_register(&sympu_a%zu, -1, sizeof sympu_a%zu, 1, 0, sympu_dump_%d, "
              "\"p\", \"%s\", \"%s\");\n",
              i, i, p->type->id, p->name, ts);
    sb_puts(b, "        sympu_pobj = sympu_pid;\n");
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
                 "        sympu_allocs_made();\n#endif\n");
    sb_printf(b, "        memcpy((void *)&sympu_a%zu, &sympu_v, sizeof sympu_a%zu);\n", i, i);
    sb_printf(b, "        sympu_rec(\"make %%d %%c %s", fn->name);
    for (size_t k = 0; k < fn->nparams; k++) sb_puts(b, " %d");
    sb_puts(b, "\\n\", sympu_pid, sympu_mkind");
    for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, ", sympu_m%zuid", k);
    sb_puts(b, ");\n        (void)sympu_pid;\n        (void)sympu_mkind;\n");
}

/* Containers, before a UP_RETURN producer's branch: 0..2 items (a symbolic count), each made by a
 * UP_RETURN producer of P (its arguments objects of flag m, filled from inputs, registered before the
 * container's own so the test declares them first) and the adder chosen; sympu_it[], sympu_ita[] and
 * the record text of each add's item call (sympu_itrec[]) are used by gen_adds after the container. */
static void gen_items(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p,
                      const unit_producer *items, size_t nitems, size_t nadders, const char *itype)
{
    char *d = unit_declarator(itype, "sympu_it[2]");
    sb_printf(b, "        %s;\n        unsigned sympu_ita[2] = {0, 0};\n        char sympu_itrec[2][256];\n", d);
    free(d);
    sb_printf(b, "        unsigned sympu_nadd = sympu_choice(\"%s.adds\", 3);\n", p->name);
    sb_puts(b, "        for (unsigned sympu_q = 0; sympu_q < sympu_nadd; sympu_q++) {\n");
    sb_printf(b, "        sympu_ita[sympu_q] = sympu_choice(\"%s.adder\", %zu);\n", p->name, nadders);
    sb_printf(b, "        unsigned sympu_iq = sympu_choice(\"%s.item\", %zu);\n", p->name, nitems);
    for (size_t j = 0; j < nitems; j++) {
        const ut_func *fn = items[j].fn;
        sb_printf(b, "        %sif (sympu_iq == %zu) {\n", j ? "} else " : "", j);
        sb_printf(b, "        int sympu_ids[%zu];\n        (void)sympu_ids;\n", fn->nparams + 1);
        for (size_t k = 0; k < fn->nparams; k++) {
            const ut_param *a = &fn->params[k];
            char *as = harness_unqual(a->type), vn[32];
            snprintf(vn, sizeof vn, "sympu_x%zu", k);
            char *ad = unit_declarator(as, vn);
            sb_printf(b, "        %s;\n", ad);
            sb_printf(b,
                      "        sympu_ids[%zu] = sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"m\", "
                      "\"%s_item_%s_arg\", \"%s\");\n",
                      k, vn, vn, a->type->id, p->name, a->name, as);
            if (a->type->kind == UT_PTR)
                sb_printf(b, "        sympu_null_ok = %d;\n        sympu_null_ok_deref = %d;\n", o->null_all,
                          o->null_all);
            sb_printf(b, "        sympu_fill_%d((void *)&%s, \"%s_item_%s\", 0);\n", a->type->id, vn, p->name, a->name);
            free(ad);
            free(as);
        }
        sb_printf(b, "        {\n        __typeof__(%s(", fn->name);
        for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, "%ssympu_x%zu", k ? ", " : "", k);
        sb_printf(b, ")) sympu_v = %s(", fn->name);
        for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, "%ssympu_x%zu", k ? ", " : "", k);
        sb_puts(b, ");\n        memcpy((void *)&sympu_it[sympu_q], &sympu_v, sizeof sympu_it[sympu_q]);\n        }\n");
        sb_printf(b, "        int sympu_at = snprintf(sympu_itrec[sympu_q], 256, \"%s\");\n", fn->name);
        for (size_t k = 0; k < fn->nparams; k++)
            sb_printf(
                b,
                "        if (sympu_at > 0 && sympu_at < 256) sympu_at += snprintf(sympu_itrec[sympu_q] + sympu_at, "
                "(size_t)(256 - sympu_at), \" %%d\", sympu_ids[%zu]);\n",
                k);
        sb_puts(b, "        (void)sympu_at;\n");
    }
    sb_puts(b, "        }\n        }\n");
}

/* After the container sympu_aI is made: the adds gen_items prepared, each recorded as
 * `add ID ADDER ITEMFUNC ARG...`. */
static void gen_adds(strbuf *b, size_t i, const ut_func *const *adders, size_t nadders)
{
    /* nothing is added to a NULL container; a failed add (a zero result) is not recorded: the test
     * does not make that item (it would leak) */
    sb_printf(b, "        for (unsigned sympu_q = 0; sympu_q < sympu_nadd && sympu_a%zu != NULL; sympu_q++) {\n", i);
    for (size_t j = 0; j < nadders; j++) {
        const ut_func *ad = adders[j];
        sb_printf(b, "        %sif (sympu_ita[sympu_q] == %zu) {\n", j ? "} else " : "", j);
        if (ad->type->ret->kind == UT_VOID)
            sb_printf(b, "        %s((%s)sympu_a%zu, sympu_it[sympu_q]);\n        {\n", ad->name,
                      ad->params[0].type->spelling, i);
        else
            sb_printf(b, "        if (%s((%s)sympu_a%zu, sympu_it[sympu_q])) {\n", ad->name,
                      ad->params[0].type->spelling, i);
        sb_printf(b, "        sympu_rec(\"add %%d %s %%s\\n\", sympu_pid, sympu_itrec[sympu_q]);\n        }\n",
                  ad->name);
    }
    sb_puts(b, "        }\n        }\n");
}

/* UP_INIT: a fresh object of the pointee type, registered (aliasable), initialised by fn. */
static void gen_init(strbuf *b, const ut_param *p, size_t i, const char *ts, const ut_func *fn)
{
    const ut_type *e = p->type->pointee;
    char *es = harness_unqual(e);
    char *pe = unit_declarator(es, "*sympu_o");
    sb_puts(b, "        sympu_pobj = ");
    register_param(b, "", i, p, ts);
    sb_printf(b, "        %s = calloc(1, sizeof *sympu_o);\n", pe);
    sb_printf(b,
              "        int sympu_oid = sympu_register(sympu_o, %d, sizeof *sympu_o, 1, 1, sympu_dump_%d, \"-\", "
              "\"%s\", \"%s\");\n",
              e->alias_id, e->id, p->name, es);
    sb_printf(b, "        sympu_rec(\"make %%d i %s\\n\", sympu_oid);\n", fn->name);
    sb_printf(b, "        %s%s(sympu_o);\n", fn->type->ret->kind == UT_VOID ? "" : "(void)", fn->name);
    sb_printf(b, "        sympu_built(sympu_oid);\n        memcpy((void *)&sympu_a%zu, &sympu_o, sizeof sympu_a%zu);\n",
              i, i);
    free(pe);
    free(es);
}

/* After the producer: 0 or 1 call of a modifier on the object (unit_param_modifiers), whether and
 * which are choices the explorer flips; recorded as `seq ID FUNC ARG...`. */
static void gen_calls(strbuf *b, const unit_harness_opts *o, const ut_param *p, size_t i, const ut_func *const *mods,
                      size_t nmods)
{
    sb_printf(b, "    if (sympu_a%zu != NULL && sympu_choice(\"%s.calls\", 2) == 1) {\n", i, p->name);
    sb_printf(b, "        unsigned sympu_cq = sympu_choice(\"%s.call\", %zu);\n", p->name, nmods);
    for (size_t j = 0; j < nmods; j++) {
        const ut_func *fn = mods[j];
        sb_printf(b, "        %sif (sympu_cq == %zu) { /* %s */\n", j ? "} else " : "", j, fn->name);
        gen_args(b, o, p, fn, 1, "sympu_c");
        sb_printf(b, "        %s%s((%s)sympu_a%zu", fn->type->ret->kind == UT_VOID ? "" : "(void)", fn->name,
                  fn->params[0].type->spelling, i);
        for (size_t k = 1; k < fn->nparams; k++) sb_printf(b, ", sympu_c%zu", k);
        sb_printf(b, ");\n        sympu_rec(\"seq %%d %s", fn->name);
        for (size_t k = 1; k < fn->nparams; k++) sb_puts(b, " %d");
        sb_puts(b, "\\n\", sympu_pobj");
        for (size_t k = 1; k < fn->nparams; k++) sb_printf(b, ", sympu_c%zuid", k);
        sb_puts(b, ");\n");
    }
    sb_puts(b, "        }\n    }\n");
}

int harness_producer_param(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                           strbuf *warn)
{
    unit_producer pr[UNIT_MAX_PRODUCERS];
    size_t np = unit_param_producers(u, o, f, i, pr, UNIT_MAX_PRODUCERS);
    const ut_param *p = &f->params[i];
    const char *named = np == 0 && !o->raw_inputs ? unit_init_for(o, p->type) : NULL;
    if (named && warn)
        sb_printf(warn,
                  "%s: parameter %s: --init %s: no such function, or it cannot produce %s (built field by field)\n",
                  f->name, p->name, named, p->type->spelling);
    if (np == 0) return 0;
    char *ts = harness_unqual(p->type), vn[32];
    snprintf(vn, sizeof vn, "sympu_a%zu", i);
    char *d = unit_declarator(ts, vn);
    /* the producers give non-NULL values: NULL only with --null-always */
    int null_ok = o->null_all;
    sb_printf(b, "    /* %s: built by the unit's producers; which one is a choice the explorer flips */\n", p->name);
    sb_printf(b, "    %s;\n    {\n    int sympu_pobj = -1;\n    (void)sympu_pobj;\n", d);
    sb_printf(b, "    unsigned sympu_mk = sympu_choice(\"%s.make\", %zu);\n", p->name, np + (size_t)null_ok);
    /* containers: adders, and the producers that can make an item (a T *, not const) */
    const ut_func *adders[UNIT_MAX_PRODUCERS];
    size_t nadders = unit_param_adders(u, o, f, i, adders, UNIT_MAX_PRODUCERS), nitems = 0;
    unit_producer items[UNIT_MAX_PRODUCERS];
    for (size_t j = 0; j < np && nadders; j++) {
        const ut_type *r = pr[j].fn->type->ret;
        int pairs = 0; /* an item's arguments are filled one by one: no buffer/length pair */
        for (size_t k = 0; k < pr[j].fn->nparams; k++) pairs |= pr[j].fn->params[k].len_param >= 0;
        if (pr[j].kind == UP_RETURN && r->kind == UT_PTR && !r->pointee->is_const && !pairs) items[nitems++] = pr[j];
    }
    for (size_t j = 0; j < np; j++) {
        sb_printf(b, "    %sif (sympu_mk == %zu) { /* %s */\n", j ? "} else " : "", j, pr[j].fn->name);
        int adds = pr[j].kind == UP_RETURN && nadders && nitems;
        if (adds) gen_items(b, u, o, p, items, nitems, nadders, adders[0]->params[1].type->spelling);
        if (pr[j].kind == UP_RETURN)
            gen_return(b, u, o, p, i, ts, pr[j].fn);
        else
            gen_init(b, p, i, ts, pr[j].fn);
        if (adds) gen_adds(b, i, adders, nadders);
    }
    if (null_ok) {
        sb_puts(b, "    } else {\n");
        register_param(b, "        ", i, p, ts);
        sb_printf(b, "        memset((void *)&sympu_a%zu, 0, sizeof sympu_a%zu);\n", i, i);
    }
    sb_puts(b, "    }\n");
    const ut_func *mods[UNIT_MAX_PRODUCERS];
    size_t nmods = unit_param_modifiers(u, o, f, i, mods, UNIT_MAX_PRODUCERS);
    if (nmods) gen_calls(b, o, p, i, mods, nmods);
    sb_puts(b, "    }\n");
    free(d);
    free(ts);
    return 1;
}
