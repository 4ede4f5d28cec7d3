/* executor_server.c: the executor's fork-server process (start, handshake, restart, shutdown), its shared region and environment, and the pipe helpers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "executor_int.h"
#include "util/util.h"
#include "proto/env.h"

extern char **environ;

/* The environment variables the protocol uses: removed from the inherited environment
 * and set afresh for every server start. */
static const char *const protocol_vars[] = {
    SYMPATH_ENV_SHM_FD "=", SYMPATH_ENV_CTL_FD "=", SYMPATH_ENV_ST_FD "=",
    SYMPATH_ENV_OUT_FD "=", SYMPATH_ENV_MEM_MB "=", SYMPATH_ENV_OUT_KB "=",
};
#define NPROTOCOL_VARS (sizeof protocol_vars / sizeof protocol_vars[0])

/* ---- small helpers ---- */

static void sleep_ms(double ms)
{
    struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - (time_t)(ms / 1e3) * 1e3) * 1e6)};
    nanosleep(&ts, NULL); /* an early wake-up by a signal is harmless: callers loop */
}

/* Set *err to a formatted, malloc'ed message (err may be NULL). Returns -1. */
int ex_set_err(char **err, const char *fmt, ...)
{
    if (!err) return -1;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(err, fmt, ap) < 0) *err = NULL;
    va_end(ap);
    return -1;
}

void ex_close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* Kill a run's process group and the process itself; never with pid <= 1, which
 * would hit our own group or init. Errors (ESRCH: already gone) are ignored. */
void ex_kill_run(pid_t pid)
{
    if (pid > 1) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
}

/* waitpid that retries on EINTR. */
static pid_t waitpid_retry(pid_t pid, int *status, int flags)
{
    pid_t r;
    do r = waitpid(pid, status, flags);
    while (r < 0 && errno == EINTR);
    return r;
}

/* Describe a raw wait status in words, into buf. */
const char *ex_describe_status(int st, char *buf, size_t n)
{
    if (WIFEXITED(st))
        snprintf(buf, n, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, n, "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(buf, n, "stopped with wait status %#x", st);
    return buf;
}

/* Read exactly 4 bytes from fd within timeout_ms. Returns 1 on success, 0 on EOF
 * (or a read error: the writer is gone either way), -1 on time-out. */
int ex_read_u32(int fd, void *v, double timeout_ms)
{
    unsigned char *p = v;
    size_t got = 0;
    double end = (util_now_s() * 1e3) + timeout_ms;
    while (got < 4) {
        double left = end - (util_now_s() * 1e3);
        if (left <= 0) return -1;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r = poll(&pf, 1, (int)left + 1);
        if (r < 0 && errno != EINTR) return 0;
        if (r <= 0) continue;
        ssize_t k = read(fd, p + got, 4 - got);
        if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (k <= 0) return 0;
        got += (size_t)k;
    }
    return 1;
}

/* Write a uint32 command to the server. SIGPIPE is blocked around the write (and a
 * SIGPIPE it raises is consumed), so a dead server shows up as EPIPE instead of
 * killing the explorer; the process's signal dispositions are left alone.
 * Returns 0, or -1 with errno set. */
int ex_write_u32(int fd, uint32_t v)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);

    const unsigned char *p = (const unsigned char *)&v;
    size_t done = 0;
    int rc = 0, saved = 0;
    while (done < sizeof v) {
        ssize_t k = write(fd, p + done, sizeof v - done);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            rc = -1;
            saved = errno;
            break;
        }
        done += (size_t)k;
    }
    if (rc < 0 && saved == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return rc;
}

/* The first lines of the output file, for error messages (malloc'ed, never NULL
 * unless out of memory). */
static char *output_head(const executor *ex)
{
    char buf[OUTPUT_QUOTE_BYTES + 1];
    ssize_t n;
    do n = pread(ex->out_fd, buf, OUTPUT_QUOTE_BYTES, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return strdup("(no output)");
    buf[n] = '\0';
    int lines = 0;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\n' && ++lines == OUTPUT_QUOTE_LINES) {
            buf[i + 1] = '\0';
            break;
        }
    size_t len = strlen(buf);
    while (len > 0 && buf[len - 1] == '\n') buf[--len] = '\0';
    return strdup(buf);
}

/* ---- the fork-server process ---- */

/* Stop the current server: FS_QUIT and up to QUIT_GRACE_MS to exit when graceful,
 * then SIGKILL; reap it and close our pipe ends. *status (if not NULL) receives its
 * wait status (0 when it was reaped earlier). */
