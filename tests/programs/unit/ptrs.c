/* ptrs.c: NULL and aliasing checks, and a singly linked list (sympath unit e2e). */
#include <stddef.h>

struct node {
    int value;
    struct node *next;
};

/* Copies *src into *dst; the aliasing case and NULL are handled apart. */
int copy_value(int *dst, const int *src) {
    if (dst == NULL || src == NULL) return -1;
    if (dst == src) return 0;
    *dst = *src + 1;
    return 1;
}

/* Counts the nodes of a list and how many hold the key. */
int list_count(const struct node *head, int key, int *hits) {
    int n = 0;
    *hits = 0;
    for (const struct node *p = head; p != NULL; p = p->next) {
        n++;
        if (p->value == key) (*hits)++;
    }
    return n;
}
