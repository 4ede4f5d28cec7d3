/* kvpool.c: a parser of `key=value;` lists into caller-given node storage (see kvpool.h). */
#include "kvpool.h"

#include <stdlib.h>
#include <string.h>

typedef struct slot_pool {
    kv_pool pool; /* first: a kv_pool * is a slot_pool * */
    kv_node *slots;
    unsigned qty, used;
} slot_pool;

static kv_node *slot_take(kv_pool *pool)
{
    slot_pool *sp = (slot_pool *)pool;
    if (sp->used >= sp->qty) return NULL;
    return &sp->slots[sp->used++];
}

static int is_digits(const char *s)
{
    if (*s == '-') s++;
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

const kv_node *kv_parse_with(char *text, kv_pool *pool)
{
    kv_node *list = pool->take(pool), *last = NULL;
    if (!list) return NULL;
    list->next = NULL;
    list->key = NULL;
    list->u.first = NULL;
    list->kind = KV_LIST;
    char *p = text;
    while (*p) {
        char *eq = strchr(p, '=');
        if (!eq || eq == p) return NULL;
        char *end = strchr(eq + 1, ';');
        if (!end) return NULL;
        *eq = '\0';
        *end = '\0';
        kv_node *n = pool->take(pool);
        if (!n) return NULL;
        n->next = NULL;
        n->key = p;
        n->u.text = eq + 1;
        n->kind = is_digits(eq + 1) ? KV_NUMBER : KV_TEXT;
        if (last)
            last->next = n;
        else
            list->u.first = n;
        last = n;
        p = end + 1;
    }
    return list;
}

const kv_node *kv_parse(char *text, kv_node slots[], unsigned qty)
{
    slot_pool sp = {{slot_take}, slots, qty, 0};
    return kv_parse_with(text, &sp.pool);
}

const kv_node *kv_find(const kv_node *list, const char *key)
{
    for (const kv_node *n = list->u.first; n; n = n->next)
        if (!strcmp(n->key, key)) return n;
    return NULL;
}

int kv_number(const kv_node *list, const char *key, long *out)
{
    const kv_node *n = kv_find(list, key);
    if (!n) return -1;
    if (n->kind != KV_NUMBER) return -2;
    *out = strtol(n->u.text, NULL, 10);
    return 0;
}
