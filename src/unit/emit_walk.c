/* emit_walk.c: assertions on what the call computed beyond its changed input values: the walked fresh memory, text as C string literals. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"

static int hexdigit(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

void emit_c_string(strbuf *b, const unsigned char *s, size_t len)
{
    sb_puts(b, "\"");
    int hex = 0; /* the previous byte was written \xNN: a hex digit after it starts a new literal */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\n' ? "\\n"
                          : c == '\t' ? "\\t"
                          : c == '\r' ? "\\r"
                          : c == '?'  ? "\\?"
                                      : NULL;
        if (hex && !esc && hexdigit(c)) sb_puts(b, "\" \"");
        hex = 0;
        if (esc)
            sb_puts(b, esc);
        else if (c >= 32 && c < 127)
            sb_printf(b, "%c", (char)c);
        else {
            sb_printf(b, "\\x%02x", c);
            hex = 1;
        }
    }
    sb_puts(b, "\"");
}

int emit_char_array_literal(strbuf *b, const names *n, const ur_object *o, int post, int stop_at_nul)
{
    const unit_record *r = n->r;
    if (!o->array || o->count == 0 || o->count > 4096) return -1;
    unsigned char *bytes = calloc(o->count, 1);
    if (!bytes) return -1;
    int ok = 1;
    for (size_t j = 0; j < r->nentries && ok; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id || e->suffix[0] != '[') continue;
        const ur_value *v = post ? &e->post : &e->pre;
        if (!v->text || (v->kind != 'i' && v->kind != 'u')) {
            ok = 0;
            break;
        }
        unsigned long long k = strtoull(e->suffix + 1, NULL, 10);
        if (k < o->count) bytes[k] = (unsigned char)strtoll(v->text, NULL, 10);
    }
    /* the text is what comes before the trailing zeros, with room for at least one NUL */
    size_t len = o->count;
    while (len > 0 && bytes[len - 1] == 0) len--;
    if (stop_at_nul) len = strnlen((const char *)bytes, len);
    if (!ok || len == o->count) {
        free(bytes);
        return -1;
    }
    emit_c_string(b, bytes, len);
    free(bytes);
    return 0;
}

/* The expression of walk w's base: `ret`, or the lvalue of its input entry (parenthesised when it
 * starts with a `*`, so that a tail "->f" applies to the pointer). */
static int walk_base(strbuf *b, const names *n, const ur_walk *w)
{
    if (w->obj == 0) {
        sb_puts(b, "ret");
        return 0;
    }
    size_t k;
    if (!obj_by_id(n->r, w->obj, &k)) return -1;
    char lb[512];
    const char *lv = lvalue(n, k, w->suffix, lb, sizeof lb);
    if (*lv == '*')
        sb_printf(b, "(%s)", lv);
    else
        sb_puts(b, lv);
    return 0;
}

/* Whether a literal body (sympu_escape's) holds a NUL, written \x00. */
static int body_has_nul(const char *s)
{
    for (; *s; s++)
        if (*s == '\\') {
            if (s[1] == 'x' && s[2] == '0' && s[3] == '0') return 1;
            if (s[1]) s++;
        }
    return 0;
}

/* The assertions of a string with its length (walk kind b, "LEN N BODY") at expression e: not
 * NULL, LEN(e) == N, and its bytes (assert_memory_equal when a NUL is among them). */
static void emit_lenstr_assert(strbuf *b, const char *e, const char *v)
{
    char fn[128];
    unsigned long long n = 0;
    int used = 0;
    if (sscanf(v, "%127s %llu%n", fn, &n, &used) < 2) return;
    const char *body = v + used + (v[used] == ' ');
    if (!strcmp(fn, "-")) { /* a buffer struct's data: its used bytes (its pointer is asserted non-NULL) */
        if (n) sb_printf(b, "    assert_memory_equal(%s, \"%s\", %llu);\n", e, body, n);
        return;
    }
    sb_printf(b, "    assert_non_null(%s);\n", e);
    sb_printf(b, "    assert_int_equal(%s(%s), %llu);\n", fn, e, n);
    if (n && body_has_nul(body))
        sb_printf(b, "    assert_memory_equal(%s, \"%s\", %llu);\n", e, body, n);
    else
        sb_printf(b, "    assert_string_equal(%s, \"%s\");\n", e, body);
}

