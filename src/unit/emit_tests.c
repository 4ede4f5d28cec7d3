/* emit_tests.c: turns recorded harness runs into a readable CMocka test file (locals, will_return, call, assertions). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"

/* Per-test naming state: local name of each object id. */
typedef struct names {
    const unit_info *u;
    const unit_record *r;
    char **local;          /* by object index in r->objs */
    int heap;              /* input objects are malloc'ed (the unit frees or reallocates them) */
} names;

static int heapable(const ur_object *o);

/* The lvalue of object index k with a suffix (".f.g", "[3]", ""): "x.f", or for a heap
 * object "x->f" / "*x". Writes into buf (cap bytes). */
/* Objects a heap-mode test allocates: the fresh input objects (not parameters, globals,
 * results or opaque handles). */
static int heapable(const ur_object *o) {
    return !o->param && !o->global && !o->result && !o->handle;
}

static const ur_object *obj_by_id(const unit_record *r, int id, size_t *idx) {
    for (size_t i = 0; i < r->nobjs; i++)
        if (r->objs[i].id == id) {
            if (idx) *idx = i;
            return &r->objs[i];
        }
    return NULL;
}

static int name_taken(const names *n, size_t upto, const char *s) {
    static const char *reserved[] = {"ret", "state", "pid", "status", NULL};   /* the test function's own */
    for (int i = 0; reserved[i]; i++)
        if (!strcmp(s, reserved[i])) return 1;
    /* a local must not hide a function of the unit, a mock or a libc function it calls */
    const unit_info *u = n->u;
    for (size_t i = 0; u && i < u->ndefs + u->nexterns + u->nsystem; i++) {
        const ut_func *f = i < u->ndefs ? &u->defs[i]
                         : i < u->ndefs + u->nexterns ? &u->externs[i - u->ndefs] : &u->system[i - u->ndefs - u->nexterns];
        if (!strcmp(s, f->name)) return 1;
    }
    for (size_t i = 0; i < n->r->nobjs; i++)
        if ((i < upto || n->r->objs[i].global || n->r->objs[i].result) && n->local[i] && !strcmp(n->local[i], s))
            return 1;
    return 0;
}

/* Objects get the local name the harness suggested (the input path), made unique:
 * the first taker keeps it, later ones get "_obj", then "_2", "_3", ... */
