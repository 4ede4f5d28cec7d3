/* producers.c: finds the unit's producers (constructors, initialisers) and destructors of a parameter's type. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "unit.h"
#include "harness_int.h"
#include "producers_int.h"

/* s without a top-level const ("const sds" -> "sds", "char *const" -> "char *"), into out. */
static const char *unq(const char *s, char *out, size_t cap)
{
    if (!strncmp(s, "const ", 6)) s += 6;
    snprintf(out, cap, "%s", s);
    size_t n = strlen(out);
    if (n > 5 && !strcmp(out + n - 5, "const") && (out[n - 6] == ' ' || out[n - 6] == '*')) {
        n -= 5;
        while (n > 0 && out[n - 1] == ' ') n--;
        out[n] = 0;
    }
    return out;
}

static int is_record(const ut_type *t) { return t && (t->kind == UT_STRUCT || t->kind == UT_UNION); }

/* Whether a and b are spelled alike (without a top-level const); two structs or unions by their canonical
 * spelling, however each is named: tiny-regex-c's `re_t re_compile(...)` (`typedef struct regex_t *re_t`)
 * produces the `regex_t *` of `re_print(regex_t *pattern)` (`typedef struct regex_t {...} regex_t`), which
 * was filled field by field, its types past the enum's read out of a 17-entry table. A pointer typedef
 * stays its own type (`sds` is no `char *`). */
static int same_spelling(const ut_type *a, const ut_type *b)
{
    char x[512], y[512];
    if (!a || !b) return 0;
    if (is_record(a) && is_record(b) && a->canonical && b->canonical)
        return !strcmp(unq(a->canonical, x, sizeof x), unq(b->canonical, y, sizeof y));
    return !strcmp(unq(a->spelling, x, sizeof x), unq(b->spelling, y, sizeof y));
}

/* P = `T *` with T a struct or union: the pointee, else NULL. */
static const ut_type *struct_pointee(const ut_type *pt)
{
    return pt && pt->kind == UT_PTR && is_record(pt->pointee) ? pt->pointee : NULL;
}

/* Whether a parameter of type pt can have producers at all: a pointer (not to a function),
 * spelled with a typedef name (`sds`) or pointing to a struct (`cJSON *`). */
/* Whether t is read-only text, a pointer to const char (however it is spelled). */
static int const_text(const ut_type *t)
{
    return t && t->kind == UT_PTR && t->pointee && t->pointee->kind == UT_INT && t->pointee->is_char &&
           t->pointee->is_const;
}

static int producible(const ut_type *pt)
{
    if (!pt || pt->kind != UT_PTR || !pt->pointee || pt->pointee->kind == UT_FUNC) return 0;
    /* a name for read-only text (tomlc99's `typedef const char *toml_raw_t`): a plain string, which
     * no header hides before (a string type with one is written through: sds is `char *`) */
    if (const_text(pt)) return 0;
    char x[512];
    return struct_pointee(pt) || !strchr(unq(pt->spelling, x, sizeof x), '*');
}

/* Whether st is a struct whose fields are all function pointers (a table of callbacks). */
static int callback_table(const ut_type *st)
{
    if (!st || st->kind != UT_STRUCT || !st->complete || st->nfields == 0) return 0;
    for (size_t k = 0; k < st->nfields; k++) {
        const ut_type *t = st->fields[k].type;
        if (!t || t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_FUNC) return 0;
    }
    return 1;
}

/* Whether fn takes a callback: a function pointer, or a pointer to a table of them (tiny-json's
 * `json_createWithPool(str, jsonPool_t *pool)` with pool->init and pool->alloc). */
static int takes_callback(const ut_func *fn)
{
    for (size_t k = 0; k < fn->nparams; k++) {
        const ut_type *t = fn->params[k].type, *e = t && t->kind == UT_PTR ? t->pointee : NULL;
        if (e && (e->kind == UT_FUNC || callback_table(e))) return 1;
    }
    return 0;
}

/* Names of initialisers (`jsmn_init`, pdjson's `json_open_string`) and of destructors (`sdsfree`,
 * `cJSON_Delete`, pdjson's `json_close`), matched anywhere in a function's name, any case. */
static const char *const init_words[] = {"init", "reset", "create", "setup", "open", NULL};
static const char *const destructor_words[] = {"free", "delete", "destroy", "release", "close", NULL};

static int has_word(const char *name, const char *const *words)
{
    for (size_t i = 0; words[i]; i++)
        if (strcasestr(name, words[i])) return 1;
    return 0;
}

int unit_destructor_name(const char *name) { return has_word(name, destructor_words); }

