/* interrupt.h: Ctrl-C and SIGTERM for the commands that explore: one flag, one handler. */
#ifndef SYMPATH_CLI_INTERRUPT_H
#define SYMPATH_CLI_INTERRUPT_H

#include <signal.h>

/* Set to 1 by the first SIGINT or SIGTERM once cli_arm_interrupt has run; the components poll
 * it (their opts take its address) and stop after the runs in flight, writing what was found. */
extern volatile sig_atomic_t cli_interrupted;

/*
 * Install the handler of SIGINT and SIGTERM (and ignore SIGPIPE). The first signal sets
 * cli_interrupted; a second one removes the temporary file being written
 * (util_write_atomic_abandon, so no half-written file is left) and ends the process by the
 * signal's default action. Each command calls it at the moment its component says
 * (before the build for run, after it for data and unit).
 */
void cli_arm_interrupt(void);

#endif
