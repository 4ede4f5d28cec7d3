// A function the program marks __attribute__((const)) (and one marked pure): once instrumented it writes the return-value shadow slot, so the attributes must go or -O2 hides its symbolic result (the branches below were concrete).
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 16
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 5s
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "const_function.c", 8, "reach_error"); }
__attribute__((const)) int square(int x) { return x * x; }
__attribute__((pure)) int is_small(int x) { return x > -10 && x < 10; }

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (square(x) == 49 && is_small(x)) {
        if (x < 0)
            reach_error();
        return 1;
    }
    return 0;
}
