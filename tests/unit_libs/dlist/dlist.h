/* dlist.h: a doubly linked list of opaque values whose nodes come from their own constructor (sympath unit e2e). */
#ifndef DLIST_H
#define DLIST_H

typedef struct dl_node {
    struct dl_node *prev, *next;
    void *val;
} dl_node;

typedef struct {
    dl_node *head, *tail;
    unsigned len;
} dl_list;

dl_list *dl_new(void);
dl_node *dl_node_new(void *val);
/* appends node (NULL: nothing); returns node */
dl_node *dl_push(dl_list *l, dl_node *node);
/* unlinks node, which must be in l, and frees it */
void dl_remove(dl_list *l, dl_node *node);
/* the node at index (negative: from the tail), NULL when out of range */
dl_node *dl_at(dl_list *l, int index);
/* how many nodes hold val */
int dl_count(const dl_list *l, const void *val);
void dl_destroy(dl_list *l);

#endif
