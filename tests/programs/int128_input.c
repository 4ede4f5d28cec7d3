// 128-bit inputs link and run (their values are concrete: expressions are at most 64 bits wide) and the suite replays.
// EXPECT-COVERAGE: 50
// EXPECT-REPLAY-ERRORS
extern __int128 __VERIFIER_nondet_int128(void);
extern unsigned __int128 __VERIFIER_nondet_uint128(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
    __int128 v = __VERIFIER_nondet_int128();
    unsigned __int128 u = __VERIFIER_nondet_uint128();
    int x = __VERIFIER_nondet_int();
    if (x == 5) {
        if (v + (__int128)u > 0) return 1;
    }
    return 0;
}
