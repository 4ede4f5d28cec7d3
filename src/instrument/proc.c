/* proc.c: running the compiler (its diagnostics logged to a file and shown to the user) and writing bitcode for it. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <llvm-c/BitWriter.h>

#include "instrument_int.h"
#include "util/util.h"

static volatile sig_atomic_t *stop_flag;

void run_set_stop_flag(volatile sig_atomic_t *flag) { stop_flag = flag; }

int run_logged(char *const *argv, const char *log_path, char **output)
{
    *output = NULL;
    if (stop_flag && *stop_flag) {
        *output = util_strf("interrupted");
        return -1;
    }
    util_proc p = {.argv = argv, .err_path = log_path, .stop = stop_flag};
    int status;
    int rc = util_run(&p, &status);
    if (rc < 0) {
        *output = util_strf("cannot run %s: %s", argv[0], strerror(errno));
        return -1;
    }
    if (rc == 2) {
        *output = util_strf("interrupted");
        return -1;
    }
    /* Tee: the user sees the compiler's diagnostics as they are, the caller gets a copy. */
    *output = util_read_file(log_path, NULL);
    if (*output && **output) fputs(*output, stderr);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

int write_bitcode_file(LLVMModuleRef m, const char *path)
{
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    int rc = util_write_atomic(path, LLVMGetBufferStart(buf), LLVMGetBufferSize(buf));
    int e = errno;
    LLVMDisposeMemoryBuffer(buf);
    errno = e;
    return rc;
}
