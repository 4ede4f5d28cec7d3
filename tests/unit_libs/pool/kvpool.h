/* kvpool.h: a parser of `key=value;` lists into nodes taken from storage the caller gives (no malloc), as
 * embedded parsers do; a test library of sympath unit (producers with a storage array, tests/e2e/test_unit_pool.sh). */
#ifndef KVPOOL_H
#define KVPOOL_H

typedef enum { KV_LIST, KV_TEXT, KV_NUMBER } kv_kind;

typedef struct kv_node {
    struct kv_node *next;
    const char *key;
    union {
        const char *text;
        struct kv_node *first;
    } u;
    kv_kind kind;
} kv_node;

/* where nodes come from: take() returns a free node or NULL when none is left */
typedef struct kv_pool {
    kv_node *(*take)(struct kv_pool *pool);
} kv_pool;

/* Parses text in place (it writes NULs into it) with nodes from pool; the list node, or NULL on a syntax error. */
const kv_node *kv_parse_with(char *text, kv_pool *pool);
/* The same with nodes from slots[0 .. qty-1]. */
const kv_node *kv_parse(char *text, kv_node slots[], unsigned qty);
/* The node of key in list, or NULL. */
const kv_node *kv_find(const kv_node *list, const char *key);
/* The number under key: 0 and *out set, -1 when key is missing, -2 when its value is text. */
int kv_number(const kv_node *list, const char *key, long *out);

#endif
