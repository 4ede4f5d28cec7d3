/* walk_shape.c: how the walk reads a struct's shape: named structs, counted arrays (a pointer and its count field), tagged unions (a tag, the enum naming the members), anonymous struct members. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "harness_int.h"

/* A complete struct generated code can name (no anonymous one). */
int unit_walk_named(const ut_type *t)
{
    return t && t->kind == UT_STRUCT && t->complete && t->size > 0 && !strstr(t->spelling, "(unnamed") &&
           !strstr(t->spelling, "(anonymous");
}

/* Whether name (lower-cased) is one a count of elements has: count, length, ... */
static int count_name(const char *n, const char *arr)
{
    static const char *const plain[] = {"count", "length", "len", "size", "n", "num", "nitems", "nelems", "used"};
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
        if (!strcasecmp(n, plain[i])) return 2;
    /* the array's own: n_items, nitems, items_count, items_len, num_items */
    size_t al = strlen(arr), nl = strlen(n);
    if (nl > al && !strcasecmp(n + nl - al, arr) && (n[0] == 'n' || n[0] == 'N')) return 3;
    if (nl > al && !strncasecmp(n, arr, al) && (strcasestr(n + al, "count") || strcasestr(n + al, "len"))) return 3;
    return 0;
}

/* The integer field of struct s giving the number of elements of its pointer field arr (an
 * array the struct owns: parson's `char **names` with `size_t count`), or -1. The array's own
 * name (`n_items`) comes before a plain one (`count`); a capacity is no count. */
static int count_field(const ut_type *s, const ut_field *arr)
{
    int best = -1, score = 0;
    for (size_t i = 0; i < s->nfields; i++) {
        const ut_field *f = &s->fields[i];
        if (f == arr || f->bitfield || !f->type || f->type->kind != UT_INT || f->type->is_char) continue;
        int sc = count_name(f->name, arr->name);
        if (sc > score) best = (int)i, score = sc;
    }
    return best;
}

/* Whether pointer field f of struct s points to an array the walk follows element by element:
 * of strings or of pointers to named structs (`JSON_Value **values`), or of named structs
 * (`json_object_entry *values`), with a count field; its index in *cnt. */
int unit_walk_counted(const ut_type *s, const ut_field *f, int *cnt)
{
    const ut_type *t = f->type;
    if (!t || t->kind != UT_PTR || !t->pointee || f->bitfield) return 0;
    const ut_type *e = t->pointee;
    int ok = unit_walk_named(e) ||
             (e->kind == UT_PTR && e->pointee &&
              ((e->pointee->kind == UT_INT && e->pointee->is_plain_char) || unit_walk_named(e->pointee)));
    if (!ok || (*cnt = count_field(s, f)) < 0) return 0;
    /* a pointer to one struct (`JSON_Value *wrapping_value` next to `count`) is no array: an
     * array of structs is named as one (`entries`) or has a count of its own (`n_entries`) */
    size_t l = strlen(f->name);
    return !unit_walk_named(e) || (l > 1 && f->name[l - 1] == 's') || count_name(s->fields[*cnt].name, f->name) == 3;
}

/* Whether a union member named m carries no value (parson's `int null`): not walked. */
static int valueless(const char *m)
{
    static const char *const w[] = {"null", "none", "nil", "empty", "undefined", "unused"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (!strcasecmp(m, w[i])) return 1;
    return 0;
}

/* Whether m is an abbreviation of word w: its letters in order in w, the first letters equal, case
 * aside (json-parser's `dbl` of json_double). */
static int abbreviates(const char *m, const char *w)
{
    if (tolower((unsigned char)*m) != tolower((unsigned char)*w)) return 0;
    for (; *m && *w; w++)
        if (tolower((unsigned char)*m) == tolower((unsigned char)*w)) m++;
    return !*m;
}

/* The union member the enumerator named en selects: the member whose name en contains, case
 * aside, the longest (parson's JSONNumber -> number, JSONObject -> object), else one abbreviating
 * en's last word after a '_' (json_double -> dbl); a member of fewer than 3 letters, or one
 * carrying no value, matches none. NULL: none. */
const ut_field *unit_walk_member(const ut_type *un, const char *en)
{
    const ut_field *m = NULL;
    int best = 0;
    const char *word = strrchr(en, '_');
    for (size_t j = 0; j < un->nfields; j++) {
        const ut_field *c = &un->fields[j];
        if (!c->type || !*c->name || c->bitfield || strlen(c->name) < 3 || valueless(c->name)) continue;
        int sc = strcasestr(en, c->name) ? 2 * (int)strlen(c->name) : word && abbreviates(c->name, word + 1);
        if (sc > best) m = c, best = sc;
    }
    return m && m->type->kind != UT_UNION ? m : NULL;
}

/* The enum whose enumerators name a tagged union's members: the tag's own type when it is an
 * enum, else the unit's enum (parse.c interns every one) whose enumerators select the most members
 * of un, at least two (parson's `typedef int JSON_Value_Type` and `enum json_value_type`). */
const ut_type *unit_walk_tag_enum(const unit_info *u, const ut_field *tag, const ut_type *un)
{
    if (tag->type->kind == UT_ENUM) return tag->type;
    const ut_type *best = NULL;
    size_t most = 1;
    for (size_t i = 0; i < u->ntypes; i++) {
        const ut_type *et = u->types[i];
        if (et->kind != UT_ENUM) continue;
        size_t n = 0;
        for (size_t k = 0; k < et->nenums; k++) n += unit_walk_member(un, et->enums[k].name) != NULL;
        if (n > most) best = et, most = n;
    }
    return best;
}

/* Whether t is a complete struct no walker can name (an anonymous struct member). */
int unit_walk_anon(const ut_type *t)
{
    return t && t->kind == UT_STRUCT && t->complete && !unit_walk_named(t) && t->nfields > 0;
}

/* The tag of a tagged union in struct t: its first enum field, else an integer field named type,
 * kind or tag (parson's `JSON_Value_Type type`, an int); NULL: none. */
const ut_field *unit_walk_tag(const ut_type *t)
{
    for (size_t k = 0; k < t->nfields; k++)
        if (t->fields[k].type && t->fields[k].type->kind == UT_ENUM && !t->fields[k].bitfield) return &t->fields[k];
    for (size_t k = 0; k < t->nfields; k++) {
        const ut_field *f = &t->fields[k];
        if (!f->type || f->type->kind != UT_INT || f->type->is_char || f->bitfield) continue;
        if (!strcasecmp(f->name, "type") || !strcasecmp(f->name, "kind") || !strcasecmp(f->name, "tag")) return f;
    }
    return NULL;
}
