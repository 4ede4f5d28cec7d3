/* emit_locals.c: the locals of an emitted test: object names, value literals and declarations with their initialisers and fix-ups. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "emit_int.h"

static int heapable(const ur_object *o);

/* Whether text (an `e` value: an enumerator name or a decimal) is an enumerator of value 0 in some
 * enum of unit u (`JSON_OBJ` of `enum { JSON_OBJ, JSON_ARRAY, ... }`), or "0". */
static int enumerator_zero(const unit_info *u, const char *text)
{
    if (!strcmp(text, "0")) return 1;
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        for (size_t k = 0; t->kind == UT_ENUM && k < t->nenums; k++)
            if (!strcmp(t->enums[k].name, text)) return t->enums[k].value == 0;
    }
    return 0;
}
/* Objects a heap-mode test allocates: the fresh input objects (not parameters, globals,
 * results or opaque handles). */
static int heapable(const ur_object *o)
{
    return !o->param && !o->global && !o->result && !o->handle && !o->stream && !o->ostream && !o->make_arg;
}

int emit_heapable(const ur_object *o) { return heapable(o); }

const ur_object *obj_by_id(const unit_record *r, int id, size_t *idx)
{
    for (size_t i = 0; i < r->nobjs; i++)
        if (r->objs[i].id == id) {
            if (idx) *idx = i;
            return &r->objs[i];
        }
    return NULL;
}

static int name_taken(const names *n, size_t upto, const char *s)
{
    static const char *reserved[] = {"ret", "state", "pid", "status", NULL}; /* the test function's own */
    for (int i = 0; reserved[i]; i++)
        if (!strcmp(s, reserved[i])) return 1;
    /* a local must not hide a function of the unit, a mock or a libc function it calls */
    const unit_info *u = n->u;
    for (size_t i = 0; u && i < u->ndefs + u->nexterns + u->nsystem; i++) {
        const ut_func *f = i < u->ndefs                 ? &u->defs[i]
                           : i < u->ndefs + u->nexterns ? &u->externs[i - u->ndefs]
                                                        : &u->system[i - u->ndefs - u->nexterns];
        if (!strcmp(s, f->name)) return 1;
    }
    /* nor a typedef name or an enumerator of the unit (pdjson's `json_stream`: the stream argument of
     * json_open_stream(json, stream) was named json_stream, and `json_stream json_obj` broke) */
    for (size_t i = 0; u && i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        if (t->spelling && !strcmp(s, t->spelling)) return 1;
        for (size_t k = 0; t->kind == UT_ENUM && k < t->nenums; k++)
            if (!strcmp(s, t->enums[k].name)) return 1;
    }
    for (size_t i = 0; i < n->r->nobjs; i++)
        if ((i < upto || n->r->objs[i].global || n->r->objs[i].result) && n->local[i] && !strcmp(n->local[i], s))
            return 1;
    return 0;
}

/* Objects get the local name the harness suggested (the input path), made unique:
 * the first taker keeps it, later ones get "_obj", then "_2", "_3", ... */
int assign_names(names *n, const unit_record *r)
{
    n->r = r;
    n->local = calloc(r->nobjs + 1, sizeof *n->local);
    if (!n->local) return -1;
    /* globals keep their own names, the returned struct is `ret`: reserved first */
    for (size_t i = 0; i < r->nobjs; i++)
        if ((r->objs[i].global || r->objs[i].result) &&
            !(n->local[i] = r->objs[i].result ? strdup("ret") : unit_ident(r->objs[i].local)))
            return -1;
    for (size_t i = 0; i < r->nobjs; i++) {
        if (r->objs[i].global || r->objs[i].result) continue;
        char *base = unit_ident(r->objs[i].local); /* a C identifier whatever the record says */
        if (!base) return -1;
        char *cand = strdup(base);
        if (name_taken(n, i, cand)) {
            /* the object a parameter points to is x_obj; other namesakes are x_2, x_3, ... */
            int of_param = 0;
            for (size_t j = 0; j < i; j++) of_param |= r->objs[j].param && n->local[j] && !strcmp(n->local[j], base);
            free(cand);
            if (asprintf(&cand, of_param ? "%s_obj" : "%s_2", base) < 0) return -1;
            for (int k = of_param ? 2 : 3; name_taken(n, i, cand); k++) {
                free(cand);
                if (asprintf(&cand, "%s_%d", base, k) < 0) return -1;
            }
        }
        free(base);
        n->local[i] = cand;
    }
    return 0;
}

