/* quit.c: a function whose exit handler ends the process before the coverage data is written (sympath unit e2e: gcov figures unknown, not 0). */
#include <stdlib.h>
#include <unistd.h>
static void quit_now(void) { _exit(0); }
/* Registers an exit handler that ends the process before anything else runs at exit. */
int arm(int on)
{
    if (on > 3) {
        atexit(quit_now);
        return 1;
    }
    return 0;
}
