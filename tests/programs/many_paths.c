// Many paths (a symbolic loop over 40 inputs): exploration is cut by a budget, never exhausted.
// Used by tests/e2e/test_interrupt.sh and test_strategies.sh as well.
// EXPECT-COVERAGE: 100
// SYMPATH-ARGS: --budget 30s --max-execs 600
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int count = 0;
    for (int i = 0; i < 40; i++) {
        int v = __VERIFIER_nondet_int();
        if (v > i) count++;
        else if (v == -i) count += 2;
    }
    return count == 57;
}
