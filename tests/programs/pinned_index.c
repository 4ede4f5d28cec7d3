// A store through a symbolic index pins the index to its value in that run; a later branch on the index (or a loop bound made of it) is still flipped: the solver drops the pin when the path condition is UNSAT with it (explorer.c, explore_solve_unpinned).
// EXPECT-ERROR: reach_error 22
// EXPECT-REPLAY-ERRORS
// SYMPATH-ARGS: --budget 2s
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "pinned_index.c", 7, "reach_error"); }

int main(void)
{
    int n = __VERIFIER_nondet_int();
    if (n < 1 || n > 1000) return 0;
    long *v = malloc(1001 * sizeof *v);
    if (!v) return 0;
    v[n] = -1; /* the address depends on n: pinned */
    int sum = 0;
    for (int i = 0; i < n; i++) {
        v[i] = __VERIFIER_nondet_int();
        if (v[i] == 7) sum++;
    }
    if (n == 3 && sum == 2) reach_error();
    return 0;
}
