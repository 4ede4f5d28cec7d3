// snprintf("%d") of a symbolic int, then branches on the digits of the output (the snprintf model writes symbolic characters); printf of symbolic values is not a concretization.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 24
// EXPECT-NO-CONCRETIZATION: external_call vararg
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 3s
#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_snprintf.c", 11, "reach_error"); }

int main(void) {
    int x = __VERIFIER_nondet_int();
    char buf[16];
    int n = snprintf(buf, sizeof buf, "v=%d;", x);
    printf("%s (%d chars) from %d\n", buf, n, x);
    int score = 0;
    if (buf[2] == '-')
        score += 1;
    if (n == 6 && buf[2] == '7')
        score += 2;
    if (n == 9 && buf[3] == '4' && buf[5] == '2')
        reach_error();
    char hex[8];
    snprintf(hex, sizeof hex, "%04x", (unsigned)x & 0xffffu);
    if (hex[0] == 'f' && hex[3] == '0')
        score += 4;
    return score;
}
