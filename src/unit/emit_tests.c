/* emit_tests.c: turns recorded harness runs into a readable CMocka test file (will_return, call, assertions; test bodies and the file around them). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"
#include "emit_int.h"
#include "producers_int.h"
#include "harness_int.h"

/* The call expression "f(a, b)". */
static void call_expr(strbuf *b, const names *n, const ut_func *f)
{
    sb_printf(b, "%s%s(", unit_va_list_last(f) ? "call_" : "", f->name);
    size_t argi = 0, k = 0, np = f->nparams - (unit_va_list_last(f) ? 1 : 0);
    for (size_t i = 0; i < np; i++) {
        const ut_param *p = &f->params[i];
        if (p->len_param < 0 && p->buf_param < 0 && !harness_fillable(p->type)) {
            /* a type the harness cannot build (`unsigned __int128`, `_Complex double`): zero, as there */
            sb_printf(b, "%s(%s){0}", argi++ ? ", " : "", p->type->spelling);
            continue;
        }
        while (k < n->r->nobjs && !n->r->objs[k].param) k++;
        if (k == n->r->nobjs) break;
        sb_printf(b, "%s%s", argi++ ? ", " : "", n->local[k++]);
    }
    if (unit_takes_varargs(f)) {
        for (int k = 0; k < UNIT_VARARG_BLOCKS; k++) sb_printf(b, "%svarargs[%d]", argi || k ? ", " : "", k);
        sb_puts(b, ", NULL");
    }
    sb_puts(b, ")");
}

/* For a variadic function, the blocks its variadic arguments point to (unit.h), declared at indent. */
static void varargs_decl(strbuf *b, const ut_func *f, const char *indent)
{
    if (!unit_takes_varargs(f)) return;
    sb_printf(b,
              "%s/* the variadic arguments: zeroed blocks for what the format reads or writes, then NULL */\n"
              "%s_Alignas(16) unsigned char varargs[%d][%d] = {{0}};\n",
              indent, indent, UNIT_VARARG_BLOCKS, UNIT_VARARG_BYTES);
}

int emit_mock_queue(strbuf *b, const names *n, const char *indent, size_t make)
{
    for (size_t i = 0; i < n->r->nmocks; i++) {
        const ur_mock *m = &n->r->mocks[i];
        if (m->make != make) continue;
        strbuf v = STRBUF_INIT;
        if (m->value.kind == 's') /* a reader's line (emit_callback_reader_return): a literal */
            sb_printf(&v, "\"%s\"", m->value.text);
        else if (value_expr(&v, n, &m->value, 0) != 0) {
            sb_free(&v);
            return -1;
        }
        sb_printf(b, "%swill_return(%s%s, %s);\n", indent, unit_is_wrapped(n->u, m->name) ? "__wrap_" : "", m->name,
                  v.s);
        sb_free(&v);
    }
    return emit_callback_expects(b, n, indent, make);
}

static int emit_mocks(strbuf *b, const names *n, const char *indent) { return emit_mock_queue(b, n, indent, 0); }

static const char *signal_name(int s)
{
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

void emit_float_assert(strbuf *b, const char *lv, const ur_value *v)
{
    if (strstr(v->text, "nan") || strstr(v->text, "NAN")) {
        sb_printf(b, "    assert_true(%s != %s); /* NaN */\n", lv, lv);
        return;
    }
    strbuf lit = STRBUF_INIT;
    value_expr(&lit, NULL, v, 0);
    sb_printf(b, "    assert_true(%s == %s);\n", lv, lit.s);
    sb_free(&lit);
}

/* The assertion that lvalue lv holds the recorded value v of object o (integer, enum, double,
 * pointer or function pointer); 1 when one was written, 0 for a value with nothing to assert. */
int emit_value_assert(strbuf *b, const names *n, const ur_object *o, const ur_value *v, const char *lv)
{
    strbuf x = STRBUF_INIT;
    int wrote = 1;
    switch (v->kind) {
    case 'i':
    case 'u':
    case 'e':
        value_expr(&x, n, v, is_chartype(n->u, o->ctype) && o->array);
        sb_printf(b, "    assert_int_equal(%s, %s);\n", lv, x.s);
        break;
    case 'p':
        if (!strcmp(v->text, "0"))
            sb_printf(b, "    assert_null(%s);\n", lv);
        else if (addr_of(&x, n, v->text) == 0)
            sb_printf(b, "    assert_ptr_equal(%s, %s);\n", lv, x.s);
        else
            sb_printf(b, "    assert_non_null(%s);\n", lv);
        break;
    case 'd': emit_float_assert(b, lv, v); break;
    case 'x': /* a union: its bytes */
        if (emit_union_bytes(&x, v->text) > 0)
            sb_printf(b, "    assert_memory_equal(&%s, %s, sizeof %s);\n", lv, x.s, lv);
        else if (v->text && *v->text && strspn(v->text, "0") == strlen(v->text))
            sb_printf(b, "    assert_memory_equal(&%s, ((const unsigned char[%zu]){0}), sizeof %s);\n", lv,
                      strlen(v->text) / 2, lv);
        else
            wrote = 0;
        break;
    case 'f':
        if (!strcmp(v->text, "NULL"))
            sb_printf(b, "    assert_null(%s);\n", lv);
        else if (strcmp(v->text, "?"))
            sb_printf(b, "    assert_ptr_equal(%s, %s);\n", lv, v->text);
        else
            wrote = 0;
        break;
    default: wrote = 0; break;
    }
    sb_free(&x);
    return wrote;
}

/* Length of the part of suffix that names one element of an array object ("[2]" of "[2].type"), 0
 * for other objects: the unit whose values are compared together. */
static size_t elem_len(const ur_object *o, const char *suffix)
{
    const char *br = o->array && suffix[0] == '[' ? strchr(suffix, ']') : NULL;
    return br ? (size_t)(br - suffix) + 1 : 0;
}

/* Whether the call changed a value of object o (of the array element suffix is in). Character
 * arrays do not count (compared as strings). */
static int written(const names *n, const ur_object *o, const char *suffix)
{
    const unit_record *r = n->r;
    if (o->array && is_chartype(n->u, o->ctype)) return 0;
    size_t l = elem_len(o, suffix);
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id || !e->pre.text || !e->post.text) continue;
        if (elem_len(o, e->suffix) != l || strncmp(e->suffix, suffix, l)) continue;
        if (e->pre.kind != e->post.kind || strcmp(e->pre.text, e->post.text)) return 1;
    }
    return 0;
}