/* Whether p is an initialiser whose name says reset and no other of init_words (`json_reset`). */
static int reset_only(const unit_producer *p)
{
    if (p->kind != UP_INIT || !strcasestr(p->fn->name, "reset")) return 0;
    for (size_t i = 0; init_words[i]; i++)
        if (strcmp(init_words[i], "reset") && strcasestr(p->fn->name, init_words[i])) return 0;
    return 1;
}

/* An argument a producer's call can be given from inputs: fillable, a buffer with its length
 * (a symbolic array, as for the target's own parameters: `te_compile(expr, variables, var_count,
 * error)`, `sdsnewlen(init, initlen)`), no other untyped buffer, and nothing of P's own type (that
 * would need a P first). */
/* Whether string parameter n of function fn is a file's path: filename, fname, pathname, filepath
 * (any case, also as a tail), or path, file, ..._path, ..._file in a function named like a loader
 * (load, open, read, file): a producer taking one reads a file (rxi/ini's `ini_t *ini_load(const
 * char *filename)`), which no symbolic name opens, so it never made an input and every test of a
 * function taking its type was dropped; without it the type is built field by field. */
static int file_path_param(const char *fn, const char *n)
{
    static const char *sure[] = {"filename", "fname", "pathname", "filepath", "file_name", "file_path", NULL};
    static const char *maybe[] = {"path", "file", "_path", "_file", NULL};
    static const char *loader[] = {"load", "open", "read", "file", NULL};
    size_t l = strlen(n);
    for (int i = 0; sure[i]; i++) {
        size_t k = strlen(sure[i]);
        if (l >= k && !strcasecmp(n + l - k, sure[i])) return 1;
    }
    int m = 0;
    for (int i = 0; maybe[i] && !m; i++) {
        size_t k = strlen(maybe[i]);
        m = maybe[i][0] == '_' ? l > k && !strcasecmp(n + l - k, maybe[i]) : !strcasecmp(n, maybe[i]);
    }
    for (int i = 0; m && loader[i]; i++)
        if (strcasestr(fn, loader[i])) return 1;
    return 0;
}

/* Whether a is an unpaired `void *`: an opaque value a producer keeps (`list_node_new(void *val)`); a construction
 * step or an adder taking one (a callback's user data: hashmap_scan(map, iter, udata)) is not offered. */
static int opaque_arg(const ut_param *a)
{
    const ut_type *t = a->type;
    return a->len_param < 0 && t->kind == UT_PTR && t->pointee && t->pointee->kind == UT_VOID;
}

static int arg_ok(const ut_param *a, const ut_type *pt)
{
    const ut_type *t = a->type;
    if (a->buf_param >= 0) return !unit_count_ptr(t); /* a pair's length: the buffer's element count */
    if (!harness_fillable(t)) return 0;
    int paired = a->len_param >= 0;
    /* an out-parameter (`const char **return_parse_end`): the test would have to declare what the
     * producer writes there before calling it (the recorded values are those after the producer) */
    if (!paired && !a->walked && t->kind == UT_PTR && t->pointee && t->pointee->kind == UT_PTR) return 0;
    const ut_type *sp = struct_pointee(pt);
    /* an array of T with its count (`json_create(str, json_t mem[], qty)`): storage the producer fills
     * and points its result into, not another T to build first */
    if (sp && paired && t->kind == UT_PTR && same_spelling(t->pointee, sp)) return 1;
    if (same_spelling(t, pt)) return 0;
    /* an array of P (`sds sdsjoinsds(sds *argv, int argc, ...)`): its elements would need P's
     * producers first; built as plain strings they lack sds's hidden header */
    if (t->kind == UT_PTR && same_spelling(t->pointee, pt)) return 0;
    if (sp && (same_spelling(t, sp) || (t->kind == UT_PTR && same_spelling(t->pointee, sp)))) return 0;
    return 1;
}

int unit_producer_storage(const ut_func *fn, size_t k)
{
    if (!fn->type || k >= fn->nparams || fn->params[k].len_param < 0) return 0;
    const ut_type *sp = struct_pointee(fn->type->ret), *t = fn->params[k].type;
    return sp && t->kind == UT_PTR && same_spelling(t->pointee, sp) && !t->pointee->is_const;
}

