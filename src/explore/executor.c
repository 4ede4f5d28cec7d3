/* executor.c: the explorer's side of the fork-server protocol (trace.h): shared region, server process, runs under a deadline. */
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
#include "executor.h"
#include "trace_read.h"
#include "util/util.h"

extern char **environ;

#define DEFAULT_INPUTS_CAP (1u << 20)
#define DEFAULT_RECS_CAP   (1ull << 21)
#define DEFAULT_OUT_KB     1024u
#define HELLO_TIMEOUT_MS   10000.0  /* handshake after exec */
#define PID_TIMEOUT_MS     5000.0   /* answer to FS_RUN */
#define STATUS_GRACE_MS    1000.0   /* status after a kill on time-out */
#define QUIT_GRACE_MS      1000.0   /* exit after FS_QUIT */
#define OUTPUT_QUOTE_BYTES 2048     /* how much of the output an error message quotes */
#define OUTPUT_QUOTE_LINES 10

/* The environment variables the protocol uses: removed from the inherited environment
 * and set afresh for every server start. */
static const char *const protocol_vars[] = {
    "SYMPATH_SHM_FD=", "SYMPATH_CTL_FD=", "SYMPATH_ST_FD=",
    "SYMPATH_OUT_FD=", "SYMPATH_MEM_MB=", "SYMPATH_OUT_KB=",
};
#define NPROTOCOL_VARS (sizeof protocol_vars / sizeof protocol_vars[0])

/*
 * One executor: a shared region (trace.h layout) and a fork-server process.
 *
 * The region and the output file live as long as the executor; the server may be
 * replaced (restart) when it dies, and every incarnation maps the same region and
 * writes the same output file. The environment is snapshotted at executor_start so
 * that a restarted server sees the same environment as the first one.
 *
 * Run state machine: idle (busy = 0) -> executor_begin -> busy, waiting for the
 * status -> (deadline passed: killed, timed_out = 1) -> status read or server lost
 * (done = 1) -> executor_finish -> idle. `lost` means the server died (EOF on the
 * status pipe or no status within the grace period after a kill): the wait status is
 * then unknown and the server is restarted by the next executor_begin.
 *
 * All times are milliseconds of CLOCK_MONOTONIC.
 */
struct executor {
    char *binary;
    char *out_path;
    unsigned timeout_ms, mem_mb, out_kb;
    uint32_t cov_slots;
    char **env_base;         /* snapshot of environ without the protocol variables */
    size_t nenv_base;

    int shm_fd;
    unsigned char *base;     /* the mapped region */
    size_t size;
    trace_header *h;
    uint64_t *inputs;        /* our own copies of the layout: the program may scribble */
    uint8_t *cov;            /* over the header, these pointers stay right */
    uint64_t inputs_cap, cov_cap, recs_cap, inputs_off, cov_off, recs_off;
    uint64_t inputs_limit;
    uint64_t run_id;
    int out_fd;

    pid_t server;            /* 0 when there is none (not started, or reaped) */
    int ctl_w, st_r;         /* our pipe ends, -1 when closed */
    int server_dead;         /* must be restarted before the next run */
    unsigned restarts;

    int busy, done, timed_out, lost;
    pid_t child;             /* the run's process (and process group) */
    int status;              /* raw wait status from the server */
    double t_begin, t_end, deadline, grace;
};

/* ---- small helpers ---- */

static void sleep_ms(double ms)
{
    struct timespec ts = { (time_t)(ms / 1e3), (long)((ms - (time_t)(ms / 1e3) * 1e3) * 1e6) };
    nanosleep(&ts, NULL); /* an early wake-up by a signal is harmless: callers loop */
}

/* Set *err to a formatted, malloc'ed message (err may be NULL). Returns -1. */
static int set_err(char **err, const char *fmt, ...)
{
    if (!err)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(err, fmt, ap) < 0)
        *err = NULL;
    va_end(ap);
    return -1;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Kill a run's process group and the process itself; never with pid <= 1, which
 * would hit our own group or init. Errors (ESRCH: already gone) are ignored. */
