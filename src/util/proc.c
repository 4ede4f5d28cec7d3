/* proc.c: running a child process without a shell: redirections, environment, time limit, signal names. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

extern char **environ;

/* The child's environment: the parent's, each variable of env_add replacing one of the same name, then
 * env_add. A malloc'ed array of borrowed strings (NULL on allocation failure). */
static char **child_env(char *const *env_add)
{
    size_t ne = 0, na = 0;
    while (environ && environ[ne]) ne++;
    while (env_add && env_add[na]) na++;
    char **env = malloc((ne + na + 1) * sizeof *env);
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < ne; i++) {
        const char *eq = strchr(environ[i], '=');
        size_t nl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
        int replaced = 0;
        for (size_t j = 0; j < na && !replaced; j++)
            replaced = !strncmp(env_add[j], environ[i], nl) && env_add[j][nl] == '=';
        if (!replaced) env[k++] = environ[i];
    }
    for (size_t j = 0; j < na; j++) env[k++] = env_add[j];
    env[k] = NULL;
    return env;
}

/* A child that could not start: its message where its stderr would have gone, and the exit status code
 * a shell gives (127: cannot execute, 126: cannot enter the directory) as its wait status. */
static int not_started(const util_proc *p, const char *what, const char *name, int err, int code, int *status)
{
    const char *path = p->err_path ? p->err_path : p->out_path;
    FILE *f = path ? fopen(path, "w") : NULL;
    fprintf(f ? f : stderr, "sympath: %s%s%s%s\n", what, name, err ? ": " : "", err ? strerror(err) : "");
    if (f) fclose(f);
    *status = code << 8;
    return 0;
}

int util_run(const util_proc *p, int *status)
{
    /* posix_spawn, not fork: glibc starts the child without copying the parent's page tables (CLONE_VFORK);
     * after an exploration sympath holds gigabytes, and each fork of the unit pipeline's hundreds of test
     * runs and compilations cost tens of milliseconds of system time */
    fflush(NULL);
    if (p->cwd && access(p->cwd, X_OK) != 0)
        return not_started(p, "cannot enter the directory ", p->cwd, 0, 126, status);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    if (posix_spawn_file_actions_init(&fa) != 0) return -1;
    if (posix_spawnattr_init(&at) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return -1;
    }
    int bad = posix_spawn_file_actions_addopen(&fa, 0, p->stdin_path ? p->stdin_path : "/dev/null", O_RDONLY, 0);
    if (p->out_path) {
        bad |= posix_spawn_file_actions_addopen(&fa, 1, p->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        bad |= posix_spawn_file_actions_adddup2(&fa, 1, 2);
    }
    if (p->err_path) bad |= posix_spawn_file_actions_addopen(&fa, 2, p->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (p->cwd) bad |= posix_spawn_file_actions_addchdir_np(&fa, p->cwd);
    if (p->new_group) {
        bad |= posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
        bad |= posix_spawnattr_setpgroup(&at, 0);
    }
    char **env = child_env(p->env_add);
    pid_t pid = -1;
    int setup_failed = bad || !env;
    int err = setup_failed ? 0 : posix_spawnp(&pid, p->argv[0], &fa, &at, p->argv, env);
    free(env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (setup_failed) return -1;
    if (err) return not_started(p, "cannot execute ", p->argv[0], err, 127, status);
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
