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
 * object ids PRE<k>id. An argument k with zeroed[k] set (zeroed may be NULL), a pointer to a
 * struct the destructor takes too (unit_destructor_shared), points to a fresh zeroed struct. With tf
 * (the target, p its parameter ti), an argument of the struct pointer type of an earlier parameter
 * is that parameter first (earlier_same; the driver's sympu_tied set), one of its own else. */
static void gen_args(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, const ut_func *fn,
                     size_t first, const char *pre, const int *zeroed, int nest, const ut_func *tf, size_t ti);

/* Argument k of producer fn (local VN, its id VNid) built by one of its own producers nps
 * (unit_arg_producers; the choice symbolic, named after the argument): the nested producer's
 * arguments filled from inputs, then the argument registered (flag m) and its own `make` line
 * recorded, so that the test declares it with the same call (emit_producer.c). */
static void gen_nested(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, const ut_func *fn,
                       size_t k, const char *vn, const char *as, const unit_producer *nps, size_t nnp)
{
    const ut_param *a = &fn->params[k];
    char *d = unit_declarator(as, vn);
    sb_printf(b, "        %s;\n        int %sid = -1;\n        {\n", d, vn);
    free(d);
    sb_printf(b, "        unsigned %s_mk = sympu_choice(\"%s_%s.make\", %zu);\n", vn, p->name, a->name, nnp);
    for (size_t j = 0; j < nnp; j++) {
        const ut_func *g = nps[j].fn;
        char pre[64];
        snprintf(pre, sizeof pre, "%s_", vn);
        sb_printf(b, "        %sif (%s_mk == %zu) { /* %s */\n", j ? "} else " : "", vn, j, g->name);
        gen_args(b, u, o, p, g, 0, pre, NULL, 0, NULL, 0);
        sb_printf(b,
                  "        %sid = sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"m\", \"%s_%s_arg\", "
                  "\"%s\");\n",
                  vn, vn, vn, a->type->id, p->name, a->name, as);
        sb_printf(b, "#ifdef SYMPATH_UNIT_RECORD\n        sympu_in_call = 1;\n#endif\n");
        strbuf call = STRBUF_INIT;
        sb_printf(&call, "%s(", g->name);
        for (size_t m = 0; m < g->nparams; m++) sb_printf(&call, "%s%s%zu", m ? ", " : "", pre, m);
        sb_puts(&call, ")");
        sb_printf(b, "        __typeof__(%s) %s_v = %s;\n        char %s_kind = 'r';\n", call.s, vn, call.s, vn);
        sb_free(&call);
        sb_printf(b,
                  "#ifdef SYMPATH_UNIT_RECORD\n        sympu_in_call = 0;\n"
                  "        if (sympu_heap_block((const void *)%s_v)) %s_kind = 'h';\n"
                  "        sympu_allocs_made();\n#endif\n",
                  vn, vn);
        sb_printf(b, "        memcpy((void *)&%s, &%s_v, sizeof %s);\n", vn, vn, vn);
        sb_printf(b, "        sympu_rec(\"make %%d %%c %s", g->name);
        for (size_t m = 0; m < g->nparams; m++) sb_puts(b, " %d");
        sb_printf(b, "\\n\", %sid, %s_kind", vn, vn);
        for (size_t m = 0; m < g->nparams; m++) sb_printf(b, ", %s%zuid", pre, m);
        sb_printf(b, ");\n        (void)%s_kind;\n", vn);
        /* a failed construction is no input (as for the parameter): the outer producer is not given NULL */
        sb_printf(b, "        sym_assume(%s != NULL);\n", vn);
    }
    sb_puts(b, "        }\n        }\n");
}

/* Argument k of producer fn (gen_args: the locals PRE<k>, PRE<k>id), from inputs or its own producers. */
static void gen_arg(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, const ut_func *fn,
                    size_t first, size_t k, const char *pre, const int *zeroed, int nest)
{
    {
        const ut_param *a = &fn->params[k];
        char *as = harness_unqual(a->type), vn[48], bn[48], nn[48], path[160];
        snprintf(vn, sizeof vn, "%s%zu", pre, k);
        snprintf(bn, sizeof bn, "%sb%zu", pre, k);
        snprintf(nn, sizeof nn, "%sn%zu", pre, k);
        snprintf(path, sizeof path, "%s_%s", p->name, a->name);
        unit_producer nps[UNIT_MAX_PRODUCERS];
        size_t nnp = nest && !(zeroed && zeroed[k]) && a->len_param < 0 && a->buf_param < 0
                         ? unit_arg_producers(u, o, fn, k, nps, UNIT_MAX_PRODUCERS)
                         : 0;
        if (nnp) {
            gen_nested(b, u, o, p, fn, k, vn, as, nps, nnp);
            free(as);
            return;
        }
        if (zeroed && zeroed[k]) {
            const ut_type *e = a->type->pointee;
            char *es = harness_unqual(e), *d = unit_declarator(as, vn);
            sb_printf(b, "        %s = calloc(1, sizeof *%s);\n", d, vn);
            sb_printf(b,
                      "        int %s%zuid = sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"m\", "
                      "\"%s_%s_arg\", \"%s\");\n        (void)%s%zuid;\n",
                      pre, k, vn, vn, a->type->id, p->name, a->name, as, pre, k);
            sb_printf(b,
                      "        sympu_built(sympu_register(%s, %d, sizeof *%s, 1, 0, sympu_dump_%d, \"-\", \"%s\", "
                      "\"%s\"));\n",
                      vn, e->alias_id, vn, e->id, path, es);
            free(d);
            free(es);
            free(as);
            return;
        }
        int rb = unit_range_begin(fn, k);
        if (rb >= (int)first) {
            /* the end of a range (`stb_c_lexer_init(lexer, text, text_end, ...)`): into the object of the
             * argument before it, as for a parameter (unit_range_begin) */
            char *d = unit_declarator(as, vn);
            sb_printf(
                b,
                "        %s;\n        int %s%zuid = sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"m\", "
                "\"%s_%s_arg\", \"%s\");\n        (void)%s%zuid;\n",
                d, pre, k, vn, vn, a->type->id, p->name, a->name, as, pre, k);
            sb_printf(b, "        %s = (%s)sympu_range_end((void *)%s%d, sizeof *%s, \"%s\");\n", vn, as, pre, rb, vn,
                      path);
            free(d);
            free(as);
            return;
        }
        if (harness_null_list(u, fn, k)) { /* walked as an array, no length: a list ended by NULL or zero */
            char *d = unit_declarator(as, vn);
            sb_printf(
                b,
                "        %s = NULL;\n        int %s%zuid = sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, "
                "\"m\", \"%s_%s_arg\", \"%s\");\n        (void)%s%zuid;\n",
                d, pre, k, vn, vn, a->type->id, p->name, a->name, as, pre, k);
            char pq[200];
            snprintf(pq, sizeof pq, "\"%s\"", path);
            harness_null_list_elems(b, a->type, pq, "1", vn, "        ");
            free(d);
            free(as);
            return;
        }
        /* a buffer/length pair (`te_compile(expr, variables, var_count, ...)`): the symbolic array of
         * the driver's parameters, its length argument the element count */
        if (a->len_param >= 0)
            harness_pair_buffer(b, o, a->type, fn->params[a->len_param].name, bn, nn, a->len_param > (int)k,
                                a->capacity || unit_producer_storage(fn, k), "        ");
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
            if (a->len_param >= 0)
                harness_pair_elems(b, o, a->type, path, bn, nn, a->capacity || unit_producer_storage(fn, k),
                                   "        ");
            free(d);
            free(as);
            return;
        }
        if (a->type->kind == UT_PTR)
            sb_printf(b, "        sympu_null_ok = %d;\n        sympu_null_ok_deref = %d;\n", o->null_all, o->null_all);
        sb_printf(b, "        sympu_fill_%d((void *)&%s, \"%s_%s\", 0);\n", a->type->id, vn, p->name, a->name);
        free(d);
        free(as);
    }
}