/* The element count of a parameter of array type (`char buf[6]`: passed by reference, what the
 * call writes there is the caller's), else 0. */
static size_t param_array_count(const ur_object *o)
{
    const char *br = o->param ? strrchr(o->ctype, '[') : NULL;
    return br && br[1] >= '1' && br[1] <= '9' ? (size_t)strtoul(br + 1, NULL, 10) : 0;
}

/* A character array object o (of index k) whose bytes the call changed past a NUL (a decoder's
 * binary output; with need_nul 0 any change, an output that is no string): one assert_memory_equal
 * over its elements through its end (at most 256, every one recorded; else up to the last one that
 * changed), the bytes as a literal (octal escapes, which end after three digits), instead of a string
 * assertion and one per byte after the NUL. Returns 1 when written, 0 when o is not such an array (no
 * NUL before a changed byte, or an element up to it not recorded as a plain integer). */
static int emit_bytes_assert(strbuf *b, const names *n, const ur_object *o, size_t k, int need_nul)
{
    const unit_record *r = n->r;
    long last = -1, first_nul = -1;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id || !e->pre.text || !e->post.text || e->suffix[0] != '[') continue;
        long i = atol(e->suffix + 1);
        if (strcmp(e->pre.text, e->post.text) && i > last) last = i;
        if (!strcmp(e->post.text, "0") && (first_nul < 0 || i < first_nul)) first_nul = i;
    }
    size_t count = param_array_count(o) ? param_array_count(o) : o->count;
    if ((need_nul && (first_nul < 0 || last <= first_nul)) || last < 0 || (size_t)last >= count) return 0;
    /* through the array's end when every element is known (at most 256): a write past what the call
     * should write (csv_write2's `dest_size >= chars`, one byte more) changes a byte the test compares */
    long end = count <= 256 ? (long)count - 1 : last;
    unsigned char *v = calloc((size_t)end + 1, 1);
    char *seen = calloc((size_t)end + 1, 1);
    for (size_t j = 0; v && seen && j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id || !e->post.text || e->suffix[0] != '[' || strchr(e->suffix, '.')) continue;
        long i = atol(e->suffix + 1);
        if (i > end || (e->post.kind != 'i' && e->post.kind != 'u')) continue;
        v[i] = (unsigned char)strtoll(e->post.text, NULL, 10);
        seen[i] = 1;
    }
    int ok = v && seen;
    for (long i = 0; ok && i <= last; i++) ok = seen[i];
    for (long i = last + 1; ok && i <= end; i++)
        if (!seen[i]) end = last;
    if (ok) {
        sb_printf(b, "    assert_memory_equal(%s, \"", n->local[k]);
        for (long i = 0; i <= end; i++) {
            unsigned c = v[i];
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?')
                sb_printf(b, "%c", (char)c);
            else
                sb_printf(b, "\\%03o", c);
        }
        sb_printf(b, "\", %ld);\n", end + 1);
    }
    free(v);
    free(seen);
    return ok;
}

/* An object not yet visited (state 0) that a mock's value or a stand-in's argument queued before the
 * construction of object id refers to (`will_return(table_new, &table_new_ret)` before `store_new(...)`):
 * declared before id's construction. Its index, or (size_t)-1. */
static size_t queued_dep(const unit_record *r, int id, const char *state)
{
    for (size_t m = 0; m < r->nmakes; m++) {
        if (r->makes[m].obj != id) continue;
        for (size_t i = 0; i < r->nmocks + r->nargs; i++) {
            const ur_value *v = i < r->nmocks ? &r->mocks[i].value : &r->args[i - r->nmocks].value;
            size_t mk = i < r->nmocks ? r->mocks[i].make : r->args[i - r->nmocks].make, t;
            if (mk == m + 1 && v->kind == 'p' && obj_by_id(r, atoi(v->text), &t) && !state[t]) return t;
        }
    }
    return (size_t)-1;
}

