/* doc.c: a small document tree (integers, lists, maps with string keys) built through its own API (sympath unit e2e: containers). */
#include <stdlib.h>
#include <string.h>

enum { DOC_INT, DOC_LIST, DOC_MAP };

typedef struct node {
    int kind;
    int value;
    char *key; /* its key when it is in a map */
    struct node *first, *next;
} node;

static node *node_new(int kind, int value)
{
    node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->value = value;
    }
    return n;
}

node *node_new_int(int value) { return node_new(DOC_INT, value); }
node *node_new_list(void) { return node_new(DOC_LIST, 0); }
node *node_new_map(void) { return node_new(DOC_MAP, 0); }

static void append(node *c, node *item)
{
    node **p = &c->first;
    while (*p) p = &(*p)->next;
    *p = item;
}

/* The value under key in map, or NULL. */
static const node *map_get(const node *map, const char *key)
{
    for (const node *c = map->first; c; c = c->next)
        if (strcmp(c->key, key) == 0) return c;
    return NULL;
}

/* Adds item at the end of list (which owns it from then on); 0 when list is no list. */
int node_list_add(node *list, node *item)
{
    if (list == NULL || item == NULL || list->kind != DOC_LIST) return 0;
    append(list, item);
    return 1;
}

/* Stores val under a copy of key in map (which owns val from then on); 0 when map is no map or the
 * key is already there. */
int node_map_set(node *map, const char *key, node *val)
{
    if (map == NULL || val == NULL || map->kind != DOC_MAP || key == NULL) return 0;
    if (map_get(map, key) != NULL) return 0;
    val->key = malloc(strlen(key) + 1);
    if (val->key == NULL) return 0;
    strcpy(val->key, key);
    append(map, val);
    return 1;
}

void node_free(node *n)
{
    while (n) {
        node *next = n->next;
        node_free(n->first);
        free(n->key);
        free(n);
        n = next;
    }
}

/* Whether a and b hold the same document (a map's keys in any order). */
int node_equal(const node *a, const node *b)
{
    if (a->kind != b->kind) return 0;
    if (a->kind == DOC_INT) return a->value == b->value;
    size_t na = 0, nb = 0;
    for (const node *c = a->first; c; c = c->next) na++;
    for (const node *c = b->first; c; c = c->next) nb++;
    if (na != nb) return 0;
    const node *y = b->first;
    for (const node *x = a->first; x; x = x->next) {
        if (a->kind == DOC_MAP) {
            y = map_get(b, x->key);
            if (y == NULL) return 0; /* a key of a that b lacks */
        }
        if (!node_equal(x, y)) return 0;
        if (a->kind == DOC_LIST) y = y->next;
    }
    return 1;
}

/* How deep containers nest in n: 0 for an integer, 1 for a container of integers, ... */
int node_depth(const node *n)
{
    if (n->kind == DOC_INT) return 0;
    int best = 0;
    for (const node *c = n->first; c; c = c->next) {
        if (c->kind == DOC_INT) continue;
        int d = node_depth(c); /* a container inside a container */
        if (d > best) best = d;
    }
    return best + 1;
}

/* The integers in n, its items' and their items' (a document nests two levels deep at most); -1 when
 * it nests deeper. */
int node_ints(const node *n)
{
    if (n->kind == DOC_INT) return 1;
    int k = 0;
    for (const node *c = n->first; c; c = c->next) {
        if (c->kind == DOC_INT) {
            k++;
            continue;
        }
        for (const node *g = c->first; g; g = g->next) { /* an item of an item */
            if (g->kind != DOC_INT) return -1;
            k++;
        }
    }
    return k;
}
