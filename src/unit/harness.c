/* harness.c: generates the C harness that builds a function's inputs from sympath inputs, with stand-ins for mocks. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "harness_int.h"
#include "producers_int.h"
#include "proto/env.h"

/*
 * The generated harness has, in order: the sympath_unit_rt.h include, the unit's prelude,
 * forward declarations of a fill and a dump function per needed type (fill builds a value
 * of the type from inputs, dump writes its values to the record), the stand-ins (mocks of
 * undefined functions, one stub per function-pointer type), the fill/dump definitions, one
 * driver per target function and main. The input objects follow LCT's lazy initialisation
 * made eager: every pointer's choice (fresh / NULL / alias) is an input read while the
 * harness builds the inputs, before the call, and the depth bound stops fresh objects.
 */

typedef struct gen {
    const unit_info *u;
    const unit_harness_opts *o;
    char *need;      /* per type id: 1 = fill/dump generated */
    int callback;    /* the stand-in being generated is a function pointer's (a reader is modelled) */
    int record_args; /* the stand-in records its arguments: a callback's, or an undefined function's */
    strbuf out, warn;
} gen;

/* Spelling without top-level const: "const int" -> "int", "char *const" -> "char *". */
static char *unqual(const ut_type *t)
{
    const char *s = t->spelling;
    size_t n = strlen(s);
    if (t->kind != UT_PTR && !strncmp(s, "const ", 6)) return strdup(s + 6);
    /* a pointer typedef made const: "const sds" is `char *const` */
    if (t->kind == UT_PTR && !strncmp(s, "const ", 6) && !strchr(s, '*')) return strdup(s + 6);
    /* "char *const" (clang writes no blank after the star) and "T * const" */
    if (t->kind == UT_PTR && n > 6 && !strcmp(s + n - 5, "const") && (s[n - 6] == '*' || s[n - 6] == ' ')) {
        size_t k = n - 5;
        while (k > 0 && s[k - 1] == ' ') k--;
        return strndup(s, k);
    }
    return strdup(s);
}

static int stub_ok(const ut_type *f) { return f && f->kind == UT_FUNC && !f->variadic; }

/* Whether a value of type t holds a pointer anywhere (depth-bounded: a pointer stops the walk). */
static int has_pointer(const ut_type *t, int depth)
{
    if (!t || depth > 16) return 0;
    switch (t->kind) {
    case UT_PTR: return 1;
    case UT_ARRAY: return has_pointer(t->pointee, depth + 1);
    case UT_STRUCT:
    case UT_UNION:
        for (size_t i = 0; i < t->nfields; i++)
            if (has_pointer(t->fields[i].type, depth + 1)) return 1;
        return 0;
    default: return 0;
    }
}

uint64_t unit_union_ptr_extent(const ut_type *t)
{
    if (!t || t->kind != UT_UNION || !t->complete) return 0;
    uint64_t k = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const ut_type *f = t->fields[i].type;
        if (!has_pointer(f, 0)) continue;
        /* a member of unknown size (a flexible array of pointers): the whole union */
        uint64_t sz = f->size ? f->size : t->size;
        if (sz > k) k = sz;
    }
    return k < t->size ? k : t->size;
}

/* An object of this type can be allocated and filled. */
static int fillable(const ut_type *t)
{
    /* an anonymous struct or union has no name generated code could use */
    if (strstr(t->spelling, "(unnamed") || strstr(t->spelling, "(anonymous")) return 0;
    switch (t->kind) {
    case UT_INT:
    case UT_BOOL:
    case UT_ENUM:
    case UT_FLOAT:
    case UT_PTR: return t->size > 0;
    case UT_STRUCT:
    case UT_UNION: return t->complete;
    case UT_ARRAY: return t->count > 0 && fillable(t->pointee);
    default: return 0;
    }
}

/* Whether a pointer to t's pointee is built as an opaque handle: the pointee is a struct
 * the unit cannot see into (declared only), or a system struct a mocked function receives. */
static int is_mocked_system(const unit_harness_opts *o, const char *name);

static int handle_ok(const gen *g, const ut_type *ptr)
{
    const ut_type *e = ptr->pointee;
    if (e->kind != UT_STRUCT && e->kind != UT_UNION) return 0;
    if (strstr(e->spelling, "(unnamed") || strstr(e->spelling, "(anonymous")) return 0;
    if (e->size == 0) return 1;
    if (e->complete) return 0;
    const unit_info *u = g->u;
    for (size_t i = 0; i < u->nexterns + u->nsystem; i++) {
        const ut_func *f = i < u->nexterns ? &u->externs[i] : &u->system[i - u->nexterns];
        if (i >= u->nexterns && !is_mocked_system(g->o, f->name)) continue;
        for (size_t k = 0; k < f->nparams; k++) {
            const ut_type *a = f->params[k].type;
            if (a->kind == UT_PTR && a->pointee->alias_id == e->alias_id) return 1;
        }
    }
    return 0;
}

static void mark(gen *g, const ut_type *t)
{
    if (!t || g->need[t->id]) return;
    g->need[t->id] = 1;
    if (t->kind == UT_PTR || t->kind == UT_ARRAY) mark(g, t->pointee);
    if (t->kind == UT_STRUCT)
        for (size_t i = 0; i < t->nfields; i++) mark(g, t->fields[i].type);
    if (t->kind == UT_FUNC) {
        mark(g, t->ret);
        for (size_t i = 0; i < t->nargs; i++) mark(g, t->args[i]);
    }
}

static const char *sym_fn(const ut_type *t)
{
    switch (t->bits) {
    case 8: return t->is_signed ? "sym_i8" : "sym_u8";
    case 16: return t->is_signed ? "sym_i16" : "sym_u16";
    case 32: return t->is_signed ? "sym_i32" : "sym_u32";
    case 64: return t->is_signed ? "sym_i64" : "sym_u64";
    default: return NULL;
    }
}

/* Parameter list "int a0, const char *a1" (or "void") of a function type. */
static void param_list(strbuf *b, const ut_type *f)
{
    if (f->nargs == 0 && !f->variadic) {
        sb_puts(b, "void");
        return;
    }
    for (size_t i = 0; i < f->nargs; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "a%zu", i);
        char *d = unit_declarator(f->args[i]->spelling, nm);
        sb_printf(b, "%s%s", i ? ", " : "", d ? d : "int");
        free(d);
    }
    if (f->variadic) sb_puts(b, f->nargs ? ", ..." : "...");
}

/* Body of a stand-in returning a fresh value of ret (Dsc+Mock: the i-th call returns the
 * i-th fresh input), recording it as `mock NAME ...`. */
