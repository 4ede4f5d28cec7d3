/* emit_producer.c: an emitted test builds its inputs with the unit's own producers (`str s = strnew("ab");`, `parser_init(&p);`) and releases them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "emit_int.h"
#include "producers_int.h"

/*
 * The record's `make` lines say how an input was built (harness_producer.c). The test writes the
 * same call sequence a developer would: a parameter made by `FUNC(args)` is declared with that
 * call as its initialiser, each argument written inline (its recorded value; a string argument the
 * test uses nowhere else as a literal, `strnew("ab")`), else the local holding it; an object made
 * by `FUNC(&obj)` is declared without initialiser and initialised by the call. After the
 * assertions the test releases what it built and what the call returned with the unit's destructor
 * of that type (unit_destructor; else free when the recorder saw the value is the start of a heap
 * block the producer allocated, `make ID h`, and nothing otherwise): the input, a fresh result of the
 * same type (`sdsdup`), or, when the function consumed it (its
 * result replaces the input, unit_param_consumed), the result. A void target named like a
 * destructor that is not the type's destructor (`en_free_kids(n)` where `en_free` is) released what
 * the object owns: the test frees the block itself when the producer allocated it (`make ID h`).
 */

static const ur_make *make_of(const unit_record *r, int id)
{
    for (size_t i = 0; i < r->nmakes; i++)
        if (r->makes[i].obj == id && r->makes[i].kind != 'a' && r->makes[i].kind != 'c') return &r->makes[i];
    return NULL;
}

/* The entry of object id with the empty suffix (its whole value), or NULL. */
static const ur_entry *whole_entry(const unit_record *r, int id)
{
    for (size_t j = 0; j < r->nentries; j++)
        if (r->entries[j].obj == id && !*r->entries[j].suffix) return &r->entries[j];
    return NULL;
}

/* Whether object index k is a string array the test writes as a literal inside a producer's call:
 * a char array that one make argument alone points to and the call did not change (not in heap
 * mode, where every input is malloc'ed). */
static int inline_string(const names *n, size_t k)
{
    const unit_record *r = n->r;
    const ur_object *o = &r->objs[k];
    if (n->heap || !o->array || !o->string || o->param || o->make_arg || !is_chartype(n->u, o->ctype)) return 0;
    int refs = 0, from_arg = 0;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj == o->id && e->post.text && strcmp(e->pre.text ? e->pre.text : "", e->post.text)) return 0;
        if (e->pre.kind == 'p' && atoi(e->pre.text) == o->id) { /* the array or an element of it */
            refs++;
            const ur_object *po = obj_by_id(r, e->obj, NULL);
            from_arg = po && po->make_arg && !*e->suffix;
        }
        if (e->post.kind == 'p' && e->post.text && atoi(e->post.text) == o->id && e->pre.text &&
            strcmp(e->pre.text, e->post.text))
            return 0;
    }
    if (refs != 1 || !from_arg) return 0;
    /* no other reference: what the call returned, stored (walk lines) or a stand-in returned */
    for (size_t j = 0; j < r->nwalks; j++)
        if (r->walks[j].value.kind == 'p' && atoi(r->walks[j].value.text) == o->id) return 0;
    for (size_t j = 0; j < r->nmocks; j++)
        if (r->mocks[j].value.kind == 'p' && atoi(r->mocks[j].value.text) == o->id) return 0;
    if (r->ret.kind == 'p' && r->ret.text && atoi(r->ret.text) == o->id) return 0;
    strbuf lit = STRBUF_INIT;
    int ok = emit_char_array_literal(&lit, n, o, 0, 1) == 0;
    sb_free(&lit);
    return ok;
}

/* Whether make argument object index k is written inline (one whole value C can express). */
static int inline_arg(const names *n, size_t k)
{
    const ur_object *o = &n->r->objs[k];
    if (!o->make_arg || make_of(n->r, o->id)) return 0; /* made itself (a nested producer): its local */
    size_t cnt = 0;
    for (size_t j = 0; j < n->r->nentries; j++) cnt += n->r->entries[j].obj == o->id;
    const ur_entry *e = whole_entry(n->r, o->id);
    if (cnt != 1 || !e) return 0;
    strbuf v = STRBUF_INIT;
    int ok = value_expr(&v, n, &e->pre, 0) == 0;
    sb_free(&v);
    return ok;
}

