/* mpi_run.c: `sympath run --mpi` in one rank of an Open MPI job: rank 0 builds, ships and coordinates, the others explore. */
#define _GNU_SOURCE
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "util/util.h"

/* What rank 0's after_build hook needs, and what it leaves for the end of the run. */
typedef struct ship_ctx {
    par_link *link;
    unsigned char *shipped; /* shipped[w-1]: worker w has the build */
    FILE *log;
} ship_ctx;

/* explore_run_opts.after_build on rank 0: the executor and site table to every worker. */
static int ship_after_build(void *ctx, const explore_paths *paths)
{
    ship_ctx *c = ctx;
    char *err = NULL;
    if (parallel_ship_build(c->link, paths->exe, paths->sites, c->shipped, &err) == 0) return 0;
    fprintf(c->log, "sympath run: %s\n", err ? err : "out of memory");
    free(err);
    return 1;
}

static int run_coordinator(explore_run_opts *r, par_link *link, FILE *log)
{
    ship_ctx c = {link, calloc((size_t)link->nworkers, 1), log};
    if (!c.shipped) {
        fprintf(log, "sympath run: out of memory\n");
        return 1;
    }
    r->explore.link = link;
    r->after_build = ship_after_build;
    r->after_build_ctx = &c;
    int rc = explore_run(r);
    /* a worker that never got the build waits for it: release it (the build failed, was
     * interrupted, or the run stopped before it) */
    for (int w = 1; w <= link->nworkers; w++)
        if (!c.shipped[w - 1]) parallel_ship_none(link, w, rc);
    free(c.shipped);
    return rc;
}

static int run_worker(explore_run_opts *r, par_link *link, FILE *log)
{
    if (r->before_build) r->before_build(); /* Ctrl-C: the worker stops after its runs in flight */
    char *dir = util_strf("%s/build/rank-%d", r->out_dir, link->self);
    char exe[PATH_MAX + 16], sites[PATH_MAX + 16];
    char *err = NULL;
    int code = 0;
    int got = dir ? parallel_receive_build(link, dir, exe, sites, &code, &err) : -1;
    int rc;
    if (got < 0) {
        fprintf(log, "sympath run: worker %d: %s\n", link->self, err ? err : "out of memory");
        rc = 1;
    } else if (got == 0) {
        rc = 0; /* nothing to explore; rank 0 said why and its exit code is the run's */
    } else {
        r->explore.link = link;
        rc = explore_run_worker(r, exe, sites, dir);
    }
    free(err);
    free(dir);
    return rc;
}

int parallel_mpi_run(explore_run_opts *r)
{
    FILE *log = r->log ? r->log : stderr;
    int provided = 0;
    /* FUNNELED, not SINGLE: the process has other threads (the solver's watchdog), but only
     * the main thread calls MPI */
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(log, "sympath run: --mpi: MPI cannot start (run under mpirun)\n");
        return 1;
    }
    int self = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &self);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *err = NULL;
    par_link *link = NULL;
    int rc;
    if (size < 2) {
        if (self == 0)
            fprintf(log,
                    "sympath run: --mpi needs at least 2 processes, rank 0 coordinating and the others exploring "
                    "(mpirun -np N with N >= 2; this job has %d)\n",
                    size);
        rc = 2;
    } else if (!(link = parallel_mpi_link_new(&err))) {
        fprintf(log, "sympath run: rank %d: %s\n", self, err ? err : "out of memory");
        rc = 1;
    } else if (self == 0) {
        rc = run_coordinator(r, link, log);
    } else {
        rc = run_worker(r, link, log);
    }
    free(err);
    if (link) link->close(link);
    r->explore.link = NULL;
    r->after_build = NULL;
    r->after_build_ctx = NULL;
    MPI_Finalize();
    return rc;
}