/* Whether the global pointer a walk line starts from (its entry) changed in the call. */
static int global_ptr_changed(const unit_record *r, const ur_walk *w)
{
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != w->obj || strcmp(e->suffix, w->suffix)) continue;
        return !e->pre.text || !e->post.text || e->pre.kind != e->post.kind || strcmp(e->pre.text, e->post.text);
    }
    return 1;
}

int emit_walk_asserts(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    int count = 0;
    for (size_t i = 0; i < r->nwalks; i++) {
        const ur_walk *w = &r->walks[i];
        if (w->obj != 0) {
            size_t wk;
            const ur_object *o = obj_by_id(r, w->obj, &wk);
            if (!o || o->freed || emit_made_consumed(n, w->obj) || emit_made_undeclared(n, wk)) continue;
            /* a global pointer the call did not change points where it pointed before (SDS_NOINIT's
             * text): nothing the call computed */
            if (o->global && !global_ptr_changed(r, w)) continue;
        }
        strbuf ex = STRBUF_INIT, v = STRBUF_INIT;
        if (walk_base(&ex, n, w) != 0) {
            sb_free(&ex);
            continue;
        }
        sb_puts(&ex, w->tail);
        const char *e = ex.s;
        int before = (int)b->len;
        switch (w->value.kind) {
        case 'i':
        case 'u':
        case 'e':
            value_expr(&v, n, &w->value, 0);
            sb_printf(b, "    assert_int_equal(%s, %s);\n", e, v.s);
            break;
        case 'd': emit_float_assert(b, e, &w->value); break;
        case 's':
        case 'a':
            /* the recorded text is already a literal's body (sympu_escape); a char * is checked for
             * NULL first, a char array is never NULL */
            if (*w->tail && w->value.kind == 's') sb_printf(b, "    assert_non_null(%s);\n", e);
            sb_printf(b, "    assert_string_equal(%s, \"%s\");\n", e, w->value.text);
            break;
        case 'b': emit_lenstr_assert(b, e, w->value.text); break;
        case 'p':
            if (!*w->tail) break; /* the pointer itself: asserted with the entry or the result */
            if (!strcmp(w->value.text, "0"))
                sb_printf(b, "    assert_null(%s);\n", e);
            else if (strcmp(w->value.text, "-1") && addr_of(&v, n, w->value.text) == 0)
                sb_printf(b, "    assert_ptr_equal(%s, %s);\n", e, v.s);
            else
                sb_printf(b, "    assert_non_null(%s);\n", e);
            break;
        case 'q': {
            strbuf o = STRBUF_INIT;
            walk_base(&o, n, w);
            sb_puts(&o, w->value.text);
            sb_printf(b, "    assert_ptr_equal(%s, %s);\n", e, o.s);
            sb_free(&o);
            break;
        }
        case 'f':
            if (!strcmp(w->value.text, "NULL"))
                sb_printf(b, "    assert_null(%s);\n", e);
            else
                sb_printf(b, "    assert_non_null(%s);\n", e);
            break;
        default: break;
        }
        if ((int)b->len > before) count++;
        sb_free(&ex);
        sb_free(&v);
    }
    return count;
}

int emit_unchanged_asserts(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    int count = 0;
    for (size_t k = 0; k < r->nobjs && count < 8; k++) {
        const ur_object *o = &r->objs[k];
        if (o->param || o->freed || o->result || o->handle || emit_made_undeclared(n, k)) continue;
        if (o->array && is_chartype(n->u, o->ctype)) {
            strbuf lit = STRBUF_INIT;
            if (emit_char_array_literal(&lit, n, o, 1, 1) == 0) {
                sb_printf(b, "    assert_string_equal(%s, %s);\n", n->local[k], lit.s);
                count++;
                sb_free(&lit);
                continue;
            }
            sb_free(&lit);
        }
        for (size_t j = 0; j < r->nentries && count < 8; j++) {
            const ur_entry *e = &r->entries[j];
            if (e->obj != o->id || !e->post.kind || !e->post.text) continue;
            char lb[512];
            count += emit_value_assert(b, n, o, &e->post, lvalue(n, k, e->suffix, lb, sizeof lb));
        }
    }
    return count;
}