/* skip[k] = 1 for the objects only the queue of a dropped construction refers to (what a mock returned
 * inside the producer of a parameter that is NULL in the test), and those only they point to: declared,
 * they were unused variables (-Werror). */
static void dropped_values(const unit_record *r, char *skip)
{
    for (size_t i = 0; i < r->nmocks + r->nargs; i++) {
        const ur_value *v = i < r->nmocks ? &r->mocks[i].value : &r->args[i - r->nmocks].value;
        size_t mk = i < r->nmocks ? r->mocks[i].make : r->args[i - r->nmocks].make, t;
        if (mk == UNIT_MAKE_DROPPED && v->kind == 'p' && obj_by_id(r, atoi(v->text), &t) && !r->objs[t].param)
            skip[t] = 1;
    }
    size_t any = 0;
    for (size_t t = 0; t < r->nobjs; t++) any += skip[t];
    for (int changed = any > 0; changed;) { /* nothing dropped (the usual case): no closure to compute */
        changed = 0;
        for (size_t t = 0; t < r->nobjs; t++) {
            if (skip[t] || r->objs[t].param) continue;
            int from_skipped = 0, from_kept = 0;
            for (size_t j = 0; j < r->nentries; j++) {
                const ur_entry *e = &r->entries[j];
                size_t o;
                if (e->pre.kind != 'p' || atoi(e->pre.text) != r->objs[t].id || !obj_by_id(r, e->obj, &o)) continue;
                if (skip[o])
                    from_skipped = 1;
                else
                    from_kept = 1;
            }
            for (size_t i = 0; i < r->nmocks + r->nargs && !from_kept; i++) {
                const ur_value *v = i < r->nmocks ? &r->mocks[i].value : &r->args[i - r->nmocks].value;
                size_t mk = i < r->nmocks ? r->mocks[i].make : r->args[i - r->nmocks].make;
                from_kept = v->kind == 'p' && atoi(v->text) == r->objs[t].id && mk != UNIT_MAKE_DROPPED;
            }
            if (from_skipped && !from_kept) skip[t] = changed = 1;
        }
    }
}

/* Regression assertions: the return value and every recorded value the call changed. */
/* Heap mode: whether array object k is held, before and after the call, by a pointer field of
 * another malloc'ed input: the unit may have reallocated it (in place natively, always moved
 * under ASan, and perhaps shorter), so its contents are not asserted, through neither pointer. */
static int heap_held_array(const names *n, size_t k)
{
    const unit_record *r = n->r;
    if (!n->heap || !r->objs[k].array || !emit_heapable(&r->objs[k])) return 0;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        size_t owner;
        const ur_object *po = obj_by_id(r, e->obj, &owner);
        if (po && owner != k && emit_heapable(po) && !po->freed && e->pre.kind == 'p' && e->pre.text &&
            atoi(e->pre.text) == r->objs[k].id && e->post.text && !strcmp(e->pre.text, e->post.text))
            return 1;
    }
    return 0;
}

