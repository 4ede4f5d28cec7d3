// In the style of the sv-benchmarks float tasks: an assumed input range, a polynomial and a Newton step, and the
// exponent and mantissa taken apart through a union (integer operations on a double's bits stay symbolic).
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 42
// EXPECT-NO-CONCRETIZATION: float
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 40s --solver-timeout 4s
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "float_bits_poly.c", 11, "reach_error"); }

union parts {
    double d;
    unsigned int w[2];   /* little endian: w[1] holds sign, exponent and the top of the mantissa */
};

/* a = m * 2^e with m in [1, 2), by rewriting the exponent field */
static double split(double a, int *e) {
    union parts u;
    u.d = a;
    *e = (int)((u.w[1] >> 20) & 0x7ff) - 1023;
    u.w[1] = (u.w[1] & 0x800fffffu) | 0x3ff00000u;
    return u.d;
}

/* a rough log2: exponent plus a quadratic in the mantissa */
static double log2_approx(double a) {
    int e;
    double t = split(a, &e) - 1.0;
    return e + t * (1.4425 - 0.4425 * t);
}

int main(void) {
    double x = __VERIFIER_nondet_double();
    __VERIFIER_assume(x >= 0.5 && x <= 1e6);
    double l = log2_approx(x);
    int e;
    double m = split(x, &e);
    if (e == 10 && m > 1.75) return 1;           /* 1792 < x < 2048 */
    if (l > 19.5) return 2;                      /* near the top of the range */
    if (l < -0.99) reach_error();                /* only just above 0.5: the approximation is exact at 0.5 */
    double r = 1.0 / 16.0;                       /* one Newton step towards 1/x */
    r = r * (2.0 - x * r);
    if (r > 0.0624 && x > 1.0) return 3;         /* x close to 16 */
    if (r < -1.0) return 4;                      /* x > 288: the step overshoots */
    return 0;
}
