/* par_int.h: what the worker (worker.c), the coordinator (coordinator.c) and the local launcher (par_local.c) of a parallel exploration share; private to src/explore. */
#ifndef SYMPATH_PAR_INT_H
#define SYMPATH_PAR_INT_H

#include <stdint.h>

#include "../proto/proto.h"
#include "../solver/solver.h"
#include "run.h"
#include "tree.h"

/*
 * Message types (proto.h's par_msg.type). W = worker, C = coordinator. The payloads are
 * written and read in one place each: figures by par_figures_put/get, jobs and results in
 * worker.c (writer) and coordinator.c (reader), and the coordinator forwards JOBS unread.
 */
enum {
    PAR_RESULT = 1, /* W->C: a run that covered something new to the worker or reached an error new to it */
    PAR_STATS,      /* W->C: the worker's figures (cumulative) and the hashes of its paths since the last STATS */
    PAR_IDLE,       /* W->C: no candidate, nothing running: the worker waits for JOBS or STOP */
    PAR_STEAL,      /* C->W: u32 thief, u8 promising: give work for that worker (answer: JOBS, possibly with 0 jobs);
                       promising: only directions toward branches nobody covered (worker.c: give_jobs) */
    PAR_JOBS,       /* W->C->W: u32 thief, u32 n, n jobs (worker.c: job_put) */
    PAR_COVERAGE,   /* C->W: u32 nslots + bitmap of the slots the whole exploration covered */
    PAR_STOP,       /* C->W: str reason: stop, answer BYE */
    PAR_BYE,        /* W->C: the final figures (as STATS) and the worker's error hit counts, then the worker exits */
};

/* A worker's figures, summed by the coordinator into report.json (one per worker there too). */
typedef struct par_figures {
    uint64_t execs, divergences, timeouts, assume_failed, assume_retries, forks, dropped, inputs_done, slow_runs;
    uint64_t optimistic, optimistic_sat, events_total, events_max, inputs_total, cont_left, restarts;
    uint64_t jobs_sent, jobs_received, jobs_diverged, jobs_unsolved, open, promising, complete_local;
    double exec_seconds, solve_seconds, idle_seconds, job_seconds;
    uint64_t conc[CONC_KIND_COUNT];
    uint64_t conc_fn[TRACE_CONC_FN_SLOTS];
    tree_stats tree;
    solver_stats solver;
} par_figures;

/* Append / read f in one fixed order (par_figures.c). get returns 0, -1 when m is short. */
void par_figures_put(par_msg *m, const par_figures *f);
int par_figures_get(par_msg *m, par_figures *f);
/* out += f (maxima for events_max, tree.max_depth). */
void par_figures_add(par_figures *out, const par_figures *f);

/*
 * A path condition on the wire (par_expr.c): the DAG below roots[0..n) as a list of nodes,
 * kids before parents (op, width, kid count, aux, value, kid indices), then the roots'
 * indices. get rebuilds it in cx with expr_raw (no simplification: the same nodes) and
 * returns the count with *out (malloc'ed, roots of width 1), or 0 with m->bad set.
 */
void par_put_exprs(par_msg *m, expr *const *roots, size_t n);
size_t par_get_exprs(par_msg *m, expr_ctx *cx, expr ***out);

/*
 * The hash of a run's path: FNV-1a over (kind, site, taken) of every symbolic event, so
 * two runs have the same hash iff (up to collisions) they took the same path. Used to
 * count distinct and duplicate paths (report.json "paths") in every mode.
 */
uint64_t par_path_hash(const sym_event *ev, uint32_t n);

/* A set of 64-bit path hashes (open addressing). Zero-initialise; free with pathset_free. */
typedef struct pathset {
    uint64_t *slot; /* 0 = empty (a hash of 0 is stored as 1) */
    uint8_t *aimed; /* per slot: a run that did not diverge took this path */
    uint64_t cap, n;
    uint64_t dup;         /* adds of a hash already in the set */
    uint64_t dup_aimed;   /* of which a second run that did not diverge: two runs were aimed at one path
                             (0 unless the tree's parts overlap, e.g. two workers owning one direction) */
    uint64_t fingerprint; /* sum of the distinct hashes (mod 2^64): equal sets give equal sums */
} pathset;
/* Add h, the path of a run that diverged (left its predicted path: it may repeat a known
 * path, -j 1 too) or not; 1 when new, 0 when already there (counted), -1 when out of memory. */
int pathset_add(pathset *p, uint64_t h, int diverged);
void pathset_free(pathset *p);

#endif