static void standin_body(gen *g, const char *name, const ut_type *f, int outputs)
{
    strbuf *b = &g->out;
    for (size_t i = 0; i < f->nargs; i++) sb_printf(b, "    (void)a%zu;\n", i);
    if (g->record_args) unit_callback_record_args(b, name, f, g->need);
    if (g->callback && unit_callback_is_reader(f)) {
        unit_callback_reader_body(b, name, g->o->str_len);
        return;
    }
    if (g->callback && unit_callback_fill_arg(f) >= 0) { /* a byte reader: the bytes it is asked for */
        unit_callback_fill_body(b, name, f, g->o->str_len);
        return;
    }
    /* a memory callback (json-parser's mem_alloc/mem_free): a real block of the size asked for */
    if (g->callback && unit_callback_alloc_body(b, name, f)) return;
    int freed = g->callback ? unit_callback_freed_arg(name, f) : -1;
    if (freed >= 0) sb_printf(b, "    free(a%d); /* the block an allocator stand-in gave */\n", freed);
    /* --mock-outputs: a fresh value through each output parameter, recorded as an object
     * the emitted stand-in copies from the queue (mock() gives its address) */
    for (size_t i = 0; outputs && i < f->nargs; i++) {
        if (!unit_mock_out_param(f->args[i])) continue;
        const ut_type *e = f->args[i]->pointee;
        char *es = unqual(e);
        char *pd = unit_declarator(es, "*v");
        sb_printf(b,
                  "    if (a%zu != NULL) {\n        %s = calloc(1, sizeof *v);\n        int first = sympu_nobjs + 1;\n",
                  i, pd);
        sb_printf(
            b,
            "        int id = sympu_register(v, %d, sizeof *v, 1, 0, sympu_dump_%d, \"-\", \"%s_out%zu\", \"%s\");\n",
            e->alias_id, e->id, name, i, es);
        sb_printf(b, "        sympu_fill_%d(v, \"%s(*a%zu)\", 1);\n        sympu_built(id);\n", e->id, name, i);
        sb_printf(b, "        sympu_dump_from(first, \"pre\");\n        *a%zu = *v;\n", i);
        sb_printf(b, "        sympu_rec(\"mock %s p %%d\\n\", id);\n    }\n", name);
        free(pd);
        free(es);
    }
    const ut_type *r = f->ret;
    char *rs = unqual(r);
    switch (r->kind) {
    case UT_VOID: break;
    case UT_FLOAT: sb_printf(b, "    return 0; /* floating-point results are not symbolic */\n"); break;
    case UT_STRUCT:
    case UT_UNION:
        if (!r->complete || !fillable(r)) {
            sb_printf(b, "    %s r;\n    memset(&r, 0, sizeof r);\n    return r;\n", rs);
            break;
        }
        sb_printf(b, "    %s *r = calloc(1, sizeof *r);\n", rs);
        sb_printf(b, "    int first = sympu_nobjs + 1;\n");
        sb_printf(b, "    int id = sympu_register(r, %d, sizeof *r, 1, 0, sympu_dump_%d, \"-\", \"%s_ret\", \"%s\");\n",
                  r->id, r->id, name, rs);
        sb_printf(b, "    sympu_fill_%d(r, \"%s_ret\", 1);\n    sympu_dump_from(first, \"pre\");\n", r->id, name);
        sb_printf(b, "    sympu_rec(\"mock %s p %%d\\n\", id);\n    (void)id;\n    return *r;\n", name);
        break;
    default: {
        if (!fillable(r)) {
            sb_printf(b, "    %s r;\n    memset(&r, 0, sizeof r);\n    return r;\n", rs);
            break;
        }
        char *d = unit_declarator(rs, "r");
        sb_printf(b, "    %s;\n    int first = sympu_nobjs + 1;\n    sympu_fill_%d(&r, \"%s_ret\", 1);\n", d, r->id,
                  name);
        sb_printf(b, "    sympu_dump_from(first, \"pre\");\n");
        free(d);
        if (r->kind == UT_PTR && r->pointee->kind == UT_FUNC)
            sb_printf(b, "    sympu_rec(\"mock %s f %%s\\n\", r ? sympu_stub_name((const void *)r) : \"NULL\");\n",
                      name);
        else if (r->kind == UT_PTR)
            sb_printf(b, "    sympu_rec(\"mock %s p %%d\\n\", sympu_id_of((const void *)r));\n", name);
        else if (r->kind == UT_ENUM)
            sb_printf(b, "    sympu_rec(\"mock %s e %%s\\n\", sympu_enum_%d((long long)r));\n", name, r->id);
        else if (r->is_signed)
            sb_printf(b, "    sympu_rec(\"mock %s i %%lld\\n\", (long long)r);\n", name);
        else
            sb_printf(b, "    sympu_rec(\"mock %s u %%llu\\n\", (unsigned long long)r);\n", name);
        sb_printf(b, "    (void)first;\n    return r;\n");
        break;
    }
    }
    free(rs);
}

int unit_union_uniform(const ut_type *t)
{
    if (!t || t->kind != UT_UNION || !t->complete || t->nfields == 0) return 0;
    for (size_t i = 0; i < t->nfields; i++)
        if (t->fields[i].bitfield || !t->fields[i].type || t->fields[i].type->size != t->size) return 0;
    return 1;
}

/* Code making union t at lvalue obj an input named by the C expression name: its bytes are
 * symbolic, so that whichever member the unit reads is an input; the bytes a pointer member may
 * occupy stay zero (NULL, never a wild address). Needs no name for t (an anonymous union field). */
static void union_fill(strbuf *b, const ut_type *t, const char *obj, const char *name, const char *ind)
{
    uint64_t k = unit_union_ptr_extent(t);
    sb_printf(b, "%smemset(&%s, 0, sizeof %s);\n", ind, obj, obj);
    if (k == 0)
        sb_printf(b, "%ssym_bytes(&%s, sizeof %s, %s);\n", ind, obj, obj, name);
    else if (k < t->size)
        sb_printf(b, "%ssym_bytes((unsigned char *)&%s + %llu, sizeof %s - %llu, %s); /* past its pointers */\n", ind,
                  obj, (unsigned long long)k, obj, (unsigned long long)k, name);
    else
        sb_printf(b, "%s/* every byte may be a pointer's: zero */\n", ind);
}

/* Code recording union t at lvalue obj under the access path in C expression lv: its bytes; a
 * union that may hold a pointer only before the call (after it, a pointer the unit stored there
 * is an address that differs from run to run). */
static void union_dump(strbuf *b, const ut_type *t, const char *obj, const char *lv, const char *ind)
{
    uint64_t k = unit_union_ptr_extent(t);
    if (k == 0)
        sb_printf(b, "%ssympu_px(phase, id, %s, &%s, sizeof %s);\n", ind, lv, obj, obj);
    else if (k < t->size)
        sb_printf(b, "%sif (!strcmp(phase, \"pre\")) sympu_px(phase, id, %s, &%s, sizeof %s);\n", ind, lv, obj, obj);
}

void harness_pad_elems(strbuf *b, const ut_type *e, const char *nn, const char *name, unsigned max, const char *ind)
{
    if (e->kind == UT_VOID || (e->kind == UT_INT && e->is_char)) {
        sb_printf(b, "%ssympu_pad_bytes(%u - (size_t)%s, %s);\n", ind, max, nn, name);
    } else if (e->kind == UT_INT || e->kind == UT_BOOL || e->kind == UT_ENUM || e->kind == UT_FLOAT) {
        char *es = unqual(e);
        sb_printf(b, "%s{\n%s    char pn[256];\n%s    snprintf(pn, sizeof pn, \"%%s.pad\", %s);\n", ind, ind, ind,
                  name);
        sb_printf(b, "%s    for (size_t k = %s; k < %u; k++) {\n%s        %s pad;\n", ind, nn, max, ind, es);
        sb_printf(b, "%s        sympu_fill_%d(&pad, pn, 1);\n%s    }\n%s}\n", ind, e->id, ind, ind);
        free(es);
    }
}

/* The fields of a buffer struct (unit_buffer_struct): the length n <= --buf-len, the capacity c
 * (when the struct has one) with n <= c <= --buf-len + 1, or 0 with n 0 and the data NULL (klib's
 * `kstring_t s = {0, 0, NULL}`); the data a heap block of c elements (n, or n + 1 for text, without a
 * capacity field) whose first n are inputs and the rest zero (text: its NUL when n < c). */
static void buffer_fill(gen *g, const ut_type *t, int bd, int bl, int bc)
{
    strbuf *b = &g->out;
    const ut_field *fd = &t->fields[bd], *fl = &t->fields[bl], *fc = bc >= 0 ? &t->fields[bc] : NULL;
    const ut_type *e = fd->type->pointee;
    int text = e->kind == UT_INT && e->is_plain_char;
    unsigned L = g->o->buf_len;
    char *es = unqual(e), *ls = unqual(fl->type), *cs = fc ? unqual(fc->type) : NULL;
    sb_printf(b, "    { /* a buffer: %s a block of %s elements, %s of them used */\n", fd->name, fc ? fc->name : "its",
              fl->name);
    sb_printf(b, "        char nm[256];\n        snprintf(nm, sizeof nm, \"%%s.%s\", name);\n", fl->name);
    /* nk: the fill's count, no branch on n (harness_pair_elems) */
    sb_printf(b, "        size_t n = sym_size_t(nm);\n        sym_assume(n <= %u);\n", L);
    sb_printf(b, "        size_t nk = (size_t)sym_concrete(n);\n");
    if (fc) {
        sb_printf(b, "        snprintf(nm, sizeof nm, \"%%s.%s\", name);\n", fc->name);
        sb_printf(b, "        size_t c = sym_size_t(nm);\n        sym_assume(c <= %u);\n", L + 1);
        sb_printf(b, "        sym_assume(n <= c);\n");
        sb_printf(b, "        o->%s = (%s)c;\n", fc->name, cs);
    } else {
        sb_printf(b, "        size_t c = n + %d;\n", text);
    }
    sb_printf(b, "        o->%s = (%s)n;\n", fl->name, ls);
    sb_printf(b, "        snprintf(nm, sizeof nm, \"%%s.%s\", name);\n", fd->name);
    sb_printf(b, "        if (c == 0) {\n            o->%s = NULL;\n        } else {\n", fd->name);
    sb_printf(b, "            %s *p = calloc(c, sizeof *p);\n", es);
    sb_printf(b, "            sympu_register(p, %d, sizeof *p, c, 0, sympu_dump_%d, \"%s\", nm, \"%s\");\n",
              e->alias_id, e->id, text ? "as" : "a", es);
    if (e->kind == UT_INT && e->is_char) sb_printf(b, "            sym_bytes(p, n, nm);\n");
    if (text) /* the text's NUL, when there is room (a full buffer has none: `len == cap`) */
        sb_printf(b, "            if (n < c) p[n] = 0;\n");
    else
        sb_printf(b, "            for (size_t k = 0; k < nk; k++) sympu_fill_%d(&p[k], nm, depth + 1);\n", e->id);
    sb_printf(b, "            o->%s = p;\n        }\n", fd->name);
    harness_pad_elems(b, e, "nk", "nm", L, "        ");
    sb_printf(b, "    }\n");
    free(es);
    free(ls);
    free(cs);
}