int unit_empty_table_arg(const ut_func *fn, size_t k)
{
    if (!fn || k >= fn->nparams || fn->params[k].len_param >= 0 || fn->params[k].buf_param >= 0) return 0;
    const ut_type *t = fn->params[k].type, *sp = struct_pointee(t);
    if (!t || t->kind != UT_PTR || !sp || sp->kind != UT_STRUCT || !sp->complete || t->pointee->is_const ||
        callback_table(sp))
        return 0;
    for (size_t i = 0; i < sp->nfields; i++) {
        const ut_type *ft = sp->fields[i].type;
        if (ft && ft->kind == UT_PTR && ft->pointee && ft->pointee->kind == UT_FUNC) return 1;
    }
    return 0;
}

/* Whether fn takes callbacks and an unpaired `void *` (their user data: tidwall's hashmap_new(..., hash, compare,
 * elfree, udata)): as a producer, the stand-ins would decide its states (tried: hashmap_get's tests leaked the map's
 * buckets and its gcov fell 6/8 -> 1/8), so it is no producer. */
static int callbacks_with_user_data(const ut_func *fn)
{
    if (!takes_callback(fn)) return 0;
    for (size_t k = 0; k < fn->nparams; k++)
        if (opaque_arg(&fn->params[k])) return 1;
    return 0;
}

int unit_producer_fits(const unit_info *u, const ut_func *fn, const ut_type *pt, int named, unit_producer_kind *kind)
{
    if (!producible(pt) || !fn->type || fn->type->variadic || (!named && callbacks_with_user_data(fn))) return 0;
    for (size_t k = 0; k < fn->nparams && !named; k++) { /* --init names it: the user knows */
        const ut_type *t = fn->params[k].type;
        if (t && t->kind == UT_PTR && t->pointee && t->pointee->kind == UT_INT && t->pointee->is_plain_char &&
            (file_path_param(fn->name, fn->params[k].name) || (u && unit_opens_path(u, fn->name, fn->params[k].name))))
            return 0;
    }
    const ut_type *r = fn->type->ret, *sp = struct_pointee(pt);
    /* UP_INIT: `void|int|bool f(T *, args...)`, named like an initialiser; the other arguments
     * filled like a UP_RETURN producer's (`http_parser_init(&p, HTTP_REQUEST)`: an enumerator) */
    if (sp && fn->nparams >= 1) {
        const ut_type *a = fn->params[0].type;
        int others = fn->params[0].len_param < 0;
        for (size_t k = 1; k < fn->nparams && others; k++) others = arg_ok(&fn->params[k], pt);
        if (a->kind == UT_PTR && same_spelling(a->pointee, sp) && !a->pointee->is_const && sp->kind == UT_STRUCT &&
            sp->complete && (r->kind == UT_VOID || r->kind == UT_INT || r->kind == UT_BOOL) && others &&
            (named || has_word(fn->name, init_words))) {
            *kind = UP_INIT;
            return 1;
        }
    }
    /* UP_OUT: `void|int|bool f(args..., T *out)` with a read-only text among args (P = T *, T a complete
     * struct): a parser that fills the caller's struct, whatever its name (semver_parse(str, &ver),
     * cwk_path_get_first_segment(path, &segment): the segment's pointers into the path, which field by field
     * were separate blocks read out of bounds). Not for a buffer struct: a function that takes it last is an
     * appender (klib's `kputsn(p, l, s)`: a modifier, and on a zeroed buffer its block had no destructor) */
    int bd, bl, bc;
    if (sp && sp->kind == UT_STRUCT && sp->complete && fn->nparams >= 2 && !unit_buffer_struct(sp, &bd, &bl, &bc) &&
        (r->kind == UT_VOID || r->kind == UT_INT || r->kind == UT_BOOL)) {
        size_t last = fn->nparams - 1;
        const ut_type *a = fn->params[last].type;
        int text = 0, ok = a->kind == UT_PTR && same_spelling(a->pointee, sp) && !a->pointee->is_const &&
                           fn->params[last].len_param < 0 && fn->params[last].buf_param < 0;
        for (size_t k = 0; k < last && ok; k++) {
            ok = arg_ok(&fn->params[k], pt);
            text |= const_text(fn->params[k].type);
        }
        if (ok && text) {
            *kind = UP_OUT;
            return 1;
        }
    }
    /* UP_VALUE: (P = T *, T a complete struct) returns a T by value: rxi's `sj_Reader sj_reader(char
     * *data, size_t len)` for an `sj_Reader *r` (filled field by field, its cursor and end pointed into
     * other arrays than its data, and sj_location walked from one to the other out of bounds) */
    if (sp && sp->kind == UT_STRUCT && sp->complete && r->kind == UT_STRUCT && same_spelling(r, sp)) {
        for (size_t k = 0; k < fn->nparams; k++)
            if (!arg_ok(&fn->params[k], pt)) return 0;
        *kind = UP_VALUE;
        return 1;
    }
    /* UP_RETURN: returns P as spelled, or (P = T *) a T * */
    int rets = same_spelling(r, pt) || (sp && r->kind == UT_PTR && same_spelling(r->pointee, sp));
    if (!rets) return 0;
    /* a `const T *` result cannot initialise a `T *` parameter without a cast */
    if (r->kind == UT_PTR && r->pointee && pt->pointee && r->pointee->is_const && !pt->pointee->is_const) return 0;
    for (size_t k = 0; k < fn->nparams; k++)
        if (!arg_ok(&fn->params[k], pt)) return 0;
    *kind = UP_RETURN;
    return 1;
}

