// Concrete mode: an input-free helper called with concrete and with symbolic arguments, and one called with concrete arguments on symbolic memory.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 25
// EXPECT-ERROR: reach_error 44
// EXPECT-REPLAY
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "concrete_mode.c", 8, "reach_error"); }

static int table[8];

/* Input-free: called with a concrete argument while no memory is symbolic, it runs as its
 * concrete copy, whose branches must still count (v < 0 and the switch cases are covered
 * by the concrete calls only); called with a symbolic one, it is instrumented and its
 * error is found. */
static int score(int v, const char *tag) {
    int s = (int)strlen(tag);              /* a model call: the model's copy in concrete mode */
    switch (v & 3) {
    case 0: s += 1; break;
    case 1: s += 2; break;
    default: break;
    }
    if (v < 0) return -s;
    if (v > 1000 && v % 977 == 3) reach_error();
    if (v > 5 && v < 10) s += score(v - 5, tag);   /* recursion: the copy calls the copy */
    return s;
}

/* Input-free, called with concrete arguments only, but the memory it reads holds a
 * symbolic value: it must not run as its copy, or a[i] > 50 would never be flipped. */
static int count_big(const int *a, int n) {
    int c = 0;
    for (int i = 0; i < n; i++)
        if (a[i] > 50) c++;
    return c;
}

int main(void) {
    int total = score(-4, "ab") + score(1, "c") + score(7, "xyz");   /* before any input */
    int x = __VERIFIER_nondet_int();
    if (x > 0) total += score(x, "sym");
    table[3] = __VERIFIER_nondet_int();   /* memory is symbolic from here on */
    if (count_big(table, 8) == 1) reach_error();
    return total == 12345;
}