static int assign_names(names *n, const unit_record *r) {
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
        char *base = unit_ident(r->objs[i].local);   /* a C identifier whatever the record says */
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

static const char *lvalue(const names *n, size_t k, const char *suffix, char *buf, size_t cap) {
    const ur_object *o = &n->r->objs[k];
    if (n->heap && heapable(o) && !o->array) {
        if (suffix[0] == '.') snprintf(buf, cap, "%s->%s", n->local[k], suffix + 1);
        else if (!suffix[0]) snprintf(buf, cap, "*%s", n->local[k]);
        else snprintf(buf, cap, "(*%s)%s", n->local[k], suffix);
    } else {
        snprintf(buf, cap, "%s%s", n->local[k], suffix);
    }
    return buf;
}

static void free_names(names *n) {
    if (!n->local) return;
    for (size_t i = 0; i < n->r->nobjs; i++) free(n->local[i]);
    free(n->local);
}

/* A C literal for a recorded integer value of kind i/u/e. */
static void int_literal(strbuf *b, const ur_value *v, int as_char) {
    if (v->kind == 'e') {
        sb_puts(b, v->text);
        return;
    }
    if (v->kind == 'i') {
        long long x = strtoll(v->text, NULL, 10);
        if (as_char && x >= 32 && x < 127 && x != '\'' && x != '\\') sb_printf(b, "'%c'", (char)x);
        else if (x == INT64_MIN) sb_puts(b, "(-9223372036854775807LL - 1)");
        else if (x < INT32_MIN || x > INT32_MAX) sb_printf(b, "%lldLL", x);
        else sb_printf(b, "%lld", x);
        return;
    }
    unsigned long long x = strtoull(v->text, NULL, 10);
    if (as_char && x >= 32 && x < 127 && x != '\'' && x != '\\') sb_printf(b, "'%c'", (char)x);
    else if (x > UINT32_MAX) sb_printf(b, "%lluULL", x);
    else if (x > INT32_MAX) sb_printf(b, "%lluU", x);
    else sb_printf(b, "%llu", x);
}

/* Address expression of object id: "&x" or "x" (arrays), "NULL" for 0. Returns -1 for an
 * address that is not an object's start. */
static int addr_of(strbuf *b, const names *n, const char *idtext) {
    int id = atoi(idtext);
    if (id == 0) {
        sb_puts(b, "NULL");
        return 0;
    }
    size_t k;
    const ur_object *o = id > 0 ? obj_by_id(n->r, id, &k) : NULL;
    if (!o || o->result) return -1;
    const char *br = strchr(idtext, '[');
    if (br) sb_printf(b, "&%s%s", n->local[k], br);   /* an element of an array object */
    else if (o->handle) sb_printf(b, "(void *)%s", n->local[k]);   /* stands for an opaque type */
    else sb_printf(b, "%s%s", o->array || (n->heap && heapable(o)) ? "" : "&", n->local[k]);
    return 0;
}

static int value_expr(strbuf *b, const names *n, const ur_value *v, int as_char) {
    switch (v->kind) {
    case 'i': case 'u': case 'e': int_literal(b, v, as_char); return 0;
    case 'p': return addr_of(b, n, v->text);
    case 'f':
        if (!strcmp(v->text, "?")) return -1;
        sb_puts(b, v->text);
        return 0;
    case 'd': {
        /* a hexadecimal floating literal; infinities and NaN have none: GCC's and clang's
         * constant builtins (a NaN's payload is not kept, its sign is) */
        const char *t = v->text, *sign = *t == '-' ? "-" : "";
        if (strstr(t, "nan") || strstr(t, "NAN")) sb_printf(b, "%s__builtin_nan(\"\")", sign);
        else if (strstr(t, "inf") || strstr(t, "INF")) sb_printf(b, "%s__builtin_inf()", sign);
        else sb_puts(b, t);
        return 0;
    }
    default: return -1;
    }
}

/* Elements of 8-bit character types (char, uint8_t, ...) are written as character literals
 * when printable. */
static int is_chartype(const unit_info *u, const char *ctype) {
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
                               const char *declared) {
    const unit_record *r = n->r;
    const ur_object *o = &r->objs[k];
    const char *nm = n->local[k];
    int chr = is_chartype(u, o->ctype);
    strbuf init = STRBUF_INIT;
    int nent = 0, whole = 0, plain = 1;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id) continue;
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
        if (later) sb_printf(fix, "    %s = %s;\n", lvalue(n, k, e->suffix, lb, sizeof lb), val.s);
        else if (!*e->suffix) {
            whole = 1;
            sb_puts(&init, val.s);
            nent++;
        } else if (o->array && plain && !strcmp(e->suffix, want)) {
            sb_printf(&init, "%s%s", nent ? ", " : " ", val.s);   /* elements in order: a plain list */
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
        char *an = unit_declarator(o->ctype, dims);   /* the array type "T[N]" */
        sb_printf(b, "    %s = malloc(sizeof(%s));\n", d, an);
        if (nent) sb_printf(b, "    memcpy(%s, (%s){%s }, sizeof(%s));\n", nm, an, init.s, an);
        else sb_printf(b, "    memset(%s, 0, sizeof(%s));\n", nm, an);
        free(an);
    } else {
        sb_printf(b, "    %s = malloc(sizeof *%s);\n", d, nm);
        if (whole) sb_printf(b, "    *%s = %s;\n", nm, init.s);
        else if (nent) sb_printf(b, "    *%s = (%s){%s };\n", nm, o->ctype, init.s);
        else sb_printf(b, "    memset(%s, 0, sizeof *%s);\n", nm, nm);
    }
    free(d);
    sb_free(&init);
    return 0;
}

