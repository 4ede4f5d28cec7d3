/* par_local.c: `-j N` on one machine: fork N workers connected to the coordinator by sockets. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explore_state.h"
#include "util/util.h"

/* Worker i (1-based) in the child: its scratch directory WORK/worker-i, one executor. */
static int run_worker(const explore_opts *o, int i, int n, int fd)
{
    par_link *l = par_link_fd_new(i, n, &fd);
    if (!l) return 1;
    char wd[4200];
    snprintf(wd, sizeof wd, "%s/worker-%d", o->work_dir, i);
    char *err = NULL;
    int rc = 1;
    if (util_mkdir_p(wd) != 0) {
        fprintf(stderr, "sympath: worker %d: cannot create %s: %s\n", i, wd, strerror(errno));
    } else {
        explore_opts wo = *o;
        wo.link = l;
        wo.jobs = 1;
        wo.progress = 0;
        wo.work_dir = wd;
        /* More workers than cores share them: the per-query solver limit and the per-run limit
         * are wall-clock times, so each is stretched by workers / cores, which gives a query or
         * a run the CPU time it has with -j 1 (a slow run is not a hang, a query is not given
         * up sooner because others compete for the core). */
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        if (cores > 0 && n > cores) {
            double f = (double)n / (double)cores;
            if (wo.solver_timeout_ms) wo.solver_timeout_ms = (unsigned)(wo.solver_timeout_ms * f);
            if (wo.run_timeout_ms) wo.run_timeout_ms = (unsigned)(wo.run_timeout_ms * f);
        }
        rc = explore_program(&wo, NULL, &err) == 0 ? 0 : 1;
        if (rc) fprintf(stderr, "sympath: worker %d: %s\n", i, err ? err : "failed");
    }
    free(err);
    l->close(l);
    return rc;
}

int explore_parallel_local(const explore_opts *o, explore_summary *sum, char **err)
{
    int n = (int)o->jobs;
    int *mine = calloc((size_t)n, sizeof *mine);
    pid_t *pids = calloc((size_t)n, sizeof *pids);
    if (!mine || !pids) {
        free(mine);
        free(pids);
        *err = strdup("out of memory");
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    int started = 0;
    for (int i = 0; i < n; i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) break;
        pid_t pid = fork();
        if (pid < 0) {
            close(sv[0]);
            close(sv[1]);
            break;
        }
        if (pid == 0) {
            close(sv[0]);
            for (int k = 0; k < i; k++) close(mine[k]);
            _exit(run_worker(o, i + 1, n, sv[1]));
        }
        close(sv[1]);
        mine[i] = sv[0];
        pids[i] = pid;
        started++;
    }
    int rc = -1;
    if (started < n) {
        *err = util_strf("cannot start %d workers (%s)", n, strerror(errno));
        for (int i = 0; i < started; i++) close(mine[i]);
    } else {
        par_link *l = par_link_fd_new(0, n, mine);
        if (!l) {
            *err = strdup("out of memory");
            for (int i = 0; i < n; i++) close(mine[i]);
        } else {
            explore_opts co = *o;
            co.link = l;
            rc = explore_coordinate(&co, sum, err);
            l->close(l); /* workers still running see their end close and stop */
        }
    }
    /* reap the workers: they stop on STOP or when their link closes; a stuck one is killed */
    double t0 = util_now_s();
    for (int i = 0; i < started; i++) {
        int st;
        while (waitpid(pids[i], &st, WNOHANG) == 0) {
            if (util_now_s() - t0 > 10.0) {
                kill(pids[i], SIGKILL);
                waitpid(pids[i], &st, 0);
                break;
            }
            util_sleep_s(0.01);
        }
    }
    free(mine);
    free(pids);
    return rc;
}