/* The functions a harness and a test can call: u->defs, and statics of an included source. */
static const ut_func *callable(const unit_info *u, size_t k)
{
    if (k < u->ndefs) return &u->defs[k];
    const ut_func *s = &u->statics[k - u->ndefs];
    return unit_source_included(u, s->file) ? s : NULL;
}

const char *unit_init_for(const unit_harness_opts *o, const ut_type *pt)
{
    if (!o || !pt) return NULL;
    char ps[512], es[512];
    unq(pt->spelling, ps, sizeof ps);
    const ut_type *sp = struct_pointee(pt);
    if (sp) unq(sp->spelling, es, sizeof es);
    for (size_t k = 0; k < o->ninits; k++) {
        const char *eq = strrchr(o->inits[k], '=');
        if (!eq) continue;
        size_t tl = (size_t)(eq - o->inits[k]);
        if ((strlen(ps) == tl && !strncmp(ps, o->inits[k], tl)) ||
            (sp && strlen(es) == tl && !strncmp(es, o->inits[k], tl)))
            return o->inits[k];
    }
    return NULL;
}

static size_t param_producers(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                              unit_producer *out, size_t max, int top);

size_t unit_param_producers(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                            unit_producer *out, size_t max)
{
    return param_producers(u, o, f, i, out, max, 1);
}

/* Whether producer fn has an argument that could have producers but has none the harness nests
 * (unit_arg_producers): that argument would be built field by field, in a state the unit never
 * makes (parson's json_object_get_value(object, name) with a JSON_Object filled byte by byte). */
static int needs_raw_arg(const unit_info *u, const unit_harness_opts *o, const ut_func *fn, const ut_type *pt)
{
    int extra[UNIT_MAX_DESTRUCTOR_ARGS];
    const ut_func *d = fn->type && fn->type->ret->kind == UT_PTR
                           ? unit_destructor_for(u, pt, fn, extra, UNIT_MAX_DESTRUCTOR_ARGS)
                           : NULL;
    for (size_t a = 0; a < fn->nparams; a++) {
        if (!producible(fn->params[a].type) || fn->params[a].len_param >= 0 || fn->params[a].buf_param >= 0) continue;
        /* started zeroed, not from inputs: state the destructor takes too, an empty table */
        int shared = 0;
        for (size_t k = 1; d && k < d->nparams; k++) shared |= extra[k - 1] == (int)a;
        if (shared || unit_empty_table_arg(fn, a)) continue;
        unit_producer np[1];
        if (param_producers(u, o, fn, a, np, 1, 0) == 0) return 1;
        /* the nested ones are those without producible arguments of their own */
        unit_producer all[UNIT_MAX_PRODUCERS];
        size_t na = param_producers(u, o, fn, a, all, UNIT_MAX_PRODUCERS, 0);
        int plain = 0;
        for (size_t j = 0; j < na && !plain; j++) {
            int ok = all[j].kind == UP_RETURN;
            for (size_t c = 0; ok && c < all[j].fn->nparams; c++) ok = !producible(all[j].fn->params[c].type);
            plain = ok;
        }
        if (!plain) return 1;
    }
    return 0;
}

/* unit_param_producers; top: the parameter's own (not a nested argument's), where producers that would
 * need an argument built field by field are left out when others need none. */
