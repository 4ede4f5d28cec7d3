// Calls of libc functions sympath has no model for, with symbolic arguments (ffs by value, strtod through a pointer to symbolic bytes): still concretized, and counted per function in report.json; printf and puts of symbolic data are not.
// EXPECT-COVERAGE: 60
// EXPECT-CONCRETIZED-CALL: ffs strtod
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 5s
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    char num[3] = {__VERIFIER_nondet_char(), __VERIFIER_nondet_char(), '\0'};
    printf("x=%d num=%s\n", x, num);
    puts(num);
    int score = 0;
    if (x > 100)            /* symbolic: decided before the concretizing call */
        score += 1;
    if (ffs(x) == 3)        /* concrete result: one direction per run only */
        score += 2;
    if (strtod(num, NULL) > 1.0)
        score += 4;
    return score;
}