static int emit_asserts(strbuf *b, const names *n, const ut_func *f, int have_ret)
{
    const unit_record *r = n->r;
    size_t at = b->len;
    int ret_used = 0;
    if (have_ret && r->ret.kind) {
        strbuf v = STRBUF_INIT;
        ret_used = 1;
        switch (r->ret.kind) {
        case 'd': emit_float_assert(b, "ret", &r->ret); break;
        case 's': sb_printf(b, "    assert_string_equal(ret, \"%s\");\n", r->ret.text); break;
        case 'i':
        case 'u':
        case 'e':
            value_expr(&v, n, &r->ret, 0);
            sb_printf(b, "    assert_int_equal(ret, %s);\n", v.s);
            break;
        case 'p':
            if (!strcmp(r->ret.text, "0"))
                sb_puts(b, "    assert_null(ret);\n");
            else if (addr_of(&v, n, r->ret.text) == 0)
                sb_printf(b, "    assert_ptr_equal(ret, %s);\n", v.s);
            else
                sb_puts(b, "    assert_non_null(ret);\n");
            break;
        case 'f':
            if (!strcmp(r->ret.text, "NULL"))
                sb_puts(b, "    assert_null(ret);\n");
            else if (strcmp(r->ret.text, "?"))
                sb_printf(b, "    assert_ptr_equal(ret, %s);\n", r->ret.text);
            else
                sb_puts(b, "    assert_non_null(ret);\n");
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
        if (!o->array || o->param || o->freed || !is_chartype(n->u, o->ctype) || o->count == 0 || heap_held_array(n, k))
            continue;
        int changed = 0;
        for (size_t j = 0; j < r->nentries; j++) {
            const ur_entry *e = &r->entries[j];
            if (e->obj == o->id && e->pre.text && e->post.text) changed |= strcmp(e->pre.text, e->post.text) != 0;
        }
        strbuf lit = STRBUF_INIT;
        if (changed && emit_bytes_assert(b, n, o, k, 1)) {
            as_string[k] = 2; /* every element up to the last changed one compared */
        } else if (changed && emit_char_array_literal(&lit, n, o, 1, 1) == 0) {
            sb_printf(b, "    assert_string_equal(%s, %s);\n", n->local[k], lit.s);
            as_string[k] = 1;
        } else if (changed && emit_bytes_assert(b, n, o, k, 0)) {
            as_string[k] = 2; /* no string: its bytes (csv_write's quoted copy into dest) */
        }
        sb_free(&lit);
    }
    /* a parameter of character array type (`char buf[6]`) the call wrote: its bytes, one assertion */
    for (size_t k = 0; as_string && k < r->nobjs; k++)
        if (param_array_count(&r->objs[k]) && is_chartype(n->u, r->objs[k].ctype) &&
            emit_bytes_assert(b, n, &r->objs[k], k, 0))
            as_string[k] = 2;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        size_t k;
        const ur_object *o = obj_by_id(r, e->obj, &k);
        if (o && as_string && as_string[k] == 2) continue;
        /* a parameter is the test's copy, except one of array type: the caller's array */
        if (!o || (o->param && !param_array_count(o)) || o->freed || emit_made_undeclared(n, k) || !e->post.kind ||
            !e->post.text || heap_held_array(n, k))
            continue;
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
        /* a char array inside the object: one assertion on its text, at its first element */
        size_t pl = emit_char_field_prefix(n->u, o, e->suffix);
        if (pl) {
            if (!strcmp(e->suffix + pl, "[0]") &&
                !emit_char_field(b, n, k, e->suffix, pl, o->result || written(n, o, e->suffix)))
                pl = 0;
            else if (o->result)
                ret_used = 1;
            if (pl) continue;
        }
        if (o->result && e->post.kind == 'x' &&
            !unit_union_uniform(emit_suffix_type(n->u, o, e->suffix, strlen(e->suffix)))) {
            /* a union the function built and returned: past the member it set, its bytes may be
             * indeterminate (members of different sizes), so they are not compared */
            char lb[512];
            sb_printf(
                b, "    /* %s: a union's bytes are not compared (past the member set they may be indeterminate) */\n",
                lvalue(n, k, e->suffix, lb, sizeof lb));
            continue;
        }
        if (!o->result) {
            if (!e->pre.text) continue;
            /* an unchanged value is asserted when the call wrote to its object (an array's element):
             * what the function filled is compared field by field */
            if (e->pre.kind == e->post.kind && !strcmp(e->pre.text, e->post.text) &&
                (!written(n, o, e->suffix) || (n->heap && e->post.kind == 'p')))
                continue; /* (in heap mode a realloc may move a block under ASan that stays natively) */
        } else {
            ret_used = 1;
        }
        char lb[512];
        emit_value_assert(b, n, o, &e->post, lvalue(n, k, e->suffix, lb, sizeof lb));
    }
    free(as_string);
    /* the fields of what the call returned or stored in fresh memory */
    emit_walk_asserts(b, n);
    /* the text the call wrote to its output streams and to its standard output */
    emit_ostream_asserts(b, n);
    emit_stdout_asserts(b, n);
    /* no test without an assertion: what the call left in its inputs, unchanged */
    if (!strstr(b->s ? b->s + at : "", "assert_") && emit_unchanged_asserts(b, n) == 0)
        sb_puts(b, "    /* nothing observable to assert: the call returns nothing and changed no recorded value */\n");
    if (have_ret && !ret_used) sb_puts(b, "    (void)ret; /* a result sympath does not record */\n");
    return 0;
}

/* When t releases its result with a destructor of (array, count) (unit_array_destructor), the
 * count expression into b: the value the call wrote through its count out-parameter, `*argc`;
 * returns 0. 1: the release takes the result alone. -1: the count parameter was NULL (the caller
 * then frees the array alone; a leak the sanitizer check reports). */
static int release_count(strbuf *b, const names *n, const unit_test *t)
{
    int ci = unit_result_count(t->fn);
    const char *ad = ci >= 0 ? unit_array_destructor(n->u, t->fn->type->ret) : NULL;
    if (!ad || strcmp(ad, t->release)) return 1;
    const unit_record *r = n->r;
    int pi = 0;
    for (size_t i = 0; i < r->nobjs; i++) {
        if (!r->objs[i].param) continue;
        if (pi++ != ci) continue;
        for (size_t j = 0; j < r->nentries; j++) {
            const ur_entry *e = &r->entries[j];
            if (e->obj == r->objs[i].id && !*e->suffix && e->pre.kind == 'p' && e->pre.text &&
                strcmp(e->pre.text, "0")) {
                sb_printf(b, "*%s", n->local[i]);
                return 0;
            }
        }
        return -1;
    }
    return -1;
}

/* The assertions on vararg block k (its recorded bytes in hex, NULL: all zero), one assert_memory_equal per
 * run of bytes between the pointers the call allocated (heap: bit W for the word at byte 8*W), which are
 * freed instead: their values are addresses, another in every run. */