/* The nearest parameter of the target tf before ti (tf NULL: none) that is a pointer to the same
 * struct type as argument a of a producer, not part of a pair; -1 when there is none. */
static int earlier_same(const ut_func *tf, size_t ti, const ut_param *a)
{
    const ut_type *t = a->type;
    if (!tf || !t || t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_STRUCT || a->len_param >= 0 ||
        a->buf_param >= 0)
        return -1;
    for (size_t j = ti; j-- > 0;) {
        const ut_param *q = &tf->params[j];
        const ut_type *qt = q->type;
        if (qt && qt->kind == UT_PTR && qt->pointee && qt->pointee->alias_id == t->pointee->alias_id &&
            q->len_param < 0 && q->buf_param < 0)
            return (int)j;
    }
    return -1;
}

static void gen_args(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, const ut_func *fn,
                     size_t first, const char *pre, const int *zeroed, int nest, const ut_func *tf, size_t ti)
{
    for (size_t k = first; k < fn->nparams; k++) {
        int j = zeroed && zeroed[k] ? -1 : earlier_same(tf, ti, &fn->params[k]);
        if (j < 0) {
            gen_arg(b, u, o, p, fn, first, k, pre, zeroed, nest);
            continue;
        }
        /* the target's own earlier parameter first (`node *n = list_push(l, 5);` for list_remove(l, n):
         * an element of the very container the call gets), else one built for it alone */
        const ut_param *a = &fn->params[k];
        char *as = harness_unqual(a->type), vn[48], own[48];
        snprintf(vn, sizeof vn, "%s%zu", pre, k);
        snprintf(own, sizeof own, "%so", pre);
        char *d = unit_declarator(as, vn);
        sb_printf(b, "        %s;\n        int %sid;\n", d, vn);
        sb_printf(b, "        if (sympu_choice(\"%s_%s.same\", 2) == 0) { /* the call's own %s */\n", p->name, a->name,
                  tf->params[j].name);
        sb_printf(b,
                  "        %s = sympu_a%d;\n        %sid = sympu_id_of(&sympu_a%d);\n        sympu_tied = 1;\n        "
                  "} else {\n",
                  vn, j, vn, j);
        gen_arg(b, u, o, p, fn, first, k, own, zeroed, nest);
        sb_printf(b, "        %s = %s%zu;\n        %sid = %s%zuid;\n        }\n        (void)%sid;\n", vn, own, k, vn,
                  own, k, vn);
        free(d);
        free(as);
    }
}