int emit_made_undeclared(const names *n, size_t k)
{
    return (n->skip && n->skip[k]) || inline_arg(n, k) || inline_string(n, k);
}

int emit_made_owned(const names *n, size_t k)
{
    const unit_record *r = n->r;
    const ur_object *o = &r->objs[k];
    if (n->unowned || !o->array || !o->string || o->param || o->global || o->make_arg || o->freed) return 0;
    int from_arg = 0, from_other = 0;
    char id[24];
    snprintf(id, sizeof id, "%d", o->id);
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->pre.kind != 'p' || !e->pre.text || strcmp(e->pre.text, id) || e->obj == o->id) continue;
        const ur_object *po = obj_by_id(r, e->obj, NULL);
        if (!po) continue;
        if (po->make_arg && !*e->suffix)
            from_arg = 1;
        else if (!po->param && !po->make_arg)
            from_other = 1; /* a field of the object the producer made */
    }
    int in_result = 0;
    for (size_t j = 0; j < r->nwalks; j++) { /* a field of a made heap block: `walk 3 - ->alloc p 2` */
        if (r->walks[j].value.kind != 'p' || atoi(r->walks[j].value.text) != o->id) continue;
        if (r->walks[j].obj != 0)
            from_other = 1;
        else
            in_result = 1;
    }
    /* heap mode: a malloc'ed input the returned block holds (`strbox_wrap(s)`) is the result's when the
     * unit's destructor releases the result (free would not free what it holds) */
    int destructor = n->release && strcmp(n->release, "free");
    return (from_arg && from_other) || (n->heap && in_result && destructor);
}

/* The expression of make argument object id: its value inline, a literal for a string, else its local. */
static int arg_expr(strbuf *b, const names *n, int id)
{
    size_t k;
    const ur_object *o = obj_by_id(n->r, id, &k);
    if (!o) return -1;
    if (!inline_arg(n, k)) {
        sb_puts(b, n->local[k]);
        return 0;
    }
    const ur_entry *e = whole_entry(n->r, id);
    size_t t;
    if (e->pre.kind == 'p' && obj_by_id(n->r, atoi(e->pre.text), &t) && inline_string(n, t))
        return emit_char_array_literal(b, n, &n->r->objs[t], 0, 1);
    return value_expr(b, n, &e->pre, 0);
}

/* Whether name is a local of the test's objects or among the first nnames of names. */
static int local_taken(const names *n, char *const *names_, size_t nnames, const char *name)
{
    for (size_t i = 0; i < n->r->nobjs; i++)
        if (n->local[i] && !strcmp(n->local[i], name)) return 1;
    for (size_t i = 0; i < nnames; i++)
        if (names_[i] && !strcmp(names_[i], name)) return 1;
    return !strcmp(name, "ret");
}

/* The add line (kind 'a') of item node of container obj, or NULL. */
static const ur_make *add_of(const unit_record *r, int obj, int node)
{
    for (size_t i = 0; i < r->nmakes; i++)
        if (r->makes[i].kind == 'a' && r->makes[i].obj == obj && r->makes[i].node == node) return &r->makes[i];
    return NULL;
}

/* `ITEM(args)`, the item call of add line a. */
static int item_call(strbuf *b, const names *n, const ur_make *a)
{
    sb_printf(b, "%s(", a->item);
    for (size_t k = a->nadder; k < a->nargs; k++) {
        if (k > a->nadder) sb_puts(b, ", ");
        if (arg_expr(b, n, a->args[k]) != 0) return -1;
    }
    sb_puts(b, ")");
    return 0;
}

/*
 * The item tree of container o (local nm), from its add lines in the record's order (an item's own
 * items before it): an item without items of its own is made inline, `cJSON_AddItemToObject(a, "k",
 * cJSON_CreateNumber(1));`; one with items is a local declared before its first item is added, `cJSON
 * *a_1 = cJSON_CreateArray(); cJSON_AddItemToArray(a_1, cJSON_CreateNumber(1));`, then added itself
 * (`cJSON_AddItemToObject(a, "k", a_1);`). The container owns them all: only o is released. 0, or -1.
 */