/* The lvalue of object index k with a suffix (".f.g", "[3]", ""): "x.f", or for a heap
 * object "x->f" / "*x". Writes into buf (cap bytes). */
const char *lvalue(const names *n, size_t k, const char *suffix, char *buf, size_t cap)
{
    const ur_object *o = &n->r->objs[k];
    if (n->heap && heapable(o) && !o->array) {
        if (suffix[0] == '.')
            snprintf(buf, cap, "%s->%s", n->local[k], suffix + 1);
        else if (!suffix[0])
            snprintf(buf, cap, "*%s", n->local[k]);
        else
            snprintf(buf, cap, "(*%s)%s", n->local[k], suffix);
    } else {
        snprintf(buf, cap, "%s%s", n->local[k], suffix);
    }
    return buf;
}

void free_names(names *n)
{
    if (!n->local) return;
    for (size_t i = 0; i < n->r->nobjs; i++) free(n->local[i]);
    free(n->local);
}

/* A C literal for a recorded integer value of kind i/u/e. */
static void int_literal(strbuf *b, const ur_value *v, int as_char)
{
    if (v->kind == 'e') {
        sb_puts(b, v->text);
        return;
    }
    if (v->kind == 'i') {
        long long x = strtoll(v->text, NULL, 10);
        if (as_char && x >= 32 && x < 127 && x != '\'' && x != '\\')
            sb_printf(b, "'%c'", (char)x);
        else if (x == INT64_MIN)
            sb_puts(b, "(-9223372036854775807LL - 1)");
        else if (x < INT32_MIN || x > INT32_MAX)
            sb_printf(b, "%lldLL", x);
        else
            sb_printf(b, "%lld", x);
        return;
    }
    unsigned long long x = strtoull(v->text, NULL, 10);
    if (as_char && x >= 32 && x < 127 && x != '\'' && x != '\\')
        sb_printf(b, "'%c'", (char)x);
    else if (x > UINT32_MAX)
        sb_printf(b, "%lluULL", x);
    else if (x > INT32_MAX)
        sb_printf(b, "%lluU", x);
    else
        sb_printf(b, "%llu", x);
}

/* Address expression of object id: "&x" or "x" (arrays), "NULL" for 0. Returns -1 for an
 * address that is not an object's start. */
int addr_of(strbuf *b, const names *n, const char *idtext)
{
    int id = atoi(idtext);
    if (id == 0) {
        sb_puts(b, "NULL");
        return 0;
    }
    size_t k;
    const ur_object *o = id > 0 ? obj_by_id(n->r, id, &k) : NULL;
    if (!o || o->result) return -1;
    const char *br = strchr(idtext, '[');
    if (br)
        sb_printf(b, "&%s%s", n->local[k], br); /* an element of an array object */
    else if (o->handle)
        sb_printf(b, "(void *)%s", n->local[k]); /* stands for an opaque type */
    else if (o->stream || o->ostream)
        sb_puts(b, n->local[k]); /* a FILE * itself */
    else
        sb_printf(b, "%s%s", o->array || (n->heap && heapable(o)) ? "" : "&", n->local[k]);
    return 0;
}

int value_expr(strbuf *b, const names *n, const ur_value *v, int as_char)
{
    switch (v->kind) {
    case 'i':
    case 'u':
    case 'e': int_literal(b, v, as_char); return 0;
    case 'p': return addr_of(b, n, v->text);
    case 'f':
        if (!strcmp(v->text, "?")) return -1;
        sb_puts(b, v->text);
        return 0;
    case 'd': {
        /* a hexadecimal floating literal; infinities and NaN have none: GCC's and clang's
         * constant builtins (a NaN's payload is not kept, its sign is) */
        const char *t = v->text, *sign = *t == '-' ? "-" : "";
        if (strstr(t, "nan") || strstr(t, "NAN"))
            sb_printf(b, "%s__builtin_nan(\"\")", sign);
        else if (strstr(t, "inf") || strstr(t, "INF"))
            sb_printf(b, "%s__builtin_inf()", sign);
        else
            sb_puts(b, t);
        return 0;
    }
    default: return -1;
    }
}

int emit_union_bytes(strbuf *b, const char *hex)
{
    size_t l = hex ? strlen(hex) : 0;
    if (l == 0 || l % 2 || strspn(hex, "0123456789abcdefABCDEF") != l) return -1;
    if (strspn(hex, "0") == l) return 0;
    sb_printf(b, "((const unsigned char[%zu]){", l / 2);
    for (size_t i = 0; i < l; i += 2) sb_printf(b, "%s0x%c%c", i ? ", " : "", hex[i], hex[i + 1]);
    sb_puts(b, "})");
    return (int)(l / 2);
}

