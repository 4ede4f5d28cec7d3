/* executor.c: the explorer's side of the fork-server protocol (trace.h): runs begun, waited for under a deadline and collected; the executor's life (executor_server.c: the server process and region). */
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

/* ---- public interface ---- */

executor *executor_start(const executor_opts *o, char **err)
{
    if (err) *err = NULL;
    if (!o || !o->binary || !o->work_dir) {
        ex_set_err(err, "executor_start: binary and work_dir are required");
        return NULL;
    }
    executor *ex = calloc(1, sizeof *ex);
    if (!ex) {
        ex_set_err(err, "out of memory");
        return NULL;
    }
    ex->shm_fd = ex->out_fd = ex->ctl_w = ex->st_r = -1;
    ex->timeout_ms = o->timeout_ms;
    ex->mem_mb = o->mem_mb;
    ex->out_kb = o->out_kb ? o->out_kb : DEFAULT_OUT_KB;
    ex->cov_slots = o->cov_slots;
    ex->binary = strdup(o->binary);
    if (asprintf(&ex->out_path, "%s/exec-%u.out", o->work_dir, o->index) < 0) ex->out_path = NULL;
    if (!ex->binary || !ex->out_path || ex_snapshot_env(ex) < 0) {
        ex_set_err(err, "out of memory");
        goto fail;
    }
    if (ex_create_region(ex, o, err) < 0) goto fail;
    /* O_APPEND: the server truncates the file before each run, and appending writes
     * then start at 0 again whatever offset the shared descriptor had. */
    ex->out_fd = open(ex->out_path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (ex->out_fd < 0) {
        ex_set_err(err, "cannot create %s: %s", ex->out_path, strerror(errno));
        goto fail;
    }
    if (ex_spawn_server(ex, err) < 0) goto fail;
    return ex;

fail:
    executor_stop(ex);
    return NULL;
}

int executor_begin(executor *ex, const uint64_t *inputs, size_t n, char **err)
{
    if (err) *err = NULL;
    if (ex->busy) return ex_set_err(err, "executor_begin: a run is still in progress");
    for (int attempt = 0;; attempt++) {
        int st = 0;
        if (ex->server_dead || ex_server_exited(ex, &st)) {
            if (ex_restart_server(ex, err) < 0) return -1;
        }

        trace_header *h = ex->h;
        ex_write_layout(ex);
        h->nrecs = 0;
        h->last_site = 0;
        h->dropped = 0;
        h->inputs_read = 0;
        for (int k = 0; k < CONC_KIND_COUNT; k++) h->conc[k] = 0;
        memset((void *)h->conc_fn, 0, sizeof h->conc_fn);
        memset((void *)h->crash_frames, 0, sizeof h->crash_frames);
        h->forks = 0;
        h->error_kind = 0;
        h->ended = 0;
        if (ex->cov_slots) memset(ex->cov, 0, ex->cov_slots);
        if (n > ex->inputs_cap) n = ex->inputs_cap;
        if (n) memcpy(ex->inputs, inputs, n * sizeof *inputs);
        h->ninputs = n;
        h->inputs_limit = ex->inputs_limit ? (ex->inputs_limit > 2 * n ? ex->inputs_limit : 2 * n) : 0;
        h->run_id = ++ex->run_id;

        ex->t_begin = (util_now_s() * 1e3);
        uint32_t pid = 0;
        int r = ex_write_u32(ex->ctl_w, FS_RUN) == 0 ? ex_read_u32(ex->st_r, &pid, PID_TIMEOUT_MS) : 0;
        if (r == 1 && pid > 1 && pid <= (uint32_t)INT_MAX) {
            ex->child = (pid_t)pid;
            ex->busy = 1;
            ex->done = ex->timed_out = ex->lost = 0;
            ex->status = 0;
            ex->deadline = ex->t_begin + (ex->timeout_ms ? ex->timeout_ms : 1e12);
            return 0;
        }
        ex->server_dead = 1;
        if (r == 0 && attempt == 0) continue; /* it died between runs: one fresh server, one more try */
        const char *why = r == 0  ? "the fork server died"
                          : r < 0 ? "the fork server did not answer FS_RUN within 5 s"
                                  : "the fork server answered FS_RUN with an invalid pid";
        char *rerr = NULL;
        if (ex_restart_server(ex, &rerr) < 0) {
            ex_set_err(err, "%s; restarting it failed: %s", why, rerr ? rerr : "");
            free(rerr);
        } else {
            ex_set_err(err, "%s (restarted)", why);
        }
        return -1;
    }
}

/* The run's status is readable (or the server is gone): collect it. */
static void collect(executor *ex)
{
    int32_t st = 0;
    int r = ex_read_u32(ex->st_r, &st, STATUS_GRACE_MS);
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
            if (!ex || !ex->busy) continue;
            any = 1;
            if (ex->done) {
                result = (int)i;
                goto out;
            }
            if (!ex->timed_out && now >= ex->deadline) {
                ex_kill_run(ex->child);
                ex->timed_out = 1;
                ex->grace = now + STATUS_GRACE_MS;
            }
            if (ex->timed_out && now >= ex->grace) {
                /* Killed, yet no status: the server is stuck. Give up on it. */
                ex_shutdown_server(ex, 0, NULL);
                ex->server_dead = 1;
                ex->lost = 1;
                ex->done = 1;
                ex->t_end = now;
                result = (int)i;
                goto out;
            }
            double t = ex->timed_out ? ex->grace : ex->deadline;
            if (t < wake) wake = t;
            pf[nf].fd = ex->st_r;
            pf[nf].events = POLLIN;
            pf[nf].revents = 0;
            idx[nf++] = i;
        }
        if (!any) goto out;
        double left = wake - now;
        int timeout = left <= 0 ? 0 : left > INT_MAX - 1 ? INT_MAX : (int)left + 1;
        int r = poll(pf, nf, timeout);
        if (r <= 0) continue; /* time-out, EINTR (or a transient error): re-check deadlines */
        for (size_t k = 0; k < nf; k++)
            if (pf[k].revents) {
                collect(exs[idx[k]]);
                result = (int)idx[k];
                goto out;
            }
    }
