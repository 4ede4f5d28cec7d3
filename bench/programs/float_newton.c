/* float_newton.c: a floating-point workload for bench/run.sh: two Newton steps for a cube root of a float input,
 * a polynomial in a double, and branches on the results (every branch needs the FP solver or its sampling). */
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);

static float cbrt_step(float y, float a) { return y - (y * y * y - a) / (3.0f * y * y); }

int main(void) {
    float a = __VERIFIER_nondet_float();
    __VERIFIER_assume(a > 0.125f && a < 1000.0f);
    float y = a > 8.0f ? 4.0f : 1.0f;
    y = cbrt_step(y, a);
    y = cbrt_step(y, a);
    int r = 0;
    if (y > 9.0f) r += 1;
    if (y < 0.6f) r += 2;
    if ((int)(y * 10.0f) == 25) r += 4;            /* y in [2.5, 2.6) */
    double t = __VERIFIER_nondet_double();
    __VERIFIER_assume(t >= -2.0 && t <= 2.0);
    double p = ((0.25 * t - 0.5) * t + 1.0) * t;   /* a cubic */
    if (p > 1.5) r += 8;
    if (p < -3.9) r += 16;
    if (p == 0.5) r += 32;
    if (p > 0.0 && y > 3.0f) r += 64;
    return r;
}