static void emit_vararg_block(strbuf *b, const char *h, int k, uint8_t heap, char *const *heap_bytes)
{
    size_t nb = h ? strlen(h) / 2 : 0;
    for (size_t from = 0; from < nb;) {
        size_t to = from;
        while (to < nb && !(to < 64 && (heap >> (to / 8)) & 1)) to++;
        if (to > from) {
            if (from)
                sb_printf(b, "    assert_memory_equal(&varargs[%d][%zu], ((const unsigned char[%zu]){", k, from,
                          to - from);
            else
                sb_printf(b, "    assert_memory_equal(varargs[%d], ((const unsigned char[%zu]){", k, to - from);
            for (size_t i = from; i < to; i++) sb_printf(b, "%s0x%.2s", i > from ? ", " : "", h + 2 * i);
            sb_printf(b, "}), %zu);\n", to - from);
        }
        from = to + 8;
    }
    for (int w = 0; w < 8; w++) {
        if (!((heap >> w) & 1)) continue;
        sb_printf(b, "    {\n        void *p;\n        memcpy(&p, &varargs[%d][%d], sizeof p);\n", k, 8 * w);
        size_t n = heap_bytes[w] ? strlen(heap_bytes[w]) / 2 : 0;
        unsigned char text[64];
        size_t tl = 0;
        for (size_t i = 0; i < n && i < sizeof text; i++) {
            unsigned v = 0;
            sscanf(heap_bytes[w] + 2 * i, "%2x", &v);
            text[i] = (unsigned char)v;
        }
        while (tl < n && text[tl] >= 0x20 && text[tl] < 0x7f) tl++;
        if (n && tl < n && text[tl] == 0) { /* printable text and its NUL: a string */
            sb_puts(b, "        assert_string_equal((const char *)p, ");
            emit_c_string(b, text, tl);
            sb_puts(b, ");\n");
        } else if (n) {
            sb_printf(b, "        assert_memory_equal(p, ((const unsigned char[%zu]){", n);
            for (size_t i = 0; i < n; i++) sb_printf(b, "%s0x%.2s", i ? ", " : "", heap_bytes[w] + 2 * i);
            sb_printf(b, "}), %zu);\n", n);
        }
        sb_puts(b, "        free(p);\n    }\n");
    }
}

/* unit_emit_test_body, the globals named in quiet (NULL-terminated; may be NULL) not set. */
static int text_uses(const unit_test *tests, size_t n, const char *name);

/* One stand-in's `expect_any_count(NAME, aK, -2);` lines (ft returns void: a releaser; b NULL: only
 * counted); 1 when it checks an argument (it has such lines), else 0. */
static size_t release_expects(strbuf *b, const char *name, const ut_type *ft)
{
    size_t checked = 0;
    for (size_t i = 0; ft->ret->kind == UT_VOID && i < ft->nargs; i++)
        if (unit_callback_arg_kind(ft->args[i])) {
            checked = 1;
            if (b) sb_printf(b, "    expect_any_count(%s, a%zu, -2); /* the releases below may call it */\n", name, i);
        }
    return checked;
}

size_t unit_emit_release_standins(const unit_info *u, const unit_test *t, strbuf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *ty = u->types[i];
        if (ty->kind == UT_PTR && ty->pointee && ty->pointee->kind == UT_FUNC && !ty->pointee->variadic) {
            char *sn = unit_stub_name(ty);
            if (sn && text_uses(t, 1, sn)) n += release_expects(b, sn, ty->pointee);
            free(sn);
        }
        for (size_t k = 0; ty->kind == UT_STRUCT && k < ty->nfields; k++) {
            const ut_field *f = &ty->fields[k];
            if (!f->stub || f->type->pointee->variadic || !text_uses(t, 1, f->stub)) continue;
            int dup = 0; /* a table's fields of one type share no stand-in, but one field name may recur */
            for (size_t j = 0; j < i && !dup; j++)
                for (size_t m = 0; u->types[j]->kind == UT_STRUCT && m < u->types[j]->nfields && !dup; m++)
                    dup = u->types[j]->fields[m].stub && !strcmp(u->types[j]->fields[m].stub, f->stub);
            if (!dup) n += release_expects(b, f->stub, f->type->pointee);
        }
    }
    return n;
}

