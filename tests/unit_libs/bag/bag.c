/* bag.c: a keyed container that takes ownership of the values put into it (the shape of parson's JSON_Object and json_object_set_value), for test_unit_bag. */
#include <stdlib.h>
#include <string.h>

typedef struct value {
    int n;
} value;

typedef struct bag {
    char *keys[4];
    value *vals[4];
    int count;
} bag;

enum bag_status { BAG_OK = 0, BAG_FAIL = -1 };

value *value_new(int n)
{
    value *v = malloc(sizeof *v);
    if (v) v->n = n;
    return v;
}

void value_free(value *v) { free(v); }

bag *bag_new(void) { return calloc(1, sizeof(bag)); }

void bag_free(bag *b)
{
    if (!b) return;
    for (int i = 0; i < b->count; i++) {
        free(b->keys[i]);
        value_free(b->vals[i]);
    }
    free(b);
}

/* Puts v under key: the bag owns v from then on (bag_free frees it). BAG_FAIL for a missing argument,
 * an empty key, a key already there or a full bag. */
int bag_put(bag *b, const char *key, value *v)
{
    if (!b || !key || !v || !key[0]) return BAG_FAIL;
    for (int i = 0; i < b->count; i++)
        if (!strcmp(b->keys[i], key)) return BAG_FAIL;
    if (b->count == 4) return BAG_FAIL;
    b->keys[b->count] = strdup(key);
    if (!b->keys[b->count]) return BAG_FAIL;
    b->vals[b->count++] = v;
    return BAG_OK;
}