/* UP_RETURN: each argument an object of flag m filled from inputs, then `sympu_aI = fn(args)`. */
static void gen_return(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                       const char *ts, const ut_func *fn)
{
    const ut_param *p = &f->params[i];
    /* the arguments the type's destructor takes too start zeroed (unit_destructor_shared) */
    int zeroed[64] = {0}, extra[UNIT_MAX_DESTRUCTOR_ARGS];
    const ut_func *d = unit_destructor_for(u, p->type, fn, extra, UNIT_MAX_DESTRUCTOR_ARGS);
    for (size_t k = 1; d && k < d->nparams; k++)
        if (extra[k - 1] >= 0 && extra[k - 1] < 64) zeroed[extra[k - 1]] = 1;
    for (size_t k = 0; k < fn->nparams && k < 64; k++) zeroed[k] |= unit_empty_table_arg(fn, k);
    sb_puts(b, "        int sympu_mfirst = sympu_nobjs + 1;\n");
    gen_args(b, u, o, p, fn, 0, "sympu_m", zeroed, 1, f, i);
    /* the arguments as the test declares them: before the call (the producer may change them) */
    sb_puts(b, "        sympu_dump_early(sympu_mfirst);\n");
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

/* The most nodes of a container parameter's item tree, its own object (node 0) included:
 * 1 + I + I^2 + ... + I^D (I = UNIT_MAX_ITEMS, D = UNIT_MAX_DEPTH). */
static size_t tree_nodes(void)
{
    size_t n = 1, w = 1;
    for (int d = 0; d < UNIT_MAX_DEPTH; d++) n += (w *= UNIT_MAX_ITEMS);
    return n;
}

/* One argument a of an item's producer or of an adder, filled from inputs: a heap object of flag m
 * (a tree calls the same producer several times: each call's argument its own object), in the
 * local vn (a pointer to it); its id into the lvalue idlv. */
static void gen_node_arg(strbuf *b, const unit_harness_opts *o, const ut_param *p, const ut_param *a, const char *vn,
                         const char *what, const char *idlv)
{
    char *as = harness_unqual(a->type), star[40];
    snprintf(star, sizeof star, "*%s", vn);
    char *d = unit_declarator(as, star);
    sb_printf(b, "        %s = calloc(1, sizeof *%s);\n", d, vn);
    sb_printf(b,
              "        %s = sympu_register(%s, -1, sizeof *%s, 1, 0, sympu_dump_%d, \"m\", \"%s_%s_%s_arg\", "
              "\"%s\");\n",
              idlv, vn, vn, a->type->id, p->name, what, a->name, as);
    if (a->type->kind == UT_PTR)
        sb_printf(b, "        sympu_null_ok = %d;\n        sympu_null_ok_deref = %d;\n", o->null_all, o->null_all);
    sb_printf(b, "        sympu_fill_%d((void *)%s, \"%s_%s_%s\", 0);\n", a->type->id, vn, p->name, what, a->name);
    free(d);
    free(as);
}

/* Containers, after the choice of the parameter's producer (when it is a UP_RETURN one, sympu_grow)
 * and before its call: the shape of its item tree and the items. Node 0 is the parameter's object;
 * from it down, breadth first, each node that may hold items (node 0, an item made by a producer
 * without arguments: an empty container) above depth UNIT_MAX_DEPTH gets 0..UNIT_MAX_ITEMS items (a
 * symbolic count), each with a symbolic choice of adder (the other arguments of every adder objects
 * of flag m, filled from inputs: gen_adds tries the next adder when one fails) and of producer (its
 * arguments the same). Every argument is registered before the container's own, so the test
 * declares them first. gen_adds adds the items once the parameter's object is made. */
static void gen_tree(strbuf *b, const unit_harness_opts *o, const ut_param *p, const unit_producer *items,
                     size_t nitems, const ut_func *const *adders, size_t nadders)
{
    size_t nn = tree_nodes(), ka = 1, ki = 1;
    for (size_t j = 0; j < nadders; j++)
        if (adders[j]->nparams - 2 > ka) ka = adders[j]->nparams - 2;
    for (size_t j = 0; j < nitems; j++)
        if (items[j].fn->nparams > ki) ki = items[j].fn->nparams;
    int it0 = unit_adder_item(adders[0], p->type);
    char arr[48];
    snprintf(arr, sizeof arr, "sympu_nd[%zu]", nn);
    char *d = unit_declarator(adders[0]->params[it0].type->spelling, arr);
    sb_printf(b, "    /* %s's item tree (containers): which items, their adders and producers are choices */\n",
              p->name);
    sb_printf(b, "    %s;\n", d);
    free(d);
    sb_printf(b,
              "    int sympu_npar[%zu], sympu_ndep[%zu], sympu_nbox[%zu], sympu_nok[%zu], sympu_naid[%zu][%zu][%zu], "
              "sympu_niid[%zu][%zu];\n",
              nn, nn, nn, nn, nn, nadders, ka, nn, ki);
    sb_printf(b, "    unsigned sympu_nad[%zu], sympu_nit[%zu];\n    void *sympu_nav[%zu][%zu][%zu];\n", nn, nn, nn,
              nadders, ka);
    sb_puts(b, "    int sympu_nn = 1, sympu_adds = 0;\n    sympu_ndep[0] = 0;\n    sympu_nbox[0] = 1;\n");
    sb_puts(b, "    for (int sympu_c = 0; sympu_grow && sympu_c < sympu_nn; sympu_c++) {\n");
    sb_printf(b, "        if (!sympu_nbox[sympu_c] || sympu_ndep[sympu_c] >= %d) continue;\n", UNIT_MAX_DEPTH);
    sb_printf(b, "        unsigned sympu_k = sympu_choice(sympu_c ? \"%s.item.adds\" : \"%s.adds\", %d);\n", p->name,
              p->name, UNIT_MAX_ITEMS + 1);
    sb_puts(b, "        for (unsigned sympu_q = 0; sympu_q < sympu_k; sympu_q++) {\n");
    sb_puts(b, "        int sympu_n = sympu_nn++;\n        sympu_npar[sympu_n] = sympu_c;\n"
               "        sympu_ndep[sympu_n] = sympu_ndep[sympu_c] + 1;\n        sympu_nbox[sympu_n] = 0;\n"
               "        sympu_nok[sympu_n] = 0;\n        sympu_nd[sympu_n] = NULL;\n");
    sb_printf(b, "        sympu_nad[sympu_n] = sympu_choice(\"%s.adder\", %zu);\n", p->name, nadders);
    /* the arguments of every adder: the chosen one may fail on this container (a list's adder on a
     * map), then the next one is tried (gen_adds) */
    for (size_t j = 0; j < nadders; j++) {
        const ut_func *ad = adders[j];
        int it = unit_adder_item(ad, p->type);
        if (ad->nparams > 2) sb_printf(b, "        { /* %s */\n", ad->name);
        for (size_t k = 1, m = 0; k < ad->nparams; k++) {
            if ((int)k == it) continue;
            char vn[32], idlv[64];
            snprintf(vn, sizeof vn, "sympu_y%zu", m);
            snprintf(idlv, sizeof idlv, "sympu_naid[sympu_n][%zu][%zu]", j, m);
            gen_node_arg(b, o, p, &ad->params[k], vn, "key", idlv);
            sb_printf(b, "        sympu_nav[sympu_n][%zu][%zu] = (void *)%s;\n", j, m++, vn);
        }
        if (ad->nparams > 2) sb_puts(b, "        }\n");
    }
    sb_printf(b, "        sympu_nit[sympu_n] = sympu_choice(\"%s.item\", %zu);\n", p->name, nitems);
    for (size_t j = 0; j < nitems; j++) {
        const ut_func *fn = items[j].fn;
        sb_printf(b, "        %sif (sympu_nit[sympu_n] == %zu) { /* %s */\n", j ? "} else " : "", j, fn->name);
        for (size_t k = 0; k < fn->nparams; k++) {
            char vn[32], idlv[64];
            snprintf(vn, sizeof vn, "sympu_x%zu", k);
            snprintf(idlv, sizeof idlv, "sympu_niid[sympu_n][%zu]", k);
            gen_node_arg(b, o, p, &fn->params[k], vn, "item", idlv);
        }
        strbuf call = STRBUF_INIT;
        sb_printf(&call, "%s(", fn->name);
        for (size_t k = 0; k < fn->nparams; k++) sb_printf(&call, "%s*sympu_x%zu", k ? ", " : "", k);
        sb_puts(&call, ")");
        sb_printf(b, "        __typeof__(%s) sympu_v = %s;\n", call.s, call.s);
        sb_puts(b, "        memcpy((void *)&sympu_nd[sympu_n], &sympu_v, sizeof sympu_nd[sympu_n]);\n");
        sb_free(&call);
        /* no argument: an empty container (`cJSON_CreateArray()`), which may get items of its own */
        if (fn->nparams == 0) sb_puts(b, "        sympu_nbox[sympu_n] = 1;\n");
    }
    sb_puts(b, "        }\n        }\n    }\n");
}

/* After the parameter sympu_aI is made by a UP_RETURN producer (sympu_adds set): the items of the
 * tree gen_tree made are added, the deepest first (an item's own items before it), none to a NULL
 * container; an add that fails (a zero result: a list's adder on a map) is tried with the next adder,
 * the one that succeeds is recorded; then each add is recorded, `add ID NODE PARENT ADDER NA ADARG...
 * ITEM ARG...`, unless it or an add above it failed (the test makes none of those items). */
static void gen_adds(strbuf *b, const unit_info *u, size_t i, const ut_param *p, const unit_producer *items,
                     size_t nitems, const ut_func *const *adders, size_t nadders)
{
    /* the adders of one container share a convention: one that returns -1 somewhere makes 0 a success
     * for all (tn_add_ref's `return link_child(...)` shows none itself) */
    int negative = 0;
    for (size_t k = 0; k < nadders; k++) negative |= unit_fails_negative(u, adders[k]->name);
    sb_printf(b, "    if (sympu_adds && sympu_a%zu != NULL) {\n", i);
    sb_printf(b, "    memcpy((void *)&sympu_nd[0], &sympu_a%zu, sizeof sympu_nd[0]);\n", i);
    sb_printf(b, "    for (int sympu_d = %d; sympu_d >= 1; sympu_d--)\n", UNIT_MAX_DEPTH);
    sb_puts(b, "    for (int sympu_n = 1; sympu_n < sympu_nn; sympu_n++) {\n"
               "        if (sympu_ndep[sympu_n] != sympu_d || sympu_nd[sympu_npar[sympu_n]] == NULL) continue;\n");
    sb_printf(b, "        for (unsigned sympu_t = 0; sympu_t < %zu && !sympu_nok[sympu_n]; sympu_t++) {\n", nadders);
    sb_printf(b, "        unsigned sympu_j = (sympu_nad[sympu_n] + sympu_t) %% %zu;\n", nadders);
    for (size_t j = 0; j < nadders; j++) {
        const ut_func *ad = adders[j];
        int it = unit_adder_item(ad, p->type);
        sb_printf(b, "        %sif (sympu_j == %zu) {\n", j ? "} else " : "", j);
        strbuf args = STRBUF_INIT;
        for (size_t k = 0, m = 0; k < ad->nparams; k++) {
            if (k) sb_puts(&args, ", ");
            if (k == 0)
                sb_printf(&args, "(%s)sympu_nd[sympu_npar[sympu_n]]", ad->params[0].type->spelling);
            else if ((int)k == it)
                sb_printf(&args, "(%s)sympu_nd[sympu_n]", ad->params[k].type->spelling);
            else {
                char *as = harness_unqual(ad->params[k].type), vn[32], star[40];
                snprintf(vn, sizeof vn, "sympu_y%zu", m);
                snprintf(star, sizeof star, "*%s", vn);
                char *dd = unit_declarator(as, star);
                sb_printf(b, "        %s = sympu_nav[sympu_n][%zu][%zu];\n", dd, j, m++);
                sb_printf(&args, "*%s", vn);
                free(dd);
                free(as);
            }
        }
        const ut_type *rt = ad->type->ret;
        if (rt->kind == UT_VOID)
            sb_printf(b, "        %s(%s);\n        sympu_nok[sympu_n] = 1;\n", ad->name, args.s);
        else if (rt->kind == UT_INT && rt->is_signed && negative)
            /* 0 on success, negative on failure (`return -1`): taken as a failure, a success linked the
             * item, and the next adder linked it again: a cycle (tnode's tn_add, tn_add_ref) */
            sb_printf(b, "        sympu_nok[sympu_n] = %s(%s) >= 0;\n", ad->name, args.s);
        else /* bool-like (cJSON_bool), a pointer: nonzero */
            sb_printf(b, "        sympu_nok[sympu_n] = %s(%s) != 0;\n", ad->name, args.s);
        sb_free(&args);
    }
    sb_puts(b, "        }\n        if (sympu_nok[sympu_n]) sympu_nad[sympu_n] = sympu_j;\n        }\n    }\n");
    sb_printf(b, "    for (int sympu_d = %d; sympu_d >= 1; sympu_d--)\n", UNIT_MAX_DEPTH);
    sb_puts(b, "    for (int sympu_n = 1; sympu_n < sympu_nn; sympu_n++) {\n"
               "        int sympu_live = sympu_ndep[sympu_n] == sympu_d;\n"
               "        for (int sympu_m = sympu_n; sympu_m > 0 && sympu_live; sympu_m = sympu_npar[sympu_m])\n"
               "            sympu_live = sympu_nok[sympu_m];\n"
               "        if (!sympu_live) continue;\n"
               "        sympu_rec(\"add %d %d %d\", sympu_pobj, sympu_n, sympu_npar[sympu_n]);\n");
    for (size_t j = 0; j < nadders; j++) {
        const ut_func *ad = adders[j];
        size_t na = ad->nparams - 2;
        sb_printf(b, "        if (sympu_nad[sympu_n] == %zu) sympu_rec(\" %s %zu", j, ad->name, na);
        for (size_t m = 0; m < na; m++) sb_puts(b, " %d");
        sb_puts(b, "\"");
        for (size_t m = 0; m < na; m++) sb_printf(b, ", sympu_naid[sympu_n][%zu][%zu]", j, m);
        sb_puts(b, ");\n");
    }
    for (size_t j = 0; j < nitems; j++) {
        const ut_func *fn = items[j].fn;
        sb_printf(b, "        if (sympu_nit[sympu_n] == %zu) sympu_rec(\" %s", j, fn->name);
        for (size_t k = 0; k < fn->nparams; k++) sb_puts(b, " %d");
        sb_puts(b, "\\n\"");
        for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, ", sympu_niid[sympu_n][%zu]", k);
        sb_puts(b, ");\n");
    }
    sb_puts(b, "    }\n    }\n");
}