static size_t param_producers(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                              unit_producer *out, size_t max, int top)
{
    if (!o || o->raw_inputs || i >= f->nparams) return 0;
    const ut_param *p = &f->params[i];
    if (p->len_param >= 0 || p->buf_param >= 0 || !producible(p->type)) return 0;
    char ps[512], es[512];
    unq(p->type->spelling, ps, sizeof ps);
    const ut_type *sp = struct_pointee(p->type);
    if (sp) unq(sp->spelling, es, sizeof es);
    /* --init TYPE=FUNCTION: the user's producer, and no discovery for that type */
    const char *named = unit_init_for(o, p->type);
    if (named) {
        size_t k = 0;
        while (o->inits[k] != named) k++;
        size_t tl = (size_t)(strrchr(named, '=') - named);
        size_t n = 0;
        for (size_t j = 0; j < o->ninits && n < max; j++) {
            const char *e2 = strrchr(o->inits[j], '=');
            if (!e2 || (size_t)(e2 - o->inits[j]) != tl || strncmp(o->inits[j], o->inits[k], tl)) continue;
            const ut_func *fn = unit_find_def(u, e2 + 1);
            unit_producer_kind kind;
            if (fn && fn != f && unit_producer_fits(u, fn, p->type, 1, &kind)) out[n++] = (unit_producer){fn, kind};
        }
        return n;
    }
    /* a table of callbacks (every field a function pointer: http-parser's http_parser_settings) is
     * the caller's to fill, its initialiser only zeroes it (no callback would ever run): built field
     * by field, each field the stand-in of its type (or NULL, a choice), as a developer sets them */
    if (callback_table(sp)) return 0;
    /* a container's contents come from its adders (unit_param_adders): its producers taking a
     * buffer (a pair, `cJSON_CreateIntArray(numbers, count)`, or numbers without a length) are left
     * out; their loops over a symbolic count drew the search away from the target (cJSON_Compare),
     * and an unpaired `const float *numbers` was read past its one element */
    const ut_func *ads[1];
    int container = unit_param_adders(u, o, f, i, ads, 1) > 0;
    size_t n = 0, cap = UNIT_MAX_PRODUCERS * 4, outmax = max;
    unit_producer *res = out, cand[UNIT_MAX_PRODUCERS * 4];
    out = cand; /* every candidate first, the first max of them in res at the end */
    for (size_t k = 0; k < u->ndefs + u->nstatics && n < cap; k++) {
        const ut_func *fn = callable(u, k);
        if (!fn || fn == f || !strcmp(fn->name, f->name) || unit_is_wrapped(u, fn->name)) continue;
        unit_producer_kind kind;
        if (!unit_producer_fits(u, fn, p->type, 0, &kind)) continue;
        int pairs = 0; /* a buffer: paired with a length, or numbers without one (`const float *numbers, int count`) */
        for (size_t a = 0; a < fn->nparams; a++) {
            const ut_type *t = fn->params[a].type, *e = t->kind == UT_PTR ? t->pointee : NULL;
            pairs |= fn->params[a].len_param >= 0 || (e && (e->kind == UT_FLOAT || (e->kind == UT_INT && !e->is_char)));
        }
        if (!(container && pairs)) out[n++] = (unit_producer){fn, kind};
    }
    /* producers whose arguments the harness can build (plain values, or through producers of their
     * own) first; the others only when there are no such producers */
    if (top && !named) {
        size_t clean = 0;
        int raw[UNIT_MAX_PRODUCERS * 4];
        for (size_t j = 0; j < n; j++) clean += !(raw[j] = needs_raw_arg(u, o, out[j].fn, p->type));
        if (clean && clean < n) {
            size_t m = 0;
            for (size_t j = 0; j < n; j++)
                if (!raw[j]) out[m++] = out[j];
            n = m;
        }
    }
    /* producers taking a callback only when there are no others: the stand-ins would decide what the
     * producer does (a pool's allocator returning any block), states the unit itself never makes */
    size_t plain = 0;
    for (size_t j = 0; j < n; j++) plain += !takes_callback(out[j].fn);
    if (plain && plain < n) {
        size_t m = 0;
        for (size_t j = 0; j < n; j++)
            if (!takes_callback(out[j].fn)) out[m++] = out[j];
        n = m;
    }
    /* an initialiser named only like a reset (`json_reset`) re-initialises an object another producer set
     * up (pdjson's json_open_string sets the allocator json_close calls): only when there is no other */
    size_t fresh = 0;
    for (size_t j = 0; j < n; j++) fresh += !reset_only(&out[j]);
    if (fresh && fresh < n) {
        size_t m = 0;
        for (size_t j = 0; j < n; j++)
            if (!reset_only(&out[j])) out[m++] = out[j];
        n = m;
    }
    /* a container's simplest producers first (fewest arguments; stable): the first run, every choice
     * 0, builds `cJSON_CreateNull()`, not what cJSON_Parse makes of zero bytes (NULL) */
    for (size_t a = 1; container && a < n; a++)
        for (size_t b = a; b > 0 && out[b - 1].fn->nparams > out[b].fn->nparams; b--) {
            unit_producer t = out[b];
            out[b] = out[b - 1];
            out[b - 1] = t;
        }
    if (n > outmax) n = outmax;
    memcpy(res, cand, n * sizeof *res);
    return n;
}

