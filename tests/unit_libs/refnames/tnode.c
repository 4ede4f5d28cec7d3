/* tnode.c: a tree whose children have names, copied or kept by reference (see tnode.h). */
#include "tnode.h"

#include <stdlib.h>
#include <string.h>

tnode *tn_new(int value)
{
    tnode *t = calloc(1, sizeof *t);
    if (t) t->value = value;
    return t;
}

static int link_child(tnode *parent, char *name, int owned, tnode *child)
{
    if (!parent || !child || !name) return -1;
    child->name = name;
    child->name_owned = owned;
    child->next = parent->first;
    parent->first = child;
    return 0;
}

int tn_add(tnode *parent, const char *name, tnode *child)
{
    char *copy = name ? strdup(name) : NULL;
    if (link_child(parent, copy, 1, child) != 0) {
        free(copy);
        return -1;
    }
    return 0;
}

int tn_add_ref(tnode *parent, const char *name, tnode *child) { return link_child(parent, (char *)name, 0, child); }

int tn_count_named(const tnode *t, const char *name)
{
    int n = 0;
    for (const tnode *c = t->first; c; c = c->next)
        if (!strcmp(c->name, name)) n++;
    return n;
}

void tn_free(tnode *t)
{
    while (t) {
        tnode *next = t->next;
        tn_free(t->first);
        if (t->name_owned) free(t->name);
        free(t);
        t = next;
    }
}
