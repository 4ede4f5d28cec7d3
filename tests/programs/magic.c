// Nested input-dependent conditions that random testing does not reach: arithmetic, a magic 32-bit constant, bit tricks.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 20
// EXPECT-REPLAY
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "magic.c", 7, "reach_error"); }

int main(void) {
    int x = __VERIFIER_nondet_int();
    unsigned int m = __VERIFIER_nondet_uint();
    unsigned int k = __VERIFIER_nondet_uint();
    int score = 0;
    if (x * 3 == 42) {
        score += 1;
        if ((m ^ 0xdeadbeefu) == 0x12345678u) {
            unsigned int low = k & 0xffu;
            if (((low << 4) | (low >> 4)) == 0x7c7u) {   /* a bit trick on the low byte of k */
                if (x + (int)(k >> 28) == 15) reach_error();
            }
        }
    } else if (x < -1000) {
        score -= 1;
    }
    return score > 100;
}
