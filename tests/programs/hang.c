// On one input the program loops forever: sympath reports a hang (time-out) with a reproducer.
// EXPECT-ERROR: timeout 0
// SYMPATH-ARGS: --timeout 300ms
extern int __VERIFIER_nondet_int(void);
int main(void) {
    volatile int x = __VERIFIER_nondet_int();
    if (x == 4242) {
        for (;;) x = x + 1;
    }
    return 0;
}