/* A union's recorded bytes v (kind x) given to lvalue lv after the declarations: one memcpy (its
 * initialiser left it zero); nothing when they are zero. 0, or -1 when v is malformed. */
static int union_fix(strbuf *fix, const char *lv, const ur_value *v)
{
    strbuf x = STRBUF_INIT;
    int n = emit_union_bytes(&x, v->text);
    if (n > 0) sb_printf(fix, "    memcpy(&%s, %s, sizeof %s);\n", lv, x.s, lv);
    sb_free(&x);
    return n < 0 ? -1 : 0;
}

/* union_fix for entry e of object k (its lvalue from the names n). */
static int union_entry_fix(strbuf *fix, const names *n, size_t k, const ur_entry *e)
{
    char lb[512];
    return union_fix(fix, lvalue(n, k, e->suffix, lb, sizeof lb), &e->pre);
}

/* Elements of 8-bit character types (char, uint8_t, ...) are written as character literals
 * when printable. */
int is_chartype(const unit_info *u, const char *ctype)
{
    const char *br = strchr(ctype, '[');
    if (br) { /* an array parameter's type (`char buf[6]`): its elements' */
        char et[256];
        size_t l = (size_t)(br - ctype);
        while (l > 0 && ctype[l - 1] == ' ') l--;
        if (l >= sizeof et) return 0;
        memcpy(et, ctype, l);
        et[l] = 0;
        return is_chartype(u, et);
    }
    if (!strcmp(ctype, "char") || !strcmp(ctype, "signed char") || !strcmp(ctype, "unsigned char")) return 1;
    for (size_t i = 0; u && i < u->ntypes; i++) {
        const char *sp = u->types[i]->spelling;
        if (!strncmp(sp, "const ", 6)) sp += 6;
        if (!strcmp(sp, ctype)) return u->types[i]->kind == UT_INT && u->types[i]->is_char;
    }
    return 0;
}

/*
 * Heap mode: the object is malloc'ed and then given its recorded values, for units that
 * free or reallocate their input objects (a local would make free() abort). Scalars and
 * structs: `T *x = malloc(sizeof *x); *x = (T){ .f = v };`; arrays:
 * `T *x = malloc(sizeof(T[N])); memcpy(x, (T[N]){ v0, v1 }, sizeof(T[N]));`. Pointer values
 * naming objects not allocated yet are set afterwards, as in declare_object.
 */
static int declare_heap_object(const unit_info *u, strbuf *b, strbuf *fix, const names *n, size_t k,
                               const char *declared)
{
    const unit_record *r = n->r;
    const ur_object *o = &r->objs[k];
    const char *nm = n->local[k];
    int chr = is_chartype(u, o->ctype);
    strbuf init = STRBUF_INIT;
    int nent = 0, whole = 0, plain = 1;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id) continue;
        if (e->pre.kind == 'x') { /* a union: its bytes copied in after the declarations */
            if (union_entry_fix(fix, n, k, e) == 0) continue;
            sb_free(&init);
            return -1;
        }
        strbuf val = STRBUF_INIT;
        if (value_expr(&val, n, &e->pre, chr) != 0) {
            sb_free(&val);
            sb_free(&init);
            return -1;
        }
        int later = 0;
        if (e->pre.kind == 'p') {
            int tid = atoi(e->pre.text);
            later = tid > 0 && !(tid <= (int)strlen(declared) && declared[tid - 1] == 'y');
        }
        char lb[512];
        char want[32];
        snprintf(want, sizeof want, "[%d]", nent);
        if (later)
            sb_printf(fix, "    %s = %s;\n", lvalue(n, k, e->suffix, lb, sizeof lb), val.s);
        else if (!*e->suffix) {
            whole = 1;
            sb_puts(&init, val.s);
            nent++;
        } else if (o->array && plain && !strcmp(e->suffix, want)) {
            sb_printf(&init, "%s%s", nent ? ", " : " ", val.s); /* elements in order: a plain list */
            nent++;
        } else {
            plain = 0;
            sb_printf(&init, "%s%s = %s", nent ? ", " : " ", e->suffix, val.s);
            nent++;
        }
        sb_free(&val);
    }
    char star[300];
    snprintf(star, sizeof star, "*%s", nm);
    char *d = unit_declarator(o->ctype, star);
    if (o->array) {
        char dims[40];
        snprintf(dims, sizeof dims, "[%" PRIu64 "]", o->count ? o->count : 1);
        char *an = unit_declarator(o->ctype, dims); /* the array type "T[N]" */
        strbuf lit = STRBUF_INIT;                   /* text: zeroed, then its literal (`"ab"`, the NUL included) */
        int text = chr && o->count > 0 && emit_char_array_literal(&lit, n, o, 0, 0) == 0;
        sb_printf(b, "    %s = %s(sizeof(%s)%s);\n", d, text ? "calloc" : "malloc", an, text ? ", 1" : "");
        if (text)
            sb_printf(b, "    memcpy(%s, %s, sizeof %s);\n", nm, lit.s, lit.s);
        else if (nent)
            sb_printf(b, "    memcpy(%s, (%s){%s }, sizeof(%s));\n", nm, an, init.s, an);
        else
            sb_printf(b, "    memset(%s, 0, sizeof(%s));\n", nm, an);
        sb_free(&lit);
        free(an);
    } else {
        sb_printf(b, "    %s = malloc(sizeof *%s);\n", d, nm);
        if (whole)
            sb_printf(b, "    *%s = %s;\n", nm, init.s);
        else if (nent)
            sb_printf(b, "    *%s = (%s){%s };\n", nm, o->ctype, init.s);
        else
            sb_printf(b, "    memset(%s, 0, sizeof *%s);\n", nm, nm);
    }
    free(d);
    sb_free(&init);
    return 0;
}

