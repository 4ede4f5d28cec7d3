// Misbehaving program: floods stdout, forks a child that lingers, eats memory; sympath must survive and report.
// EXPECT-ERROR: timeout 0
// EXPECT-ERROR: abort 21
// SYMPATH-ARGS: --timeout 500ms --mem-limit 256
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 1) {
        for (;;) puts("flooding the output flooding the output flooding the output");
    }
    if (x == 2) {
        if (fork() == 0) { sleep(30); _exit(0); }
        return 0;
    }
    if (x == 3) {
        for (;;) {
            char *p = malloc(1 << 20);
            if (!p) abort();
            p[0] = 1;
        }
    }
    return 0;
}
