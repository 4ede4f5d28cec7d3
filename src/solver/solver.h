/* solver.h: path conditions to new inputs with Z3 (QF_BV, QF_FPBV for floats), with constraint independence, a query cache and fast UNSAT checks. */
#ifndef SYMPATH_SOLVER_H
#define SYMPATH_SOLVER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "../expr/expr.h"

typedef enum solve_result { SOLVE_SAT = 0, SOLVE_UNSAT, SOLVE_UNKNOWN } solve_result;

typedef struct solver_stats {
    uint64_t queries;             /* solver_solve calls */
    uint64_t sat, unsat, unknown; /* outcomes (whatever answered them) */
    uint64_t z3_calls;            /* queries that reached Z3 */
    uint64_t z3_timeouts;         /* Z3 returned unknown (timeout or give-up) */
    uint64_t cache_hits;          /* exact hits in the query cache */
    uint64_t unsat_subset_hits;   /* answered UNSAT because a known-UNSAT set was a subset */
    uint64_t syntactic_unsat;     /* answered UNSAT because the target's negation is in the prefix */
    uint64_t constraints_in;      /* constraints given (sum over queries) */
    uint64_t constraints_kept;    /* constraints left after independence (sum over queries) */
    double seconds;               /* wall time spent in solver_solve, seconds */
    double z3_seconds;            /* of which inside Z3 */
    uint64_t fp_queries;          /* Z3 calls whose constraints hold a floating-point operator */
    uint64_t fp_timeouts;         /* of which Z3 returned unknown */
    double fp_seconds;            /* time inside Z3 on those, seconds */
    uint64_t fp_sampled;          /* FP queries answered by candidate sampling without Z3 (solver_sample.h) */
    uint64_t int_relaxed;       /* integer queries with products by wide constants answered by their integer reading */
    uint64_t int_core_unsat;    /* such queries UNSAT as integers whose core was UNSAT bit-precisely */
    uint64_t fp_relaxed;        /* FP queries answered through their approximation over the reals (solver_real.h) */
    uint64_t fp_core_unsat;     /* FP queries found UNSAT on the small core of that approximation */
    uint64_t fp_skeleton_unsat; /* FP queries found UNSAT with their FP operators as free unknowns */
    uint64_t fp_pinned;         /* FP queries answered with their FP operators pinned (sv_fp_pinned_solve) */
    uint64_t fp_hard_skipped;   /* FP queries not given to Z3: they hold a real-UNSAT core Z3 timed out on before */
    double fp_relax_seconds;    /* time in that approximation and its core checks, seconds */
} solver_stats;

typedef struct solver solver;

/* Create a solver whose Z3 queries stop after timeout_ms milliseconds (0 = no limit).
 * Returns NULL if Z3 cannot be initialised.
 * All expressions passed to one solver must come from ONE expr_ctx that outlives the
 * solver: translations, symbol sets and cache keys are memoized by expression id.
 * A solver is not thread-safe; queries on very deep expressions run Z3 on a helper
 * thread with a large stack (Z3 recurses on terms), joined before solver_solve returns. */
solver *solver_new(unsigned timeout_ms);
/* Free the solver and its Z3 context. NULL is accepted. */
void solver_free(solver *s);
/* Abandon a running query (SOLVE_UNKNOWN) within about 50 ms once *flag becomes non-zero:
 * the explorer passes its Ctrl-C flag, so an interrupt does not wait out a long query.
 * flag is borrowed and must outlive the solver; NULL stops the polling. Only a solver
 * created with a timeout polls (its watchdog thread does). Z3's own SIGINT handler is
 * never installed (every check runs with ctrl_c=false): Ctrl-C is the caller's. */
void solver_stop_on(solver *s, volatile sig_atomic_t *flag);

/*
 * Solve cs[0..n): cs[n-1] is the target (the negated branch condition), cs[0..n-1) the
 * path prefix; all width 1, interned in one expr_ctx. Steps, cheapest first:
 *  1. syntactic negation: target is NOT(c) for some prefix c (or the reverse), or the
 *     target is constant false -> UNSAT without Z3;
 *  2. constraint independence (CUTE, Sen et al. 2005; KLEE): keep only the prefix
 *     constraints that share input symbols, transitively, with the target;
 *  3. query cache on the kept set: exact hits, and UNSAT if a known-UNSAT set (from Z3's
 *     unsat cores) is a subset;
 *  4. for a query with floating-point operators, its approximation over the reals
 *     (solver_real.h), then candidate values built from its constants (solver_sample.h),
 *     each model checked by evaluation;
 *  5. Z3 with the timeout (floating-point queries: two engines, solver_z3.c run_z3).
 * On SAT, *out (malloc'ed, caller frees) receives max(parent_n, highest symbol in the
 * kept set + 1) values: parent[i] for symbols outside the kept set (the parent run's
 * inputs), the model's values for the symbols in it (masked to their widths). *out_n
 * gets the count. On UNSAT/UNKNOWN *out is NULL. A symbol seen at several widths
 * gets the value of its widest variable in the model. UNKNOWN also covers Z3 errors,
 * out of memory and expressions deeper than 4000 (Z3 4.8 cannot be stopped on those).
 */
solve_result solver_solve(solver *s, expr *const *cs, size_t n, const uint64_t *parent, size_t parent_n, uint64_t **out,
                          size_t *out_n);

/* Switch step 4 of solver_solve (the real approximation and candidate sampling of
 * floating-point queries) on or off; on by default. Off, every such query goes to Z3
 * (the tests use this). */
void solver_set_fp_sampling(solver *s, int on);

/* Copy the counters accumulated since solver_new into *out. */
void solver_get_stats(const solver *s, solver_stats *out);

/* Change the per-query Z3 timeout (milliseconds, > 0) for the following queries; the
 * explorer lowers it to what is left of its budget. Has no effect on a solver created
 * without a timeout. */
void solver_set_timeout(solver *s, unsigned timeout_ms);

#endif
