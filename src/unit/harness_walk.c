/* harness_walk.c: the harness's record-mode walkers: the memory a call returned or stored in its inputs, written field by field. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"
#include "producers_int.h"

int unit_walkable(const ut_type *ptr)
{
    if (!ptr || ptr->kind != UT_PTR || !ptr->pointee) return 0;
    const ut_type *e = ptr->pointee;
    return (e->kind == UT_INT && e->is_plain_char) || unit_walk_named(e);
}

/* Elements of an array walked, at most. */
#define WALK_ELEMS 16

/* Code recording the value expr (of type t, inside the walker of struct owner) at the path in
 * the C string variable tv; lvl numbers the nested locals. */
static void walk_value(strbuf *b, const char *need, const ut_type *owner, const ut_type *t, const char *expr,
                       const char *tv, int lvl, int bitfield)
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
        if (need[t->id])
            sb_printf(b,
                      "    if (sympu_walk_room()) sympu_wline(%s, \"e\", \"%%s\", sympu_enum_%d((long long)(%s)));\n",
                      tv, t->id, expr);
        else /* reached only by the walk: no sympu_enum_ID, the value as a number */
            sb_printf(b, "    if (sympu_walk_room()) sympu_wline(%s, \"i\", \"%%lld\", (long long)(%s));\n", tv, expr);
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
        } else if (unit_walk_named(e)) {
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
        if (!unit_walk_named(t) || bitfield) break;
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
        walk_value(b, need, owner, e, ex, tn, lvl + 1, 0);
        sb_puts(b, "    }\n");
        break;
    }
    default: break; /* unions, function types: not recorded */
    }
}

/* Types the walk reaches from t, marked in wn (seen: visited): through pointers, arrays, struct
 * fields and union members (a tagged union's member, a counted array's elements), so a walker
 * exists for every named struct a walk may meet, also one the harness itself never fills
 * (parson's JSON_Object, only inside the union of a JSON_Value). */
static void walk_mark(const ut_type *t, char *wn, char *seen)
{
    if (!t || seen[t->id]) return;
    seen[t->id] = wn[t->id] = 1;
    if (t->kind == UT_PTR || t->kind == UT_ARRAY) walk_mark(t->pointee, wn, seen);
    if (t->kind == UT_STRUCT || t->kind == UT_UNION)
        for (size_t i = 0; i < t->nfields; i++) walk_mark(t->fields[i].type, wn, seen);
}

/* Elements of a counted array field f (count field c) of the walker's struct t: elements 0..count-1
 * at tails "names[K]" (a struct array from 1: its first element is walked through the pointer,
 * "->values->"), at most WALK_ELEMS, within the array's heap block. */
static void walk_counted(strbuf *b, const char *need, const ut_type *t, const char *obj, const char *pre, int d,
                         const ut_field *f, const ut_field *c)
{
    const ut_type *e = f->type->pointee;
    sb_printf(b, "    if (%s%s && sympu_walk_fits(vo, room, &%s%s, sizeof %s%s)) {\n", obj, f->name, obj, c->name, obj,
              c->name);
    sb_printf(b, "        size_t eroom%d = sympu_heap_room(%s%s);\n", d, obj, f->name);
    sb_printf(b, "        for (size_t ke%d = %d; ke%d < (size_t)%s%s && ke%d < %d; ke%d++) {\n", d,
              unit_walk_named(e) ? 1 : 0, d, obj, c->name, d, WALK_ELEMS, d);
    sb_printf(b, "            if (!sympu_walk_fits(%s%s, eroom%d, &%s%s[ke%d], sizeof %s%s[ke%d])) break;\n", obj,
              f->name, d, obj, f->name, d, obj, f->name, d);
    sb_printf(b, "            char te%d[260];\n            snprintf(te%d, sizeof te%d, \"%%s%s[%%zu]\", %s, ke%d);\n",
              d, d, d, f->name, pre, d);
    char ex[300], tv[32];
    snprintf(ex, sizeof ex, "%s%s[ke%d]", obj, f->name, d);
    snprintf(tv, sizeof tv, "te%d", d);
    walk_value(b, need, t, e, ex, tv, 4 * d + 2, 0);
    sb_puts(b, "        }\n    }\n");
}

/* A tagged union: union field f of struct t, read by t's tag field (tag_field) whose values are
 * the enumerators of tag_enum, each selecting the member member_of names. The walk records the
 * member the tag selects only: another member's bytes are not what the unit stored. */
static void walk_fields(strbuf *b, const unit_info *u, const char *need, const ut_type *owner, const ut_type *st,
                        const char *obj, const char *pre, int d);

/* An anonymous struct member at obj + name (json-parser's `u.object`, `struct { unsigned int
 * length; json_object_entry *values; }`): no walker can name its type, its fields are walked in
 * place, at tails "u.object.length". */
static void walk_inline(strbuf *b, const unit_info *u, const char *need, const ut_type *owner, const ut_type *st,
                        const char *obj, const char *pre, const char *name, int d)
{
    if (d > 3) return;
    sb_printf(b, "    {\n    char ta%d[260];\n    snprintf(ta%d, sizeof ta%d, \"%%s%s.\", %s);\n", d, d, d, name, pre);
    char o2[300], p2[32];
    snprintf(o2, sizeof o2, "%s%s.", obj, name);
    snprintf(p2, sizeof p2, "ta%d", d);
    walk_fields(b, u, need, owner, st, o2, p2, d + 1);
    sb_puts(b, "    }\n");
}

