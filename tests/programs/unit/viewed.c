/* viewed.c: a value type whose table is reached only through an accessor of a value (a view, as JSON libraries give an object of a value), for test_unit_views.sh. */
#include <stdlib.h>
#include <string.h>

typedef struct table table;
typedef struct val val;

struct table {
    char *keys[4];
    double nums[4];
    int count;
    val *owner;
};

struct val {
    int kind; /* 0 number, 1 table */
    double num;
    table tab;
};

val *val_new_num(double x)
{
    val *v = calloc(1, sizeof *v);
    if (v) v->num = x;
    return v;
}

val *val_new_table(void)
{
    val *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->kind = 1;
    v->tab.owner = v;
    return v;
}

/* a number from a code (a type no other argument has: its fill function is the nested producer's own) */
val *val_from_code(unsigned short code) { return val_new_num((double)(code % 100)); }

/* the table of v, or NULL when v is not a table: a view into v, not a new object */
table *val_table(const val *v) { return v && v->kind == 1 ? (table *)&v->tab : NULL; }

/* the value a table belongs to: a producer of a val that needs a table first (none made field by field) */
val *table_owner(const table *t) { return t ? t->owner : NULL; }

/* a value's number, a table's size */
double val_number(const val *v)
{
    if (v->kind == 1) return v->tab.count > 0 ? v->tab.count : -1;
    return v->num > 10 ? 10 : v->num;
}

void val_free(val *v)
{
    if (!v) return;
    for (int i = 0; i < v->tab.count; i++) free(v->tab.keys[i]);
    free(v);
}

int table_set_num(table *t, const char *key, double x)
{
    if (!t || !key) return -1;
    for (int i = 0; i < t->count; i++)
        if (!strcmp(t->keys[i], key)) {
            t->nums[i] = x;
            return 0;
        }
    if (t->count == 4) return -1;
    t->keys[t->count] = strdup(key);
    t->nums[t->count++] = x;
    return 0;
}

/* the number stored under key, or fallback: the key's index counts, a negative number is clamped */
double table_get_num(const table *t, const char *key, double fallback)
{
    if (!t) return -1; /* a NULL table: the test builds no value for it (nothing to release) */
    if (!key) return fallback;
    for (int i = 0; i < t->count; i++) {
        if (strcmp(t->keys[i], key) != 0) continue;
        if (t->nums[i] < 0) return 0;
        return t->nums[i] + i;
    }
    return t->count > 2 ? -fallback : fallback;
}
