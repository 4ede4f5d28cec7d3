/* harness_walk.c: the harness's record-mode walkers: the memory a call returned or stored in its inputs, written field by field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"
#include "producers_int.h"

/* A complete struct generated code can name (no anonymous one). */
static int named_struct(const ut_type *t)
{
    return t && t->kind == UT_STRUCT && t->complete && t->size > 0 && !strstr(t->spelling, "(unnamed") &&
           !strstr(t->spelling, "(anonymous");
}

int unit_walkable(const ut_type *ptr)
{
    if (!ptr || ptr->kind != UT_PTR || !ptr->pointee) return 0;
    const ut_type *e = ptr->pointee;
    return (e->kind == UT_INT && e->is_plain_char) || named_struct(e);
}

/* Elements of an array walked, at most. */
#define WALK_ELEMS 16

/* Code recording the value expr (of type t, inside the walker of struct owner) at the path in
 * the C string variable tv; lvl numbers the nested locals. */
static void walk_value(strbuf *b, const ut_type *owner, const ut_type *t, const char *expr, const char *tv, int lvl,
                       int bitfield)
{
    switch (t->kind) {
    case UT_INT:
    case UT_BOOL:
        if (t->is_signed)
            sb_printf(b, "    if (sympu_walk_room()) sympu_wline(%s, \"i\", \"%%lld\", (long long)(%s));\n", tv, expr);
        else
            sb_printf(b, "    if (sympu_walk_room()) sympu_wline(%s, \"u\", \"%%llu\", (unsigned long long)(%s));\n",
                      tv, expr);
        break;
    case UT_ENUM:
        sb_printf(b, "    if (sympu_walk_room()) sympu_wline(%s, \"e\", \"%%s\", sympu_enum_%d((long long)(%s)));\n",
                  tv, t->id, expr);
        break;
    case UT_FLOAT:
        sb_printf(b, "    if (sympu_walk_room()) sympu_wline(%s, \"d\", \"%%a\", (double)(%s));\n", tv, expr);
        break;
    case UT_PTR: {
        const ut_type *e = t->pointee;
        if (e->kind == UT_FUNC) {
            sb_printf(b,
                      "    if (sympu_walk_room()) sympu_wline(%s, \"f\", \"%%s\", (%s) ? (sympu_stub_name((const void "
                      "*)(%s)) ? sympu_stub_name((const void *)(%s)) : \"?\") : \"NULL\");\n",
                      tv, expr, expr, expr);
        } else if (e->kind == UT_INT && e->is_plain_char) {
            sb_printf(b, "    sympu_walk_str((const char *)(%s), %s);\n", expr, tv);
        } else if (named_struct(e)) {
            /* a pointer to the walker's own type (a list's next) is a step, any other a hop */
            int self = owner && e->alias_id == owner->alias_id;
            sb_printf(b, "    if (sympu_walk_ptr((const void *)(%s), %s, %s)) {\n", expr, tv,
                      self ? "steps < SYMPU_WALK_STEPS" : "hops < SYMPU_WALK_HOPS");
            sb_printf(b, "        char p%d[260];\n        snprintf(p%d, sizeof p%d, \"%%s->\", %s);\n", lvl, lvl, lvl,
                      tv);
            sb_printf(b, "        sympu_walk_%d((const void *)(%s), p%d, %s, %s);\n    }\n", e->id, expr, lvl,
                      self ? "hops" : "hops + 1", self ? "steps + 1" : "steps");
        } else {
            sb_printf(b, "    sympu_walk_ptr((const void *)(%s), %s, 0);\n", expr, tv);
        }
        break;
    }
    case UT_STRUCT:
        if (!named_struct(t) || bitfield) break;
        sb_printf(b, "    {\n        char p%d[260];\n        snprintf(p%d, sizeof p%d, \"%%s.\", %s);\n", lvl, lvl, lvl,
                  tv);
        sb_printf(b, "        sympu_walk_%d((const void *)&(%s), p%d, hops, steps);\n    }\n", t->id, expr, lvl);
        break;
    case UT_ARRAY: {
        const ut_type *e = t->pointee;
        if (!e || t->count == 0 || e->kind == UT_UNION) break;
        unsigned long long n = t->count < WALK_ELEMS ? t->count : WALK_ELEMS;
        if (e->kind == UT_INT && e->is_char)
            sb_printf(b, "    if (!sympu_walk_chars((const char *)(%s), %llu, %s))\n", expr,
                      (unsigned long long)t->count, tv);
        sb_printf(b, "    for (size_t k%d = 0; k%d < %llu; k%d++) {\n", lvl, lvl, n, lvl);
        sb_printf(b, "        if (!sympu_walk_fits(vo, room, &(%s)[k%d], sizeof (%s)[k%d])) break;\n", expr, lvl, expr,
                  lvl);
        sb_printf(b, "        char t%d[260];\n        snprintf(t%d, sizeof t%d, \"%%s[%%zu]\", %s, k%d);\n", lvl, lvl,
                  lvl, tv, lvl);
        char ex[512], tn[32];
        snprintf(ex, sizeof ex, "(%s)[k%d]", expr, lvl);
        snprintf(tn, sizeof tn, "t%d", lvl);
        walk_value(b, owner, e, ex, tn, lvl + 1, 0);
        sb_puts(b, "    }\n");
        break;
    }
    default: break; /* unions, function types: not recorded */
    }
}

