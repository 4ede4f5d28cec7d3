/* tree.c: binary search tree code taking pointers (sympath unit benchmark). */
#include <stddef.h>

struct tnode {
    int key;
    struct tnode *left, *right;
};

int tree_contains(const struct tnode *t, int key) {
    while (t != NULL) {
        if (key == t->key) return 1;
        t = key < t->key ? t->left : t->right;
    }
    return 0;
}

int tree_height(const struct tnode *t) {
    if (t == NULL) return 0;
    int l = tree_height(t->left), r = tree_height(t->right);
    return 1 + (l > r ? l : r);
}

/* Whether the tree respects the search order on its first two levels. */
int tree_ordered2(const struct tnode *t) {
    if (!t) return 1;
    if (t->left && t->left->key >= t->key) return 0;
    if (t->right && t->right->key <= t->key) return 0;
    return 1;
}