/* Emit the declaration of object index k with its initialiser; pointer values that name
 * an object not declared yet are left NULL and set afterwards (fix-ups). Returns -1 when
 * a value cannot be written in C (an address inside an object). */
static int declare_object(const unit_info *u, strbuf *b, strbuf *fix, const names *n, size_t k, const char *declared) {
    const unit_record *r = n->r;
    ur_object oc = n->r->objs[k];
    const ur_object *o = &oc;
    /* clang spells bool _Bool; with <stdbool.h> included, write it as the user does */
    if (!strcmp(oc.ctype, "_Bool") && u && strstr(u->prelude, "stdbool.h")) oc.ctype = "bool";
    const char *nm = n->local[k];
    int chr = is_chartype(u, o->ctype);
    if (o->result) return 0; /* `ret`, declared by the call */
    if (n->heap && heapable(o)) return declare_heap_object(u, b, fix, n, k, declared);
    if (o->global) {
        /* a global is not declared: each test sets it to the value the run started with, so
         * the tests do not depend on their order; values that are not expressible (an
         * address inside an object, a foreign pointer) keep the program's own */
        for (size_t j = 0; j < r->nentries; j++) {
            const ur_entry *e = &r->entries[j];
            if (e->obj != o->id) continue;
            strbuf val = STRBUF_INIT;
            if (value_expr(&val, n, &e->pre, 0) == 0) sb_printf(fix, "    %s%s = %s;\n", nm, e->suffix, val.s);
            sb_free(&val);
        }
        return 0;
    }
    /* string literal when the bytes are printable up to the NUL and zero after it */
    if (o->array && o->string && o->count > 0) {
        strbuf lit = STRBUF_INIT;
        int ok = 1, ended = 0;
        for (uint64_t i = 0; i < o->count && ok; i++) {
            char suf[32];
            snprintf(suf, sizeof suf, "[%" PRIu64 "]", i);
            const ur_entry *e = NULL;
            for (size_t j = 0; j < r->nentries; j++)
                if (r->entries[j].obj == o->id && !strcmp(r->entries[j].suffix, suf)) e = &r->entries[j];
            long long x = e && e->pre.text ? strtoll(e->pre.text, NULL, 10) : 0;
            if (ended) ok = x == 0;
            else if (x == 0) ended = 1;
            else if (x >= 32 && x < 127 && x != '"' && x != '\\' && x != '?') sb_printf(&lit, "%c", (char)x);
            else ok = 0;
        }
        if (ok && ended) {
            sb_printf(b, "    %s %s[%" PRIu64 "] = \"%s\";\n", o->ctype, nm, o->count, lit.s ? lit.s : "");
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
    }
    else {
        char *d = unit_declarator(o->ctype, nm);
        sb_printf(b, "    %s = ", d ? d : nm);
        free(d);
    }
    int nent = 0, whole = 0, plain = 1;   /* plain: array elements [0], [1], ... in order */
    strbuf init = STRBUF_INIT;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id) continue;
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
        /* zero elements of arrays inside a struct are left to the initialiser's zero fill */
        if (!o->array && strchr(e->suffix, '[') && (e->pre.kind == 'i' || e->pre.kind == 'u') &&
            !strcmp(e->pre.text, "0")) {
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
        } else {
            sb_printf(&init, "%s%s%s = %s", nent ? ", " : " ", e->suffix[0] == '[' ? "" : "", e->suffix, val.s);
        }
        nent++;
        sb_free(&val);
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

/* The call expression "f(a, b)". */
static void call_expr(strbuf *b, const names *n, const ut_func *f) {
    sb_printf(b, "%s(", f->name);
    size_t argi = 0;
    for (size_t i = 0; i < n->r->nobjs; i++) {
        if (!n->r->objs[i].param) continue;
        sb_printf(b, "%s%s", argi ? ", " : "", n->local[i]);
        argi++;
    }
    sb_puts(b, ")");
}

static int emit_mocks(strbuf *b, const names *n, const char *indent) {
    for (size_t i = 0; i < n->r->nmocks; i++) {
        const ur_mock *m = &n->r->mocks[i];
        strbuf v = STRBUF_INIT;
        if (value_expr(&v, n, &m->value, 0) != 0) {
            sb_free(&v);
            return -1;
        }
        sb_printf(b, "%swill_return(%s%s, %s);\n", indent, unit_is_wrapped(n->u, m->name) ? "__wrap_" : "", m->name, v.s);
        sb_free(&v);
    }
    return 0;
}

static const char *signal_name(int s) {
    switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    default: return NULL;
    }
}

