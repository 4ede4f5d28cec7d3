// Concrete-mode clones of functions whose signatures name self-referential structs: the copies must keep the original types (the link once gave them fresh anonymous ones and the module did not verify).
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 47
// EXPECT-REPLAY
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "recursive_types.c", 8, "reach_error"); }

struct item {
    struct item *next, *prev;
    struct tree *owner;
    int weight;
};
struct tree {
    struct item *first;
    struct tree *parent;
};

/* input-free, with struct pointers in and out: each gets a concrete-mode copy */
static struct item *push(struct tree *t, int weight) {
    struct item *it = malloc(sizeof *it);
    it->next = t->first;
    it->prev = NULL;
    it->owner = t;
    it->weight = weight;
    if (t->first) t->first->prev = it;
    t->first = it;
    return it;
}

static int length(const struct tree *t) {
    int n = 0;
    for (const struct item *it = t->first; it; it = it->next) n++;
    return n;
}

int main(void) {
    struct tree root = {NULL, NULL};
    struct tree leaf = {NULL, &root};
    for (int i = 0; i < 3; i++) push(&root, i);
    int extra = __VERIFIER_nondet_int();
    if (extra < 0 || extra > 6) return 0;
    for (int i = 0; i < extra; i++) push(&leaf, i);
    int n = length(&leaf) + length(leaf.parent);
    if (n == 8)
        reach_error();
    return n;
}
