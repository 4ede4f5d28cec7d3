/* store.c: a named store over a table of table.c; a test library of sympath unit: given alone, its calls of
 * table.c are mocks, and store_close, the destructor, calls one (tests/e2e/test_unit_mocked_release.sh). */
#include <stdlib.h>
#include <string.h>

#include "table.h"

typedef struct store {
    char label[16];
    table *t;
} store;

store *store_new(const char *label)
{
    store *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    strncpy(s->label, label, sizeof s->label - 1);
    s->t = table_new(8);
    if (!s->t) {
        free(s);
        return NULL;
    }
    return s;
}

/* 1 when name is in s, 0 when not, -1 when name is empty. */
int store_has(const store *s, const char *name)
{
    if (!*name) return -1;
    return table_find(s->t, name) >= 0;
}

void store_free(store *s)
{
    if (!s) return;
    table_free(s->t);
    free(s);
}