static char *test_body(const unit_info *u, const unit_test *t, char *const *quiet)
{
    const unit_record *r = &t->rec;
    names n;
    memset(&n, 0, sizeof n);
    n.u = u;
    n.quiet = quiet;
    n.release = t->release;
    n.heap = t->heap;
    n.unowned = t->unowned;
    n.fn = t->fn;
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
            if (next == (size_t)-1) next = queued_dep(r, r->objs[k].id, state);
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
    char *skip = calloc(r->nobjs + 1, 1);
    bad |= !skip;
    if (skip) dropped_values(r, skip);
    n.skip = skip;
    for (size_t oi = 0; oi < norder && !bad; oi++) {
        size_t i = order[oi];
        if (skip[i]) continue;
        if (declare_object(u, &b, &fix, &n, i, declared) != 0)
            bad = 1;
        else if (r->objs[i].id > 0 && r->objs[i].id <= maxid)
            declared[r->objs[i].id - 1] = 'y';
    }
    free(order);
    free(state);
    free(stack);
    free(declared);
    if (fix.s) sb_puts(&b, fix.s);
    sb_free(&fix);
    if (!bad) bad = emit_made_calls(&b, &n) != 0;
    const ut_type *rt = t->fn->type->ret;
    int have_ret = rt->kind != UT_VOID;
    if (!bad && t->outcome == UO_NORMAL) {
        bad = emit_mocks(&b, &n, "    ") != 0;
        varargs_decl(&b, t->fn, "    ");
        int capture = emit_captures_stdout(t);
        sb_puts(&b, capture ? "\n    stdout_capture_begin();\n    " : "\n    ");
        if (have_ret) {
            char *rs = unit_declarator(rt->spelling, "ret");
            sb_printf(&b, "%s = ", rs);
            free(rs);
        }
        call_expr(&b, &n, t->fn);
        sb_puts(&b, capture ? ";\n    char *stdout_text = stdout_capture_end();\n\n" : ";\n\n");
        size_t at = b.len;
        if (!bad) emit_asserts(&b, &n, t->fn, have_ret);
        if (capture) sb_puts(&b, "    free(stdout_text);\n");
        /* what the call returned and what the test allocated: released, so the suite passes
         * under LeakSanitizer */
        int ret_released = 0; /* what the unit's producers built */
        if (t->release_stubs) unit_emit_release_standins(u, t, &b);
        if (t->keep_made)
            emit_made_frees(&b, &n);
        else
            ret_released = emit_made_releases(&b, &n, t, 1);
        if (have_ret && t->release && rt->kind == UT_PTR && !ret_released) {
            strbuf cnt = STRBUF_INIT;
            int rc = release_count(&cnt, &n, t);
            const char *rel = rc < 0 ? "free" : t->release; /* the array's destructor without its count: free */
            if (t->release_owned && !strcmp(rel, "free"))   /* what its fields own first, innermost last walked */
                for (size_t i = t->rec.nretowns; i-- > 0;)
                    sb_printf(&b, "    free((void *)ret%s);\n", t->rec.retowns[i]);
            if (rc == 0)
                sb_printf(&b, "    %s(ret, %s);\n", rel, cnt.s); /* an array and its count */
            else
                sb_printf(&b, "    %s(%sret);\n", rel, strcmp(rel, "free") ? "" : "(void *)");
            sb_free(&cnt);
        }
        for (int k = 0; k < UNIT_VARARG_BLOCKS; k++) /* what the call stored through its variadic arguments */
            emit_vararg_block(&b, t->rec.varargs[k], k, t->rec.varheap[k], t->rec.varheap_bytes[k]);
        emit_heapat_releases(&b, &n);
        emit_heap_frees(&b, &n);
        emit_stream_closes(&b, &n);
        if (b.len == at && b.s) b.s[--b.len] = 0; /* nothing asserted: no blank line before the end */
    } else if (!bad) {
        /* the call fails: run it in a child, with default signal actions (CMocka's own
         * handlers would catch the signal), and check how the child ended */
        sb_puts(&b, "\n    pid_t pid = fork();\n    assert_true(pid >= 0);\n    if (pid == 0) {\n");
        sb_puts(
            &b,
            "        signal(SIGSEGV, SIG_DFL);\n        signal(SIGABRT, SIG_DFL);\n        signal(SIGBUS, SIG_DFL);\n"
            "        signal(SIGFPE, SIG_DFL);\n        signal(SIGILL, SIG_DFL);\n");
        bad = emit_mocks(&b, &n, "        ") != 0;
        varargs_decl(&b, t->fn, "        ");
        sb_puts(&b, "        ");
        if (have_ret) sb_puts(&b, "(void)");
        call_expr(&b, &n, t->fn);
        sb_puts(&b, ";\n        _exit(0);\n    }\n    int status = 0;\n");
        sb_puts(&b, "    assert_int_equal(waitpid(pid, &status, 0), pid);\n");
        if (t->outcome == UO_SIGNAL) {
            const char *sn = signal_name(t->signo);
            sb_puts(&b, "    assert_true(WIFSIGNALED(status));\n");
            if (sn)
                sb_printf(&b, "    assert_int_equal(WTERMSIG(status), %s);\n", sn);
            else
                sb_printf(&b, "    assert_int_equal(WTERMSIG(status), %d);\n", t->signo);
        } else {
            sb_puts(&b, "    assert_true(WIFEXITED(status));\n");
            sb_printf(&b, "    assert_int_equal(WEXITSTATUS(status), %d);\n", t->exit_code);
        }
        emit_stream_closes(&b, &n);
        if (t->keep_made)
            emit_made_frees(&b, &n);
        else
            emit_made_releases(&b, &n, t, 0);
    }
    free_names(&n);
    free(skip);
    if (bad || b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s ? b.s : strdup("");
}

/* Stand-in with CMocka's mock(): returns the values will_return queued, in order; with checks
 * (a callback, is_static, or a function the unit does not define) it checks each call's
 * arguments against the test's expect_value / expect_string. */
static void emit_standin(strbuf *b, const char *name, const ut_type *ft, int is_static, int checks, int outputs)
{
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
    if (checks) emit_callback_checks(b, ft);
    for (size_t i = 0; outputs && i < ft->nargs; i++)
        if (unit_mock_out_param(ft->args[i]))
            sb_printf(b, "    if (a%zu != NULL) *a%zu = *(%s *)(uintptr_t)mock(); /* output parameter */\n", i, i,
                      ft->args[i]->pointee->spelling);
    int done = is_static && (emit_callback_reader_return(b, ft) || emit_callback_fill_return(b, ft) ||
                             emit_callback_alloc_return(b, name, ft));
    switch (done ? UT_VOID : r->kind) {
    case UT_VOID: break;
    case UT_FLOAT: sb_puts(b, "    return 0; /* not mocked: floating point */\n"); break;
    case UT_STRUCT:
    case UT_UNION:
        if (r->complete)
            sb_printf(b, "    return *(%s *)(uintptr_t)mock();\n", r->spelling);
        else
            sb_printf(b, "    %s r;\n    memset(&r, 0, sizeof r);\n    return r;\n", r->spelling);
        break;
    case UT_PTR: sb_printf(b, "    return (%s)(uintptr_t)mock();\n", r->spelling); break;
    default: sb_printf(b, "    return (%s)mock();\n", r->spelling); break;
    }
    sb_puts(b, "}\n\n");
}

static int text_uses(const unit_test *tests, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const unit_record *r = &tests[i].rec;
        for (size_t k = 0; k < r->nmocks; k++)
            if (!strcmp(r->mocks[k].name, name) ||
                (r->mocks[k].value.kind == 'f' && !strcmp(r->mocks[k].value.text, name)))
                return 1;
        for (size_t k = 0; k < r->nentries; k++)
            if ((r->entries[k].pre.kind == 'f' && !strcmp(r->entries[k].pre.text, name)) ||
                (r->entries[k].post.kind == 'f' && r->entries[k].post.text && !strcmp(r->entries[k].post.text, name)))
                return 1;
        if (r->ret.kind == 'f' && !strcmp(r->ret.text, name)) return 1;
    }
    return 0;
}