static void walk_tagged(strbuf *b, const unit_info *u, const char *need, const ut_type *t, const char *obj,
                        const char *pre, int d, const ut_field *f, const ut_field *tag)
{
    const ut_type *un = f->type, *et = unit_walk_tag_enum(u, tag, un);
    int any = 0;
    for (size_t k = 0; et && k < et->nenums; k++) {
        const ut_field *m = unit_walk_member(un, et->enums[k].name);
        if (!m) continue;
        if (!any)
            sb_printf(b, "    if (sympu_walk_fits(vo, room, &%s%s, sizeof %s%s)) {\n", obj, f->name, obj, f->name);
        any = 1;
        sb_printf(b, "    if ((long long)%s%s == %lldLL) {\n", obj, tag->name, (long long)et->enums[k].value);
        char mname[300];
        snprintf(mname, sizeof mname, "%s.%s", f->name, m->name);
        if (unit_walk_anon(m->type)) {
            walk_inline(b, u, need, t, m->type, obj, pre, mname, d);
        } else {
            sb_printf(b, "    char tu%d[260];\n    snprintf(tu%d, sizeof tu%d, \"%%s%s\", %s);\n", d, d, d, mname, pre);
            char ex[600], tv[32];
            snprintf(ex, sizeof ex, "%s%s", obj, mname);
            snprintf(tv, sizeof tv, "tu%d", d);
            walk_value(b, need, t, m->type, ex, tv, 4 * d + 3, 0);
        }
        sb_puts(b, "    }\n");
    }
    if (any) sb_puts(b, "    }\n");
}

/* The fields of struct st at obj ("o->", or "o->u.object." inside an anonymous member), their
 * tails after the C string pre, in the walker of owner; d numbers the nested locals. */
static void walk_fields(strbuf *b, const unit_info *u, const char *need, const ut_type *owner, const ut_type *st,
                        const char *obj, const char *pre, int d)
{
    const ut_field *tag = unit_walk_tag(st);
    for (size_t k = 0; k < st->nfields; k++) {
        const ut_field *f = &st->fields[k];
        if (!*f->name || !f->type) continue;
        if (f->type->kind == UT_UNION && tag && f->type->complete) walk_tagged(b, u, need, owner, obj, pre, d, f, tag);
        if (f->type->kind == UT_UNION || f->type->kind == UT_FUNC || f->type->kind == UT_OTHER) continue;
        if (unit_walk_anon(f->type) && !f->bitfield) {
            sb_printf(b, "    if (sympu_walk_fits(vo, room, &%s%s, sizeof %s%s))\n", obj, f->name, obj, f->name);
            walk_inline(b, u, need, owner, f->type, obj, pre, f->name, d);
            continue;
        }
        if (f->type->kind == UT_STRUCT && !unit_walk_named(f->type)) continue;
        /* a flexible array member (zserge/expr's `char name[]`): its length is the block's, unknown here */
        if (f->type->kind == UT_ARRAY && f->type->count == 0) continue;
        /* the path of the field: the prefix ("->", "x.") and its name */
        if (f->bitfield)
            sb_puts(b, "    {\n");
        else
            sb_printf(b, "    if (sympu_walk_fits(vo, room, &%s%s, sizeof %s%s)) {\n", obj, f->name, obj, f->name);
        sb_printf(b, "    char tf%d[260];\n    snprintf(tf%d, sizeof tf%d, \"%%s%s\", %s);\n", d, d, d, f->name, pre);
        char ex[600], tv[32];
        snprintf(ex, sizeof ex, "%s%s", obj, f->name);
        snprintf(tv, sizeof tv, "tf%d", d);
        walk_value(b, need, owner, f->type, ex, tv, 4 * d + 1, f->bitfield);
        sb_puts(b, "    }\n");
        int cnt;
        if (unit_walk_counted(st, f, &cnt)) walk_counted(b, need, owner, obj, pre, d, f, &st->fields[cnt]);
    }
}

void unit_walk_defs(strbuf *b, const unit_info *u, const char *need)
{
    char *wn = calloc(u->ntypes + 1, 1), *seen = calloc(u->ntypes + 1, 1);
    if (!wn || !seen) {
        free(wn);
        free(seen);
        return;
    }
    for (size_t i = 0; i < u->ntypes; i++)
        if (need[i]) walk_mark(u->types[i], wn, seen);
    free(seen);
    sb_puts(b, "/* ---- walkers: after the call, fresh memory the call returned or stored, field by field ---- */\n");
    sb_puts(b, "#ifdef SYMPATH_UNIT_RECORD\n");
    for (size_t i = 0; i < u->ntypes; i++)
        if (wn[i] && unit_walk_named(u->types[i]))
            sb_printf(
                b,
                "__attribute__((unused)) static void sympu_walk_%zu(const void *vo, const char *prefix, int hops, "
                "int steps);\n",
                i);
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
        if (!wn[i] || !unit_walk_named(t)) continue;
        sb_printf(b, "static void sympu_walk_%zu(const void *vo, const char *prefix, int hops, int steps) {\n", i);
        sb_printf(b, "    const %s *o = vo;\n    (void)o, (void)hops, (void)steps;\n",
                  strncmp(t->spelling, "const ", 6) ? t->spelling : t->spelling + 6);
        /* a block the call allocated may be shorter than the struct (the struct hack: a node
         * allocated without its trailing `kids[1]`): a field past its end is not read */
        sb_puts(b, "    size_t room = sympu_heap_room(vo);\n    (void)room;\n");
        walk_fields(b, u, need, t, t, "o->", "prefix", 0);
        sb_puts(b, "}\n\n");
    }
    sb_puts(b, "#endif\n\n");
    free(wn);
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
    if (unit_walk_named(e))
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