void unit_walk_defs(strbuf *b, const unit_info *u, const char *need)
{
    sb_puts(b, "/* ---- walkers: after the call, fresh memory the call returned or stored, field by field ---- */\n");
    sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n");
    for (size_t i = 0; i < u->ntypes; i++)
        if (need[i] && named_struct(u->types[i]))
            sb_printf(b, "static void sympu_walk_%zu(const void *vo, const char *prefix, int hops, int steps);\n", i);
    /* the length of a string type with an accessor (sds: sdslen), which may hold NUL bytes */
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_func *acc = need[i] ? unit_length_accessor(u, u->types[i]) : NULL;
        if (acc)
            sb_printf(b,
                      "__attribute__((unused)) static size_t sympu_len_%zu(const void *p) { return "
                      "(size_t)%s((%s)(uintptr_t)p); "
                      "}\n",
                      i, acc->name, u->types[i]->spelling);
    }
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *t = u->types[i];
        if (!need[i] || !named_struct(t)) continue;
        sb_printf(b, "static void sympu_walk_%zu(const void *vo, const char *prefix, int hops, int steps) {\n", i);
        sb_printf(b, "    const %s *o = vo;\n    (void)o, (void)hops, (void)steps;\n",
                  strncmp(t->spelling, "const ", 6) ? t->spelling : t->spelling + 6);
        /* a block the call allocated may be shorter than the struct (the struct hack: a node
         * allocated without its trailing `kids[1]`): a field past its end is not read */
        sb_puts(b, "    size_t room = sympu_heap_room(vo);\n    (void)room;\n");
        for (size_t k = 0; k < t->nfields; k++) {
            const ut_field *f = &t->fields[k];
            if (!*f->name || !f->type) continue;
            if (f->type->kind == UT_UNION || f->type->kind == UT_FUNC || f->type->kind == UT_OTHER) continue;
            if (f->type->kind == UT_STRUCT && !named_struct(f->type)) continue;
            /* a flexible array member (zserge/expr's `char name[]`): its length is the block's, unknown here */
            if (f->type->kind == UT_ARRAY && f->type->count == 0) continue;
            /* the path of the field: the prefix ("->", "x.") and its name */
            if (f->bitfield)
                sb_puts(b, "    {\n");
            else
                sb_printf(b, "    if (sympu_walk_fits(vo, room, &o->%s, sizeof o->%s)) {\n", f->name, f->name);
            sb_printf(b, "    char tf[260];\n    snprintf(tf, sizeof tf, \"%%s%s\", prefix);\n", f->name);
            char ex[300];
            snprintf(ex, sizeof ex, "o->%s", f->name);
            walk_value(b, t, f->type, ex, "tf", 1, f->bitfield);
            sb_puts(b, "    }\n");
        }
        sb_puts(b, "}\n\n");
    }
    sb_puts(b, "#endif\n\n");
}