size_t unit_arg_producers(const unit_info *u, const unit_harness_opts *o, const ut_func *fn, size_t k,
                          unit_producer *out, size_t max)
{
    if (k >= fn->nparams || !producible(fn->params[k].type)) return 0;
    unit_producer all[UNIT_MAX_PRODUCERS];
    size_t na = unit_param_producers(u, o, fn, k, all, UNIT_MAX_PRODUCERS), n = 0;
    for (size_t j = 0; j < na && n < max; j++) {
        int plain = all[j].kind == UP_RETURN;
        for (size_t a = 0; plain && a < all[j].fn->nparams; a++) plain = !producible(all[j].fn->params[a].type);
        if (plain) out[n++] = all[j];
    }
    return n;
}

/* How well a destructor's name fits, lower is better: a name that ends with the destructor's word
 * (`te_free`, `cJSON_Delete`) before one that has it inside (`te_free_parameters` frees a node's
 * children, not the node), then the shorter name. */
static size_t destructor_rank(const char *name)
{
    const char *const *w = destructor_words;
    size_t n = strlen(name), ends = 0;
    for (size_t i = 0; w[i]; i++) {
        size_t k = strlen(w[i]);
        if (n >= k && !strcasecmp(name + n - k, w[i])) ends = 1;
    }
    return (ends ? 0 : 4096) + n;
}

const char *unit_destructor(const unit_info *u, const ut_type *t)
{
    const char *same = NULL, *canon = NULL;
    for (size_t i = 0; i < u->ndefs; i++) {
        const ut_func *d = &u->defs[i];
        if (d->nparams != 1 || d->type->ret->kind != UT_VOID || !unit_destructor_name(d->name)) continue;
        const ut_type *a = d->params[0].type;
        if (same_spelling(a, t)) {
            if (!same || destructor_rank(d->name) < destructor_rank(same)) same = d->name;
        } else if (a->canonical && t->canonical && !strcmp(a->canonical, t->canonical)) {
            if (!canon || destructor_rank(d->name) < destructor_rank(canon)) canon = d->name;
        }
    }
    return same ? same : canon;
}

/* Whether t1 and t2 are the same type for passing one where the other is expected: the same
 * unqualified spelling, or the same canonical type. */
static int same_type(const ut_type *a, const ut_type *b)
{
    return same_spelling(a, b) || (a && b && a->canonical && b->canonical && !strcmp(a->canonical, b->canonical));
}

const ut_func *unit_destructor_for(const unit_info *u, const ut_type *t, const ut_func *producer, int *extra,
                                   size_t max)
{
    const ut_func *best = NULL;
    size_t best_rank = 0;
    for (size_t i = 0; i < u->ndefs; i++) {
        const ut_func *d = &u->defs[i];
        if (d->nparams < 1 || d->nparams > max + 1 || d->type->ret->kind != UT_VOID || !unit_destructor_name(d->name))
            continue;
        if (!same_type(d->params[0].type, t)) continue;
        /* each further parameter: an argument of the producer of the same type (the object the value was
         * made with: `expr_destroy(e, vars)` after `expr_create(s, len, vars, funcs)`), else NULL where the
         * unit checks a pointer of that name for NULL */
        int ok = 1;
        size_t nulls = 0;
        int pick[UNIT_MAX_DESTRUCTOR_ARGS];
        for (size_t k = 1; k < d->nparams && ok; k++) {
            const ut_type *pk = d->params[k].type;
            pick[k - 1] = -1;
            for (size_t a = 0; producer && a < producer->nparams && pick[k - 1] < 0; a++)
                if (producer->params[a].len_param < 0 && producer->params[a].buf_param < 0 &&
                    unit_destructor_shared(d->params[k].type, producer->params[a].type))
                    pick[k - 1] = (int)a;
            if (pick[k - 1] >= 0) continue;
            ok = pk->kind == UT_PTR && unit_null_checked(u, d->params[k].name, 0);
            nulls++;
        }
        if (!ok) continue;
        /* a name that ends with the word first, then fewer NULL arguments, then the shorter name */
        size_t rank = destructor_rank(d->name) + 1024 * nulls;
        if (best && rank >= best_rank) continue;
        best = d;
        best_rank = rank;
        for (size_t k = 1; k < d->nparams; k++) extra[k - 1] = pick[k - 1];
    }
    return best;
}

int unit_destructor_shared(const ut_type *dt, const ut_type *at)
{
    const ut_type *sp = struct_pointee(dt);
    return sp && sp->kind == UT_STRUCT && sp->complete && !sp->is_const && same_type(dt, at);
}