/* body without the lines whose trimmed text is one of t's flaky assertions; one on the result leaves
 * `(void)ret;` (the result stays declared). Takes body, returns the new text (NULL stays NULL). */
static char *without_flaky(char *body, const unit_test *t)
{
    if (!body || !t->nflaky) return body;
    strbuf b = STRBUF_INIT;
    int voided = 0;
    for (const char *l = body; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
        const char *s = l;
        while (*s == ' ') s++;
        size_t tl = (size_t)(l + len - s) - (e ? 1 : 0);
        int drop = 0;
        for (size_t k = 0; k < t->nflaky && !drop; k++)
            drop = strlen(t->flaky[k]) == tl && !strncmp(s, t->flaky[k], tl);
        if (!drop)
            sb_printf(&b, "%.*s", (int)len, l);
        else if (!voided && (memmem(s, tl, "(ret,", 5) || memmem(s, tl, "(ret)", 5))) {
            sb_puts(&b, "    (void)ret; /* its assertion was left out: the value differs from run to run or with the "
                        "tests before it */\n");
            voided = 1;
        }
        l += len;
    }
    free(body);
    return b.s ? b.s : strdup("");
}

char *unit_emit_test_body(const unit_info *u, const unit_test *t) { return without_flaky(test_body(u, t, NULL), t); }

/* Whether two recorded values are the same (kind and text). */
static int same_value(const ur_value *a, const ur_value *b)
{
    return a->kind == b->kind && !strcmp(a->text ? a->text : "", b->text ? b->text : "");
}

/* The global object named name in record r, NULL when r has none. */
static const ur_object *global_named(const unit_record *r, const char *name)
{
    for (size_t i = 0; i < r->nobjs; i++)
        if (r->objs[i].global && r->objs[i].local && !strcmp(r->objs[i].local, name)) return &r->objs[i];
    return NULL;
}

/* Whether global g (named like ref, of reference record rr) starts in record r as in rr and the call
 * of r left it unchanged. A global's entries are dumped in the same order in every record: they are
 * compared in order, one pass over r's entries and one over rr's. */
static int global_quiet_in(const unit_record *rr, const ur_object *ref, const unit_record *r, const ur_object *g)
{
    size_t j = 0;
    for (size_t i = 0; i < r->nentries; i++) {
        const ur_entry *e = &r->entries[i];
        if (e->obj != g->id) continue;
        if (e->post.kind && !same_value(&e->post, &e->pre)) return 0; /* the call changed it */
        while (j < rr->nentries && rr->entries[j].obj != ref->id) j++;
        if (j == rr->nentries || strcmp(rr->entries[j].suffix, e->suffix) || !same_value(&rr->entries[j].pre, &e->pre))
            return 0; /* it starts from another value */
        j++;
    }
    while (j < rr->nentries && rr->entries[j].obj != ref->id) j++;
    return j == rr->nentries;
}

/* The globals the tests need not set (malloc'ed, NULL-terminated; NULL when none or out of
 * memory): every test starts from the same values of it and no call changes it. Linear in the
 * records' entries for each global. */
static char **quiet_globals(const unit_test *tests, size_t ntests)
{
    char **q = NULL;
    size_t nq = 0;
    for (size_t i = 0; i < ntests; i++) {
        const unit_record *r = &tests[i].rec;
        for (size_t k = 0; k < r->nobjs; k++) {
            const ur_object *o = &r->objs[k];
            if (!o->global || !o->local) continue;
            int seen = 0; /* decided at its first record already */
            for (size_t x = 0; x < i && !seen; x++) seen = global_named(&tests[x].rec, o->local) != NULL;
            if (seen) continue;
            int quiet = 1;
            for (size_t x = i; x < ntests && quiet; x++) {
                const ur_object *g = global_named(&tests[x].rec, o->local);
                if (g) quiet = global_quiet_in(r, o, &tests[x].rec, g);
            }
            if (!quiet) continue;
            char **nqv = realloc(q, (nq + 2) * sizeof *q);
            if (!nqv) break;
            q = nqv;
            q[nq++] = strdup(o->local);
            q[nq] = NULL;
        }
    }
    return q;
}