static int emit_adds(strbuf *b, const names *n, const ur_object *o, const char *nm)
{
    const unit_record *r = n->r;
    char **loc = calloc(r->nmakes + 1, sizeof *loc); /* by make index: the local of an item with items */
    const char **type = calloc(r->nmakes + 1, sizeof *type);
    int rc = loc && type ? 0 : -1, nlocals = 0;
    for (size_t i = 0; i < r->nmakes && rc == 0; i++) {
        const ur_make *a = &r->makes[i];
        if (a->kind != 'a' || a->obj != o->id) continue;
        const ut_func *ad = unit_find_def(n->u, a->func);
        const ut_func *itf = unit_find_def(n->u, a->item);
        int it = ad ? unit_adder_item(ad, ad->params[0].type) : -1;
        if (!ad || !itf || it < 0 || ad->nparams - 2 != a->nadder || emit_mock_queue(b, n, "    ", i + 1) != 0) {
            rc = -1;
            break;
        }
        /* the container: o itself, or an item with items, declared at its first item */
        const char *cont = nm, *ctype = o->ctype;
        if (a->parent > 0) {
            const ur_make *pa = add_of(r, o->id, a->parent);
            if (!pa) {
                rc = -1;
                break;
            }
            size_t pi = (size_t)(pa - r->makes);
            const ut_func *pad = unit_find_def(n->u, pa->func);
            if (!pad) {
                rc = -1;
                break;
            }
            if (!loc[pi]) {
                char *nmb = NULL;
                do {
                    free(nmb);
                    if (asprintf(&nmb, "%s_%d", nm, ++nlocals) < 0) nmb = NULL;
                } while (nmb && local_taken(n, loc, r->nmakes, nmb));
                if (!nmb) {
                    free(nmb);
                    rc = -1;
                    break;
                }
                int pit = unit_adder_item(pad, pad->params[0].type);
                if (pit < 0) {
                    free(nmb);
                    rc = -1;
                    break;
                }
                loc[pi] = nmb;
                type[pi] = pad->params[pit].type->spelling;
                char *d = unit_declarator(type[pi], nmb);
                sb_printf(b, "    %s = ", d ? d : nmb);
                free(d);
                if (item_call(b, n, pa) != 0) {
                    rc = -1;
                    break;
                }
                sb_puts(b, ";\n");
            }
            cont = loc[pi];
            ctype = type[pi];
        }
        /* the adder's arguments in its order: the container (a cast when spelled otherwise, `const T *`),
         * its own arguments, the item */
        sb_printf(b, "    %s(", a->func);
        for (size_t k = 0, m = 0; k < ad->nparams && rc == 0; k++) {
            if (k) sb_puts(b, ", ");
            if (k == 0) {
                int cast = strcmp(ad->params[0].type->spelling, ctype) != 0;
                sb_printf(b, "%s%s%s%s", cast ? "(" : "", cast ? ad->params[0].type->spelling : "", cast ? ")" : "",
                          cont);
            } else if ((int)k == it) {
                if (loc[i])
                    sb_puts(b, loc[i]);
                else
                    rc = item_call(b, n, a);
            } else {
                rc = arg_expr(b, n, a->args[m++]);
            }
        }
        sb_puts(b, ");\n");
    }
    for (size_t i = 0; loc && i < r->nmakes; i++) free(loc[i]);
    free(loc);
    free((void *)type);
    return rc;
}

static size_t param_index(const unit_record *r, size_t k);

/* The first make line (kinds r, h) of another object that takes parameter object id as an argument
 * (`list_node_t *node = list_rpop(self)` for list_remove(self, node): harness_producer.c's
 * earlier_same), as an index into r->makes; -1 when none. */
static long first_taker(const unit_record *r, int id)
{
    for (size_t i = 0; i < r->nmakes; i++) {
        const ur_make *m = &r->makes[i];
        if ((m->kind != 'r' && m->kind != 'h') || m->obj == id) continue;
        for (size_t a = 0; a < m->nargs; a++)
            if (m->args[a] == id) return (long)i;
    }
    return -1;
}

