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

int emit_walk_asserts(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    int count = 0;
    for (size_t i = 0; i < r->nwalks; i++) {
        const ur_walk *w = &r->walks[i];
        if (w->obj != 0) {
            const ur_object *o = obj_by_id(r, w->obj, NULL);
            if (!o || o->freed) continue;
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
            /* the recorded text is already a literal's body (sympu_escape) */
            if (*w->tail) sb_printf(b, "    assert_non_null(%s);\n", e);
            sb_printf(b, "    assert_string_equal(%s, \"%s\");\n", e, w->value.text);
            break;
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
        if (o->param || o->freed || o->result || o->handle) continue;
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
            const char *lv = lvalue(n, k, e->suffix, lb, sizeof lb);
            strbuf v = STRBUF_INIT;
            switch (e->post.kind) {
            case 'i':
            case 'u':
            case 'e':
                value_expr(&v, n, &e->post, is_chartype(n->u, o->ctype) && o->array);
                sb_printf(b, "    assert_int_equal(%s, %s);\n", lv, v.s);
                count++;
                break;
            case 'd':
                emit_float_assert(b, lv, &e->post);
                count++;
                break;
            case 'p':
                if (!strcmp(e->post.text, "0"))
                    sb_printf(b, "    assert_null(%s);\n", lv);
                else if (addr_of(&v, n, e->post.text) == 0)
                    sb_printf(b, "    assert_ptr_equal(%s, %s);\n", lv, v.s);
                else
                    sb_printf(b, "    assert_non_null(%s);\n", lv);
                count++;
                break;
            default: break;
            }
            sb_free(&v);
        }
    }
    return count;
}
