/* owned.c: functions that free or reallocate their input objects (sympath unit e2e: heap-allocated inputs). */
#include <stdlib.h>

struct node {
    int v;
    struct node *next;
};

struct list {
    struct node *head;
    size_t len;
};

/* Unlinks and frees the first node holding v. */
int list_remove(struct list *l, int v) {
    struct node **pp = &l->head;
    while (*pp) {
        if ((*pp)->v == v) {
            struct node *d = *pp;
            *pp = d->next;
            free(d);
            l->len--;
            return 1;
        }
        pp = &(*pp)->next;
    }
    return 0;
}

struct buf {
    char *data;
    size_t len, cap;
};

/* Appends c, growing the storage with realloc. */
int buf_push(struct buf *b, char c) {
    if (b->len == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 4;
        char *nd = realloc(b->data, nc);
        if (!nd) return -1;
        b->data = nd;
        b->cap = nc;
    }
    b->data[b->len++] = c;
    return 0;
}