/* The modifier call of seq line i (`list_rpush(self, node_arg);`), its mocks' queue first. */
static int emit_seq_call(strbuf *b, const names *n, size_t i)
{
    const unit_record *r = n->r;
    const ur_make *m = &r->makes[i];
    size_t k;
    const ur_object *o = obj_by_id(r, m->obj, &k);
    const ut_func *fn = unit_find_def(n->u, m->func);
    if (!o || !fn || fn->nparams != m->nargs + 1) return -1;
    if (emit_mock_queue(b, n, "    ", i + 1) != 0) return -1;
    /* the parameter's spelling may differ from the modifier's (`const T *`): a cast then */
    size_t pi = param_index(r, k);
    int cast = n->fn && pi < n->fn->nparams && strcmp(n->fn->params[pi].type->spelling, fn->params[0].type->spelling);
    sb_printf(b, "    %s(%s%s%s%s", m->func, cast ? "(" : "", cast ? fn->params[0].type->spelling : "", cast ? ")" : "",
              n->local[k]);
    for (size_t a = 0; a < m->nargs; a++) {
        sb_puts(b, ", ");
        if (arg_expr(b, n, m->args[a]) != 0) return -1;
    }
    sb_puts(b, ");\n");
    return 0;
}

int emit_made_decl(strbuf *b, const names *n, size_t k)
{
    const unit_record *r = n->r;
    const ur_object *o = &r->objs[k];
    if (emit_made_undeclared(n, k)) return 1;
    const ur_make *m = make_of(r, o->id);
    if (!m) return 0;
    /* a parameter this construction takes (the call's own list) gets its modifier calls first: the
     * harness made them before this construction, which may read what they did (list_rpop) */
    for (size_t a = 0; (m->kind == 'r' || m->kind == 'h') && a < m->nargs; a++) {
        if (first_taker(r, m->args[a]) != (long)(m - r->makes)) continue;
        for (size_t i = 0; i < r->nmakes; i++)
            if (r->makes[i].kind == 'c' && r->makes[i].obj == m->args[a] && emit_seq_call(b, n, i) != 0) return -1;
    }
    const char *nm = n->local[k];
    strbuf args = STRBUF_INIT;
    for (size_t a = 0; a < m->nargs; a++) {
        if (a || m->kind == 'i') sb_puts(&args, ", "); /* 'o': the object comes last */
        if (arg_expr(&args, n, m->args[a]) != 0) {
            sb_free(&args);
            return -1;
        }
    }
    const char *more = args.s ? args.s : ""; /* an initialiser's: after the object, `, HTTP_REQUEST` */
    /* what the producer's calls of mocks and stand-ins return and receive, queued before it */
    if (emit_mock_queue(b, n, "    ", (size_t)(m - r->makes) + 1) != 0) {
        sb_free(&args);
        return -1;
    }
    if (m->kind == 'v') { /* a struct by value: the parameter is its address */
        char star[300];
        snprintf(star, sizeof star, "*%s", nm);
        int heap = n->heap && emit_heapable(o);
        char *d = unit_declarator(o->ctype, heap ? star : nm);
        if (heap)
            sb_printf(b, "    %s = calloc(1, sizeof *%s);\n    *%s = %s(%s);\n", d ? d : star, nm, nm, m->func, more);
        else
            sb_printf(b, "    %s = %s(%s);\n", d ? d : nm, m->func, more);
        free(d);
        sb_free(&args);
        return 1;
    }
    if (m->kind != 'i' && m->kind != 'o') {
        char *d = unit_declarator(o->ctype, nm);
        sb_printf(b, "    %s = %s(%s);\n", d ? d : nm, m->func, args.s ? args.s : "");
        free(d);
        sb_free(&args);
        /* a container: the items added to it, `cJSON_AddItemToArray(array, cJSON_CreateNumber(1));` */
        return emit_adds(b, n, o, nm) == 0 ? 1 : -1;
    }
    /* zeroed first, as the harness's calloc: an initialiser may leave fields alone
     * (sha256_init sets the state, not the data buffer), and the record saw them zero */
    if (n->heap && emit_heapable(o)) {
        char star[300];
        snprintf(star, sizeof star, "*%s", nm);
        char *d = unit_declarator(o->ctype, star);
        if (m->kind == 'o')
            sb_printf(b, "    %s = calloc(1, sizeof *%s);\n    %s(%s%s%s);\n", d ? d : star, nm, m->func, more,
                      *more ? ", " : "", nm);
        else
            sb_printf(b, "    %s = calloc(1, sizeof *%s);\n    %s(%s%s);\n", d ? d : star, nm, m->func, nm, more);
        free(d);
    } else {
        char *d = unit_declarator(o->ctype, nm);
        if (m->kind == 'o')
            sb_printf(b, "    %s = {0};\n    %s(%s%s&%s);\n", d ? d : nm, m->func, more, *more ? ", " : "", nm);
        else
            sb_printf(b, "    %s = {0};\n    %s(&%s%s);\n", d ? d : nm, m->func, nm, more);
        free(d);
    }
    sb_free(&args);
    return 1;
}