static void kill_run(pid_t pid)
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
    do
        r = waitpid(pid, status, flags);
    while (r < 0 && errno == EINTR);
    return r;
}

/* Describe a raw wait status in words, into buf. */
static const char *describe_status(int st, char *buf, size_t n)
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
static int read_u32(int fd, void *v, double timeout_ms)
{
    unsigned char *p = v;
    size_t got = 0;
    double end = (util_now_s() * 1e3) + timeout_ms;
    while (got < 4) {
        double left = end - (util_now_s() * 1e3);
        if (left <= 0)
            return -1;
        struct pollfd pf = { .fd = fd, .events = POLLIN };
        int r = poll(&pf, 1, (int)left + 1);
        if (r < 0 && errno != EINTR)
            return 0;
        if (r <= 0)
            continue;
        ssize_t k = read(fd, p + got, 4 - got);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (k <= 0)
            return 0;
        got += (size_t)k;
    }
    return 1;
}

/* Write a uint32 command to the server. SIGPIPE is blocked around the write (and a
 * SIGPIPE it raises is consumed), so a dead server shows up as EPIPE instead of
 * killing the explorer; the process's signal dispositions are left alone.
 * Returns 0, or -1 with errno set. */
static int write_u32(int fd, uint32_t v)
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
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rc = -1;
            saved = errno;
            break;
        }
        done += (size_t)k;
    }
    if (rc < 0 && saved == EPIPE && !was_pending) {
        struct timespec zero = { 0, 0 };
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
    do
        n = pread(ex->out_fd, buf, OUTPUT_QUOTE_BYTES, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return strdup("(no output)");
    buf[n] = '\0';
    int lines = 0;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\n' && ++lines == OUTPUT_QUOTE_LINES) {
            buf[i + 1] = '\0';
            break;
        }
    size_t len = strlen(buf);
    while (len > 0 && buf[len - 1] == '\n')
        buf[--len] = '\0';
    return strdup(buf);
}

/* ---- the fork-server process ---- */

/* Stop the current server: FS_QUIT and up to QUIT_GRACE_MS to exit when graceful,
 * then SIGKILL; reap it and close our pipe ends. *status (if not NULL) receives its
 * wait status (0 when it was reaped earlier). */
