/* dlist.c: a doubly linked list of opaque values, its nodes made by dl_node_new and linked in by dl_push (sympath unit e2e: an adder returning the item it links in, a container whose items are another type). */
#include "dlist.h"

#include <stdlib.h>

dl_list *dl_new(void)
{
    return calloc(1, sizeof(dl_list));
}

dl_node *dl_node_new(void *val)
{
    dl_node *n = malloc(sizeof *n);
    if (!n) return NULL;
    n->prev = n->next = NULL;
    n->val = val;
    return n;
}

dl_node *dl_push(dl_list *l, dl_node *node)
{
    if (!node) return NULL;
    node->next = NULL;
    node->prev = l->tail;
    if (l->tail)
        l->tail->next = node;
    else
        l->head = node;
    l->tail = node;
    l->len++;
    return node;
}

void dl_remove(dl_list *l, dl_node *node)
{
    if (node->prev)
        node->prev->next = node->next;
    else
        l->head = node->next;
    if (node->next)
        node->next->prev = node->prev;
    else
        l->tail = node->prev;
    free(node);
    l->len--;
}

dl_node *dl_at(dl_list *l, int index)
{
    int from_tail = index < 0;
    unsigned k = from_tail ? (unsigned)(-(index + 1)) : (unsigned)index;
    if (k >= l->len) return NULL;
    dl_node *n = from_tail ? l->tail : l->head;
    while (k--) n = from_tail ? n->prev : n->next;
    return n;
}

int dl_count(const dl_list *l, const void *val)
{
    int c = 0;
    for (const dl_node *n = l->head; n; n = n->next)
        if (n->val == val) c++;
    return c;
}

void dl_destroy(dl_list *l)
{
    dl_node *n = l ? l->head : NULL;
    while (n) {
        dl_node *next = n->next;
        free(n);
        n = next;
    }
    free(l);
}
