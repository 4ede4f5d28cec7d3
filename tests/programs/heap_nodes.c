// Many small heap nodes, each with a symbolic field: shadow memory must not come from the program's heap (it once took a 32 KiB shadow page per node and the run died of the memory limit).
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 31
// EXPECT-REPLAY
// SYMPATH-ARGS: --mem-limit 160 --budget 3s
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "heap_nodes.c", 9, "reach_error"); }

#define NODES 20000

struct node {
    struct node *next;
    int key;
};

int main(void) {
    struct node *head = NULL;
    int marked = 0;
    for (int i = 0; i < NODES; i++) {
        struct node *n = malloc(sizeof *n);
        n->key = __VERIFIER_nondet_int();
        n->next = head;
        head = n;
    }
    for (struct node *n = head; n; n = n->next)
        if (n->key == 7) marked++;
    /* the last node read is at the head: only reachable once the whole list was built */
    if (head->key == 1234)
        reach_error();
    return marked;
}