const char *unit_array_destructor(const unit_info *u, const ut_type *t)
{
    const char *best = NULL;
    for (size_t i = 0; i < u->ndefs; i++) {
        const ut_func *d = &u->defs[i];
        if (d->nparams != 2 || d->type->ret->kind != UT_VOID || !unit_destructor_name(d->name)) continue;
        const ut_type *a = d->params[0].type, *n = d->params[1].type;
        if (!n || n->kind != UT_INT || n->is_char) continue;
        if (!same_spelling(a, t) && !(a->canonical && t->canonical && !strcmp(a->canonical, t->canonical))) continue;
        if (!best || destructor_rank(d->name) < destructor_rank(best)) best = d->name;
    }
    return best;
}

/* An accessor of t's length among n functions: see unit_length_accessor. */
static const ut_func *length_accessor_in(const ut_func *fs, size_t n, const ut_type *t, const ut_func *best)
{
    for (size_t i = 0; i < n; i++) {
        const ut_func *f = &fs[i];
        const ut_type *r = f->type ? f->type->ret : NULL;
        if (f->nparams != 1 || !r || r->kind != UT_INT || r->is_char || !same_spelling(f->params[0].type, t)) continue;
        if (!strcasestr(f->name, "len")) continue;
        if (!best || strlen(f->name) < strlen(best->name)) best = f;
    }
    return best;
}

const ut_func *unit_length_accessor(const unit_info *u, const ut_type *t)
{
    if (!t || t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_INT || !t->pointee->is_plain_char ||
        !strcmp(t->spelling, "char *") || !strcmp(t->spelling, "const char *"))
        return NULL;
    return length_accessor_in(u->hfuncs, u->nhfuncs, t, length_accessor_in(u->defs, u->ndefs, t, NULL));
}

int unit_param_consumed(const ut_func *f, size_t i)
{
    if (i >= f->nparams) return 0;
    const ut_type *r = f->type->ret;
    if (r->kind == UT_VOID) return unit_destructor_name(f->name);
    /* a const parameter (`sds sdsdup(const sds s)`) is read, not replaced */
    return !f->params[i].type->is_const && strncmp(f->params[i].type->spelling, "const ", 6) &&
           same_spelling(r, f->params[i].type);
}

/* Whether fn returns a pointer of the type of one of its other arguments than the first: what it was given,
 * back (clibs/list's `list_node_t *list_rpush(list_t *self, list_node_t *node)` returns the node it linked
 * in), which a construction step drops as it drops a status. Not the first argument's type: that result may
 * replace the object (`sds sdscat(sds s, const char *t)` reallocates s). Or the element an adder of a value
 * made (unit_adds_element), which the container keeps. */
static int gives_back(const ut_func *fn)
{
    const ut_type *r = fn->type->ret;
    if (!struct_pointee(r)) return 0; /* a `void *` back may be another block (hashmap_set's replaced item) */
    for (size_t k = 1; k < fn->nparams; k++)
        if (same_spelling(r, fn->params[k].type) && !same_spelling(r, fn->params[0].type)) return 1;
    return unit_adds_element(fn);
}

int unit_adds_element(const ut_func *fn)
{
    static const char *const addw[] = {"add", "append", "push", "insert", NULL};
    if (!fn || !fn->type || fn->nparams < 2 || !has_word(fn->name, addw)) return 0;
    const ut_type *r = fn->type->ret, *c = fn->params[0].type;
    if (!struct_pointee(r) || c->kind != UT_PTR || !struct_pointee(c) || same_spelling(r, c)) return 0;
    for (size_t k = 1; k < fn->nparams; k++)
        if (fn->params[k].type->kind == UT_PTR) return 0;
    return 1;
}

int unit_adder_item(const ut_func *fn, const ut_type *pt)
{
    const ut_type *sp = struct_pointee(pt);
    if (!fn || !fn->type || fn->type->variadic || fn->nparams < 2 || !sp) return -1;
    const ut_type *r = fn->type->ret, *a = fn->params[0].type;
    if (!(r->kind == UT_VOID || r->kind == UT_INT || r->kind == UT_BOOL)) return -1;
    if (a->kind != UT_PTR || a->pointee->is_const || !same_spelling(a->pointee, sp) || fn->params[0].len_param >= 0)
        return -1;
    /* named like an adder, or like a setter of a keyed slot (set, put) with an argument besides the
     * item: `map_set(map, key, val)`, not `node_set_next(n, next)`; not a reference adder (the item
     * stays the caller's) */
    static const char *const addw[] = {"add", "append", "push", "insert", NULL}, *const setw[] = {"set", "put", NULL};
    if (!(has_word(fn->name, addw) || (has_word(fn->name, setw) && fn->nparams >= 3)) ||
        strcasestr(fn->name, "reference"))
        return -1;
    int item = -1;
    for (size_t k = 1; k < fn->nparams; k++) {
        const ut_param *q = &fn->params[k];
        const ut_type *b = q->type;
        if (b->kind == UT_PTR && same_spelling(b->pointee, sp)) {
            if (item >= 0 || b->pointee->is_const) return -1; /* two items (a replacement), or one only read */
            item = (int)k;
            continue;
        }
        /* the other arguments are filled one by one, like an item producer's: no buffer/length pair */
        if (q->len_param >= 0 || q->buf_param >= 0 || !arg_ok(q, pt) || opaque_arg(q)) return -1;
    }
    return item;
}

