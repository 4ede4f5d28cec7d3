/* proc.c: running a child process without a shell: redirections, environment, time limit, signal names. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

/* Only async-signal-safe calls: this runs in the child between fork and exec. */
static void child_write(const char *s) { (void)!write(2, s, strlen(s)); }

static void redirect(const char *path, int flags, int target)
{
    int fd = open(path, flags, 0644);
    if (fd < 0) return;
    if (fd != target) {
        dup2(fd, target);
        close(fd);
    }
}

static void start_child(const util_proc *p)
{
    if (p->new_group) setpgid(0, 0);
    redirect(p->stdin_path ? p->stdin_path : "/dev/null", O_RDONLY, 0);
    if (p->out_path) {
        redirect(p->out_path, O_WRONLY | O_CREAT | O_TRUNC, 1);
        dup2(1, 2);
    }
    if (p->err_path) redirect(p->err_path, O_WRONLY | O_CREAT | O_TRUNC, 2);
    if (p->cwd && chdir(p->cwd) != 0) {
        child_write("sympath: cannot enter the directory ");
        child_write(p->cwd);
        child_write("\n");
        _exit(126);
    }
    for (size_t i = 0; p->env_add && p->env_add[i]; i++) putenv(p->env_add[i]);
    execvp(p->argv[0], p->argv);
    const char *why = strerror(errno);
    child_write("sympath: cannot execute ");
    child_write(p->argv[0]);
    child_write(": ");
    child_write(why);
    child_write("\n");
    _exit(127);
}

int util_run(const util_proc *p, int *status)
{
    fflush(NULL); /* no buffered output duplicated into the child */
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) start_child(p);
    if (p->new_group) setpgid(pid, pid); /* also in the parent: no race with a kill below */
    double deadline = p->timeout_s > 0 ? util_now_s() + p->timeout_s : 0;
    double nap = 0.0002;
    int polling = deadline > 0 || p->stop;
    double stopped_at = 0;
    for (;;) {
        if (p->stop && *p->stop && !stopped_at) {
            kill(p->new_group ? -pid : pid, SIGTERM); /* compilers remove partial outputs on SIGTERM */
            stopped_at = util_now_s();
        }
        pid_t r = waitpid(pid, status, polling ? WNOHANG : 0);
        if (r == pid) return stopped_at ? 2 : 0;
        if (r < 0 && errno != EINTR) return -1;
        if (stopped_at && util_now_s() >= stopped_at + 1)
            kill(p->new_group ? -pid : pid, SIGKILL); /* deaf to SIGTERM for a second */
        if (deadline > 0 && util_now_s() >= deadline) {
            kill(p->new_group ? -pid : pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            return 1;
        }
        if (polling && r == 0) {
            util_sleep_s(nap);
            if (nap < 0.02) nap *= 2; /* quick children end fast; slow ones cost little polling */
        }
    }
}

const char *util_signal_name(int sig)
{
    static char buf[32];
    const char *abbrev = sig > 0 ? sigabbrev_np(sig) : NULL;
    if (abbrev)
        snprintf(buf, sizeof buf, "SIG%s", abbrev);
    else
        snprintf(buf, sizeof buf, "signal %d", sig);
    return buf;
}
