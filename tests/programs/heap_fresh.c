// Reads malloc'd memory before writing it: the executor starts main with an untouched heap, so the native replay must too (the replay library once freed its FILE and arrays into the program's heap, and the reproducer read old bytes there and ended normally).
// EXPECT-COVERAGE: 80
// EXPECT-ERROR: reach_error 26
// EXPECT-REPLAY
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "heap_fresh.c", 8, "reach_error"); }

/* 1 when none of the first n bytes of a new block of n bytes is set */
static int fresh_block(size_t n) {
    unsigned char *p = malloc(n);
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

int main(void) {
    int k = __VERIFIER_nondet_int(); /* the replay library reads the test case here */
    static const size_t sizes[] = { 8, 24, 100, 472, 512, 1000, 4096, 70000 };
    int fresh = 1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        fresh &= fresh_block(sizes[i]);
    if (k == 42 && fresh)
        reach_error();
    return 0;
}