out:
    if (pf != small) free(pf);
    if (idx != small_idx) free(idx);
    return result;
}

int executor_busy(const executor *ex) { return ex && ex->busy; }

int executor_finish(executor *ex, expr_ctx *cx, run_result *out, char **err)
{
    if (err) *err = NULL;
    if (!ex->busy) {
        memset(out, 0, sizeof *out);
        return ex_set_err(err, "executor_finish: no run in progress");
    }
    while (!ex->done) executor_wait_any(&ex, 1);

    char *terr = NULL;
    int rc = trace_read(ex->h, ex->base, cx, out, &terr);
    out->seconds = (ex->t_end - ex->t_begin) / 1e3;
    if (ex->lost) {
        /* Status unknown: keep what the trace says; exit_code stays the REC_END
         * status or -1. */
        out->wait_status = 0;
        if (ex->timed_out && !out->ended && out->error == ERR_NONE) out->error = ERR_TIMEOUT;
        int sst = 0;
        char what[128] = "stopped answering";
        /* EOF on the status pipe: the server is dying; give it a moment to be reaped, so
         * the message can say how it ended (killed by a signal, exited) */
        int gone = ex_server_exited(ex, &sst);
        for (int k = 0; !gone && k < 50; k++) {
            util_sleep_s(0.002);
            gone = ex_server_exited(ex, &sst);
        }
        if (gone && sst) ex_describe_status(sst, what, sizeof what);
        ex_set_err(err, "the fork server %s during the run%s%s", what, terr ? "; " : "", terr ? terr : "");
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
        out->assume_failed = out->ended && out->exit_code == SYM_ASSUME_EXIT_CODE && out->error == ERR_NONE;
        out->inputs_done = out->ended && out->exit_code == SYM_INPUTS_DONE_EXIT_CODE && out->error == ERR_NONE;
    }
    if (rc < 0 && err && !*err)
        *err = terr;
    else
        free(terr);

    ex_kill_run(ex->child); /* whatever the program forked and left behind */
    ex->child = 0;
    ex->busy = ex->done = 0;
    return rc;
}

const uint8_t *executor_coverage(const executor *ex) { return ex->cov; }

const char *executor_output_path(const executor *ex) { return ex->out_path; }

unsigned executor_restarts(const executor *ex) { return ex->restarts; }

void executor_stop(executor *ex)
{
    if (!ex) return;
    if (ex->busy) ex_kill_run(ex->child);
    ex_shutdown_server(ex, 1, NULL);
    if (ex->base) munmap(ex->base, ex->size);
    ex_close_fd(&ex->shm_fd);
    ex_close_fd(&ex->out_fd);
    if (ex->out_path) unlink(ex->out_path);
    for (size_t i = 0; i < ex->nenv_base; i++) free(ex->env_base[i]);
    free(ex->env_base);
    free(ex->out_path);
    free(ex->binary);
    free(ex);
}

void executor_set_timeout(executor *ex, unsigned timeout_ms) { ex->timeout_ms = timeout_ms; }
