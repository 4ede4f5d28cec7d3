/* table.c: a small set of names (see table.h). */
#include "table.h"

#include <stdlib.h>
#include <string.h>

table *table_new(size_t cap)
{
    table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->names = calloc(cap ? cap : 1, sizeof *t->names);
    t->cap = cap;
    return t;
}

int table_add(table *t, const char *name)
{
    if (t->n == t->cap) return -1;
    t->names[t->n] = strdup(name);
    return t->names[t->n] ? (int)t->n++ : -1;
}

int table_find(const table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->names[i], name)) return (int)i;
    return -1;
}

void table_free(table *t)
{
    for (size_t i = 0; t && i < t->n; i++) free(t->names[i]);
    if (t) free(t->names);
    free(t);
}
