/* proc.c: running the compiler: its diagnostics logged to a file and shown to the user. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "instrument_int.h"
#include "util/util.h"

int run_logged(char *const *argv, const char *log_path, char **output)
{
    *output = NULL;
    util_proc p = { .argv = argv, .err_path = log_path };
    int status;
    if (util_run(&p, &status) != 0) {
        *output = util_strf("cannot run %s: %s", argv[0], strerror(errno));
        return -1;
    }
    /* Tee: the user sees the compiler's diagnostics as they are, the caller gets a copy. */
    *output = util_read_file(log_path, NULL);
    if (*output && **output)
        fputs(*output, stderr);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}