void ex_shutdown_server(executor *ex, int graceful, int *status)
{
    int st = 0;
    if (status) *status = 0;
    if (ex->server > 0) {
        int reaped = 0;
        if (graceful && ex->ctl_w >= 0 && ex_write_u32(ex->ctl_w, FS_QUIT) == 0) {
            ex_close_fd(&ex->ctl_w); /* EOF too, for a server that ignores FS_QUIT */
            double end = (util_now_s() * 1e3) + QUIT_GRACE_MS;
            while (!reaped && (util_now_s() * 1e3) < end) {
                pid_t r = waitpid_retry(ex->server, &st, WNOHANG);
                if (r == ex->server || r < 0)
                    reaped = 1;
                else
                    sleep_ms(2);
            }
        }
        if (!reaped) {
            kill(ex->server, SIGKILL);
            waitpid_retry(ex->server, &st, 0);
        }
        if (status) *status = st;
        ex->server = 0;
    }
    ex_close_fd(&ex->ctl_w);
    ex_close_fd(&ex->st_r);
}

/* Has the server exited? Reaps it if so (then server = 0, *status = its wait status). */
int ex_server_exited(executor *ex, int *status)
{
    if (ex->server <= 0) return 1;
    pid_t r = waitpid_retry(ex->server, status, WNOHANG);
    if (r == ex->server || (r < 0 && errno == ECHILD)) {
        ex->server = 0;
        return 1;
    }
    return 0;
}

/* Start a server and wait for its FS_HELLO. Returns 0, or -1 with *err set (the
 * message quotes the server's first lines of output). */
