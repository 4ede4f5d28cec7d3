/* tnode.h: a tree whose children have names, copied by tn_add and kept by reference by tn_add_ref (as cJSON's
 * AddItemToObject and AddItemToObjectCS); a test library of sympath unit (tests/e2e/test_unit_refnames.sh). */
#ifndef TNODE_H
#define TNODE_H

typedef struct tnode {
    char *name;
    int name_owned; /* tn_free frees name */
    int value;
    struct tnode *first, *next;
} tnode;

tnode *tn_new(int value);
/* Adds child under parent with a copy of name; 0, or -1 when out of memory. */
int tn_add(tnode *parent, const char *name, tnode *child);
/* Adds child under parent keeping name itself, which must outlive the tree (tn_free does not free it). */
int tn_add_ref(tnode *parent, const char *name, tnode *child);
/* The number of children of t named name. */
int tn_count_named(const tnode *t, const char *name);
void tn_free(tnode *t);

#endif
