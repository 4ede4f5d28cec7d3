// kill_server.c: one input makes the run SIGKILL its fork server (its parent) mid-trace, another SIGKILLs the run itself (tests/e2e/test_faults_executor.sh). Never replay it: the parent would be the replayer.
#include <signal.h>
#include <unistd.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 4242)
        kill(getppid(), SIGKILL); /* the fork server dies under the run */
    int y = __VERIFIER_nondet_int();
    if (y == 77)
        raise(SIGKILL);           /* the run dies mid-trace */
    int z = __VERIFIER_nondet_int();
    if (z > 100 && x < -5)
        return 2;
    return 0;
}
