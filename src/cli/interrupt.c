/* interrupt.c: the one Ctrl-C handler of the exploring commands (run, unit, data). */
#include "interrupt.h"

#include <string.h>

#include "util/util.h"

volatile sig_atomic_t cli_interrupted;

static void on_signal(int sig)
{
    if (cli_interrupted) {
        util_write_atomic_abandon(); /* no temporary file of the suite or report left behind */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    cli_interrupted = 1;
}

void cli_arm_interrupt(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}