/* t's spelling without a top-level const ("const sds" -> "sds"), into buf. */
static const char *unq_spelling(const ut_type *t, char *buf, size_t cap)
{
    const char *s = t->spelling;
    if (!strncmp(s, "const ", 6)) s += 6;
    snprintf(buf, cap, "%s", s);
    return buf;
}

/* The index among the parameters of parameter object index k. */
static size_t param_index(const unit_record *r, size_t k)
{
    size_t i = 0;
    for (size_t j = 0; j < k; j++) i += r->objs[j].param;
    return i;
}

int emit_made_calls(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    for (size_t i = 0; i < r->nmakes; i++) {
        const ur_make *m = &r->makes[i];
        if (m->kind != 'c' || first_taker(r, m->obj) >= 0) continue; /* emitted before that construction */
        if (emit_seq_call(b, n, i) != 0) return -1;
    }
    return 0;
}

int emit_made_consumed(const names *n, int id)
{
    size_t k;
    const ur_object *o = obj_by_id(n->r, id, &k);
    const ur_make *m = o ? make_of(n->r, id) : NULL;
    return m && m->kind != 'i' && m->kind != 'o' && m->kind != 'v' && o->param && n->fn &&
           unit_param_consumed(n->fn, param_index(n->r, k));
}

/* Whether make line m made an element its first argument, a container, keeps (unit_adds_element:
 * `node *n = intlist_push(n_l_arg, 73);`): released with that container, not on its own. */
static int element_of_arg(const names *n, const ur_make *m)
{
    return m->kind == 'h' && m->nargs > 0 && unit_adds_element(unit_find_def(n->u, m->func)) &&
           obj_by_id(n->r, m->args[0], NULL);
}

/* Whether make line m has an argument made by a producer of its own (harness_producer.c, gen_nested). */
static int made_args(const unit_record *r, const ur_make *m)
{
    for (size_t a = 0; a < m->nargs; a++)
        if (make_of(r, m->args[a])) return 1;
    return 0;
}

/* The arguments made by producers of their own of the parameters' make lines whose value is a view
 * into them (kind r): each released with the destructor of the producer's parameter type, else free
 * when its producer allocated it (kind h). A value the producer allocated (kind h) may own them: left. */
static void release_made_args(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    for (size_t i = 0; i < r->nmakes; i++) {
        const ur_make *m = &r->makes[i];
        const ur_object *o = obj_by_id(r, m->obj, NULL);
        const ut_func *fn = unit_find_def(n->u, m->func);
        int element = element_of_arg(n, m); /* its container is the argument: released here */
        if ((m->kind != 'r' && !element) || !o || !o->param || !fn || fn->nparams != m->nargs) continue;
        for (size_t a = 0; a < (element ? 1 : m->nargs); a++) {
            size_t ak;
            const ur_make *am = make_of(r, m->args[a]);
            const ur_object *ao = obj_by_id(r, m->args[a], &ak);
            if (!am || !ao || am->kind == 'i' || am->kind == 'o' || ao->param)
                continue; /* a parameter is released as one */
            const ur_entry *e = whole_entry(r, ao->id);
            if (!e || (e->pre.kind == 'p' && !strcmp(e->pre.text, "0"))) continue;
            const ut_type *at = fn->params[a].type;
            int extra[UNIT_MAX_DESTRUCTOR_ARGS];
            const ut_func *df =
                unit_destructor_for(n->u, at, unit_find_def(n->u, am->func), extra, UNIT_MAX_DESTRUCTOR_ARGS);
            if (df && df->nparams != 1) continue;
            if (!df && am->kind != 'h') continue;
            if (df)
                sb_printf(b, "    %s((%s)%s);\n", df->name, df->params[0].type->spelling, n->local[ak]);
            else
                sb_printf(b, "    free((void *)%s);\n", n->local[ak]);
        }
    }
}