/* Heap mode: free every input object the test malloc'ed and the call did not free (recorded
 * "freed"), so that the test leaks nothing (LeakSanitizer). An object another malloc'ed input
 * points to is freed through that pointer field as it is after the call: a realloc of the unit
 * may have moved it (in place natively, never under ASan). When the call made that field point
 * elsewhere (another input, NULL), the unit took the object over: nothing is freed for it.
 * Objects are freed after those they point to (children first), so no field is read from a
 * freed block. */
void emit_heap_frees(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    if (!n->heap || r->nobjs == 0) return;
    char **expr = calloc(r->nobjs, sizeof *expr);
    char *done = calloc(r->nobjs, 1);
    if (!expr || !done) goto out;
    for (size_t k = 0; k < r->nobjs; k++) {
        const ur_object *o = &r->objs[k];
        if (!heapable(o) || o->freed || emit_made_undeclared(n, k) || emit_made_owned(n, k)) {
            done[k] = 1;
            continue;
        }
        int gone = 0;
        char lb[512] = "";
        for (size_t j = 0; j < r->nentries; j++) {
            const ur_entry *e = &r->entries[j];
            size_t owner;
            const ur_object *po = obj_by_id(r, e->obj, &owner);
            if (!po || !heapable(po) || po->freed || e->pre.kind != 'p' || atoi(e->pre.text) != o->id) continue;
            if (!e->post.kind || !e->post.text) continue;
            if (!strcmp(e->pre.text, e->post.text) || !strcmp(e->post.text, "-1"))
                lvalue(n, owner, e->suffix, lb, sizeof lb);
            else
                gone = 1;
        }
        if (gone)
            done[k] = 1;
        else if (*lb) /* a field may be a const pointer (cwalk's `const char *path`): free takes a void * */
            expr[k] = util_strf("(void *)%s", lb);
        else
            expr[k] = strdup(n->local[k]);
    }
    /* children first: an object is freed once everything it points to is */
    for (int progress = 1; progress;) {
        progress = 0;
        for (size_t k = 0; k < r->nobjs; k++) {
            if (done[k]) continue;
            int ready = 1;
            for (size_t j = 0; j < r->nentries && ready; j++) {
                const ur_entry *e = &r->entries[j];
                size_t t;
                if (e->obj != r->objs[k].id || e->pre.kind != 'p') continue;
                if (obj_by_id(r, atoi(e->pre.text), &t) && t != k && !done[t]) ready = 0;
            }
            if (!ready) continue;
            if (expr[k]) sb_printf(b, "    free(%s);\n", expr[k]);
            done[k] = 1;
            progress = 1;
        }
    }
    for (size_t k = 0; k < r->nobjs; k++) /* a cycle (--cycles): the rest in any order */
        if (!done[k] && expr[k]) sb_printf(b, "    free(%s);\n", expr[k]);
out:
    for (size_t k = 0; expr && k < r->nobjs; k++) free(expr[k]);
    free(expr);
    free(done);
}

