// double branches through libm: sqrt, fabs, floor, ceil, round, fmin, fmax, copysign, fmod stay symbolic.
// EXPECT-COVERAGE: 100
// EXPECT-NO-CONCRETIZATION: float
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 40s --solver-timeout 4s
#include <math.h>
extern double __VERIFIER_nondet_double(void);

int main(void) {
    double a = __VERIFIER_nondet_double();
    double b = __VERIFIER_nondet_double();
    if (sqrt(a) == 3.0) return 1;                     /* a == 9 */
    if (fabs(b) > 1e300) return 2;
    if (floor(a) == 42.0 && a != 42.0) return 3;      /* 42 < a < 43 */
    if (ceil(b) == -3.0) return 4;                    /* -4 < b <= -3 */
    if (round(a) == 2.0 && a < 2.0) return 5;         /* 1.5 <= a < 2 */
    if (fmin(a, b) == 5.0 && fmax(a, b) == 7.0) return 6;
    if (copysign(a, b) == -4.0) return 7;
    if (fmod(a, 10.0) == 3.0) return 8;               /* a == 3, 13, 23, ... (no Z3: sampling) */
    if (isnan(sqrt(b))) return 9;                     /* b < 0 or NaN */
    return 0;
}