int ex_spawn_server(executor *ex, char **err)
{
    int ctl[2] = {-1, -1}, st[2] = {-1, -1}, devnull = -1;
    char **env = NULL;
    char vars[NPROTOCOL_VARS][40];

    /* Every descriptor is close-on-exec in the explorer, so that other executors'
     * servers never inherit them (a stray copy of a status pipe's write end would
     * hide a server's death); the child clears the flag on its own ends only. */
    if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0 ||
        (devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
        ex_set_err(err, "cannot create pipes for the executor: %s", strerror(errno));
        goto fail;
    }
    snprintf(vars[0], sizeof vars[0], SYMPATH_ENV_SHM_FD "=%d", ex->shm_fd);
    snprintf(vars[1], sizeof vars[1], SYMPATH_ENV_CTL_FD "=%d", ctl[0]);
    snprintf(vars[2], sizeof vars[2], SYMPATH_ENV_ST_FD "=%d", st[1]);
    snprintf(vars[3], sizeof vars[3], SYMPATH_ENV_OUT_FD "=%d", ex->out_fd);
    snprintf(vars[4], sizeof vars[4], SYMPATH_ENV_MEM_MB "=%u", ex->mem_mb);
    snprintf(vars[5], sizeof vars[5], SYMPATH_ENV_OUT_KB "=%u", ex->out_kb);
    env = malloc((ex->nenv_base + NPROTOCOL_VARS + 1) * sizeof *env);
    if (!env) {
        ex_set_err(err, "out of memory");
        goto fail;
    }
    memcpy(env, ex->env_base, ex->nenv_base * sizeof *env);
    for (size_t i = 0; i < NPROTOCOL_VARS; i++) env[ex->nenv_base + i] = vars[i];
    env[ex->nenv_base + NPROTOCOL_VARS] = NULL;
    char *argv[] = {ex->binary, NULL};

    pid_t pid = fork();
    if (pid < 0) {
        ex_set_err(err, "cannot fork the executor: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        /* Child: only async-signal-safe calls until execve. Its own process group
         * keeps the terminal's Ctrl-C away from it (the explorer stops it cleanly),
         * and it dies with the explorer. */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        fcntl(ctl[0], F_SETFD, 0);
        fcntl(st[1], F_SETFD, 0);
        fcntl(ex->shm_fd, F_SETFD, 0);
        fcntl(ex->out_fd, F_SETFD, 0);
        dup2(devnull, 0);
        dup2(ex->out_fd, 1);
        dup2(ex->out_fd, 2);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        execve(ex->binary, argv, env);
        int e = errno;
        static const char msg[] = "sympath: cannot execute ";
        ssize_t ignored = write(2, msg, sizeof msg - 1);
        ignored = write(2, ex->binary, strlen(ex->binary));
        ignored = write(2, ": ", 2);
        const char *es = strerror(e);
        ignored = write(2, es, strlen(es));
        ignored = write(2, "\n", 1);
        (void)ignored;
        _exit(127);
    }
    free(env);
    env = NULL;
    ex_close_fd(&ctl[0]);
    ex_close_fd(&st[1]);
    ex_close_fd(&devnull);
    ex->server = pid;
    ex->ctl_w = ctl[1];
    ex->st_r = st[0];
    ex->server_dead = 0;

    uint32_t hello = 0;
    int r = ex_read_u32(ex->st_r, &hello, HELLO_TIMEOUT_MS);
    if (r == 1 && hello == FS_HELLO) return 0;

    int status = 0;
    char what[128];
    if (r == 1)
        snprintf(what, sizeof what, "answered %#x instead of the handshake", hello);
    else if (r < 0)
        snprintf(what, sizeof what, "did not answer within %.0f s", HELLO_TIMEOUT_MS / 1e3);
    ex_shutdown_server(ex, 0, &status);
    if (r == 0) ex_describe_status(status, what, sizeof what);
    char *head = output_head(ex);
    ex_set_err(err,
               "executor %s did not start: it %s (a crash before main or a missing "
               "library?); its output:\n%s",
               ex->binary, what, head ? head : "");
    free(head);
    ex->server_dead = 1;
    return -1;

fail:
    free(env);
    ex_close_fd(&ctl[0]);
    ex_close_fd(&ctl[1]);
    ex_close_fd(&st[0]);
    ex_close_fd(&st[1]);
    ex_close_fd(&devnull);
    ex->server_dead = 1;
    return -1;
}

int ex_restart_server(executor *ex, char **err)
{
    ex_shutdown_server(ex, 0, NULL);
    ex->restarts++;
    return ex_spawn_server(ex, err);
}

/* ---- the region ---- */

/* Write the layout fields of the header. Done at creation and before every run:
 * the program shares the mapping and might have overwritten them. */
void ex_write_layout(executor *ex)
{
    trace_header *h = ex->h;
    h->magic = TRACE_MAGIC;
    h->version = 1;
    h->total_size = ex->size;
    h->inputs_off = ex->inputs_off;
    h->inputs_cap = ex->inputs_cap;
    h->cov_off = ex->cov_off;
    h->cov_cap = ex->cov_cap;
    h->recs_off = ex->recs_off;
    h->recs_cap = ex->recs_cap;
}

int ex_create_region(executor *ex, const executor_opts *o, char **err)
{
    const uint64_t page = 4096;
    ex->inputs_cap = o->inputs_cap ? o->inputs_cap : DEFAULT_INPUTS_CAP;
    ex->inputs_limit = o->inputs_limit;
    ex->recs_cap = o->recs_cap ? o->recs_cap : DEFAULT_RECS_CAP;
    ex->cov_cap = o->cov_slots;
    if (ex->recs_cap > (1ull << 32))
        return ex_set_err(err, "trace capacity of %llu records is too large", (unsigned long long)ex->recs_cap);
    ex->inputs_off = TRACE_HEADER_SIZE;
    ex->cov_off = ex->inputs_off + ex->inputs_cap * 8;
    ex->recs_off = (ex->cov_off + ex->cov_cap + 63) & ~63ull;
    uint64_t total = ex->recs_off + ex->recs_cap * sizeof(trace_rec);
    total = (total + page - 1) & ~(page - 1);
    ex->size = (size_t)total;

    ex->shm_fd = memfd_create("sympath-trace", MFD_CLOEXEC);
    if (ex->shm_fd < 0) return ex_set_err(err, "memfd_create: %s", strerror(errno));
    if (ftruncate(ex->shm_fd, (off_t)total) < 0)
        return ex_set_err(err, "cannot size the shared region to %llu bytes: %s", (unsigned long long)total,
                          strerror(errno));
    void *p = mmap(NULL, ex->size, PROT_READ | PROT_WRITE, MAP_SHARED, ex->shm_fd, 0);
    if (p == MAP_FAILED)
        return ex_set_err(err, "cannot map the shared region (%llu bytes): %s", (unsigned long long)total,
                          strerror(errno));
    ex->base = p;
    ex->h = p;
    ex->inputs = (uint64_t *)(ex->base + ex->inputs_off);
    ex->cov = ex->base + ex->cov_off;
    ex_write_layout(ex);
    return 0;
}

/* Copy environ (strings duplicated) without the protocol variables: every server
 * incarnation of this executor gets the environment of the moment it was started,
 * whatever the explorer's environment becomes later. */
int ex_snapshot_env(executor *ex)
{
    size_t n = 0;
    for (char **e = environ; e && *e; e++) n++;
    ex->env_base = malloc((n + 1) * sizeof *ex->env_base);
    if (!ex->env_base) return -1;
    size_t k = 0;
    for (char **e = environ; e && *e; e++) {
        int skip = 0;
        for (size_t i = 0; i < NPROTOCOL_VARS && !skip; i++)
            skip = strncmp(*e, protocol_vars[i], strlen(protocol_vars[i])) == 0;
        if (!skip) {
            ex->env_base[k] = strdup(*e);
            if (!ex->env_base[k]) {
                ex->nenv_base = k;
                return -1;
            }
            k++;
        }
    }
    ex->env_base[k] = NULL;
    ex->nenv_base = k;
    return 0;
}