/* The type named spelling among u's types (a leading const ignored), or NULL. */
static const ut_type *type_named(const unit_info *u, const char *spelling)
{
    if (!strncmp(spelling, "const ", 6)) spelling += 6;
    for (size_t i = 0; u && i < u->ntypes; i++) {
        const char *sp = u->types[i]->spelling;
        if (!strncmp(sp, "const ", 6)) sp += 6;
        if (!strcmp(sp, spelling)) return u->types[i];
    }
    return NULL;
}

const ut_type *emit_suffix_type(const unit_info *u, const ur_object *o, const char *suffix, size_t len)
{
    const ut_type *t = type_named(u, o->ctype);
    const char *p = suffix, *end = suffix + len;
    if (o->array && p < end && *p == '[') { /* the element of the array object */
        const char *rb = memchr(p, ']', (size_t)(end - p));
        if (!rb) return NULL;
        p = rb + 1;
    }
    while (t && p < end) {
        if (*p == '[') {
            const char *rb = memchr(p, ']', (size_t)(end - p));
            if (!rb || t->kind != UT_ARRAY) return NULL;
            t = t->pointee;
            p = rb + 1;
        } else if (*p == '.') {
            const char *q = p + 1;
            while (q < end && *q != '.' && *q != '[') q++;
            if (t->kind != UT_STRUCT && t->kind != UT_UNION) return NULL;
            const ut_type *f = NULL;
            for (size_t i = 0; i < t->nfields && !f; i++)
                if (strlen(t->fields[i].name) == (size_t)(q - p - 1) &&
                    !strncmp(t->fields[i].name, p + 1, (size_t)(q - p - 1)))
                    f = t->fields[i].type;
            t = f;
            p = q;
        } else {
            return NULL;
        }
    }
    return t;
}

size_t emit_char_field_prefix(const unit_info *u, const ur_object *o, const char *suffix)
{
    size_t l = strlen(suffix);
    if (l < 3 || suffix[l - 1] != ']') return 0;
    const char *lb = strrchr(suffix, '[');
    size_t pl = (size_t)(lb - suffix);
    if (pl == 0) return 0; /* an element of an array object: compared as the object's text */
    const ut_type *t = emit_suffix_type(u, o, suffix, pl);
    if (!t || t->kind != UT_ARRAY || t->count == 0 || !t->pointee || t->pointee->kind != UT_INT || !t->pointee->is_char)
        return 0;
    return pl;
}

int emit_char_field(strbuf *b, const names *n, size_t k, const char *suffix, size_t pl, int force)
{
    const unit_record *r = n->r;
    const ur_object *o = &r->objs[k];
    const ut_type *t = emit_suffix_type(n->u, o, suffix, pl);
    if (!t || t->count > 4096) return 0;
    unsigned char *bytes = calloc(t->count, 1);
    if (!bytes) return 0;
    int changed = force, ok = 1;
    for (size_t j = 0; j < r->nentries; j++) {
        const ur_entry *e = &r->entries[j];
        if (e->obj != o->id || strncmp(e->suffix, suffix, pl) || e->suffix[pl] != '[') continue;
        if (!e->post.text || (e->post.kind != 'i' && e->post.kind != 'u')) ok = 0;
        if (!ok) break;
        unsigned long long i = strtoull(e->suffix + pl + 1, NULL, 10);
        if (i < t->count) bytes[i] = (unsigned char)strtoll(e->post.text, NULL, 10);
        changed |= !e->pre.text || strcmp(e->pre.text, e->post.text) != 0;
    }
    if (ok && changed) {
        char lb[512];
        char *pre = strndup(suffix, pl);
        const char *lv = lvalue(n, k, pre ? pre : "", lb, sizeof lb);
        size_t len = strnlen((const char *)bytes, t->count), tail = len;
        while (tail < t->count && !bytes[tail]) tail++;
        strbuf lit = STRBUF_INIT;
        if (len < t->count && tail == t->count) {
            /* text ended by a NUL, zeros after it */
            emit_c_string(&lit, bytes, len);
            sb_printf(b, "    assert_string_equal(%s, %s);\n", lv, lit.s);
        } else {
            emit_c_string(&lit, bytes, t->count);
            sb_printf(b, "    assert_memory_equal(%s, %s, %llu);\n", lv, lit.s, (unsigned long long)t->count);
        }
        sb_free(&lit);
        free(pre);
    }
    free(bytes);
    return ok;
}
