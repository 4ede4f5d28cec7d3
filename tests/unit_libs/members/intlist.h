/* intlist.h: a singly linked list of ints whose push returns the node, and a removal by node. */
#ifndef INTLIST_H
#define INTLIST_H

typedef struct node {
    int v;
    struct node *next;
} node;

typedef struct intlist {
    node *head;
    int len;
} intlist;

/* An empty list, NULL when out of memory. */
intlist *intlist_new(void);
/* Push v at the front; the node (owned by l), NULL when out of memory. */
node *intlist_push(intlist *l, int v);
/* The i-th node from the front (0 first), NULL when l has fewer. */
node *intlist_at(intlist *l, int i);
/* Unlink n from l and free it: 1, or 0 when n is not in l (nothing changes). */
int intlist_remove(intlist *l, node *n);
/* Free l and its nodes. */
void intlist_free(intlist *l);

#endif