size_t unit_param_adders(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                         const ut_func **out, size_t max)
{
    if (!o || o->raw_inputs || i >= f->nparams) return 0;
    const ut_param *p = &f->params[i];
    const ut_type *sp = struct_pointee(p->type);
    if (!sp || p->len_param >= 0 || p->buf_param >= 0 || unit_init_for(o, p->type)) return 0;
    size_t n = 0;
    for (size_t k = 0; k < u->ndefs + u->nstatics && n < max; k++) {
        const ut_func *fn = callable(u, k);
        if (!fn || fn == f || !strcmp(fn->name, f->name) || unit_is_wrapped(u, fn->name)) continue;
        if (unit_adder_item(fn, p->type) > 0) out[n++] = fn;
    }
    return n;
}

size_t unit_param_modifiers(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                            const ut_func **out, size_t max)
{
    if (!o || o->raw_inputs || i >= f->nparams) return 0;
    const ut_param *p = &f->params[i];
    const ut_type *sp = struct_pointee(p->type);
    if (!sp || sp->kind != UT_STRUCT || p->len_param >= 0 || p->buf_param >= 0 || unit_init_for(o, p->type)) return 0;
    size_t n = 0;
    /* the unit's API, not its helpers (B-Con's sha256_transform(ctx, data), extern but in no header,
     * needs 64 bytes of data): functions a header declares, when the unit has any */
    int headers = 0;
    for (size_t k = 0; k < u->ndefs; k++) headers |= u->defs[k].in_header;
    for (size_t k = 0; k < u->ndefs && n < max; k++) {
        const ut_func *fn = &u->defs[k];
        if (fn->is_static || (headers && !fn->in_header) || fn == f || !strcmp(fn->name, f->name) ||
            unit_is_wrapped(u, fn->name) || fn->nparams < 1)
            continue;
        const ut_type *r = fn->type->ret, *a = fn->params[0].type;
        /* the result is dropped: no pointer (it may own memory); a struct by value is a step's
         * result (sj.h's sj_Value sj_read(r), a cursor's token) */
        if (fn->type->variadic ||
            !(r->kind == UT_VOID || r->kind == UT_INT || r->kind == UT_BOOL || r->kind == UT_ENUM ||
              r->kind == UT_FLOAT || r->kind == UT_STRUCT || gives_back(fn)))
            continue;
        if (a->kind != UT_PTR || a->pointee->is_const || !same_spelling(a->pointee, sp) || fn->params[0].len_param >= 0)
            continue;
        if (unit_destructor_name(fn->name) || has_word(fn->name, init_words)) continue;
        /* plain arguments, a table of callbacks, or a struct the unit's own producers make (the harness
         * builds it with them: clibs/list's `list_rpush(list, list_node_new(val))`); never one built
         * field by field, which is no state of the unit, and no removal of such a struct (list_remove(list,
         * node) of a node never in the list broke the list's invariants, and crashed) */
        static const char *const removal_words[] = {"remove", "delete", "erase", "detach", "unlink", "del", NULL};
        int ok = 1, callbacks = takes_callback(fn);
        for (size_t j = 1; j < fn->nparams && ok; j++) {
            const ut_type *st = struct_pointee(fn->params[j].type);
            unit_producer np[1];
            /* a `void *` is no input but the user data of a callback beside it (libcsv's csv_parse(p, s,
             * len, cb1, cb2, data) fed before csv_fini) */
            ok = arg_ok(&fn->params[j], p->type) && (callbacks || !opaque_arg(&fn->params[j])) &&
                 (!st || callback_table(st) ||
                  (!has_word(fn->name, removal_words) && unit_arg_producers(u, o, fn, j, np, 1) > 0));
        }
        if (ok) out[n++] = fn;
    }
    return n;
}