/* The fresh object of the pointee type an UP_INIT, UP_OUT or UP_VALUE producer fn fills (sympu_o, registered,
 * aliasable; the parameter object registered first) and its `make ID KIND FUNC ARG...` line, the
 * arguments from index first on (the locals sympu_m<k>). */
static void gen_fresh_object(strbuf *b, const ut_param *p, size_t i, const char *ts, const ut_func *fn, char kind,
                             size_t first)
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
    sb_printf(b, "        sympu_rec(\"make %%d %c %s", kind, fn->name);
    for (size_t k = first; k < fn->nparams; k++) sb_puts(b, " %d");
    sb_puts(b, "\\n\", sympu_oid");
    for (size_t k = first; k < fn->nparams; k++) sb_printf(b, ", sympu_m%zuid", k);
    sb_puts(b, ");\n");
    free(pe);
    free(es);
}

/* The end of an UP_INIT or UP_VALUE producer's code: the object complete, the parameter pointing to it. */
static void gen_fresh_done(strbuf *b, size_t i)
{
    sb_printf(b, "        sympu_built(sympu_oid);\n        memcpy((void *)&sympu_a%zu, &sympu_o, sizeof sympu_a%zu);\n",
              i, i);
}

/* UP_INIT: a fresh object of the pointee type, registered (aliasable), initialised by fn. */
static void gen_init(strbuf *b, const unit_harness_opts *o, const ut_param *p, size_t i, const char *ts,
                     const ut_func *fn)
{
    /* its other arguments, before the object (declared first) */
    gen_args(b, NULL, o, p, fn, 1, "sympu_m", NULL, 0, NULL, 0);
    gen_fresh_object(b, p, i, ts, fn, 'i', 1);
    sb_printf(b, "        %s%s(sympu_o", fn->type->ret->kind == UT_VOID ? "" : "(void)", fn->name);
    for (size_t k = 1; k < fn->nparams; k++) sb_printf(b, ", sympu_m%zu", k);
    sb_puts(b, ");\n");
    gen_fresh_done(b, i);
}