static void gen_fill(gen *g, const ut_type *t)
{
    strbuf *b = &g->out;
    char *ts = unqual(t);
    char *po = unit_declarator(ts, "*o");
    sb_printf(b, "static void sympu_fill_%d(void *vo, const char *name, int depth) {\n", t->id);
    sb_printf(b, "    %s = vo;\n    (void)name;\n    (void)depth;\n", po);
    free(po);
    if (t->kind == UT_PTR)
        sb_printf(b, "    int null_ok = sympu_null_ok, null_ok_deref = sympu_null_ok_deref;\n"
                     "    sympu_null_ok = sympu_null_ok_deref = 1;\n    (void)null_ok_deref;\n");
    switch (t->kind) {
    case UT_INT: {
        const char *f = sym_fn(t);
        if (f)
            sb_printf(b, "    *o = (%s)%s(name);\n", ts, f);
        else
            sb_printf(b, "    memset(o, 0, sizeof *o); /* %u-bit integers are not symbolic */\n", t->bits);
        break;
    }
    case UT_BOOL: sb_printf(b, "    *o = sym_bool(name);\n"); break;
    case UT_ENUM:
        if (g->o->enum_any || t->nenums == 0) {
            sb_printf(b, "    *o = (%s)%s(name);\n", ts, t->is_signed ? "sym_i32" : "sym_u32");
        } else {
            /* limited to the declared values: a choice among them */
            sb_printf(b, "    switch (sympu_choice(name, %zu)) {\n", t->nenums);
            for (size_t i = 0; i < t->nenums; i++)
                sb_printf(b, "    case %zu: *o = (%s)(%lld); break;\n", i, ts, (long long)t->enums[i].value);
            sb_printf(b, "    default: break;\n    }\n");
        }
        break;
    case UT_FLOAT: /* float and double symbolic; long double a double input, extended */
        sb_printf(b, "    *o = (%s)%s(name);\n", ts, t->size == 4 ? "sym_float" : "sym_double");
        break;
    case UT_UNION: union_fill(b, t, "*o", "name", "    "); break;
    case UT_STRUCT: {
        int bd = -1, bl = -1, bc = -1;
        int buffer = !g->o->raw_inputs && unit_buffer_struct(t, &bd, &bl, &bc);
        for (size_t i = 0; i < t->nfields; i++) {
            const ut_field *f = &t->fields[i];
            if (!*f->name) continue;
            if (buffer && ((int)i == bl || (int)i == bc)) continue; /* set with the data, below */
            if (buffer && (int)i == bd) {
                buffer_fill(g, t, bd, bl, bc);
                continue;
            }
            if (!fillable(f->type) && !(f->type->kind == UT_UNION && f->type->complete)) continue;
            sb_printf(b, "    {\n        char nm[256];\n        snprintf(nm, sizeof nm, \"%%s.%s\", name);\n", f->name);
            if (f->type->kind == UT_UNION) { /* inline: its type may have no name */
                char ob[300];
                snprintf(ob, sizeof ob, "o->%s", f->name);
                union_fill(b, f->type, ob, "nm", "        ");
            } else if (f->bitfield) {
                char *fs = unqual(f->type);
                sb_printf(b, "        %s tmp;\n        sympu_fill_%d(&tmp, nm, depth);\n        o->%s = tmp;\n", fs,
                          f->type->id, f->name);
                free(fs);
            } else if (unit_field_range_begin(t, i) >= 0) {
                /* the end of a range: into the object of the field before it (unit_field_range_begin) */
                char *fs = unqual(f->type);
                sb_printf(b, "        o->%s = (%s)sympu_range_end((void *)o->%s, sizeof *o->%s, nm);\n", f->name, fs,
                          t->fields[unit_field_range_begin(t, i)].name, f->name);
                free(fs);
            } else if (harness_list_type(f->type) && unit_member_walked(g->u, f->name)) {
                /* a list field some function walks (argparse's `options`, `usages`): ended by NULL or zero */
                char ob[300];
                snprintf(ob, sizeof ob, "o->%s", f->name);
                harness_null_list_elems(b, f->type, "nm", "depth + 1", ob, "        ");
            } else if (f->stub && stub_ok(f->type->pointee)) {
                /* the field's own stand-in, chosen as the type's fill chooses its own (a select: no
                 * branch of the harness, which the explorer would flip in vain) */
                sb_printf(b, "        sympu_null_ok_deref = 1;\n        sympu_null_ok = 1;\n");
                sb_printf(b, "        o->%s = sympu_choice(nm, %u) == 0 ? %s : NULL;\n", f->name,
                          1 + (unsigned)g->o->null_all, f->stub);
                if (!g->o->null_all) /* NULL lazily, where the unit checks the callback first */
                    sb_printf(b,
                              "        if (o->%s) o->%s = (__typeof__(o->%s))sympu_lazy_null((uintptr_t)o->%s, nm);\n",
                              f->name, f->name, f->name, f->name);
            } else {
                if (f->type->kind == UT_PTR) sb_printf(b, "        sympu_null_ok = %d;\n", g->o->null_all);
                sb_printf(b, "        sympu_fill_%d((void *)&o->%s, nm, depth);\n", f->type->id, f->name);
            }
            sb_printf(b, "    }\n");
        }
        break;
    }
    case UT_ARRAY:
        sb_printf(b, "    for (size_t i = 0; i < %llu; i++) {\n        char nm[256];\n", (unsigned long long)t->count);
        sb_printf(b, "        snprintf(nm, sizeof nm, \"%%s[%%zu]\", name, i);\n");
        sb_printf(b, "        sympu_fill_%d((char *)vo + i * sizeof((*o)[0]), nm, depth);\n    }\n", t->pointee->id);
        break;
    case UT_PTR: {
        const ut_type *e = t->pointee;
        if (unit_is_stream(t)) {
            unit_stream_fill(b, g->o->str_len);
        } else if (e->kind == UT_FUNC) {
            if (stub_ok(e)) {
                char *sn = unit_stub_name(t);
                sb_printf(b, "    *o = sympu_choice(name, 1 + (unsigned)null_ok) == 0 ? %s : NULL;\n", sn);
                free(sn);
            } else {
                sb_printf(b, "    *o = NULL; /* variadic function pointer: no stand-in */\n");
            }
        } else if (e->kind == UT_INT && e->is_plain_char) {
            /* a string: NUL-terminated within str_len bytes, or NULL */
            unsigned L = g->o->str_len;
            /* a parameter that is a writable `char *` without a length may be an output buffer the
             * caller sizes (`base64_encode(in, inlen, char *out)`): room for 4 (L + 1) bytes, the
             * string still L symbolic bytes and a NUL */
            unsigned room = e->is_const ? L + 1 : 4 * (L + 1);
            sb_printf(b, "    unsigned fresh = depth < %u;\n", g->o->depth);
            sb_printf(b, "    unsigned c = sympu_choice(name, fresh + (unsigned)(null_ok || !fresh));\n");
            sb_printf(b, "    size_t room = depth == 0 ? %u : %u;\n", room, L + 1);
            /* room before it (unit_reads_before): a byte array, the pointer into it */
            sb_printf(b, "    size_t before = sympu_room_before;\n    sympu_room_before = 0;\n");
            sb_printf(b, "    if (fresh && c == 0) {\n        char *s = calloc(before + room, 1);\n");
            char *es = unqual(e);
            sb_printf(
                b,
                "        sympu_register(s, %d, 1, before + room, 0, sympu_dump_%d, before ? \"a\" : \"as\", name, "
                "\"%s\");\n",
                e->id, e->id, es);
            free(es);
            sb_printf(b, "        if (before) {\n            char bn[256];\n            snprintf(bn, sizeof bn, "
                         "\"%%s.before\", name);\n            sym_bytes(s, before, bn);\n        }\n");
            sb_printf(
                b, "        sym_bytes(s + before, %u, name);\n        s[before + %u] = 0;\n        *o = s + before;\n",
                L, L);
            sb_printf(b, "    } else {\n        *o = NULL;\n    }\n");
        } else if (e->kind == UT_VOID) {
            /* an untyped buffer: 16 symbolic bytes, or NULL */
            sb_printf(b, "    unsigned fresh = depth < %u;\n", g->o->depth);
            sb_printf(b, "    unsigned c = sympu_choice(name, fresh + (unsigned)(null_ok || !fresh));\n");
            sb_printf(b, "    if (fresh && c == 0) {\n        unsigned char *s = malloc(16);\n");
            sb_printf(b, "        sympu_register(s, -2, 1, 16, 0, sympu_dump_byte, \"a\", name, \"unsigned char\");\n");
            sb_printf(b, "        sym_bytes(s, 16, name);\n        *o = s;\n");
            sb_printf(b, "    } else {\n        *o = NULL;\n    }\n");
        } else if (e->kind == UT_INT && e->is_char) {
            /* bytes without a length (`unsigned char *out` of a decoder, `const uint8_t *key`):
             * str_len + 1 symbolic bytes, as a string gets, or NULL; one byte is too small for
             * either (every test that wrote past it was dropped by the sanitizer check). A
             * writable parameter may be an output the caller sizes for the result (`BYTE
             * hash[]` of sha256_final: 32 bytes): room for 4 (str_len + 1), the rest zero */
            unsigned L = g->o->str_len + 1, room = e->is_const ? L : 4 * L;
            char *es = unqual(e);
            sb_printf(b, "    unsigned fresh = depth < %u;\n", g->o->depth);
            sb_printf(b, "    unsigned c = sympu_choice(name, fresh + (unsigned)(null_ok || !fresh));\n");
            sb_printf(b, "    size_t room = depth == 0 ? %u : %u;\n", room, L);
            sb_printf(b, "    if (fresh && c == 0) {\n        %s *s = calloc(room, 1);\n", es);
            sb_printf(b, "        sympu_register(s, %d, 1, room, 0, sympu_dump_%d, \"a\", name, \"%s\");\n", e->id,
                      e->id, es);
            sb_printf(b, "        sym_bytes(s, %u, name);\n        *o = s;\n", L);
            sb_printf(b, "    } else {\n        *o = NULL;\n    }\n");
            free(es);
        } else if (fillable(e)) {
            /* LCT: fresh object (within the depth bound), NULL, or an alias of an earlier
             * fresh object of the same type */
            char *es = unqual(e);
            char *pe = unit_declarator(es, "*p");
            sb_printf(b, "    unsigned fresh = depth < %u;\n", g->o->depth);
            sb_printf(b, "    unsigned nal = sympu_count(%d);\n", e->alias_id);
            sb_printf(b, "    unsigned nnull = null_ok || !fresh; /* at the depth bound NULL ends the structure */\n");
            sb_printf(b, "    unsigned c = sympu_choice(name, fresh + nnull + nal);\n");
            sb_printf(b, "    if (fresh && c == 0) {\n        %s = calloc(1, sizeof *p);\n", pe);
            sb_printf(b,
                      "        int id = sympu_register(p, %d, sizeof *p, 1, 1, sympu_dump_%d, \"-\", name, \"%s\");\n",
                      e->alias_id, e->id, es);
            if (e->kind == UT_PTR) sb_printf(b, "        sympu_null_ok = null_ok_deref;\n");
            sb_printf(b, "        *o = p;\n        sympu_fill_%d(p, name, depth + 1);\n        sympu_built(id);\n",
                      e->id);
            sb_printf(b, "    } else if (nnull && c == fresh) {\n        *o = NULL;\n    } else {\n");
            sb_printf(b, "        *o = sympu_nth(%d, c - fresh - nnull);\n    }\n", e->alias_id);
            free(pe);
            free(es);
        } else if (handle_ok(g, t)) {
            /* an opaque handle (`struct bus;` declared, never defined here; or a system struct a
             * mock receives): a distinct block of zero bytes the unit only passes around */
            sb_printf(b, "    unsigned nal = sympu_count(%d);\n", e->alias_id);
            sb_printf(b, "    unsigned nnull = null_ok;\n    unsigned c = sympu_choice(name, 1 + nnull + nal);\n");
            sb_printf(b, "    if (c == 0) {\n        unsigned char *h = calloc(1, 64);\n");
            sb_printf(b, "        int id = sympu_register(h, %d, 1, 64, 1, NULL, \"ah\", name, \"unsigned char\");\n",
                      e->alias_id);
            sb_printf(b, "        sympu_built(id);\n        *o = (void *)h;\n");
            sb_printf(b, "    } else if (nnull && c == 1) {\n        *o = NULL;\n    } else {\n");
            sb_printf(b, "        *o = sympu_nth(%d, c - 1 - nnull);\n    }\n", e->alias_id);
        } else {
            sb_printf(b, "    *o = NULL; /* incomplete pointee type: only NULL */\n");
        }
        break;
    }
    default: sb_printf(b, "    memset(o, 0, sizeof *o);\n"); break;
    }
    if (t->kind == UT_PTR) /* LCT's lazy NULL: decided by the run (sympu_lazy_null) */
        sb_printf(b, "    if (!null_ok && *o) *o = (__typeof__(*o))sympu_lazy_null((uintptr_t)*o, name);\n");
    sb_printf(b, "}\n\n");
    free(ts);
}

