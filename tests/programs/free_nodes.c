// Frees heap nodes that hold symbolic fields: free() does not read the bytes it releases, so no external-call concretization may be counted (every free of such a node once counted one, thousands per run on list programs).
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 33
// EXPECT-NO-CONCRETIZATION: external_call
// EXPECT-REPLAY
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "free_nodes.c", 9, "reach_error"); }

struct item {
    int weight;
    struct item *next;
};

int main(void) {
    struct item *list = NULL;
    int total = 0;
    for (int i = 0; i < 4; i++) {
        struct item *it = malloc(sizeof *it);
        it->weight = __VERIFIER_nondet_int();
        it->next = list;
        list = it;
    }
    while (list) {
        struct item *next = list->next;
        if (list->weight > 0 && list->weight < 100)
            total += list->weight;
        free(list);
        list = next;
    }
    if (total == 250)
        reach_error();
    return 0;
}