/* The objects an initialiser made (`json_open_buffer(&json_obj, buf, 0)`), released with the type's
 * destructor when it has one of one parameter (`json_close(&json_obj)`: pdjson's stream allocates its
 * stack in json_next, and LeakSanitizer dropped every test that parsed a value); not when the target
 * is itself named like a destructor (it released the object). */
static void release_initialised(strbuf *b, const names *n, const unit_test *t, int called)
{
    const unit_record *r = n->r;
    for (size_t i = 0; i < r->nmakes; i++) {
        const ur_make *m = &r->makes[i];
        size_t k;
        const ur_object *o = obj_by_id(r, m->obj, &k);
        const ut_func *init = unit_find_def(n->u, m->func);
        if ((m->kind != 'i' && m->kind != 'o') || !o || !init || init->nparams == 0) continue;
        int extra[UNIT_MAX_DESTRUCTOR_ARGS];
        const ut_type *ot = init->params[m->kind == 'o' ? init->nparams - 1 : 0].type; /* the object's */
        const ut_func *df = unit_destructor_for(n->u, ot, init, extra, UNIT_MAX_DESTRUCTOR_ARGS);
        if (!df || df->nparams != 1 || (called && (df == t->fn || unit_destructor_name(t->fn->name)))) continue;
        sb_printf(b, "    %s(%s%s);\n", df->name, n->heap && emit_heapable(o) ? "" : "&", n->local[k]);
    }
}

void emit_made_frees(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    for (size_t i = 0; i < r->nmakes; i++) {
        const ur_make *m = &r->makes[i];
        size_t k;
        const ur_object *o = obj_by_id(r, m->obj, &k);
        if (m->kind != 'h' || !o || !o->param) continue;
        const ur_entry *e = whole_entry(r, o->id);
        /* NULL, or an object the test declares itself (what a mock returned, the producer passed on) */
        if (!e || (e->pre.kind == 'p' && atoi(e->pre.text) >= 0)) continue;
        sb_printf(b, "    free((void *)%s);\n", n->local[k]);
    }
}

