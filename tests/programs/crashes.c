// Each input selects a different way to fail: null dereference, division by zero, abort, failed assertion.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: crash 20 11
// EXPECT-ERROR: crash 24 8
// EXPECT-ERROR: abort 26
// EXPECT-ERROR: assertion 28
// EXPECT-REPLAY-ERRORS
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int table[4] = {1, 2, 3, 4};

int main(void) {
    int mode = __VERIFIER_nondet_int();
    int d = __VERIFIER_nondet_int();
    int *p = table;
    if (mode == 7) {
        p = 0;
        return *p;                           /* SIGSEGV */
    }
    if (mode == 8) {
        if (d > 100) return 0;
        return 1000 / (d - 17);              /* SIGFPE when d == 17 */
    }
    if (mode == 9) abort();
    if (mode == 10) {
        assert(d != 12345);
    }
    return 0;
}