void emit_heapat_releases(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    for (size_t i = 0; i < r->nheapats; i++) {
        const ur_heapat *h = &r->heapats[i];
        size_t k;
        const ur_object *o = obj_by_id(r, h->obj, &k);
        if (!o || o->global || o->freed || o->handle || o->result || o->make_arg || emit_made_undeclared(n, k))
            continue;
        int made = 0;
        for (size_t j = 0; j < r->nmakes; j++) made |= r->makes[j].obj == h->obj;
        if (made) continue; /* the unit's destructor of the made object owns what it holds */
        int moved = 0;      /* heap mode: a malloc'ed input the call reallocated, freed by emit_heap_frees */
        for (size_t j = 0; n->heap && j < r->nentries; j++) {
            const ur_entry *e = &r->entries[j];
            const ur_object *po = e->obj == h->obj && !strcmp(e->suffix, h->suffix) && e->pre.kind == 'p'
                                      ? obj_by_id(r, atoi(e->pre.text), NULL)
                                      : NULL;
            moved |= po && heapable(po);
        }
        if (moved) continue;
        char lb[512];
        const char *lv = lvalue(n, k, h->suffix, lb, sizeof lb);
        if (!strcmp(h->release, "free"))
            sb_printf(b, "    free((void *)%s);\n", lv);
        else
            sb_printf(b, "    %s(%s);\n", h->release, lv);
    }
}

/* Emit the declaration of object index k with its initialiser; pointer values that name
 * an object not declared yet are left NULL and set afterwards (fix-ups). Returns -1 when
 * a value cannot be written in C (an address inside an object). */
