/* limits.c: a program whose coverage is limited in known ways (UNSAT, loop bound, concrete branch, unmodelled libc call), for tests/e2e/test_report_html.sh. */
#include <strings.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    int n = __VERIFIER_nondet_int();
    if (x > 10) {
        if (x < 5)       /* UNSAT below x > 10 */
            return 3;
    }
    int k = 0;
    for (int i = 0; i < n; i++) /* with --loop-bound 3: bounded */
        k++;
    if (k == 50)                /* concrete: k only counts iterations */
        return 1;
    if (ffs(x) == 3)            /* ffs has no model: x is concretized */
        return 2;
    if (x == 12345)
        reach_error();
    return 0;
}