static void shutdown_server(executor *ex, int graceful, int *status)
{
    int st = 0;
    if (status)
        *status = 0;
    if (ex->server > 0) {
        int reaped = 0;
        if (graceful && ex->ctl_w >= 0 && write_u32(ex->ctl_w, FS_QUIT) == 0) {
            close_fd(&ex->ctl_w); /* EOF too, for a server that ignores FS_QUIT */
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
        if (status)
            *status = st;
        ex->server = 0;
    }
    close_fd(&ex->ctl_w);
    close_fd(&ex->st_r);
}

/* Has the server exited? Reaps it if so (then server = 0, *status = its wait status). */
static int server_exited(executor *ex, int *status)
{
    if (ex->server <= 0)
        return 1;
    pid_t r = waitpid_retry(ex->server, status, WNOHANG);
    if (r == ex->server || (r < 0 && errno == ECHILD)) {
        ex->server = 0;
        return 1;
    }
    return 0;
}

/* Start a server and wait for its FS_HELLO. Returns 0, or -1 with *err set (the
 * message quotes the server's first lines of output). */
static int spawn_server(executor *ex, char **err)
{
    int ctl[2] = { -1, -1 }, st[2] = { -1, -1 }, devnull = -1;
    char **env = NULL;
    char vars[NPROTOCOL_VARS][40];

    /* Every descriptor is close-on-exec in the explorer, so that other executors'
     * servers never inherit them (a stray copy of a status pipe's write end would
     * hide a server's death); the child clears the flag on its own ends only. */
    if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0 ||
        (devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
        set_err(err, "cannot create pipes for the executor: %s", strerror(errno));
        goto fail;
    }
    snprintf(vars[0], sizeof vars[0], "SYMPATH_SHM_FD=%d", ex->shm_fd);
    snprintf(vars[1], sizeof vars[1], "SYMPATH_CTL_FD=%d", ctl[0]);
    snprintf(vars[2], sizeof vars[2], "SYMPATH_ST_FD=%d", st[1]);
    snprintf(vars[3], sizeof vars[3], "SYMPATH_OUT_FD=%d", ex->out_fd);
    snprintf(vars[4], sizeof vars[4], "SYMPATH_MEM_MB=%u", ex->mem_mb);
    snprintf(vars[5], sizeof vars[5], "SYMPATH_OUT_KB=%u", ex->out_kb);
    env = malloc((ex->nenv_base + NPROTOCOL_VARS + 1) * sizeof *env);
    if (!env) {
        set_err(err, "out of memory");
        goto fail;
    }
    memcpy(env, ex->env_base, ex->nenv_base * sizeof *env);
    for (size_t i = 0; i < NPROTOCOL_VARS; i++)
        env[ex->nenv_base + i] = vars[i];
    env[ex->nenv_base + NPROTOCOL_VARS] = NULL;
    char *argv[] = { ex->binary, NULL };

    pid_t pid = fork();
    if (pid < 0) {
        set_err(err, "cannot fork the executor: %s", strerror(errno));
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
    close_fd(&ctl[0]);
    close_fd(&st[1]);
    close_fd(&devnull);
    ex->server = pid;
    ex->ctl_w = ctl[1];
    ex->st_r = st[0];
    ex->server_dead = 0;

    uint32_t hello = 0;
    int r = read_u32(ex->st_r, &hello, HELLO_TIMEOUT_MS);
    if (r == 1 && hello == FS_HELLO)
        return 0;

    int status = 0;
    char what[128];
    if (r == 1)
        snprintf(what, sizeof what, "answered %#x instead of the handshake", hello);
    else if (r < 0)
        snprintf(what, sizeof what, "did not answer within %.0f s", HELLO_TIMEOUT_MS / 1e3);
    shutdown_server(ex, 0, &status);
    if (r == 0)
        describe_status(status, what, sizeof what);
    char *head = output_head(ex);
    set_err(err, "executor %s did not start: it %s (a crash before main or a missing "
            "library?); its output:\n%s", ex->binary, what, head ? head : "");
    free(head);
    ex->server_dead = 1;
    return -1;

fail:
    free(env);
    close_fd(&ctl[0]); close_fd(&ctl[1]);
    close_fd(&st[0]); close_fd(&st[1]);
    close_fd(&devnull);
    ex->server_dead = 1;
    return -1;
}

static int restart_server(executor *ex, char **err)
{
    shutdown_server(ex, 0, NULL);
    ex->restarts++;
    return spawn_server(ex, err);
}

/* ---- the region ---- */

/* Write the layout fields of the header. Done at creation and before every run:
 * the program shares the mapping and might have overwritten them. */
static void write_layout(executor *ex)
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

static int create_region(executor *ex, const executor_opts *o, char **err)
{
    const uint64_t page = 4096;
    ex->inputs_cap = o->inputs_cap ? o->inputs_cap : DEFAULT_INPUTS_CAP;
    ex->inputs_limit = o->inputs_limit;
    ex->recs_cap = o->recs_cap ? o->recs_cap : DEFAULT_RECS_CAP;
    ex->cov_cap = o->cov_slots;
    if (ex->recs_cap > (1ull << 32))
        return set_err(err, "trace capacity of %llu records is too large",
                       (unsigned long long)ex->recs_cap);
    ex->inputs_off = TRACE_HEADER_SIZE;
    ex->cov_off = ex->inputs_off + ex->inputs_cap * 8;
    ex->recs_off = (ex->cov_off + ex->cov_cap + 63) & ~63ull;
    uint64_t total = ex->recs_off + ex->recs_cap * sizeof(trace_rec);
    total = (total + page - 1) & ~(page - 1);
    ex->size = (size_t)total;

    ex->shm_fd = memfd_create("sympath-trace", MFD_CLOEXEC);
    if (ex->shm_fd < 0)
        return set_err(err, "memfd_create: %s", strerror(errno));
    if (ftruncate(ex->shm_fd, (off_t)total) < 0)
        return set_err(err, "cannot size the shared region to %llu bytes: %s",
                       (unsigned long long)total, strerror(errno));
    void *p = mmap(NULL, ex->size, PROT_READ | PROT_WRITE, MAP_SHARED, ex->shm_fd, 0);
    if (p == MAP_FAILED)
        return set_err(err, "cannot map the shared region (%llu bytes): %s",
                       (unsigned long long)total, strerror(errno));
    ex->base = p;
    ex->h = p;
    ex->inputs = (uint64_t *)(ex->base + ex->inputs_off);
    ex->cov = ex->base + ex->cov_off;
    write_layout(ex);
    return 0;
}

/* Copy environ (strings duplicated) without the protocol variables: every server
 * incarnation of this executor gets the environment of the moment it was started,
 * whatever the explorer's environment becomes later. */
static int snapshot_env(executor *ex)
{
    size_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    ex->env_base = malloc((n + 1) * sizeof *ex->env_base);
    if (!ex->env_base)
        return -1;
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

/* ---- public interface ---- */

executor *executor_start(const executor_opts *o, char **err)
{
    if (err)
        *err = NULL;
    if (!o || !o->binary || !o->work_dir) {
        set_err(err, "executor_start: binary and work_dir are required");
        return NULL;
    }
    executor *ex = calloc(1, sizeof *ex);
    if (!ex) {
        set_err(err, "out of memory");
        return NULL;
    }
    ex->shm_fd = ex->out_fd = ex->ctl_w = ex->st_r = -1;
    ex->timeout_ms = o->timeout_ms;
    ex->mem_mb = o->mem_mb;
    ex->out_kb = o->out_kb ? o->out_kb : DEFAULT_OUT_KB;
    ex->cov_slots = o->cov_slots;
    ex->binary = strdup(o->binary);
    if (asprintf(&ex->out_path, "%s/exec-%u.out", o->work_dir, o->index) < 0)
        ex->out_path = NULL;
    if (!ex->binary || !ex->out_path || snapshot_env(ex) < 0) {
        set_err(err, "out of memory");
        goto fail;
    }
    if (create_region(ex, o, err) < 0)
        goto fail;
    /* O_APPEND: the server truncates the file before each run, and appending writes
     * then start at 0 again whatever offset the shared descriptor had. */
    ex->out_fd = open(ex->out_path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (ex->out_fd < 0) {
        set_err(err, "cannot create %s: %s", ex->out_path, strerror(errno));
        goto fail;
    }
    if (spawn_server(ex, err) < 0)
        goto fail;
    return ex;

fail:
    executor_stop(ex);
    return NULL;
}

int executor_begin(executor *ex, const uint64_t *inputs, size_t n, char **err)
{
    if (err)
        *err = NULL;
    if (ex->busy)
        return set_err(err, "executor_begin: a run is still in progress");
    for (int attempt = 0;; attempt++) {
        int st = 0;
        if (ex->server_dead || server_exited(ex, &st)) {
            if (restart_server(ex, err) < 0)
                return -1;
        }

        trace_header *h = ex->h;
        write_layout(ex);
        h->nrecs = 0;
        h->last_site = 0;
        h->dropped = 0;
        h->inputs_read = 0;
        for (int k = 0; k < CONC_KIND_COUNT; k++)
            h->conc[k] = 0;
        memset((void *)h->conc_fn, 0, sizeof h->conc_fn);
        h->forks = 0;
        h->error_kind = 0;
        h->ended = 0;
        if (ex->cov_slots)
            memset(ex->cov, 0, ex->cov_slots);
        if (n > ex->inputs_cap)
            n = ex->inputs_cap;
        if (n)
            memcpy(ex->inputs, inputs, n * sizeof *inputs);
        h->ninputs = n;
        h->inputs_limit = ex->inputs_limit ? (ex->inputs_limit > 2 * n ? ex->inputs_limit : 2 * n) : 0;
        h->run_id = ++ex->run_id;

        ex->t_begin = (util_now_s() * 1e3);
        uint32_t pid = 0;
        int r = write_u32(ex->ctl_w, FS_RUN) == 0 ? read_u32(ex->st_r, &pid, PID_TIMEOUT_MS) : 0;
        if (r == 1 && pid > 1 && pid <= (uint32_t)INT_MAX) {
            ex->child = (pid_t)pid;
            ex->busy = 1;
            ex->done = ex->timed_out = ex->lost = 0;
            ex->status = 0;
            ex->deadline = ex->t_begin + (ex->timeout_ms ? ex->timeout_ms : 1e12);
            return 0;
        }
        ex->server_dead = 1;
        if (r == 0 && attempt == 0)
            continue; /* it died between runs: one fresh server, one more try */
        const char *why = r == 0 ? "the fork server died" :
                          r < 0 ? "the fork server did not answer FS_RUN within 5 s" :
                                  "the fork server answered FS_RUN with an invalid pid";
        char *rerr = NULL;
        if (restart_server(ex, &rerr) < 0) {
            set_err(err, "%s; restarting it failed: %s", why, rerr ? rerr : "");
            free(rerr);
        } else {
            set_err(err, "%s (restarted)", why);
        }
        return -1;
    }
}

/* The run's status is readable (or the server is gone): collect it. */
static void collect(executor *ex)
{
    int32_t st = 0;
    int r = read_u32(ex->st_r, &st, STATUS_GRACE_MS);
    if (r == 1) {
        ex->status = st;
    } else {
        ex->lost = 1;
        ex->server_dead = 1;
    }
    ex->done = 1;
    ex->t_end = (util_now_s() * 1e3);
}

int executor_wait_any(executor **exs, size_t n)
{
    struct pollfd small[16];
    size_t small_idx[16];
    struct pollfd *pf = small;
    size_t *idx = small_idx;
    if (n > 16) {
        pf = malloc(n * sizeof *pf);
        idx = malloc(n * sizeof *idx);
        if (!pf || !idx) {
            free(pf == small ? NULL : pf);
            free(idx == small_idx ? NULL : idx);
            pf = small; /* degrade: watch the first 16 only */
            idx = small_idx;
            n = 16;
        }
    }
    int result = -1;
    for (;;) {
        double now = (util_now_s() * 1e3), wake = 1e300;
        size_t nf = 0;
        int any = 0;
        for (size_t i = 0; i < n; i++) {
            executor *ex = exs[i];
            if (!ex || !ex->busy)
                continue;
            any = 1;
            if (ex->done) {
                result = (int)i;
                goto out;
            }
            if (!ex->timed_out && now >= ex->deadline) {
                kill_run(ex->child);
                ex->timed_out = 1;
                ex->grace = now + STATUS_GRACE_MS;
            }
            if (ex->timed_out && now >= ex->grace) {
                /* Killed, yet no status: the server is stuck. Give up on it. */
                shutdown_server(ex, 0, NULL);
                ex->server_dead = 1;
                ex->lost = 1;
                ex->done = 1;
                ex->t_end = now;
                result = (int)i;
                goto out;
            }
            double t = ex->timed_out ? ex->grace : ex->deadline;
            if (t < wake)
                wake = t;
            pf[nf].fd = ex->st_r;
            pf[nf].events = POLLIN;
            pf[nf].revents = 0;
            idx[nf++] = i;
        }
        if (!any)
            goto out;
        double left = wake - now;
        int timeout = left <= 0 ? 0 : left > INT_MAX - 1 ? INT_MAX : (int)left + 1;
        int r = poll(pf, nf, timeout);
        if (r <= 0)
            continue; /* time-out, EINTR (or a transient error): re-check deadlines */
        for (size_t k = 0; k < nf; k++)
            if (pf[k].revents) {
                collect(exs[idx[k]]);
                result = (int)idx[k];
                goto out;
            }
    }
out:
    if (pf != small)
        free(pf);
    if (idx != small_idx)
        free(idx);
    return result;
}

int executor_busy(const executor *ex)
{
    return ex && ex->busy;
}

int executor_finish(executor *ex, expr_ctx *cx, run_result *out, char **err)
{
    if (err)
        *err = NULL;
    if (!ex->busy) {
        memset(out, 0, sizeof *out);
        return set_err(err, "executor_finish: no run in progress");
    }
    while (!ex->done)
        executor_wait_any(&ex, 1);

    char *terr = NULL;
    int rc = trace_read(ex->h, ex->base, cx, out, &terr);
    out->seconds = (ex->t_end - ex->t_begin) / 1e3;
    if (ex->lost) {
        /* Status unknown: keep what the trace says; exit_code stays the REC_END
         * status or -1. */
        out->wait_status = 0;
        if (ex->timed_out && !out->ended && out->error == ERR_NONE)
            out->error = ERR_TIMEOUT;
        int sst = 0;
        char what[128] = "stopped answering";
        if (server_exited(ex, &sst) && sst)
            describe_status(sst, what, sizeof what);
        set_err(err, "the fork server %s during the run%s%s", what,
                terr ? "; " : "", terr ? terr : "");
        free(terr);
        terr = NULL;
        rc = -1;
    } else {
        int st = ex->status;
        out->wait_status = st;
        out->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (out->error == ERR_NONE) {
            /* A run that exited by itself beat the kill: not a time-out. */
            if (ex->timed_out && !WIFEXITED(st))
                out->error = ERR_TIMEOUT;
            else if (WIFSIGNALED(st)) {
                out->error = ERR_SIGNAL;
                out->signo = WTERMSIG(st);
            }
        }
        out->assume_failed = out->ended && out->exit_code == SYM_ASSUME_EXIT_CODE &&
                             out->error == ERR_NONE;
        out->inputs_done = out->ended && out->exit_code == SYM_INPUTS_DONE_EXIT_CODE &&
                           out->error == ERR_NONE;
    }
    if (rc < 0 && err && !*err)
        *err = terr;
    else
        free(terr);

    kill_run(ex->child); /* whatever the program forked and left behind */
    ex->child = 0;
    ex->busy = ex->done = 0;
    return rc;
}

const uint8_t *executor_coverage(const executor *ex)
{
    return ex->cov;
}

const char *executor_output_path(const executor *ex)
{
    return ex->out_path;
}

unsigned executor_restarts(const executor *ex)
{
    return ex->restarts;
}

void executor_stop(executor *ex)
{
    if (!ex)
        return;
    if (ex->busy)
        kill_run(ex->child);
    shutdown_server(ex, 1, NULL);
    if (ex->base)
        munmap(ex->base, ex->size);
    close_fd(&ex->shm_fd);
    close_fd(&ex->out_fd);
    if (ex->out_path)
        unlink(ex->out_path);
    for (size_t i = 0; i < ex->nenv_base; i++)
        free(ex->env_base[i]);
    free(ex->env_base);
    free(ex->out_path);
    free(ex->binary);
    free(ex);
}

void executor_set_timeout(executor *ex, unsigned timeout_ms) {
    ex->timeout_ms = timeout_ms;
}
