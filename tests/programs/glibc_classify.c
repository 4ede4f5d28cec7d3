// Branches on glibc's classification functions, called as older math.h macros (and preprocessed .i files) call
// them, and on lrint/lround.
// EXPECT-COVERAGE: 100
// EXPECT-NO-CONCRETIZATION: external_call
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 30s --solver-timeout 4s
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
extern int __isnan(double);
extern int __isinff(float);
extern int __finite(double);
extern int __fpclassify(double);
extern long lrint(double);
extern long lroundf(float);

int main(void) {
    double d = __VERIFIER_nondet_double();
    float f = __VERIFIER_nondet_float();
    if (__isnan(d)) return 1;
    if (__isinff(f) == -1) return 2;
    if (__isinff(f) == 1) return 3;
    if (!__finite(d)) return 4;                  /* +-inf: NaN returned above */
    if (lrint(d) == 3 && d > 3.0) return 7;      /* 3 < d <= 3.5 (ties to even) */
    if (lroundf(f) == -2 && f > -2.0f) return 8; /* -2 < f <= -1.5 (halves away from zero) */
    switch (__fpclassify(d)) {
    case 2: return 5;                            /* FP_ZERO */
    case 3: return 6;                            /* FP_SUBNORMAL */
    default: break;                              /* FP_NORMAL */
    }
    return 0;
}
