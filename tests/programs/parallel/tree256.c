// A tree of 8 independent byte tests (256 feasible paths, all reachable) with an error on one path:
// small enough to exhaust in a few seconds with any number of workers (tests/e2e/test_parallel.sh).
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "tree256.c", 5, "reach_error"); }

int main(void)
{
    unsigned char b[8];
    unsigned score = 0;
    for (int i = 0; i < 8; i++) b[i] = __VERIFIER_nondet_uchar();
    if (b[0] * 3 + 1 == 100) score |= 1;
    if ((b[1] ^ 0x5a) == 0x33) score |= 2;
    if (b[2] > 200) score |= 4;
    if (b[3] % 7 == 3) score |= 8;
    if (b[4] == b[5]) score |= 16;
    if (b[5] < 10) score |= 32;
    if ((unsigned char)(b[6] + b[7]) == 42) score |= 64;
    if (b[7] & 0x80) score |= 128;
    if (score == 0xa5) reach_error();
    return (int)(score & 1);
}
