// An input-dependent recursion deep enough to overflow the stack: the crash is found, and replay still counts the crashing test's coverage (the flush runs on its own signal stack).
// SYMPATH-ARGS: --budget 4s
// EXPECT-ERROR: crash 0 11
// EXPECT-REPLAY
extern int __VERIFIER_nondet_int(void);

static long depth(long n, volatile char *pad) {
    volatile char buf[512];
    buf[0] = pad ? pad[0] : 0;
    if (n <= 0)
        return buf[0];
    return 1 + depth(n - 1, buf);
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n > 1000000) {
        if (n % 2 == 0)
            return (int)depth(n, 0);   /* 1e6 frames of 512+ bytes: overflows an 8 MiB stack */
        return 3;
    }
    return n > 0;
}