/* Assertion that floating-point lvalue lv holds recorded value v exactly: == with its
 * hexadecimal literal (so 0.0 and -0.0 pass alike), or lv != lv for a NaN. */
static void float_assert(strbuf *b, const char *lv, const ur_value *v) {
    if (strstr(v->text, "nan") || strstr(v->text, "NAN")) {
        sb_printf(b, "    assert_true(%s != %s); /* NaN */\n", lv, lv);
        return;
    }
    strbuf lit = STRBUF_INIT;
    value_expr(&lit, NULL, v, 0);
    sb_printf(b, "    assert_true(%s == %s);\n", lv, lit.s);
    sb_free(&lit);
}

/* Regression assertions: the return value and every recorded value the call changed. */
static int emit_asserts(strbuf *b, const names *n, const ut_func *f, int have_ret) {
    const unit_record *r = n->r;
    int ret_used = 0;
    if (have_ret && r->ret.kind) {
        strbuf v = STRBUF_INIT;
        ret_used = 1;
        switch (r->ret.kind) {
        case 'd':
            float_assert(b, "ret", &r->ret);
            break;
        case 's':
            sb_printf(b, "    assert_string_equal(ret, \"%s\");\n", r->ret.text);
            break;
        case 'i': case 'u': case 'e':
            value_expr(&v, n, &r->ret, 0);
            sb_printf(b, "    assert_int_equal(ret, %s);\n", v.s);
            break;
        case 'p':
            if (!strcmp(r->ret.text, "0")) sb_puts(b, "    assert_null(ret);\n");
            else if (addr_of(&v, n, r->ret.text) == 0) sb_printf(b, "    assert_ptr_equal(ret, %s);\n", v.s);
            else sb_puts(b, "    assert_non_null(ret);\n");
            break;
        case 'f':
            if (!strcmp(r->ret.text, "NULL")) sb_puts(b, "    assert_null(ret);\n");
            else if (strcmp(r->ret.text, "?")) sb_printf(b, "    assert_ptr_equal(ret, %s);\n", r->ret.text);
            else sb_puts(b, "    assert_non_null(ret);\n");
            break;
        default: ret_used = 0; break;
        }
        sb_free(&v);
    }
    (void)f;
    /* a character array the call changed into a printable NUL-terminated string: one
     * assert_string_equal instead of an assertion per element */
    char *as_string = calloc(r->nobjs + 1, 1);
    for (size_t k = 0; as_string && k < r->nobjs; k++) {
        const ur_object *o = &r->objs[k];
        if (!o->array || o->param || o->freed || !is_chartype(n->u, o->ctype) || o->count == 0) continue;
        strbuf lit = STRBUF_INIT;
        int changed = 0, ok = 1, ended = 0;
        for (uint64_t i = 0; i < o->count && ok; i++) {
            char suf[32];
            snprintf(suf, sizeof suf, "[%" PRIu64 "]", i);
            const ur_entry *e = NULL;
            for (size_t j = 0; j < r->nentries; j++)
                if (r->entries[j].obj == o->id && !strcmp(r->entries[j].suffix, suf)) e = &r->entries[j];
            if (!e || !e->post.text || !e->pre.text) {
                ok = 0;
                break;
            }
            changed |= strcmp(e->pre.text, e->post.text) != 0;
            if (ended) continue;
            long long x = strtoll(e->post.text, NULL, 10);
            if (x == 0) ended = 1;
            else if (x >= 32 && x < 127 && x != '"' && x != '\\' && x != '?') sb_printf(&lit, "%c", (char)x);
            else ok = 0;
        }
        if (ok && ended && changed) {
            sb_printf(b, "    assert_string_equal(%s, \"%s\");\n", n->local[k], lit.s ? lit.s : "");
            as_string[k] = 1;
        }
        sb_free(&lit);
    }
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        size_t k;
        const ur_object *o = obj_by_id(r, e->obj, &k);
        if (!o || o->param || o->freed || !e->post.kind || !e->post.text) continue;
        if (as_string && as_string[k] && o->array) {
            /* covered by the string assertion, unless a byte after the NUL changed */
            int after_nul = 0;
            for (size_t j2 = 0; j2 < r->nentries; j2++) {
                const ur_entry *e2 = &r->entries[j2];
                if (e2->obj != o->id || !e2->post.text) continue;
                if (!strcmp(e2->post.text, "0")) {
                    after_nul = atoi(e->suffix + 1) > atoi(e2->suffix + 1);
                    break;
                }
            }
            if (!after_nul) continue;
        }
        if (!o->result) {
            if (!e->pre.text) continue;
            if (e->pre.kind == e->post.kind && !strcmp(e->pre.text, e->post.text)) continue;
        } else {
            ret_used = 1;
        }
        char lb[512];
        const char *lv = lvalue(n, k, e->suffix, lb, sizeof lb);
        strbuf v = STRBUF_INIT;
        switch (e->post.kind) {
        case 'i': case 'u': case 'e':
            value_expr(&v, n, &e->post, is_chartype(n->u, o->ctype) && o->array);
            sb_printf(b, "    assert_int_equal(%s, %s);\n", lv, v.s);
            break;
        case 'p':
            if (!strcmp(e->post.text, "0")) sb_printf(b, "    assert_null(%s);\n", lv);
            else if (addr_of(&v, n, e->post.text) == 0) sb_printf(b, "    assert_ptr_equal(%s, %s);\n", lv, v.s);
            else sb_printf(b, "    assert_non_null(%s);\n", lv);
            break;
        case 'd':
            float_assert(b, lv, &e->post);
            break;
        case 'f':
            if (!strcmp(e->post.text, "NULL")) sb_printf(b, "    assert_null(%s);\n", lv);
            else if (strcmp(e->post.text, "?"))
                sb_printf(b, "    assert_ptr_equal(%s, %s);\n", lv, e->post.text);
            break;
        default: break;
        }
        sb_free(&v);
    }
    free(as_string);
    if (have_ret && !ret_used) sb_puts(b, "    (void)ret; /* a result sympath does not record */\n");
    return 0;
}

