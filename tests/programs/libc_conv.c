// atoi and strtol/strtoul on a symbolic buffer (libc models): bases 10, 16, 0 (prefix rules), the end pointer, a sign, and overflow to LONG_MAX/LONG_MIN with ERANGE as glibc does.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 46
// EXPECT-NO-CONCRETIZATION: external_call
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 5s
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
extern char __VERIFIER_nondet_char(void);
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_conv.c", 12, "reach_error"); }

static void fill(char *b, int n) {
    for (int i = 0; i < n; i++)
        b[i] = __VERIFIER_nondet_char();
    b[n] = '\0';
}

int main(void) {
    char a[4], h[3], q[4], o[21];
    char *end;
    int score = 0;
    switch (__VERIFIER_nondet_int()) {  /* one conversion per run: no product of their paths */
    case 0:
        fill(a, 3);
        if (atoi(a) == -42)
            score += 1;
        break;
    case 1: {
        fill(h, 2);
        long x = strtol(h, &end, 16);
        if (x == 0xbe)
            score += 2;
        else if (end == h + 1 && *end == 'g')
            score += 3;
        break;
    }
    case 2: {
        fill(q, 3);
        unsigned long u = strtoul(q, NULL, 0);
        if (u == 8) {
            score += 4;
            if (q[1] == '1')   /* "010" (octal) rather than "8" or "0x8" */
                reach_error();
        }
        break;
    }
    default: {
        /* 20 digits overflow: LONG_MAX, or LONG_MIN after a '-', with ERANGE */
        for (int i = 1; i < 20; i++)
            o[i] = '9';
        o[20] = '\0';
        o[0] = __VERIFIER_nondet_char();
        errno = 0;
        long big = strtol(o, NULL, 10);
        if (errno == ERANGE) {
            if (big == LONG_MAX)
                score += 8;
            else
                score += 16;
        }
    }
    }
    return score;
}
