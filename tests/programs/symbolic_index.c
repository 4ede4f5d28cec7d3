// A load through an index far past its table: the instrumentation's hook reads the block first and faults there; the crash is reported at the user's line, no runtime function named.
// EXPECT-ERROR: crash 11 11
// EXPECT-ERROR-AT: crash symbolic_index.c:11
extern unsigned __VERIFIER_nondet_uint(void);

static int table[4] = {1, 2, 3, 4};

int main(void) {
    unsigned x = __VERIFIER_nondet_uint();
    if (x > 100000u) {
        if (table[x] == 7) return 1; /* SIGSEGV */
    }
    return 0;
}