char *unit_emit_test_body(const unit_info *u, const unit_test *t) {
    const unit_record *r = &t->rec;
    names n;
    memset(&n, 0, sizeof n);
    n.u = u;
    n.heap = t->heap;
    if (assign_names(&n, r) != 0) return NULL;
    strbuf b = STRBUF_INIT, fix = STRBUF_INIT;
    /* declared[id-1] == 'y' once object id is declared */
    int maxid = 0;
    for (size_t i = 0; i < r->nobjs; i++)
        if (r->objs[i].id > maxid) maxid = r->objs[i].id;
    char *declared = calloc((size_t)maxid + 2, 1);
    int bad = !declared;
    for (int i = 0; i < maxid && declared; i++) declared[i] = 'n';
    /* declaration order: depth-first from the parameters, an object after everything it
     * points to (post-order), so initialisers can take the addresses; a pointer back to an
     * object still being visited (a cycle) becomes an assignment after the declarations */
    size_t *order = calloc(r->nobjs + 1, sizeof *order);
    char *state = calloc(r->nobjs + 1, 1);
    size_t *stack = calloc(2 * r->nobjs + 2, sizeof *stack);
    size_t norder = 0;
    bad |= !order || !state || !stack;
    for (size_t root = 0; root < r->nobjs && !bad; root++) {
        if (state[root]) continue;
        size_t sp = 0;
        stack[sp++] = root;
        state[root] = 1;
        while (sp > 0) {
            size_t k = stack[sp - 1], next = (size_t)-1;
            for (size_t j = 0; j < r->nentries && next == (size_t)-1; j++) {
                const ur_entry *e = &r->entries[j];
                size_t t;
                if (e->obj != r->objs[k].id || e->pre.kind != 'p') continue;
                if (obj_by_id(r, atoi(e->pre.text), &t) && !state[t]) next = t;
            }
            if (next != (size_t)-1) {
                state[next] = 1;
                stack[sp++] = next;
            } else {
                state[k] = 2;
                order[norder++] = k;
                sp--;
            }
        }
    }
    for (size_t oi = 0; oi < norder && !bad; oi++) {
        size_t i = order[oi];
        if (declare_object(u, &b, &fix, &n, i, declared) != 0) bad = 1;
        else if (r->objs[i].id > 0 && r->objs[i].id <= maxid) declared[r->objs[i].id - 1] = 'y';
    }
    free(order);
    free(state);
    free(stack);
    free(declared);
    if (fix.s) sb_puts(&b, fix.s);
    sb_free(&fix);
    const ut_type *rt = t->fn->type->ret;
    int have_ret = rt->kind != UT_VOID;
    if (!bad && t->outcome == UO_NORMAL) {
        bad = emit_mocks(&b, &n, "    ") != 0;
        sb_puts(&b, "\n    ");
        if (have_ret) {
            char *rs = unit_declarator(rt->spelling, "ret");
            sb_printf(&b, "%s = ", rs);
            free(rs);
        }
        call_expr(&b, &n, t->fn);
        sb_puts(&b, ";\n\n");
        size_t at = b.len;
        if (!bad) emit_asserts(&b, &n, t->fn, have_ret);
        if (b.len == at && b.s) b.s[--b.len] = 0;   /* nothing asserted: no blank line before the end */
    } else if (!bad) {
        /* the call fails: run it in a child, with default signal actions (CMocka's own
         * handlers would catch the signal), and check how the child ended */
        sb_puts(&b, "\n    pid_t pid = fork();\n    assert_true(pid >= 0);\n    if (pid == 0) {\n");
        sb_puts(&b, "        signal(SIGSEGV, SIG_DFL);\n        signal(SIGABRT, SIG_DFL);\n        signal(SIGBUS, SIG_DFL);\n"
                    "        signal(SIGFPE, SIG_DFL);\n        signal(SIGILL, SIG_DFL);\n");
        bad = emit_mocks(&b, &n, "        ") != 0;
        sb_puts(&b, "        ");
        if (have_ret) sb_puts(&b, "(void)");
        call_expr(&b, &n, t->fn);
        sb_puts(&b, ";\n        _exit(0);\n    }\n    int status = 0;\n");
        sb_puts(&b, "    assert_int_equal(waitpid(pid, &status, 0), pid);\n");
        if (t->outcome == UO_SIGNAL) {
            const char *sn = signal_name(t->signo);
            sb_puts(&b, "    assert_true(WIFSIGNALED(status));\n");
            if (sn) sb_printf(&b, "    assert_int_equal(WTERMSIG(status), %s);\n", sn);
            else sb_printf(&b, "    assert_int_equal(WTERMSIG(status), %d);\n", t->signo);
        } else {
            sb_puts(&b, "    assert_true(WIFEXITED(status));\n");
            sb_printf(&b, "    assert_int_equal(WEXITSTATUS(status), %d);\n", t->exit_code);
        }
    }
    free_names(&n);
    if (bad || b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s ? b.s : strdup("");
}

/* Stand-in with CMocka's mock(): returns the values will_return queued, in order. */
static void emit_standin(strbuf *b, const char *name, const ut_type *ft, int is_static, int outputs) {
    const ut_type *r = ft->ret;
    strbuf head = STRBUF_INIT;
    sb_printf(&head, "%s(", name);
    if (ft->nargs == 0 && !ft->variadic) sb_puts(&head, "void");
    for (size_t i = 0; i < ft->nargs; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "a%zu", i);
        char *d = unit_declarator(ft->args[i]->spelling, nm);
        sb_printf(&head, "%s%s", i ? ", " : "", d);
        free(d);
    }
    if (ft->variadic) sb_puts(&head, ft->nargs ? ", ..." : "...");
    sb_puts(&head, ")");
    char *d = unit_declarator(r->spelling, head.s);
    sb_printf(b, "%s%s {\n", is_static ? "static " : "", d);
    free(d);
    sb_free(&head);
    for (size_t i = 0; i < ft->nargs; i++) sb_printf(b, "    (void)a%zu;\n", i);
    for (size_t i = 0; outputs && i < ft->nargs; i++)
        if (unit_mock_out_param(ft->args[i]))
            sb_printf(b, "    if (a%zu != NULL) *a%zu = *(%s *)(uintptr_t)mock(); /* output parameter */\n", i, i,
                      ft->args[i]->pointee->spelling);
    switch (r->kind) {
    case UT_VOID: break;
    case UT_FLOAT: sb_puts(b, "    return 0; /* not mocked: floating point */\n"); break;
    case UT_STRUCT:
        if (r->complete) sb_printf(b, "    return *(%s *)(uintptr_t)mock();\n", r->spelling);
        else sb_printf(b, "    %s r;\n    memset(&r, 0, sizeof r);\n    return r;\n", r->spelling);
        break;
    case UT_UNION: sb_printf(b, "    %s r;\n    memset(&r, 0, sizeof r);\n    return r;\n", r->spelling); break;
    case UT_PTR: sb_printf(b, "    return (%s)(uintptr_t)mock();\n", r->spelling); break;
    default: sb_printf(b, "    return (%s)mock();\n", r->spelling); break;
    }
    sb_puts(b, "}\n\n");
}

