/* treeval.c: a tiny value parser whose tree is a tagged union (parson's JSON_Value: an int tag, a union, objects with arrays of names and values). */
#include <stdlib.h>
#include <string.h>

enum tv_kind { TV_ERROR = -1, TV_NUMBER = 1, TV_TEXT, TV_LIST, TV_TABLE };
typedef int tv_kind; /* the tag is an int: the enum names the union's members */

typedef struct tv_value tv_value;
typedef struct tv_list {
    tv_value **items;
    size_t count;
} tv_list;
typedef struct tv_table {
    char **names;
    tv_value **values;
    size_t count;
} tv_table;
struct tv_value {
    tv_kind type;
    union {
        double number;
        struct {
            char *chars;
            size_t length;
        } text; /* an anonymous struct member, as json-parser's u.string */
        tv_list *list;
        tv_table *table;
    } u;
};

void tv_free(tv_value *v)
{
    if (!v) return;
    if (v->type == TV_TEXT) free(v->u.text.chars);
    if (v->type == TV_LIST) {
        for (size_t i = 0; i < v->u.list->count; i++) tv_free(v->u.list->items[i]);
        free(v->u.list->items);
        free(v->u.list);
    }
    if (v->type == TV_TABLE) {
        for (size_t i = 0; i < v->u.table->count; i++) {
            free(v->u.table->names[i]);
            tv_free(v->u.table->values[i]);
        }
        free(v->u.table->names);
        free(v->u.table->values);
        free(v->u.table);
    }
    free(v);
}

static tv_value *parse(const char **s, int depth);

/* "7" a number, "'ab'" a text, "(1,'a')" a list, "{k:1,m:'x'}" a table (at most 4 items, 2 deep). */
static tv_value *parse(const char **s, int depth)
{
    if (depth > 2) return NULL;
    tv_value *v = calloc(1, sizeof *v);
    const char *p = *s;
    if (*p >= '0' && *p <= '9') {
        v->type = TV_NUMBER;
        while (*p >= '0' && *p <= '9') v->u.number = v->u.number * 10 + (*p++ - '0');
    } else if (*p == '\'') {
        const char *end = strchr(p + 1, '\'');
        if (!end) goto fail;
        v->type = TV_TEXT;
        v->u.text.length = (size_t)(end - p - 1);
        v->u.text.chars = strndup(p + 1, v->u.text.length);
        p = end + 1;
    } else if (*p == '(' || *p == '{') {
        char close = *p == '(' ? ')' : '}';
        int table = *p++ == '{';
        v->type = table ? TV_TABLE : TV_LIST;
        tv_value **items = calloc(4, sizeof *items);
        char **names = table ? calloc(4, sizeof *names) : NULL;
        size_t n = 0;
        if (table) {
            v->u.table = calloc(1, sizeof *v->u.table);
            v->u.table->values = items;
            v->u.table->names = names;
        } else {
            v->u.list = calloc(1, sizeof *v->u.list);
            v->u.list->items = items;
        }
        while (*p != close) {
            if (n == 4 || (n && *p++ != ',')) goto fail;
            if (table) {
                if (*p < 'a' || *p > 'z' || p[1] != ':') goto fail;
                names[n] = strndup(p, 1);
                p += 2;
            }
            items[n] = parse(&p, depth + 1);
            if (table) v->u.table->count = n + (items[n] != NULL);
            if (!table) v->u.list->count = n + (items[n] != NULL);
            if (!items[n++]) goto fail;
        }
        p++;
    } else {
        goto fail;
    }
    *s = p;
    return v;
fail:
    if (v->type == TV_TABLE && v->u.table->count < 4) free(v->u.table->names[v->u.table->count]);
    tv_free(v);
    return NULL;
}

/* Parse the value text starts with into a new value (tv_free releases it; what follows it is
 * ignored, as parson's json_parse_string does); NULL when malformed. */
tv_value *tv_parse(const char *text)
{
    if (!text) return NULL;
    const char *p = text;
    return parse(&p, 0);
}

static tv_value *number(double x)
{
    tv_value *v = calloc(1, sizeof *v);
    v->type = TV_NUMBER;
    v->u.number = x;
    return v;
}

static tv_value *text(const char *s)
{
    tv_value *v = calloc(1, sizeof *v);
    v->type = TV_TEXT;
    v->u.text.chars = strdup(s);
    v->u.text.length = strlen(s);
    return v;
}

/* A table {k: n, l: (n + 1, name)} for a name of 1 to 8 bytes whose first byte is the key k (a
 * negative n is stored as 0 and the list gets 'neg' instead of the name); NULL for another name. */
tv_value *tv_entry(const char *name, int n)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > 8) return NULL;
    tv_value *v = calloc(1, sizeof *v), *l = calloc(1, sizeof *l);
    v->type = TV_TABLE;
    v->u.table = calloc(1, sizeof *v->u.table);
    v->u.table->names = calloc(2, sizeof(char *));
    v->u.table->values = calloc(2, sizeof(tv_value *));
    v->u.table->names[0] = strndup(name, 1);
    v->u.table->values[0] = number(n < 0 ? 0 : n);
    v->u.table->names[1] = strdup("l");
    l->type = TV_LIST;
    l->u.list = calloc(1, sizeof *l->u.list);
    l->u.list->items = calloc(2, sizeof(tv_value *));
    l->u.list->items[0] = number((double)n + 1);
    l->u.list->items[1] = text(n < 0 ? "neg" : name);
    l->u.list->count = 2;
    v->u.table->values[1] = l;
    v->u.table->count = 2;
    return v;
}
