/* unit_proc.h: processes and files for `sympath unit`. */
#ifndef SYMPATH_UNIT_PROC_H
#define SYMPATH_UNIT_PROC_H

#include <stddef.h>

/* Run argv (PATH lookup) in its own process group with stdin from /dev/null and
 * stdout+stderr to log (NULL: discarded), env_add ("NAME=value", NULL-terminated, may be
 * NULL) added to the environment. timeout_s > 0 kills the group after that many seconds.
 * Returns 0 with *status (wait status), 1 on time-out, -1 when it could not start. */
int up_run(char *const *argv, char *const *env_add, const char *log, double timeout_s, int *status);

/* Paths "dir/name" of the entries of dir matching the fnmatch pattern, sorted,
 * NULL-terminated (empty when dir is missing); *n = count. Free with up_free_list. */
char **up_list(const char *dir, const char *pattern, size_t *n);
void up_free_list(char **v);

/* Whole file as a NUL-terminated string (malloc'ed), or NULL. */
char *up_read(const char *path);

/* mkdir -p. 0 or -1 with errno. */
int up_mkdir_p(const char *path);

#endif