void unit_walk_call(strbuf *b, const ut_type *ptr, const char *indent, const char *root, const char *lv,
                    const char *val)
{
    unit_walk_call_n(b, ptr, indent, root, lv, val, NULL);
}

void unit_walk_call_n(strbuf *b, const ut_type *ptr, const char *indent, const char *root, const char *lv,
                      const char *val, const char *count)
{
    const ut_type *e = ptr->pointee;
    char fn[48], sz[560];
    if (e->kind == UT_STRUCT) {
        snprintf(fn, sizeof fn, "sympu_walk_%d", e->id);
        snprintf(sz, sizeof sz, "sizeof(%s)", e->spelling);
    } else {
        snprintf(fn, sizeof fn, "NULL");
        snprintf(sz, sizeof sz, "0");
    }
    sb_printf(b, "%s{\n%s    char wb[32];\n", indent, indent);
    sb_printf(b, "%s    if ((%s) && !strcmp(sympu_ptr_text((const void *)(%s), wb), \"-1\"))\n", indent, val, val);
    if (count)
        sb_printf(b, "%s        sympu_walk_root_n(%s, %s, (const void *)(%s), %s, %s, %s);\n%s}\n", indent, root, lv,
                  val, fn, sz, count, indent);
    else
        sb_printf(b, "%s        sympu_walk_root(%s, %s, (const void *)(%s), %s, %s);\n%s}\n", indent, root, lv, val, fn,
                  sz, indent);
}

int unit_walkable_ptrs(const ut_type *ptr)
{
    if (!ptr || ptr->kind != UT_PTR || !ptr->pointee || ptr->pointee->kind != UT_PTR) return 0;
    const ut_type *e = ptr->pointee->pointee;
    return e && e->kind != UT_FUNC;
}

void unit_walk_ptrs_call(strbuf *b, const unit_info *u, const ut_type *ptr, const char *indent, const char *val,
                         const char *count)
{
    const ut_type *e = ptr->pointee->pointee;
    const ut_func *acc = unit_length_accessor(u, ptr->pointee);
    char fn[48], len[48], lname[200];
    if (acc) {
        snprintf(len, sizeof len, "sympu_len_%d", ptr->pointee->id);
        snprintf(lname, sizeof lname, "\"%s\"", acc->name);
    } else {
        snprintf(len, sizeof len, "NULL");
        snprintf(lname, sizeof lname, "NULL");
    }
    int str = e->kind == UT_INT && e->is_plain_char;
    if (named_struct(e))
        snprintf(fn, sizeof fn, "sympu_walk_%d", e->id);
    else
        snprintf(fn, sizeof fn, "NULL");
    sb_printf(b, "%s{\n%s    char wb[32];\n", indent, indent);
    sb_printf(b, "%s    if ((%s) && !strcmp(sympu_ptr_text((const void *)(%s), wb), \"-1\"))\n", indent, val, val);
    sb_printf(b, "%s        sympu_walk_ptrs((const void *)(%s), %s, %s, %d, %s, %s);\n%s}\n", indent, val,
              count ? count : "-1", fn, str, len, lname, indent);
}

int unit_walkable_ints(const ut_type *ptr)
{
    if (!ptr || ptr->kind != UT_PTR || !ptr->pointee) return 0;
    const ut_type *e = ptr->pointee;
    return (e->kind == UT_INT && !e->is_plain_char) || e->kind == UT_ENUM || e->kind == UT_BOOL;
}

void unit_walk_ints_call(strbuf *b, const ut_type *ptr, const char *indent, const char *val, const char *count)
{
    const ut_type *e = ptr->pointee;
    int sgn = e->kind == UT_ENUM || e->is_signed;
    sb_printf(b, "%s{\n%s    char wb[32];\n", indent, indent);
    sb_printf(b, "%s    if ((%s) && !strcmp(sympu_ptr_text((const void *)(%s), wb), \"-1\"))\n", indent, val, val);
    sb_printf(b, "%s        sympu_walk_ints((const void *)(%s), %s, sizeof *(%s), %d);\n%s}\n", indent, val, count, val,
              sgn, indent);
}
