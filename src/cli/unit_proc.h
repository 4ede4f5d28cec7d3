/* unit_proc.h: how the steps of `sympath unit` run a tool. */
#ifndef SYMPATH_UNIT_PROC_H
#define SYMPATH_UNIT_PROC_H

/* Run argv (PATH lookup) in its own process group with stdin from /dev/null and
 * stdout+stderr to log (NULL: discarded), env_add ("NAME=value", NULL-terminated, may be
 * NULL) added to the environment. timeout_s > 0 kills the group after that many seconds.
 * Returns 0 with *status (wait status), 1 on time-out, -1 when it could not start. */
int up_run(char *const *argv, char *const *env_add, const char *log, double timeout_s, int *status);

#endif
