/* intlist.c: a list whose removal takes one of its own nodes (issue 13: an argument that is an element of another argument). */
#include <stdlib.h>

#include "intlist.h"

intlist *intlist_new(void) { return calloc(1, sizeof(intlist)); }

node *intlist_push(intlist *l, int v)
{
    node *n = malloc(sizeof *n);
    if (!n) return NULL;
    n->v = v;
    n->next = l->head;
    l->head = n;
    l->len++;
    return n;
}

node *intlist_at(intlist *l, int i)
{
    node *n = l->head;
    while (n && i-- > 0) n = n->next;
    return i < 0 ? n : NULL;
}

int intlist_remove(intlist *l, node *n)
{
    for (node **p = &l->head; *p; p = &(*p)->next)
        if (*p == n) {
            *p = n->next;
            free(n);
            l->len--;
            return 1;
        }
    return 0;
}

void intlist_free(intlist *l)
{
    node *n = l->head;
    while (n) {
        node *next = n->next;
        free(n);
        n = next;
    }
    free(l);
}