/* Whether a test has a FILE * input (a stream object: emit_stream.c). */
static int uses_stream(const unit_test *tests, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < tests[i].rec.nobjs; k++)
            if (tests[i].rec.objs[k].stream || tests[i].rec.objs[k].ostream) return 1;
    return 0;
}

char *unit_emit_tests(const unit_info *u, const unit_test *tests, size_t ntests, const char *const *mocked,
                      size_t nmocked, const char *source_name)
{
    strbuf b = STRBUF_INIT;
    sb_printf(
        &b,
        "/* test_%s: CMocka unit tests generated by `sympath unit` for %s; regression assertions hold the values\n"
        " * observed when the tests were generated. */\n",
        source_name, source_name);
    char *features = unit_feature_macros(u->prelude);
    if (features) sb_puts(&b, features);
    free(features);
    sb_puts(
        &b,
        "#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n");
    /* fork and _exit are declared by hand: <unistd.h> would define R_OK, F_OK, ... before the
     * unit's own declarations, which may use those names (an enum constant R_OK) */
    sb_puts(&b, "#include <signal.h>\n#include <stdlib.h>\n#include <string.h>\n#include <sys/wait.h>\n"
                "pid_t fork(void);\nvoid _exit(int status);\n\n");
    sb_printf(&b, "/* ---- declarations of the unit under test ---- */\n%s\n", u->prelude);
    /* FILE * inputs are fmemopen streams (emit_stream.c), which <stdio.h> declares from POSIX 2008
     * on: a unit that asks for less (pdjson's `_POSIX_C_SOURCE 200112L`, written first) hid it */
    if (uses_stream(tests, ntests))
        sb_puts(&b, "FILE *fmemopen(void *, size_t, const char *); /* POSIX 2008 */\n"
                    "FILE *open_memstream(char **, size_t *);\n\n");
    for (size_t i = 0; i < ntests; i++)
        if (emit_captures_stdout(&tests[i])) {
            emit_stdout_capture_helpers(&b);
            break;
        }
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
            emit_standin(&b, wn, m->type, 0, 0, u->mock_outputs);
            free(wn);
        } else {
            /* a function defined nowhere (the harness recorded its arguments), or a mocked libc one */
            emit_standin(&b, m->name, m->type, 0, m >= u->externs && m < u->externs + u->nexterns, u->mock_outputs);
        }
    }
    for (size_t i = 0; i < u->ndefs; i++) {
        if (!unit_is_wrapped(u, u->defs[i].name)) continue;
        char *wn = NULL;
        if (asprintf(&wn, "__wrap_%s", u->defs[i].name) < 0) continue;
        sb_printf(&b,
                  "/* %s is defined in the unit: linked with -Wl,--wrap=%s, calls from the other files come here */\n",
                  u->defs[i].name, u->defs[i].name);
        emit_standin(&b, wn, u->defs[i].type, 0, 0, u->mock_outputs);
        free(wn);
    }
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        if (t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_FUNC || t->pointee->variadic) continue;
        char *sn = unit_stub_name(t);
        if (sn && text_uses(tests, ntests, sn)) emit_standin(&b, sn, t->pointee, 1, 1, u->mock_outputs);
        free(sn);
    }
    /* the fields' own stand-ins (a table of callbacks of one type: on_url, on_status), once per name */
    strbuf seen = STRBUF_INIT;
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        for (size_t k = 0; t->kind == UT_STRUCT && k < t->nfields; k++) {
            const ut_field *f = &t->fields[k];
            if (!f->stub || f->type->pointee->variadic || !text_uses(tests, ntests, f->stub)) continue;
            char key[300];
            snprintf(key, sizeof key, " %s ", f->stub);
            if (seen.s && strstr(seen.s, key)) continue;
            sb_puts(&seen, key);
            emit_standin(&b, f->stub, f->type->pointee, 1, 1, u->mock_outputs);
        }
    }
    sb_free(&seen);
    /* the variadic wrappers of functions taking a va_list (unit_va_wrapper), once each */
    for (size_t i = 0; i < ntests; i++) {
        size_t j = 0;
        while (j < i && tests[j].fn != tests[i].fn) j++;
        if (j == i) unit_va_wrapper(&b, tests[i].fn);
    }
    char **quiet = quiet_globals(tests, ntests);
    for (size_t i = 0; i < ntests; i++) {
        const unit_test *t = &tests[i];
        char *body = without_flaky(test_body(u, t, quiet), t);
        if (!body) continue;
        if (t->note) sb_printf(&b, "/*\n%s */\n", t->note);
        sb_printf(&b, "/* %s: from the test case %s", t->name, t->origin ? t->origin : "?");
        if (t->outcome == UO_SIGNAL) sb_printf(&b, "; the call is expected to die by signal %d", t->signo);
        if (t->outcome == UO_EXIT) sb_printf(&b, "; the call is expected to exit with status %d", t->exit_code);
        sb_printf(&b, " */\nstatic void %s(void **state) {\n    (void)state;\n%s}\n\n", t->name, body);
        free(body);
    }
    util_free_strv(quiet);
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