int emit_made_releases(strbuf *b, const names *n, const unit_test *t, int called)
{
    const unit_record *r = n->r;
    int released_ret = 0;
    for (size_t i = 0; i < r->nmakes; i++) {
        const ur_make *m = &r->makes[i];
        size_t k;
        const ur_object *o = obj_by_id(r, m->obj, &k);
        if (m->kind == 'i' || m->kind == 'o' || m->kind == 'v' || m->kind == 'a' || m->kind == 'c' || !o || !o->param)
            continue;
        const ur_entry *e = whole_entry(r, o->id);
        if (!e || (e->pre.kind == 'p' && !strcmp(e->pre.text, "0"))) continue; /* the producer gave NULL */
        if (called && o->pointee_freed) continue; /* the call freed it (list_remove(l, n) freed n) */
        size_t pi = param_index(r, k);
        if (pi >= t->fn->nparams) continue;
        if (called && t->items_kept && pi > 0) continue; /* linked into the first argument by the call */
        /* a value the producer did not allocate, made from an argument built by a producer of its own
         * (`json_value_get_object(object_value)`): a view into that argument, released with it below */
        if (m->kind == 'r' && made_args(r, m)) continue;
        if (element_of_arg(n, m)) continue; /* an element its container keeps: released with it */
        /* the target is an adder and this is its item (`node_list_add(list, item)`,
         * `cJSON_AddItemToArray(array, item)`): once added, the container owns the item and releases it
         * with itself (releasing both was a double free: the test did not pass natively); an adder that
         * fails with a negative value (unit_fails_negative: parson's json_object_dotset_value returns
         * JSONSuccess, 0, or JSONFailure, -1) succeeded with 0 too */
        if (called && t->fn->nparams > 0 && (int)pi == unit_adder_item(t->fn, t->fn->params[0].type) &&
            (t->fn->type->ret->kind == UT_VOID ||
             (r->ret.text &&
              (unit_fails_negative(n->u, t->fn->name) ? r->ret.text[0] != '-' : strcmp(r->ret.text, "0")))))
            continue;
        const ut_type *pt = t->fn->params[pi].type;
        /* the destructor, with the producer's arguments it takes too (`expr_destroy(e, &e_vars)`) */
        int extra[UNIT_MAX_DESTRUCTOR_ARGS];
        const ut_func *df =
            unit_destructor_for(n->u, pt, unit_find_def(n->u, m->func), extra, UNIT_MAX_DESTRUCTOR_ARGS);
        const char *d = df ? df->name : NULL;
        if (!d && m->kind != 'h') continue; /* no destructor, and free cannot release it (a hidden header) */
        const char *rel = d ? d : "free", *cast = d ? "" : "(void *)";
        /* a const input (`const cJSON *item`) goes to the destructor (`cJSON_Delete(cJSON *)`) with a cast */
        char castbuf[300];
        if (df && strcmp(df->params[0].type->spelling, pt->spelling)) {
            snprintf(castbuf, sizeof castbuf, "(%s)", df->params[0].type->spelling);
            cast = castbuf;
        }
        strbuf more = STRBUF_INIT; /* `, ARG` per further parameter of the destructor */
        for (size_t a = 1; df && a < df->nparams; a++) {
            sb_puts(&more, ", ");
            strbuf x = STRBUF_INIT;
            int ok =
                extra[a - 1] >= 0 && (size_t)extra[a - 1] < m->nargs && arg_expr(&x, n, m->args[extra[a - 1]]) == 0;
            sb_puts(&more, ok && x.s ? x.s : "NULL");
            sb_free(&x);
        }
        const char *tail = more.s ? more.s : "";
        if (called && unit_param_consumed(t->fn, pi)) {
            if (t->fn->type->ret->kind == UT_VOID) {
                /* the type's destructor released the input; another function named like one (a
                 * partial destructor: `te_free_parameters` frees a node's children) released what
                 * the object owns, not its block: free releases that when the producer allocated it */
                if (d && strcmp(d, t->fn->name) && m->kind == 'h') sb_printf(b, "    free((void *)%s);\n", n->local[k]);
                sb_free(&more);
                continue;
            }
            const ur_value *rv = &r->ret;
            if (!o->freed && r->ret_heap && t->outcome == UO_NORMAL && rv->kind == 'p' && !strcmp(rv->text, "-1")) {
                /* the result is a block the call allocated and the input lives on (clibs/buffer's
                 * `buffer_t *buffer_slice(buffer_t *buf, ...)` copies, sdscat's realloc frees the input):
                 * both are released */
                sb_printf(b, "    %s(%s%s%s);\n", rel, cast, n->local[k], tail);
                if (!released_ret) sb_printf(b, "    %s(%sret%s);\n", rel, cast, tail);
                released_ret = 1;
            } else if (rv->kind == 's' || (rv->kind == 'p' && strcmp(rv->text, "0"))) {
                if (!released_ret) sb_printf(b, "    %s(%sret%s);\n", rel, cast, tail);
                released_ret = 1;
            } else {
                sb_printf(b, "    %s(%s%s%s);\n", rel, cast, n->local[k], tail); /* failed: the input stays */
            }
            sb_free(&more);
            continue;
        }
        sb_printf(b, "    %s(%s%s%s);\n", rel, cast, n->local[k], tail);
        /* a fresh result of the same type (`sds sdsdup(const sds s)`): released by the same destructor */
        const ur_value *rv = &r->ret;
        const ut_type *rt = t->fn->type->ret;
        char x[512], y[512];
        if (called && d && !released_ret && t->outcome == UO_NORMAL && rt->kind == UT_PTR &&
            (rv->kind == 's' || (rv->kind == 'p' && !strcmp(rv->text, "-1"))) &&
            !strcmp(unq_spelling(rt, x, sizeof x), unq_spelling(pt, y, sizeof y))) {
            sb_printf(b, "    %s(%sret%s);\n", d, cast, tail);
            released_ret = 1;
        }
        sb_free(&more);
    }
    release_made_args(b, n);
    release_initialised(b, n, t, called);
    return released_ret;
}
