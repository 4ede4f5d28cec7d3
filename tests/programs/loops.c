// A loop with a symbolic bound over an array, an overflow check and an assumption.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 27
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 30s --max-execs 400
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "loops.c", 8, "reach_error"); }

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 8);
    int a[8];
    for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
    int sum = 0, negatives = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] < 0) negatives++;
        int t;
        if (__builtin_add_overflow(sum, a[i], &t)) {
            sum = 0;
        } else {
            sum = t;
        }
    }
    if (n == 5 && negatives == 2 && sum == 1234) {
        reach_error();
    }
    return 0;
}