/* UP_OUT: the arguments before the object, then a fresh object of the pointee type (registered, aliasable)
 * that fn fills as its last argument; a result that says the parse failed ends the run (producers_int.h). */
static void gen_out(strbuf *b, const unit_harness_opts *o, const ut_param *p, size_t i, const char *ts,
                    const ut_func *fn)
{
    ut_func head = *fn; /* the arguments before the object */
    head.nparams--;
    gen_args(b, NULL, o, p, &head, 0, "sympu_m", NULL, 0, NULL, 0);
    gen_fresh_object(b, p, i, ts, &head, 'o', 0);
    const ut_type *r = fn->type->ret;
    sb_printf(b, "        %s%s(", r->kind == UT_VOID ? "" : "long long sympu_ok = (long long)", fn->name);
    for (size_t k = 0; k < head.nparams; k++) sb_printf(b, "sympu_m%zu, ", k);
    sb_puts(b, "sympu_o);\n");
    if (r->kind == UT_BOOL)
        sb_puts(b, "        sym_assume(sympu_ok != 0);\n");
    else if (r->kind != UT_VOID)
        sb_puts(b, "        sym_assume(sympu_ok >= 0);\n");
    gen_fresh_done(b, i);
}

/* UP_VALUE: a fresh object of the pointee type (registered, aliasable) holding the struct fn returns;
 * the arguments recorded before the call, as a UP_RETURN producer's (the value may point into them). */