int declare_object(const unit_info *u, strbuf *b, strbuf *fix, const names *n, size_t k, const char *declared)
{
    const unit_record *r = n->r;
    ur_object oc = n->r->objs[k];
    const ur_object *o = &oc;
    /* clang spells bool _Bool; with <stdbool.h> included, write it as the user does */
    if (!strcmp(oc.ctype, "_Bool") && u && strstr(u->prelude, "stdbool.h")) oc.ctype = "bool";
    const char *nm = n->local[k];
    int chr = is_chartype(u, o->ctype);
    if (o->result) return 0; /* `ret`, declared by the call */
    if (o->stream || o->ostream) return emit_stream_decl(b, n, k);
    /* built by the unit's producers (emit_producer.c) */
    int made = emit_made_decl(b, n, k);
    if (made) return made < 0 ? -1 : 0;
    if ((n->heap && heapable(o)) || emit_made_owned(n, k)) return declare_heap_object(u, b, fix, n, k, declared);
    if (o->global) {
        /* a global is not declared: each test sets it to the value the run started with, so
         * the tests do not depend on their order; values that are not expressible (an
         * address inside an object, a foreign pointer) keep the program's own. A global no
         * test changes keeps its initial value in every test: not set */
        for (char *const *q = n->quiet; q && *q; q++)
            if (!strcmp(*q, nm)) return 0;
        for (size_t j = 0; j < r->nentries; j++) {
            const ur_entry *e = &r->entries[j];
            if (e->obj != o->id) continue;
            if (e->pre.kind == 'x') {
                char lb[512];
                snprintf(lb, sizeof lb, "%s%s", nm, e->suffix);
                strbuf z = STRBUF_INIT; /* zero bytes: a memset, the run started with them */
                if (emit_union_bytes(&z, e->pre.text) == 0) sb_printf(fix, "    memset(&%s, 0, sizeof %s);\n", lb, lb);
                sb_free(&z);
                union_fix(fix, lb, &e->pre);
                continue;
            }
            strbuf val = STRBUF_INIT;
            if (value_expr(&val, n, &e->pre, 0) == 0) sb_printf(fix, "    %s%s = %s;\n", nm, e->suffix, val.s);
            sb_free(&val);
        }
        return 0;
    }
    /* a char array (text; uint8_t and unsigned char buffers stay byte lists) whose bytes end in a
     * zero: a string literal, escapes where not printable (its NUL and the zero fill give the
     * trailing zeros) */
    if (o->array && o->count > 0 && (!strcmp(o->ctype, "char") || !strcmp(o->ctype, "const char"))) {
        strbuf lit = STRBUF_INIT;
        if (emit_char_array_literal(&lit, n, o, 0, 0) == 0) {
            char an[300];
            snprintf(an, sizeof an, "%s[%" PRIu64 "]", nm, o->count);
            char *d = unit_declarator(o->ctype, an);
            sb_printf(b, "    %s = %s;\n", d ? d : an, lit.s);
            free(d);
            sb_free(&lit);
            return 0;
        }
        sb_free(&lit);
    }
    if (o->array) {
        char an[300];
        snprintf(an, sizeof an, "%s[%" PRIu64 "]", nm, o->count ? o->count : 1);
        char *d = unit_declarator(o->ctype, an);
        sb_printf(b, "    %s = {", d ? d : an);
        free(d);
    } else {
        char *d = unit_declarator(o->ctype, nm);
        sb_printf(b, "    %s = ", d ? d : nm);
        free(d);
    }
    int nent = 0, whole = 0, plain = 1; /* plain: array elements [0], [1], ... in order */
    strbuf init = STRBUF_INIT;
    size_t cut = 0; /* a plain list's length up to its last element that is not 0, and one 0 after it */
    int zeros = 0;  /* zeros since that element */
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id) continue;
        if (e->pre.kind == 'x') { /* a union: its bytes copied in after the declarations */
            if (union_entry_fix(fix, n, k, e) == 0) continue;
            sb_free(&init);
            return -1;
        }
        strbuf val = STRBUF_INIT;
        int later = 0;
        if (e->pre.kind == 'p') {
            int tid = atoi(e->pre.text);
            if (tid > 0 && !(tid <= (int)strlen(declared) && declared[tid - 1] == 'y')) later = 1;
        }
        if (later) {
            if (value_expr(&val, n, &e->pre, chr) != 0) {
                sb_free(&val);
                sb_free(&init);
                return -1;
            }
            char lb[512];
            sb_printf(fix, "    %s = %s;\n", lvalue(n, k, e->suffix, lb, sizeof lb), val.s);
            sb_free(&val);
            continue;
        }
        if (value_expr(&val, n, &e->pre, chr) != 0) {
            sb_free(&val);
            sb_free(&init);
            return -1;
        }
        /* zero elements of arrays inside a struct are left to the initialiser's zero fill, and so
         * are the zero or NULL fields of an array of structs (a capacity pair's zeroed array:
         * `struct phr_header headers_obj[8] = { 0 };`, not 32 designators) */
        int zero = ((e->pre.kind == 'i' || e->pre.kind == 'u') && !strcmp(e->pre.text, "0")) ||
                   (e->pre.kind == 'p' && !strcmp(e->pre.text, "0")) ||
                   (e->pre.kind == 'e' && enumerator_zero(n->u, e->pre.text));
        if (zero && ((!o->array && strchr(e->suffix, '[') && e->pre.kind != 'p') ||
                     (o->array && e->suffix[0] == '[' && strchr(e->suffix, '.')))) {
            sb_free(&val);
            continue;
        }
        char want[32];
        snprintf(want, sizeof want, "[%d]", nent);
        if (strcmp(e->suffix, want)) plain = 0;
        if (!*e->suffix) {
            whole = 1;
            sb_puts(&init, val.s);
        } else if (o->array && plain) {
            sb_printf(&init, "%s%s", nent ? ", " : " ", val.s);
            if (strcmp(val.s, "0"))
                cut = init.len, zeros = 0;
            else if (!zeros++)
                cut = init.len;
        } else {
            sb_printf(&init, "%s%s%s = %s", nent ? ", " : " ", e->suffix[0] == '[' ? "" : "", e->suffix, val.s);
        }
        nent++;
        sb_free(&val);
    }
    /* a run of trailing zeros in a plain list is written as one 0, the rest is the initialiser's
     * zero fill (an output buffer's room: `BYTE out_obj[68] = { 'x', 'B', 0 }`) */
    if (o->array && plain && init.s && cut < init.len) {
        init.len = cut;
        init.s[cut] = 0;
    }
    if (o->array) {
        sb_printf(b, "%s };\n", init.s ? init.s : " 0");
    } else if (whole) {
        sb_printf(b, "%s;\n", init.s);
    } else if (nent) {
        sb_printf(b, "{%s };\n", init.s);
    } else {
        /* nothing recorded (a pointer set later, or fields that are not recorded): zero */
        int ptr = strchr(o->ctype, '*') != NULL;
        sb_printf(b, "%s;\n", ptr ? "NULL" : "{0}");
    }
    sb_free(&init);
    return 0;
}
