/* table.h: a small set of names (table.c), used by store.c; a test library of sympath unit
 * (tests/e2e/test_unit_mocked_release.sh gives store.c alone: these functions are mocks there). */
#ifndef TABLE_H
#define TABLE_H
#include <stddef.h>

typedef struct table {
    char **names;
    size_t n, cap;
} table;

table *table_new(size_t cap);
int table_add(table *t, const char *name);
int table_find(const table *t, const char *name);
void table_free(table *t);

#endif