static void gen_value(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, size_t i,
                      const char *ts, const ut_func *fn)
{
    sb_puts(b, "        int sympu_mfirst = sympu_nobjs + 1;\n");
    gen_args(b, u, o, p, fn, 0, "sympu_m", NULL, 1, NULL, 0);
    sb_puts(b, "        sympu_dump_early(sympu_mfirst);\n");
    gen_fresh_object(b, p, i, ts, fn, 'v', 0);
    sb_printf(b, "        *sympu_o = %s(", fn->name);
    for (size_t k = 0; k < fn->nparams; k++) sb_printf(b, "%ssympu_m%zu", k ? ", " : "", k);
    sb_puts(b, ");\n");
    gen_fresh_done(b, i);
}

/* After the producer: up to UNIT_MAX_CALLS calls of modifiers on the object (unit_param_modifiers),
 * whether another one comes and which are choices the explorer flips; each recorded as `seq ID
 * FUNC ARG...`. */
static void gen_calls(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_param *p, size_t i,
                      const ut_func *const *mods, size_t nmods)
{
    sb_printf(b,
              "    for (int sympu_cn = 0; sympu_cn < %d && sympu_a%zu != NULL && sympu_choice(\"%s.calls\", 2) == 1; "
              "sympu_cn++) {\n",
              UNIT_MAX_CALLS, i, p->name);
    sb_printf(b, "        unsigned sympu_cq = sympu_choice(\"%s.call\", %zu);\n", p->name, nmods);
    for (size_t j = 0; j < nmods; j++) {
        const ut_func *fn = mods[j];
        sb_printf(b, "        %sif (sympu_cq == %zu) { /* %s */\n", j ? "} else " : "", j, fn->name);
        sb_puts(b, "        int sympu_cfirst = sympu_nobjs + 1;\n");
        gen_args(b, u, o, p, fn, 1, "sympu_c", NULL, 1, NULL, 0); /* a struct argument by its own producers */
        sb_puts(b, "        sympu_dump_step(sympu_cfirst);\n");
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
    /* the producers give non-NULL values: NULL eagerly only with --null-always, else lazily (below) */
    int null_ok = o->null_all;
    sb_printf(b, "    /* %s: built by the unit's producers; which one is a choice the explorer flips */\n", p->name);
    sb_printf(
        b, "    %s;\n    {\n    int sympu_pobj = -1, sympu_tied = 0;\n    (void)sympu_pobj;\n    (void)sympu_tied;\n",
        d);
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
    int tree = nadders && nitems;
    sb_printf(b, "    unsigned sympu_mk = sympu_choice(\"%s.make\", %zu);\n", p->name, np + (size_t)null_ok);
    if (tree) {
        /* the tree after the choice of the producer (a container's items are chosen knowing which
         * container), for a UP_RETURN one only */
        sb_puts(b, "    int sympu_grow = 0");
        for (size_t j = 0; j < np; j++)
            if (pr[j].kind == UP_RETURN) sb_printf(b, " || sympu_mk == %zu", j);
        sb_puts(b, ";\n");
        gen_tree(b, o, p, items, nitems, adders, nadders);
    }
    for (size_t j = 0; j < np; j++) {
        sb_printf(b, "    %sif (sympu_mk == %zu) { /* %s */\n", j ? "} else " : "", j, pr[j].fn->name);
        if (pr[j].kind == UP_RETURN)
            gen_return(b, u, o, f, i, ts, pr[j].fn);
        else if (pr[j].kind == UP_VALUE)
            gen_value(b, u, o, p, i, ts, pr[j].fn);
        else if (pr[j].kind == UP_OUT)
            gen_out(b, o, p, i, ts, pr[j].fn);
        else
            gen_init(b, o, p, i, ts, pr[j].fn);
        if (tree && pr[j].kind == UP_RETURN) sb_puts(b, "        sympu_adds = 1;\n");
    }
    if (null_ok) {
        sb_puts(b, "    } else {\n");
        register_param(b, "        ", i, p, ts);
        sb_printf(b, "        memset((void *)&sympu_a%zu, 0, sizeof sympu_a%zu);\n", i, i);
    }
    sb_puts(b, "    }\n");
    if (tree) gen_adds(b, u, i, p, items, nitems, adders, nadders);
    const ut_func *mods[UNIT_MAX_PRODUCERS];
    size_t nmods = unit_param_modifiers(u, o, f, i, mods, UNIT_MAX_PRODUCERS);
    if (nmods) gen_calls(b, u, o, p, i, mods, nmods);
    if (!null_ok) {
        /* a producer that failed (NULL: zserge/expr's expr_create on a malformed text) built no input
         * state: the run ends, and the explorer tries other arguments or another producer. NULL is
         * then lazy, as for any pointer: the target's own check of the parameter is covered by the run
         * that makes the made value NULL there (cJSON_Compare's `a == NULL`), and the record drops the
         * construction (unit_record_prune) */
        sb_printf(b, "    sym_assume(sympu_a%zu != NULL);\n", i);
        /* not when its construction changed an earlier parameter (sympu_tied, gen_args): the record would
         * drop that construction with the NULL value, and the parameter's changes with it */
        sb_printf(
            b,
            "    if (!sympu_tied)\n        sympu_a%zu = (__typeof__(sympu_a%zu))sympu_lazy_null((uintptr_t)sympu_a%zu, "
            "\"%s\");\n",
            i, i, i, p->name);
    }
    sb_puts(b, "    }\n");
    free(d);
    free(ts);
    return 1;
}