static void gen_dump(gen *g, const ut_type *t)
{
    strbuf *b = &g->out;
    char *ts = unqual(t);
    char *po = unit_declarator(ts, t->kind == UT_ARRAY ? "*o" : "const *o");
    sb_printf(b, "static void sympu_dump_%d(const void *vo, const char *lv, const char *phase, int id) {\n", t->id);
    sb_printf(b, "    %s%s = (void *)vo;\n", t->kind == UT_ARRAY ? "const " : "", po);
    sb_printf(b, "    (void)o, (void)lv, (void)phase, (void)id;\n");
    free(po);
    switch (t->kind) {
    case UT_INT:
    case UT_BOOL:
        if (t->is_signed)
            sb_printf(b, "    sympu_pi(phase, id, lv, (long long)*o);\n");
        else
            sb_printf(b, "    sympu_pu(phase, id, lv, (unsigned long long)*o);\n");
        break;
    case UT_ENUM: sb_printf(b, "    sympu_pe(phase, id, lv, sympu_enum_%d((long long)*o));\n", t->id); break;
    case UT_FLOAT: sb_printf(b, "    sympu_pd(phase, id, lv, (double)*o);\n"); break;
    case UT_PTR:
        if (t->pointee->kind == UT_FUNC)
            sb_printf(b, "    sympu_pf(phase, id, lv, (const void *)*o);\n");
        else
            sb_printf(b, "    sympu_pp(phase, id, lv, (const void *)*o);\n");
        if (t->pointee->kind != UT_FUNC) {
            /* a block the call allocated and left here (an out-parameter it filled): the test
             * releases it, with the unit's destructor of the type when there is one */
            const char *rel = unit_destructor(g->u, t);
            sb_printf(b,
                      "#ifdef SYMPATH_UNIT_RECORD\n    if (!strcmp(phase, \"post\") && sympu_heapat_new((const "
                      "void *)*o))\n        sympu_rec(\"heapat %%d %%s %s\\n\", id, *lv ? lv : \"-\");\n#endif\n",
                      rel ? rel : "free");
        }
        if (unit_walkable(t)) {
            /* after the call: fresh memory the function stored here, field by field */
            sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n    if (!strcmp(phase, \"post\"))\n");
            unit_walk_call(b, t, "    ", "id", "lv", "*o");
            sb_puts(b, "#endif\n");
        }
        break;
    case UT_STRUCT: {
        int bd = -1, bl = -1, bc = -1;
        int buffer = unit_buffer_struct(t, &bd, &bl, &bc);
        for (size_t i = 0; i < t->nfields; i++) {
            const ut_field *f = &t->fields[i];
            if (!*f->name || (!fillable(f->type) && !(f->type->kind == UT_UNION && f->type->complete))) continue;
            sb_printf(b, "    {\n        char l[256];\n        snprintf(l, sizeof l, \"%%s.%s\", lv);\n", f->name);
            const ut_type *de = f->type->pointee;
            if (buffer && (int)i == bd && de->kind == UT_INT && de->is_char) {
                /* a buffer struct's bytes: what the call left in fresh memory, its used part only
                 * (a grown block's bytes past the length were never written) */
                sb_printf(b, "        sympu_pp(phase, id, l, (const void *)o->%s);\n", f->name);
                sb_printf(b,
                          "#ifdef SYMPATH_UNIT_RECORD\n        if (!strcmp(phase, \"post\") && sympu_heapat_new((const "
                          "void *)o->%s))\n            sympu_rec(\"heapat %%d %%s free\\n\", id, l);\n",
                          f->name);
                sb_puts(b, "        if (!strcmp(phase, \"post\"))\n");
                char cnt[300];
                snprintf(cnt, sizeof cnt, "(long long)o->%s", t->fields[bl].name);
                char val[300];
                snprintf(val, sizeof val, "o->%s", f->name);
                unit_walk_call_n(b, f->type, "        ", "id", "l", val, cnt);
                sb_puts(b, "#endif\n    }\n");
                continue;
            }
            if (f->type->kind == UT_UNION) { /* inline: its type may have no name */
                char ob[300];
                snprintf(ob, sizeof ob, "o->%s", f->name);
                union_dump(b, f->type, ob, "l", "        ");
            } else if (f->bitfield) {
                char *fs = unqual(f->type);
                sb_printf(b, "        %s tmp = o->%s;\n        sympu_dump_%d(&tmp, l, phase, id);\n", fs, f->name,
                          f->type->id);
                free(fs);
            } else {
                sb_printf(b, "        sympu_dump_%d((const void *)&o->%s, l, phase, id);\n", f->type->id, f->name);
            }
            sb_printf(b, "    }\n");
        }
        break;
    }
    case UT_UNION: union_dump(b, t, "*o", "lv", "    "); break;
    case UT_ARRAY:
        sb_printf(b, "    for (size_t i = 0; i < %llu; i++) {\n        char l[256];\n", (unsigned long long)t->count);
        sb_printf(b, "        snprintf(l, sizeof l, \"%%s[%%zu]\", lv, i);\n");
        sb_printf(b, "        sympu_dump_%d((const void *)&(*o)[i], l, phase, id);\n    }\n", t->pointee->id);
        break;
    default: break;
    }
    sb_printf(b, "}\n\n");
    free(ts);
}

static int is_mocked_system(const unit_harness_opts *o, const char *name)
{
    for (size_t i = 0; i < o->nmock_names; i++)
        if (!strcmp(o->mock_names[i], name)) return 1;
    return 0;
}

/* A stand-in: C function cname (NULL: name), recorded as `mock name`. */
static void gen_standin_as(gen *g, const char *name, const char *cname, const ut_type *ft, int outputs)
{
    strbuf *b = &g->out;
    char *rs = unqual(ft->ret);
    strbuf pl = STRBUF_INIT;
    param_list(&pl, ft);
    strbuf head = STRBUF_INIT;
    sb_printf(&head, "%s(%s)", cname ? cname : name, pl.s ? pl.s : "void");
    char *d = unit_declarator(rs, head.s ? head.s : name);
    sb_printf(b, "%s {\n", d);
    standin_body(g, name, ft, outputs);
    sb_printf(b, "}\n\n");
    free(d);
    sb_free(&head);
    sb_free(&pl);
    free(rs);
}

static void gen_standin(gen *g, const char *name, const ut_type *ft, int outputs)
{
    gen_standin_as(g, name, NULL, ft, outputs);
}

static int global_ok(const ut_type *t)
{
    if (t->is_const || (t->kind == UT_ARRAY && t->pointee->is_const)) return 0;
    return fillable(t) && t->kind != UT_UNION;
}

int harness_pair_text(const ut_type *t)
{
    return t && t->kind == UT_PTR && t->pointee && t->pointee->kind == UT_INT && t->pointee->is_plain_char;
}

void harness_pair_length(strbuf *b, const unit_harness_opts *o, const char *nn, const char *len_name, const char *ind)
{
    /* input 0 is the longest buffer, K > 0 the length K - 1: the first run, every input zero,
     * passes --buf-len elements, so a parser reads on past its first byte and each state it reaches
     * offers uncovered branches of its own; from length 0 every step deeper needed the loop's end
     * flipped once more, a direction the first run had covered (http-parser's http_parser_execute
     * read 8 bytes at most in 30 s). The diversification's small preferences (7, 3) still give the
     * short buffers a path leaves free. A select, no branch of the harness */
    sb_printf(b, "%ssize_t %s = sym_size_t(\"%s\");\n%ssym_assume(%s <= %u);\n%s%s = %s ? %s - 1 : %u;\n", ind, nn,
              len_name, ind, nn, o->buf_len + 1, ind, nn, nn, nn, o->buf_len);
}

/* Whether a pair's buffer of type t named name (its last `_` word: producers' arguments are `param_arg`) is argv:
 * pointers, named argv; C gives main's argv[argc] == NULL (C11 5.1.2.2.1), and code that follows the convention
 * writes or reads there (argparse's `self->out[self->cpidx + self->argc] = NULL` over argv: a false bug in _bugs.c) */
static int argv_buffer(const ut_type *t, const char *name)
{
    const char *w = strrchr(name, '_');
    return t->pointee && t->pointee->kind == UT_PTR && !strcmp(w ? w + 1 : name, "argv");
}

void harness_pair_buffer(strbuf *b, const unit_harness_opts *o, const ut_type *t, const char *len_name, const char *bn,
                         const char *nn, int read_len, int cap, const char *ind)
{
    const ut_type *e = t->pointee;
    char *es = e->kind == UT_VOID ? strdup("unsigned char") : unqual(e);
    char pn[40];
    snprintf(pn, sizeof pn, "*%s", bn);
    char *pd = unit_declarator(es, pn);
    if (cap) {
        /* a capacity pair: the first size by default, the smaller ones (down to none: the function's
         * "no room" paths) a choice the explorer flips */
        unsigned first = o->buf_len < 8 ? o->buf_len : 8;
        sb_printf(b, "%sstatic const size_t %s_caps[] = {%u, 2, 1, 0};\n", ind, nn, first);
        sb_printf(b, "%ssize_t %s = %s_caps[sympu_choice(\"%s.cap\", 4)];\n", ind, nn, nn, len_name);
        sb_printf(b, "%s%s = calloc(%s ? %s : 1, sizeof %s[0]);\n", ind, pd, nn, nn, bn);
        free(pd);
        free(es);
        return;
    }
    if (read_len == 2)
        harness_pair_length(b, o, nn, len_name, ind);
    else if (read_len)
        sb_printf(b, "%ssize_t %s = sym_size_t(\"%s\");\n%ssym_assume(%s <= %u);\n", ind, nn, len_name, ind, nn,
                  o->buf_len);
    if (harness_pair_text(t)) /* the text, the bytes past its length and the NUL (harness_pair_text) */
        sb_printf(b, "%s%s = malloc(%s + %d);\n", ind, pd, nn, HARNESS_TEXT_MORE + 1);
    else if (e->kind == UT_PTR) /* room for argv's NULL past the count (argv_buffer) */
        sb_printf(b, "%s%s = calloc(%s + 1, sizeof %s[0]);\n", ind, pd, nn, bn);
    else
        sb_printf(b, "%s%s = malloc(%s ? %s * sizeof %s[0] : 1);\n", ind, pd, nn, nn, bn);
    free(pd);
    free(es);
}

void harness_pair_elems(strbuf *b, const unit_harness_opts *o, const ut_type *t, const char *path, const char *bn,
                        const char *nn, int cap, const char *ind)
{
    const ut_type *e = t->pointee;
    int bytes = e->kind == UT_VOID;
    char *es = bytes ? strdup("unsigned char") : unqual(e);
    char dn[32];
    if (bytes)
        snprintf(dn, sizeof dn, "sympu_dump_byte");
    else
        snprintf(dn, sizeof dn, "sympu_dump_%d", e->id);
    int text = !cap && harness_pair_text(t);
    /* the fill's count: nn's value with no constraint (sym_concrete), so no branch of the harness pins nn
     * and a direction of the function on its length is solved with the harness's prefix (a fill loop over
     * nn itself made every such direction UNSAT until the search flipped the loop's exit) */
    char kn[48];
    snprintf(kn, sizeof kn, "%s_fill", nn);
    if (!cap) sb_printf(b, "%ssize_t %s = (size_t)sym_concrete(%s);\n", ind, kn, nn);
    if (text) {
        /* past the length, text the function may read when it stops at a NUL as well (`utf8ndup(s,
         * n)` of a string longer than n): inputs PATH.more[], zero first, never diversified; the
         * recorder keeps them only when one is not zero (sympu_text_fit) */
        sb_printf(b, "%s%s[%s + %d] = 0;\n", ind, bn, kn, HARNESS_TEXT_MORE);
        sb_printf(b, "%sfor (size_t k = %s; k < %s + %d; k++) sympu_fill_%d(&%s[k], \"%s.more[]\", 1);\n", ind, kn, kn,
                  HARNESS_TEXT_MORE, e->id, bn, path);
        sb_printf(b,
                  "%ssympu_register(%s, %d, sizeof %s[0], sympu_text_fit((const char *)%s, %s, %d), 0, %s, \"a\", "
                  "\"%s\", \"%s\");\n",
                  ind, bn, e->alias_id, bn, bn, nn, HARNESS_TEXT_MORE, dn, path, es);
    } else {
        sb_printf(b, "%ssympu_register(%s, %d, sizeof %s[0], %s%s, 0, %s, \"a\", \"%s\", \"%s\");\n", ind, bn,
                  bytes ? -2 : e->alias_id, bn, nn, !cap && argv_buffer(t, path) ? " + 1" : "", dn, path, es);
    }
    if (cap) { /* zero, as calloc left it: the function fills it */
        free(es);
        return;
    }
    sb_printf(b, "%sfor (size_t k = 0; k < %s; k++) {\n", ind, kn);
    if (bytes)
        sb_printf(b, "%s    %s[k] = sym_uchar(\"%s[]\");\n", ind, bn, path);
    else {
        /* a pointer element is NULL lazily, where the unit checks it (v[i] == NULL) */
        if (e->kind == UT_PTR) sb_printf(b, "%s    sympu_null_ok = %d;\n", ind, o->null_all);
        sb_printf(b, "%s    sympu_fill_%d(&%s[k], \"%s[]\", 1);\n", ind, e->id, bn, path);
    }
    sb_printf(b, "%s}\n", ind);
    char pq[300];
    snprintf(pq, sizeof pq, "\"%s\"", path);
    harness_pad_elems(b, e, kn, pq, o->buf_len, ind);
    free(es);
}

void unit_va_wrapper(strbuf *b, const ut_func *f)
{
    if (!unit_va_list_last(f)) return;
    size_t np = f->nparams - 1;
    const ut_type *r = f->type->ret;
    char *rs = unqual(r);
    sb_printf(b, "/* %s through its variadic arguments, as a caller of it does: va_start, the call, va_end */\n",
              f->name);
    strbuf head = STRBUF_INIT;
    sb_printf(&head, "call_%s(", f->name);
    for (size_t i = 0; i < np; i++) {
        char *ps = unqual(f->params[i].type), *d = unit_declarator(ps, f->params[i].name);
        sb_printf(&head, "%s%s", i ? ", " : "", d);
        free(d);
        free(ps);
    }
    sb_puts(&head, ", ...)");
    char *decl = unit_declarator(rs, head.s);
    sb_printf(b, "static %s {\n    va_list ap;\n    va_start(ap, %s);\n    ", decl, f->params[np - 1].name);
    if (r->kind != UT_VOID) {
        char *d = unit_declarator(rs, "r");
        sb_printf(b, "%s = ", d);
        free(d);
    }
    sb_printf(b, "%s(", f->name);
    for (size_t i = 0; i < np; i++) sb_printf(b, "%s, ", f->params[i].name);
    sb_printf(b, "ap);\n    va_end(ap);\n%s}\n\n", r->kind != UT_VOID ? "    return r;\n" : "");
    free(decl);
    sb_free(&head);
    free(rs);
}

static void gen_driver(gen *g, const ut_func *f)
{
    strbuf *b = &g->out;
    unit_va_wrapper(b, f);
    sb_printf(b, "static void sympu_drive_%s(void) {\n", f->name);
    /* globals of the unit: recorded (and restored by each emitted test), not inputs */
    for (size_t i = 0; i < g->u->nglobals; i++) {
        const ut_param *gv = &g->u->globals[i];
        if (!global_ok(gv->type)) continue;
        sb_printf(b, "    sympu_register((void *)&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"g\", \"%s\", \"-\");\n",
                  gv->name, gv->name, gv->type->id, gv->name);
        if (g->o->global_inputs) {
            if (gv->type->kind == UT_PTR) sb_printf(b, "    sympu_null_ok = %d;\n", g->o->null_all);
            sb_printf(b, "    sympu_fill_%d((void *)&%s, \"%s\", 0);\n", gv->type->id, gv->name, gv->name);
        }
    }
    size_t np = f->nparams - (unit_va_list_last(f) ? 1 : 0); /* a va_list is the wrapper's (va_wrapper) */
    for (size_t i = 0; i < np; i++) {
        const ut_param *p = &f->params[i];
        const ut_type *t = p->type;
        if (harness_producer_param(b, g->u, g->o, f, i, &g->warn)) continue; /* built by the unit's producers */
        char *ts = unqual(t);
        char vn[32];
        snprintf(vn, sizeof vn, "sympu_a%zu", i);
        int rb = unit_range_begin(f, i);
        if (rb >= 0) {
            /* the end of a range: a pointer into the object of the parameter before it */
            char *vd = unit_declarator(ts, vn);
            sb_printf(b, "    %s;\n", vd);
            free(vd);
            sb_printf(b, "    sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n", vn,
                      vn, t->id, p->name, ts);
            sb_printf(b, "    %s = (%s)sympu_range_end((void *)sympu_a%d, sizeof *%s, \"%s\");\n", vn, ts, rb, vn,
                      p->name);
            free(ts);
            continue;
        }
        if (harness_null_list(g->u, f, i)) { /* walked as an array, no length: a NULL-terminated list */
            harness_null_list_fill(b, g->o, t, p->name, vn, "    ");
            free(ts);
            continue;
        }
        if (p->len_param >= 0) {
            /* a buffer/length pair (EvoSuite's symbolic array: a length input, then the elements);
             * the length is read here, or earlier when its parameter comes first */
            char bn[32], nn[32];
            snprintf(bn, sizeof bn, "sympu_b%zu", i);
            snprintf(nn, sizeof nn, "sympu_n%zu", i);
            harness_pair_buffer(b, g->o, t, f->params[p->len_param].name, bn, nn, p->len_param > (int)i ? 2 : 0,
                                p->capacity, "    ");
            char *vd = unit_declarator(ts, vn);
            sb_printf(b, "    %s = %s;\n", vd, bn);
            free(vd);
            sb_printf(b, "    sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n", vn,
                      vn, t->id, p->name, ts);
            harness_pair_elems(b, g->o, t, p->name, bn, nn, p->capacity, "    ");
        } else if (p->buf_param >= 0 && t->kind == UT_PTR) {
            /* the count through a pointer (`size_t *num_headers`): an object holding the buffer's
             * element count (the capacity), which the function may overwrite (the count filled) */
            const ut_type *e = t->pointee;
            char *es = unqual(e), ln[32];
            snprintf(ln, sizeof ln, "*sympu_l%zu", i);
            char *ld = unit_declarator(es, ln);
            sb_printf(b, "    %s = malloc(sizeof *sympu_l%zu);\n    *sympu_l%zu = (%s)sympu_n%d;\n", ld, i, i, es,
                      p->buf_param);
            char *vd = unit_declarator(ts, vn);
            sb_printf(b, "    %s = sympu_l%zu;\n", vd, i);
            sb_printf(b, "    sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n", vn,
                      vn, t->id, p->name, ts);
            sb_printf(b,
                      "    sympu_built(sympu_register(sympu_l%zu, %d, sizeof *sympu_l%zu, 1, 0, sympu_dump_%d, \"-\", "
                      "\"%s\", \"%s\"));\n",
                      i, e->alias_id, i, e->id, p->name, es);
            free(vd);
            free(ld);
            free(es);
        } else if (p->buf_param >= 0) {
            if (p->buf_param > (int)i) {
                char nn[32];
                snprintf(nn, sizeof nn, "sympu_n%d", p->buf_param);
                harness_pair_length(b, g->o, nn, p->name, "    ");
            }
            char *vd = unit_declarator(ts, vn);
            sb_printf(b, "    %s = (%s)sympu_n%d;\n", vd, ts, p->buf_param);
            free(vd);
            sb_printf(b, "    sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n", vn,
                      vn, t->id, p->name, ts);
        } else if (fillable(t)) {
            char *d = unit_declarator(ts, vn);
            sb_printf(b, "    %s;\n", d);
            free(d);
            sb_printf(b, "    sympu_register(&%s, -1, sizeof %s, 1, 0, sympu_dump_%d, \"p\", \"%s\", \"%s\");\n", vn,
                      vn, t->id, p->name, ts);
            if (t->kind == UT_PTR)
                sb_printf(b, "    sympu_null_ok = %d;\n    sympu_null_ok_deref = %d;\n", g->o->null_all,
                          g->o->null_all);
            if (t->kind == UT_PTR && t->pointee->kind == UT_INT && t->pointee->is_plain_char &&
                unit_reads_before(g->u, f->name, p->name))
                sb_printf(b, "    sympu_room_before = %d; /* %s walks %s backwards */\n", HARNESS_ROOM_BEFORE, f->name,
                          p->name);
            if (unit_position_param(f, i)) { /* into an array built before it, first (unit_position_param) */
                sb_printf(b, "    if (sympu_arrays_of(sizeof *%s) && sympu_choice(\"%s.into\", 2) == 0)\n", vn,
                          p->name);
                sb_printf(b, "        %s = (%s)sympu_into(sizeof *%s, \"%s\");\n    else\n    ", vn, ts, vn, p->name);
            }
            sb_printf(b, "    sympu_fill_%d((void *)&%s, \"%s\", 0);\n", t->id, vn, p->name);
            int within = unit_length_within(f, i); /* `buf, len, ..., last_len`: last_len <= len */
            if (within >= 0) sb_printf(b, "    sym_assume((uint64_t)%s <= sympu_n%d);\n", vn, within);
            int at = within < 0 ? unit_position_within(f, i) : -1; /* a position in a text or buffer before it */
            if (at >= 0 && f->params[at].len_param >= 0)
                sb_printf(b, "    sym_assume((uint64_t)%s <= sympu_n%d);\n", vn, at);
            else if (at >= 0)
                sb_printf(b, "    sym_assume((uint64_t)%s <= %u);\n", vn, g->o->str_len);
            if (t->kind == UT_UNION && unit_union_ptr_extent(t) == t->size)
                sb_printf(&g->warn, "%s: parameter %s (%s) holds pointers only: fixed to zero\n", f->name, p->name,
                          t->spelling);
        } else {
            char *d = unit_declarator(ts, vn);
            sb_printf(b, "    %s;\n    memset(&%s, 0, sizeof %s);\n", d, vn, vn);
            free(d);
            sb_printf(&g->warn, "%s: parameter %s (%s) cannot be built: fixed to zero\n", f->name, p->name,
                      t->spelling);
        }
        free(ts);
    }
    if (unit_takes_varargs(f)) /* the variadic arguments (unit.h): zeroed blocks, then NULL */
        sb_printf(
            b, "    _Alignas(16) static unsigned char sympu_va[%d][%d];\n    memset(sympu_va, 0, sizeof sympu_va);\n",
            UNIT_VARARG_BLOCKS, UNIT_VARARG_BYTES);
    sb_printf(b, "    sympu_dump_from(1, \"pre\");\n    sympu_rec(\"call\\n\");\n");
    sb_printf(b, "#ifdef SYMPATH_UNIT_RECORD\n    sympu_stdout_begin();\n    sympu_in_call = sympu_target_called = 1;\n"
                 "#else\n    __sym_unit_target();\n#endif\n    ");
    const ut_type *r = f->type->ret;
    if (r->kind == UT_STRUCT || r->kind == UT_UNION) {
        /* painted too: the callee may build its result in place (sj.h's sj_Value, a field it never sets) */
        char *rs = unqual(r);
        char *d = unit_declarator(rs, "sympu_ret");
        sb_printf(b,
                  "%s;\n#ifdef SYMPATH_UNIT_RECORD\n    sympu_paint_block(&sympu_ret, sizeof sympu_ret);\n"
                  "    sympu_paint_stack();\n#endif\n    sympu_ret = ",
                  d);
        free(d);
        free(rs);
    } else if (r->kind != UT_VOID) {
        char *rs = unqual(r);
        char *d = unit_declarator(rs, "sympu_ret");
        sb_printf(b, "\n#ifdef SYMPATH_UNIT_RECORD\n    sympu_paint_stack();\n#endif\n    %s = ", d);
        free(d);
        free(rs);
    } else {
        sb_puts(b, "\n#ifdef SYMPATH_UNIT_RECORD\n    sympu_paint_stack();\n#endif\n    ");
    }
    sb_printf(b, "%s%s(", unit_va_list_last(f) ? "call_" : "", f->name);
    for (size_t i = 0; i < np; i++) sb_printf(b, "%ssympu_a%zu", i ? ", " : "", i);
    if (unit_takes_varargs(f)) {
        for (int k = 0; k < UNIT_VARARG_BLOCKS; k++)
            sb_printf(b, "%s(void *)sympu_va[%d]", f->nparams || k ? ", " : "", k);
        sb_puts(b, ", (void *)0");
    }
    sb_printf(b, ");\n");
    sb_printf(b, "#ifdef SYMPATH_UNIT_RECORD\n    sympu_in_call = 0;\n    sympu_stdout_end();\n");
    if (r->kind == UT_PTR && r->pointee->kind != UT_FUNC) /* heap memory the call allocated: released by the test */
        sb_printf(b, "    if (sympu_heapat_new((const void *)sympu_ret)) sympu_rec(\"retheap\\n\");\n");
    sb_printf(b, "#endif\n");
    switch (r->kind) {
    case UT_VOID: break;
    case UT_INT:
    case UT_BOOL:
        if (r->is_signed)
            sb_printf(b, "    sympu_rec(\"ret i %%lld\\n\", (long long)sympu_ret);\n");
        else
            sb_printf(b, "    sympu_rec(\"ret u %%llu\\n\", (unsigned long long)sympu_ret);\n");
        break;
    case UT_ENUM: sb_printf(b, "    sympu_rec(\"ret e %%s\\n\", sympu_enum_%d((long long)sympu_ret));\n", r->id); break;
    case UT_PTR:
        if (r->pointee->kind == UT_FUNC)
            sb_printf(
                b,
                "    sympu_rec(\"ret f %%s\\n\", sympu_ret ? sympu_stub_name((const void *)sympu_ret) : \"NULL\");\n");
        else if (r->pointee->kind == UT_INT && r->pointee->is_plain_char)
            sb_printf(b, "    sympu_ret_str((const char *)sympu_ret);\n");
        else
            sb_printf(b, "    char sympu_pbuf[32];\n    sympu_rec(\"ret p %%s\\n\", sympu_ptr_text((const void "
                         "*)sympu_ret, sympu_pbuf));\n"
                         "    (void)sympu_pbuf;\n");
        {
            /* the element count of a returned array: the out-parameter the call wrote (`int *argc`) */
            int ci = unit_result_count(f);
            char cnt[96];
            snprintf(cnt, sizeof cnt, "(sympu_a%d ? (long long)*sympu_a%d : -1LL)", ci, ci);
            if (r->pointee->kind == UT_STRUCT && unit_walkable(r)) {
                /* the struct the call returned (fresh memory), field by field; an array of them
                 * when a count comes out */
                sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n");
                unit_walk_call_n(b, r, "    ", "0", "\"\"", "sympu_ret", ci >= 0 ? cnt : NULL);
                sb_puts(b, "#endif\n");
            } else if (unit_walkable_ptrs(r)) {
                /* an array of strings or pointers (`sds *`, `char **`): element by element, up
                 * to the count or the NULL terminator */
                sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n");
                unit_walk_ptrs_call(b, g->u, r, "    ", "sympu_ret", ci >= 0 ? cnt : NULL);
                sb_puts(b, "#endif\n");
            } else if (ci >= 0 && unit_walkable_ints(r)) {
                /* integers with their count (`uint8_t *decode(in, size_t *outlen)`): element by element */
                sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n");
                unit_walk_ints_call(b, r, "    ", "sympu_ret", cnt);
                sb_puts(b, "#endif\n");
            }
        }
        break;
    case UT_FLOAT:
        /* exact: the emitted test compares with the hexadecimal literal */
        sb_printf(b, "    sympu_rec(\"ret d %%a\\n\", (double)sympu_ret);\n");
        break;
    case UT_STRUCT:
    case UT_UNION:
        if (fillable(r)) {
            /* the returned struct or union is an object of its own ("r"), recorded after the call */
            char *rs = unqual(r);
            sb_printf(
                b,
                "    sympu_register(&sympu_ret, -1, sizeof sympu_ret, 1, 0, sympu_dump_%d, \"r\", \"ret\", \"%s\");\n",
                r->id, rs);
            free(rs);
        }
        sb_printf(b, "    (void)sympu_ret;\n");
        break;
    default: sb_printf(b, "    (void)sympu_ret;\n"); break;
    }
    if (unit_takes_varargs(f))
        sb_printf(b, "#ifdef SYMPATH_UNIT_RECORD\n    sympu_varargs_dump(&sympu_va[0][0], %d, %d);\n#endif\n",
                  UNIT_VARARG_BLOCKS, UNIT_VARARG_BYTES);
    sb_printf(b, "    sympu_dump_from(1, \"post\");\n    sympu_rec(\"done\\n\");\n}\n\n");
}

char *unit_harness(const unit_info *u, const ut_func *const *targets, size_t ntargets, const unit_harness_opts *o,
                   char **warnings, char **err)
{
    gen g;
    memset(&g, 0, sizeof g);
    g.u = u;
    g.o = o;
    g.need = calloc(u->ntypes + 1, 1);
    *err = NULL;
    if (!g.need) {
        *err = strdup("out of memory");
        return NULL;
    }
    strbuf *b = &g.out;
    sb_printf(b, "/* harness generated by `sympath unit`: builds the inputs of the functions under test. */\n");
    if (o->cycles) sb_printf(b, "#define SYMPU_CYCLES 1\n");
    sb_printf(b, "#include \"%s\"\n#include <stdio.h>\n\n", o->rt_header);
    sb_printf(b, "/* ---- the unit's declarations ---- */\n%s\n", u->prelude);
    /* the types the inputs and stand-ins need */
    for (size_t i = 0; i < ntargets; i++)
        for (size_t k = 0; k + (unit_va_list_last(targets[i]) ? 1 : 0) < targets[i]->nparams; k++)
            mark(&g, targets[i]->params[k].type);
    for (size_t i = 0; i < ntargets; i++) mark(&g, targets[i]->type->ret);
    for (size_t i = 0; i < ntargets; i++) /* the arguments of the producers' and modifiers' calls */
        for (size_t k = 0; k < targets[i]->nparams; k++) {
            unit_producer pr[UNIT_MAX_PRODUCERS];
            size_t np = unit_param_producers(u, o, targets[i], k, pr, UNIT_MAX_PRODUCERS);
            for (size_t j = 0; j < np; j++)
                for (size_t a = 0; a < pr[j].fn->nparams; a++) {
                    mark(&g, pr[j].fn->params[a].type);
                    /* an argument built by producers of its own (harness_producer.c): theirs too */
                    unit_producer npr[UNIT_MAX_PRODUCERS];
                    size_t nn = unit_arg_producers(u, o, pr[j].fn, a, npr, UNIT_MAX_PRODUCERS);
                    for (size_t q = 0; q < nn; q++)
                        for (size_t c = 0; c < npr[q].fn->nparams; c++) mark(&g, npr[q].fn->params[c].type);
                }
            const ut_func *mods[UNIT_MAX_PRODUCERS];
            size_t nm = np ? unit_param_modifiers(u, o, targets[i], k, mods, UNIT_MAX_PRODUCERS) : 0;
            for (size_t j = 0; j < nm; j++)
                for (size_t a = 0; a < mods[j]->nparams; a++) mark(&g, mods[j]->params[a].type);
            const ut_func *ads[UNIT_MAX_PRODUCERS]; /* an adder's key or position */
            size_t na = np ? unit_param_adders(u, o, targets[i], k, ads, UNIT_MAX_PRODUCERS) : 0;
            for (size_t j = 0; j < na; j++) {
                int it = unit_adder_item(ads[j], targets[i]->params[k].type);
                for (size_t a = 1; a < ads[j]->nparams; a++)
                    if ((int)a != it) mark(&g, ads[j]->params[a].type);
            }
        }
    for (size_t i = 0; i < u->nexterns; i++) mark(&g, u->externs[i].type);
    for (size_t i = 0; i < u->nglobals; i++)
        if (global_ok(u->globals[i].type)) mark(&g, u->globals[i].type);
    for (size_t i = 0; i < u->nsystem; i++)
        if (is_mocked_system(o, u->system[i].name)) mark(&g, u->system[i].type);
    for (size_t i = 0; i < u->ndefs; i++)
        if (unit_is_wrapped(u, u->defs[i].name)) mark(&g, u->defs[i].type);
    sb_printf(b, "/* ---- builders (fill) and recorders (dump) per type ---- */\n");
    for (size_t i = 0; i < u->ntypes; i++) {
        if (!g.need[i] || !fillable(u->types[i])) continue;
        sb_printf(b, "static void sympu_fill_%zu(void *vo, const char *name, int depth); /* %s */\n", i,
                  u->types[i]->spelling);
        sb_printf(b, "static void sympu_dump_%zu(const void *vo, const char *lv, const char *phase, int id);\n", i);
    }
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        if (!g.need[i] || t->kind != UT_ENUM) continue;
        /* the enumerator's name when the value has one, else the number */
        sb_printf(b, "static const char *sympu_enum_%zu(long long v) {\n", i);
        for (size_t k = 0; k < t->nenums; k++) {
            /* a value two enumerators share is written as a number */
            int shared = 0;
            for (size_t j = 0; j < t->nenums; j++) shared |= j != k && t->enums[j].value == t->enums[k].value;
            if (!shared)
                sb_printf(b, "    if (v == %lld) return \"%s\";\n", (long long)t->enums[k].value, t->enums[k].name);
        }
        sb_printf(b, "    static char buf[32];\n    snprintf(buf, sizeof buf, \"%%lld\", v);\n    return buf;\n}\n\n");
    }
    /* stubs for function-pointer types */
    sb_printf(b, "\n/* ---- stand-ins: function-pointer inputs ---- */\n");
    strbuf names = STRBUF_INIT;
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        if (!g.need[i] || t->kind != UT_PTR || !stub_ok(t->pointee)) continue;
        char *sn = unit_stub_name(t);
        sb_printf(b, "static ");
        g.callback = g.record_args = 1;
        gen_standin(&g, sn, t->pointee, u->mock_outputs);
        g.callback = g.record_args = 0;
        sb_printf(&names, "    if (p == (const void *)%s) return \"%s\";\n", sn, sn);
        free(sn);
    }
    /* the fields' own stand-ins (name_stubs), once per name */
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        for (size_t k = 0; g.need[i] && t->kind == UT_STRUCT && k < t->nfields; k++) {
            const ut_field *f = &t->fields[k];
            char probe[300];
            snprintf(probe, sizeof probe, "return \"%s\";", f->stub ? f->stub : "");
            if (!f->stub || !stub_ok(f->type->pointee) || (names.s && strstr(names.s, probe))) continue;
            sb_printf(b, "static ");
            g.callback = g.record_args = 1;
            gen_standin(&g, f->stub, f->type->pointee, u->mock_outputs);
            g.callback = g.record_args = 0;
            sb_printf(&names, "    if (p == (const void *)%s) return \"%s\";\n", f->stub, f->stub);
        }
    }
    sb_printf(b, "static const char *sympu_stub_name(const void *p) {\n%s    return NULL;\n}\n\n",
              names.s ? names.s : "");
    /* the FILE * parameters the unit writes to (unit_scan_written_streams): output streams */
    sb_puts(b, "static int sympu_writes_stream(const char *name) {\n    (void)name;\n");
    for (size_t i = 0; i < u->nwritten_streams; i++)
        sb_printf(b, "    if (!strcmp(name, \"%s\")) return 1;\n", u->written_streams[i]);
    sb_puts(b, "    return 0;\n}\n\n");
    sb_free(&names);
    sb_printf(b, "/* ---- stand-ins: functions the unit calls but does not define (mocks) ---- */\n");
    /* their calls' arguments are recorded and asserted, as a callback's (CMocka's check_expected) */
    g.record_args = 1;
    for (size_t i = 0; i < u->nexterns; i++) gen_standin(&g, u->externs[i].name, u->externs[i].type, u->mock_outputs);
    g.record_args = 0;
    /* a libc function the unit's files call as sympu_mock_NAME (their build renames it), so
     * that the harness, the runtime and the replay library keep the real one */
    for (size_t i = 0; i < u->nsystem; i++)
        if (is_mocked_system(o, u->system[i].name)) {
            char cn[300];
            snprintf(cn, sizeof cn, "sympu_mock_%s", u->system[i].name);
            gen_standin_as(&g, u->system[i].name, cn, u->system[i].type, u->mock_outputs);
        }
    /* defined in the unit but mocked: its own file calls __real_NAME, the others this */
    for (size_t i = 0; i < u->ndefs; i++)
        if (unit_is_wrapped(u, u->defs[i].name)) gen_standin(&g, u->defs[i].name, u->defs[i].type, u->mock_outputs);
    unit_walk_defs(b, u, g.need);
    for (size_t i = 0; i < u->ntypes; i++) {
        if (!g.need[i] || !fillable(u->types[i])) continue;
        gen_fill(&g, u->types[i]);
        gen_dump(&g, u->types[i]);
    }
    sb_printf(b, "/* ---- drivers ---- */\n");
    for (size_t i = 0; i < ntargets; i++) gen_driver(&g, targets[i]);
    sb_printf(b, "#undef main\nint main(void) {\n    const char *f = getenv(\"" SYMPATH_ENV_UNIT_FUNCTION "\");\n");
    sb_printf(b, "    if (!f) return 2;\n");
    for (size_t i = 0; i < ntargets; i++)
        sb_printf(b, "    if (!strcmp(f, \"%s\")) {\n        sympu_drive_%s();\n        return 0;\n    }\n",
                  targets[i]->name, targets[i]->name);
    sb_printf(b, "    return 2;\n}\n");
    free(g.need);
    if (b->failed || g.warn.failed) {
        sb_free(b);
        sb_free(&g.warn);
        *err = strdup("out of memory");
        return NULL;
    }
    *warnings = g.warn.s ? g.warn.s : strdup("");
    return b->s;
}

int harness_fillable(const ut_type *t) { return fillable(t); }
char *harness_unqual(const ut_type *t) { return unqual(t); }
