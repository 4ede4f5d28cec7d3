// Float branches that need exact values: products, NaN and infinity tests, casts at the edges of int, float <-> double.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 24
// EXPECT-NO-CONCRETIZATION: float
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 8s --solver-timeout 4s
#include <math.h>
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "float_exact.c", 11, "reach_error"); }

static int classify(float x) {
    if (isnan(x)) return 0;
    if (isinf(x)) return x > 0 ? 1 : 2;
    if (x == 0.0f) return signbit(x) ? 3 : 4;   /* -0.0f and +0.0f compare equal: the sign bit tells */
    if (fabsf(x) < 0x1p-126f) return 5;          /* denormal */
    return 6;
}

int main(void) {
    float x = __VERIFIER_nondet_float();
    int c = classify(x);
    if (x * 3.0f == 7.5f) reach_error();         /* only x == 2.5f */
    if (x != x) return 10 + c;
    if (c == 6) {
        int i = (int)x;                          /* x86: out of range gives INT_MIN */
        if (i == -2147483647 - 1) return 20;
        if (i == 2147483520) return 21;          /* the largest float below 2^31 */
        unsigned char u = (unsigned char)x;
        if (u == 200 && x < 0) return 22;        /* (unsigned char)-56.x is 200 */
        double d = x;                            /* fpext is exact */
        if (d * 0.1 == 1.0) return 23;           /* double arithmetic on a float input */
        float back = (float)(d / 3.0);
        if (back == 1.0f / 3.0f) return 24;      /* x == 1.0f */
    }
    double y = __VERIFIER_nondet_double();
    long n = (long)y;
    if (n == 1000000000000L && y != 1e12) return 30;   /* a fraction above 10^12 */
    if ((float)y == 0.1f && y != (double)0.1f) return 31; /* rounds to the float 0.1f */
    return c;
}