static int text_uses(const unit_test *tests, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++) {
        const unit_record *r = &tests[i].rec;
        for (size_t k = 0; k < r->nmocks; k++)
            if (!strcmp(r->mocks[k].name, name) || (r->mocks[k].value.kind == 'f' && !strcmp(r->mocks[k].value.text, name)))
                return 1;
        for (size_t k = 0; k < r->nentries; k++)
            if ((r->entries[k].pre.kind == 'f' && !strcmp(r->entries[k].pre.text, name)) ||
                (r->entries[k].post.kind == 'f' && r->entries[k].post.text && !strcmp(r->entries[k].post.text, name)))
                return 1;
        if (r->ret.kind == 'f' && !strcmp(r->ret.text, name)) return 1;
    }
    return 0;
}

char *unit_emit_tests(const unit_info *u, const unit_test *tests, size_t ntests, const char *const *mocked, size_t nmocked,
                      const char *source_name) {
    strbuf b = STRBUF_INIT;
    sb_printf(&b, "/* test_%s: CMocka unit tests generated by `sympath unit` for %s; regression assertions hold the values\n"
                  " * observed when the tests were generated. */\n",
              source_name, source_name);
    sb_puts(&b, "#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n");
    /* fork and _exit are declared by hand: <unistd.h> would define R_OK, F_OK, ... before the
     * unit's own declarations, which may use those names (an enum constant R_OK) */
    sb_puts(&b, "#include <signal.h>\n#include <stdlib.h>\n#include <string.h>\n#include <sys/wait.h>\n"
                "pid_t fork(void);\nvoid _exit(int status);\n\n");
    sb_printf(&b, "/* ---- declarations of the unit under test ---- */\n%s\n", u->prelude);
    /* stand-ins of functions the unit calls but does not define */
    sb_puts(&b, "/* ---- stand-ins: each call returns the next value the test queued with will_return(); a call\n"
                " * past the queued values fails the test (CMocka reports that no more values were queued) ---- */\n");
    for (size_t i = 0; i < nmocked; i++) {
        const ut_func *m = NULL;
        for (size_t k = 0; k < u->nexterns && !m; k++)
            if (!strcmp(u->externs[k].name, mocked[i])) m = &u->externs[k];
        for (size_t k = 0; k < u->nsystem && !m; k++)
            if (!strcmp(u->system[k].name, mocked[i])) m = &u->system[k];
        if (!m) continue;
        if (unit_is_wrapped(u, m->name)) {
            /* a libc function: only the unit's calls are redirected (-Wl,--wrap), CMocka's and
             * libc's own keep the real one */
            char *wn = NULL;
            if (asprintf(&wn, "__wrap_%s", m->name) < 0) continue;
            sb_printf(&b, "/* %s: linked with -Wl,--wrap=%s, the unit's calls come here */\n", m->name, m->name);
            emit_standin(&b, wn, m->type, 0, u->mock_outputs);
            free(wn);
        } else {
            emit_standin(&b, m->name, m->type, 0, u->mock_outputs);
        }
    }
    for (size_t i = 0; i < u->ndefs; i++) {
        if (!unit_is_wrapped(u, u->defs[i].name)) continue;
        char *wn = NULL;
        if (asprintf(&wn, "__wrap_%s", u->defs[i].name) < 0) continue;
        sb_printf(&b, "/* %s is defined in the unit: linked with -Wl,--wrap=%s, calls from the other files come here */\n",
                  u->defs[i].name, u->defs[i].name);
        emit_standin(&b, wn, u->defs[i].type, 0, u->mock_outputs);
        free(wn);
    }
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        if (t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_FUNC || t->pointee->variadic) continue;
        char *sn = unit_stub_name(t);
        if (sn && text_uses(tests, ntests, sn)) emit_standin(&b, sn, t->pointee, 1, u->mock_outputs);
        free(sn);
    }
    for (size_t i = 0; i < ntests; i++) {
        const unit_test *t = &tests[i];
        char *body = unit_emit_test_body(u, t);
        if (!body) continue;
        sb_printf(&b, "/* %s: from the test case %s", t->name, t->origin ? t->origin : "?");
        if (t->outcome == UO_SIGNAL) sb_printf(&b, "; the call is expected to die by signal %d", t->signo);
        if (t->outcome == UO_EXIT) sb_printf(&b, "; the call is expected to exit with status %d", t->exit_code);
        sb_printf(&b, " */\nstatic void %s(void **state) {\n    (void)state;\n%s}\n\n", t->name, body);
        free(body);
    }
    if (u->has_main) sb_puts(&b, "#undef main /* the unit's own main is renamed by -Dmain=... on the build line */\n");
    sb_puts(&b, "int main(int argc, char **argv) {\n    const struct CMUnitTest tests[] = {\n");
    for (size_t i = 0; i < ntests; i++) sb_printf(&b, "        cmocka_unit_test(%s),\n", tests[i].name);
    sb_puts(&b, "    };\n    if (argc > 1) cmocka_set_test_filter(argv[1]);\n");
    sb_puts(&b, "    return cmocka_run_group_tests(tests, NULL, NULL);\n}\n");
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s;
}
