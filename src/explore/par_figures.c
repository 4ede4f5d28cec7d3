/* par_figures.c: a worker's figures on the wire, path hashes and the set that counts distinct and duplicate paths. */
#include <stdlib.h>
#include <string.h>

#include "par_int.h"

/* The u64 counters of par_figures, in wire order. */
/* clang-format off */
#define U64_FIELDS(X) \
    X(execs) X(divergences) X(timeouts) X(assume_failed) X(assume_retries) X(forks) X(dropped) X(inputs_done) \
    X(slow_runs) X(optimistic) X(optimistic_sat) X(events_total) X(events_max) X(inputs_total) \
    X(cont_left) X(restarts) X(jobs_sent) X(jobs_received) X(jobs_diverged) X(jobs_unsolved) X(open) X(promising) \
    X(complete_local)
#define F64_FIELDS(X) X(exec_seconds) X(solve_seconds) X(idle_seconds) X(job_seconds)
#define SOLVER_U64(X) \
    X(queries) X(sat) X(unsat) X(unknown) X(z3_calls) X(z3_timeouts) X(cache_hits) \
    X(unsat_subset_hits) X(syntactic_unsat) X(constraints_in) X(constraints_kept) X(fp_queries) \
    X(fp_timeouts) X(fp_sampled) X(int_relaxed) X(int_core_unsat) X(fp_relaxed) X(fp_core_unsat) X(fp_skeleton_unsat) X(fp_pinned) X(fp_hard_skipped)
#define SOLVER_F64(X) X(seconds) X(z3_seconds) X(fp_seconds) X(fp_relax_seconds)
/* clang-format on */

void par_figures_put(par_msg *m, const par_figures *f)
{
#define PUT_U(x) par_put_u64(m, f->x);
#define PUT_D(x) par_put_f64(m, f->x);
#define PUT_SU(x) par_put_u64(m, f->solver.x);
#define PUT_SD(x) par_put_f64(m, f->solver.x);
    U64_FIELDS(PUT_U)
    F64_FIELDS(PUT_D)
    SOLVER_U64(PUT_SU)
    SOLVER_F64(PUT_SD)
    for (int k = 0; k < CONC_KIND_COUNT; k++) par_put_u64(m, f->conc[k]);
    for (int k = 0; k < TRACE_CONC_FN_SLOTS; k++) par_put_u64(m, f->conc_fn[k]);
    par_put_u64(m, f->tree.nodes);
    par_put_u64(m, f->tree.divergences);
    par_put_u64(m, f->tree.mismatches);
    par_put_u64(m, f->tree.max_depth);
    par_put_u32(m, CHILD_STATUS_COUNT);
    for (int k = 0; k < CHILD_STATUS_COUNT; k++) par_put_u64(m, f->tree.by_status[k]);
}

int par_figures_get(par_msg *m, par_figures *f)
{
    memset(f, 0, sizeof *f);
#define GET_U(x) f->x = par_get_u64(m);
#define GET_D(x) f->x = par_get_f64(m);
#define GET_SU(x) f->solver.x = par_get_u64(m);
#define GET_SD(x) f->solver.x = par_get_f64(m);
    U64_FIELDS(GET_U)
    F64_FIELDS(GET_D)
    SOLVER_U64(GET_SU)
    SOLVER_F64(GET_SD)
    for (int k = 0; k < CONC_KIND_COUNT; k++) f->conc[k] = par_get_u64(m);
    for (int k = 0; k < TRACE_CONC_FN_SLOTS; k++) f->conc_fn[k] = par_get_u64(m);
    f->tree.nodes = par_get_u64(m);
    f->tree.divergences = par_get_u64(m);
    f->tree.mismatches = par_get_u64(m);
    f->tree.max_depth = par_get_u64(m);
    if (par_get_u32(m) != CHILD_STATUS_COUNT) return -1;
    for (int k = 0; k < CHILD_STATUS_COUNT; k++) f->tree.by_status[k] = par_get_u64(m);
    return m->bad ? -1 : 0;
}

void par_figures_add(par_figures *out, const par_figures *f)
{
#define ADD_U(x) out->x += f->x;
#define ADD_SU(x) out->solver.x += f->solver.x;
    uint64_t emax = out->events_max > f->events_max ? out->events_max : f->events_max;
    U64_FIELDS(ADD_U)
    F64_FIELDS(ADD_U)
    SOLVER_U64(ADD_SU)
    SOLVER_F64(ADD_SU)
    out->events_max = emax;
    for (int k = 0; k < CONC_KIND_COUNT; k++) out->conc[k] += f->conc[k];
    for (int k = 0; k < TRACE_CONC_FN_SLOTS; k++) out->conc_fn[k] += f->conc_fn[k];
    out->tree.nodes += f->tree.nodes;
    out->tree.divergences += f->tree.divergences;
    out->tree.mismatches += f->tree.mismatches;
    if (f->tree.max_depth > out->tree.max_depth) out->tree.max_depth = f->tree.max_depth;
    for (int k = 0; k < CHILD_STATUS_COUNT; k++) out->tree.by_status[k] += f->tree.by_status[k];
}

uint64_t par_path_hash(const sym_event *ev, uint32_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)ev[i].kind | (uint64_t)(ev[i].taken ? 1 : 0) << 8 | (uint64_t)ev[i].site << 16;
        for (int b = 0; b < 8; b++) {
            h ^= (v >> (8 * b)) & 0xff;
            h *= 1099511628211ull;
        }
    }
    return h;
}

static int pathset_grow(pathset *p)
{
    uint64_t nc = p->cap ? p->cap * 2 : 1024;
    uint64_t *ns = calloc(nc, sizeof *ns);
    uint8_t *na = calloc(nc, 1);
    if (!ns || !na) {
        free(ns);
        free(na);
        return -1;
    }
    for (uint64_t i = 0; i < p->cap; i++) {
        uint64_t h = p->slot[i];
        if (!h) continue;
        uint64_t j = h & (nc - 1);
        while (ns[j]) j = (j + 1) & (nc - 1);
        ns[j] = h;
        na[j] = p->aimed[i];
    }
    free(p->slot);
    free(p->aimed);
    p->slot = ns;
    p->aimed = na;
    p->cap = nc;
    return 0;
}

int pathset_add(pathset *p, uint64_t h, int diverged)
{
    if (!h) h = 1;
    if ((p->n + 1) * 2 > p->cap && pathset_grow(p) != 0) return -1;
    uint64_t j = h & (p->cap - 1);
    while (p->slot[j]) {
        if (p->slot[j] == h) {
            p->dup++;
            if (!diverged && p->aimed[j]) p->dup_aimed++;
            if (!diverged) p->aimed[j] = 1;
            return 0;
        }
        j = (j + 1) & (p->cap - 1);
    }
    p->slot[j] = h;
    p->aimed[j] = !diverged;
    p->n++;
    p->fingerprint += h;
    return 1;
}

void pathset_free(pathset *p)
{
    free(p->slot);
    free(p->aimed);
    memset(p, 0, sizeof *p);
}
