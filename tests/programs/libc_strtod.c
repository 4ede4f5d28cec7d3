// atof, strtod and strtof on a symbolic buffer (libc models, Clinger's exact fast path): a fraction, a sign, an exponent, the end pointer, and an exact comparison with 0.1 that only the decimal text ".1" or "0.1" (or 1e-1) reaches.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 30
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 60s --max-execs 3000
#include <stdlib.h>
extern char __VERIFIER_nondet_char(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_strtod.c", 9, "reach_error"); }

static void fill(char *b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = __VERIFIER_nondet_char();
    b[n] = '\0';
}

int main(void)
{
    char a[5], b[5];
    fill(a, 4);
    fill(b, 4);
    double d = atof(a);
    int r = 0;
    if (d > 15.5)
        r += 1;
    if (d < -2.25)
        r += 2;
    if (d == 0.1)
        reach_error();
    char *end;
    float f = strtof(b, &end);
    if (end != b && *end == 'x')
        r += 4;
    if (f >= 2.5e3f)
        r += 8;
    return r;
}
