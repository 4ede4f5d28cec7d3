/* solver_int.h: the solver's private state and the helpers its files share (solver.c, solver_cache.c, solver_z3.c); private to src/solver. */
#ifndef SYMPATH_SOLVER_INT_H
#define SYMPATH_SOLVER_INT_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <z3.h>

#include "solver/solver.h"
#include "solver/solver_fp.h"

/*
 * Overview. One solver owns one Z3 context (reference-counted mode) for its whole
 * life. Every expression it sees comes from a single expr_ctx, so an expression id
 * names one node for the solver's life; all per-expression caches are dense arrays
 * indexed by id:
 *   ast[id]      the node translated to a Z3 bit-vector (width-1 nodes are BV of
 *                size 1, never Bool), referenced with Z3_inc_ref, built once;
 *   sets[id]     the sorted input-symbol indices the node depends on (below);
 *   stamp[id]    per-query marks (dedup of constraints, membership in the kept set);
 *   core_head[id] the unsat cores watched by this constraint (below).
 * Per input symbol index: the Z3 variable(s), the widest width seen, and the
 * union-find cells of the independence pass.
 *
 * A query goes through the four steps documented in solver.h. All steps before
 * Z3 are linear in the path length plus the total size of the constraints' symbol sets.
 */

#define SYMSET_NONE UINT32_MAX /* sets[id].len before the set is computed */
#define CORE_MAX 4096          /* unsat cores kept (a ring: the oldest is evicted) */
#define QCACHE_MAX_ENTRIES (1u << 16)
#define QCACHE_MAX_WORDS (1u << 24) /* ids + values kept in the query cache, in 32-bit words */
#define CEX_MODELS 8                /* recent SAT models tried for counterexample reuse */
#define CEX_MAX_KEPT 256            /* skip reuse for kept sets larger than this (evaluation cost) */

/* A node's symbol set: pool[off .. off+len), sorted ascending, no duplicates. */
typedef struct symset {
    uint32_t off, len;
} symset;

/* One Z3 variable for (symbol index, width); a chain per index (normally one link). */
typedef struct symvar {
    Z3_ast ast;
    uint32_t width;
    int32_t next;
} symvar;

/*
 * Query cache (KLEE, Cadar et al. 2008, "counterexample cache"): key = the sorted ids
 * of the kept constraints (target included); for SAT the model restricted to the set's
 * symbols is stored, so an exact hit answers without Z3. Entries live in a vector with
 * hash chains; when the cache grows past its caps it is flushed whole (simple, and the
 * explorer's queries are mostly fresh anyway; the UNSAT cores below survive flushes).
 */
typedef struct qentry {
    uint64_t hash;
    uint32_t nids, nvals;
    uint32_t *ids;  /* sorted constraint ids */
    uint32_t *syms; /* SAT: symbol indices ... */
    uint64_t *vals; /* ... and their values (masked) */
    int32_t next;   /* hash chain */
    uint8_t result; /* solve_result */
} qentry;

/*
 * UNSAT subsets (KLEE's UNSAT-superset rule): Z3's unsat core of an UNSAT query is
 * itself UNSAT, so any later kept set that contains a stored core is UNSAT. Each core
 * is "watched" by its largest constraint id (usually the most specific, so lists stay
 * short): core_head[id] chains the cores watched by id. A query marks its kept ids,
 * then for each kept id walks that id's watch list and tests the members of each core
 * against the marks: cost O(kept + size of the candidate cores), independent of the
 * number of cores stored. Cores sit in a ring of CORE_MAX; reuse of a slot unlinks it.
 */
typedef struct core {
    uint32_t *ids; /* sorted; NULL when the slot is empty */
    uint32_t n;
    uint32_t watch; /* id whose list holds the core */
    int32_t next;   /* next core in the watch list */
    bool hard;      /* not an UNSAT core: a real-approximation core Z3 timed out on (sv_hard_core_add) */
} core;

/* A recent SAT model for counterexample reuse (KLEE): symbol/value pairs. */
typedef struct cex_model {
    uint32_t n;
    uint32_t *syms;
    uint64_t *vals;
} cex_model;

/*
 * Watchdog: Z3 4.8 does not always honour its own "timeout" parameter (long add/xor
 * chains, e.g. checksum loops, can run for minutes). A thread armed around each check
 * calls Z3_interrupt when the query overruns its timeout by a grace period, so one
 * query can never eat the exploration's budget.
 */
typedef struct watchdog {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int running, armed, quit;
    struct timespec deadline; /* CLOCK_REALTIME, for pthread_cond_timedwait */
    Z3_context z3;
    uint64_t fired;
    volatile sig_atomic_t *stop; /* solver_stop_on's flag, polled every 50 ms while armed; NULL: none */
} watchdog;

struct solver {
    Z3_context z3;
    Z3_params params;
    unsigned timeout_ms;
    watchdog wd;
    Z3_sort bv[65]; /* bv[w]: BitVec sort of width w (referenced) */
    Z3_sort boolean;
    Z3_ast one, zero;         /* #b1, #b0 */
    fpz fp;                   /* floating-point sorts and rounding modes (solver_fp.h) */
    bool no_sampling;         /* solver_set_fp_sampling(s, 0) */
    double unsat_check_waste; /* seconds of skeleton and core checks that decided nothing */

    /* per expression id */
    size_t id_cap;
    Z3_ast *ast;
    Z3_ast *fpast;     /* FP-sort term of a node read as a float (referenced), or NULL */
    Z3_ast *skast;     /* the node's floating-point skeleton (sv_fp_skeleton_unsat), referenced, or NULL */
    Z3_ast *pinast;    /* per query: the node's pinned translation (sv_fp_pinned_solve), referenced, or NULL */
    uint32_t *pin_ids; /* the ids pinast holds a term for in this query (cleared at its end) */
    size_t npin_ids, pin_ids_cap;
    symset *sets;
    uint32_t *stamp;
    int32_t *core_head;

    /* symbol-set pool */
    uint32_t *pool;
    size_t pool_n, pool_cap;

    /* per symbol index */
    size_t sym_cap;
    int32_t *sym_head;   /* first symvar, -1 = no Z3 variable yet */
    uint32_t *sym_width; /* widest width seen (0 = never seen) */
    uint32_t *uf_parent, *uf_stamp, *sym_stamp;
    symvar *vars;
    size_t nvars, vars_cap;

    uint32_t qstamp; /* current per-query stamp value */

    /* query cache */
    qentry *qe;
    size_t nqe, qe_cap;
    int32_t *qbuckets;
    size_t nbuckets;
    size_t qwords;

    /* unsat cores */
    core cores[CORE_MAX];
    size_t core_next;

    /* counterexample reuse */
    cex_model cex[CEX_MODELS];
    size_t cex_next;

    /* scratch, reused across queries */
    const expr **stack;
    size_t stack_cap;
    uint32_t *tmp_set;
    size_t tmp_set_cap;
    const expr **kept;
    uint32_t *kept_ids, *kept_syms;
    size_t *core_idx; /* the real approximation's unsat core, indices into kept (solver_real.h) */
    uint64_t *vals;
    Z3_ast *trk;
    size_t kept_cap, ksyms_cap;
    uint64_t *assign;
    size_t assign_cap;
    Z3_ast hold[8];
    unsigned nhold;
    bool failed; /* a Z3 call returned NULL during translation */
    /* in the child of a forked query (solver_z3.c, run_z3_forked): the unsat core is left in
     * tmp_set[0..child_ncore) for the parent instead of being stored */
    bool in_child;
    size_t child_ncore;

    solver_stats st;
};

/* ---- utilities (solver.c) ---- */
/* Make every per-expression-id array hold index id; false when out of memory. */
bool sv_ensure_id(solver *s, uint32_t id);
/* Make every per-symbol array hold index idx; false when out of memory. */
bool sv_ensure_sym(solver *s, uint32_t idx);
/* Grow *p (element size sz, capacity *cap) to hold at least need elements; new
 * elements are zeroed. Returns false when out of memory (then *p is unchanged). */
bool sv_grow(void **p, size_t *cap, size_t need, size_t sz);
/* A fresh stamp value for per-query marks; on wrap-around all marks are cleared. */
uint32_t sv_next_stamp(solver *s);
/* Push e on the scratch stack s->stack (depth *sp); false when out of memory. */
bool sv_push(solver *s, size_t *sp, const expr *e);

/* ---- constraint independence, caches and answers (solver_cache.c) ---- */
/* Remember the model vals[0..nsyms) of kept_syms for counterexample reuse. */
void sv_cex_add(solver *s, size_t nsyms);
/* qsort comparison of uint32_t values. */
int sv_cmp_u32(const void *a, const void *b);
/* Store the unsat core ids[0..n) (sorted), evicting the oldest when the ring is full. */
void sv_core_add(solver *s, const uint32_t *ids, size_t n);
/* Does a stored core lie within the kept set (its ids stamped with mark)? */
bool sv_core_subset(solver *s, const uint32_t *ids, size_t n, uint32_t mark);
/* Store ids[0..n) as a hard core: the real approximation's UNSAT core of an FP query (solver_real.h) on
 * which Z3 then timed out. Kept in the same ring as the UNSAT cores, never taken for one. */
void sv_hard_core_add(solver *s, const uint32_t *ids, size_t n);
/* Does a stored hard core lie within the kept set (ids stamped with mark)? Such a query is
 * most likely UNSAT and beyond Z3's time-out: the solver answers UNKNOWN without trying. */
bool sv_hard_core_subset(solver *s, const uint32_t *ids, size_t n, uint32_t mark);
/* Hash of a sorted id list (the query cache's key). */
uint64_t sv_hash_ids(const uint32_t *ids, size_t n);
/* Build the output vector: parent values, then vals[i] (masked to the symbol's widest
 * width) at syms[i]. Returns false when out of memory. */
bool sv_make_output(solver *s, const uint32_t *syms, const uint64_t *vals, size_t nv, const uint64_t *parent,
                    size_t parent_n, uint64_t **out, size_t *out_n);
/* Store a query's answer (SAT: with its model syms/vals); the cache is flushed whole
 * when it grows past its caps. */
void sv_qcache_add(solver *s, const uint32_t *ids, size_t n, uint64_t h, solve_result r, const uint32_t *syms,
                   const uint64_t *vals, size_t nv);
/* Empty the query cache (entries freed, buckets kept). */
void sv_qcache_clear(solver *s);
/* The cache entry of exactly ids[0..n) (hash h), or NULL. */
qentry *sv_qcache_find(solver *s, const uint32_t *ids, size_t n, uint64_t h);
/* Compute sets[id] for root and every node below it that lacks one (iterative); false
 * when out of memory. */
bool sv_symset_of(solver *s, const expr *root);
/* Counterexample reuse: a recent SAT model that satisfies the kept constraints, laid
 * over the parent's inputs, into vals[0..nsyms); false when none does. */
bool sv_try_cex(solver *s, size_t nkept, size_t nsyms, const uint64_t *parent, size_t parent_n);
/* Union-find over symbol indices (per query, by uf_stamp): the root of x. */
uint32_t sv_uf_find(solver *s, uint32_t x);
/* Union-find: join the classes of a and b. */
void sv_uf_union(solver *s, uint32_t a, uint32_t b);

/* ---- Z3: translation, watchdog, checks (solver_z3.c) ---- */
/* Run Z3 on kept[0..nkept) (on a thread with a larger stack for deep queries; UNKNOWN
 * beyond MAX_QUERY_DEPTH). On SAT fills vals[0..nsyms); on UNSAT stores the unsat core. */
solve_result sv_run_z3_any_depth(solver *s, size_t nkept, size_t nsyms);
/*
 * A cheap UNSAT proof for a floating-point query: the kept set kept[0..nkept) with every
 * floating-point operator node replaced by a free bit-vector of its width (one unknown
 * per node, shared by the constraints it occurs in) and everything else bit-precise, so
 * Z3 bit-blasts no IEEE operation. The skeleton over-approximates the query: true (UNSAT,
 * core stored like any Z3 core) means the query is UNSAT. A database COUNT compared with
 * 0 while each row's match is already false on the path is the common case: its FP row
 * conditions need not be decided to see the contradiction. false: SAT, unknown within
 * timeout_ms (milliseconds), deeper than DEEP_QUERY, or a translation failure.
 */
bool sv_fp_skeleton_unsat(solver *s, size_t nkept, unsigned timeout_ms);
/*
 * A floating-point query solved as an integer one: the kept set kept[0..nkept) with every floating-point operator
 * node that is not below another one replaced by its value under the parent's inputs parent[0..parent_n) (missing
 * ones 0), so Z3 sees bit-vectors only. Most queries of a program whose database rows hold REAL cells are about
 * something else (a text, a count, a date) and only share the rows' FP conditions through the row count; their
 * FP nodes can keep the values they had. The symbols below a replaced node keep the parent's values in the
 * answer, which is checked against every kept constraint with expr_eval, so it is never wrong.
 * 1: SAT, s->vals[0..nsyms) hold the model of kept_syms (masked to their widths); -1: UNSAT on an unsat core
 * of constraints without a floating-point operator (a proof: the core is stored); 0: anything else (a model
 * that fails the check, UNSAT because of a replaced value, unknown within timeout_ms, a translation failure,
 * a constraint deeper than DEEP_QUERY).
 */
int sv_fp_pinned_solve(solver *s, size_t nkept, size_t nsyms, const uint64_t *parent, size_t parent_n,
                       unsigned timeout_ms);
/* Z3's memory bound (solver.c: 3072 MB, 24 under the test hook solver_memory), process-wide, held during
 * checks only: a throw at the bound from a destructor (the release of a solver whose check stopped there)
 * ends the process. sv_memory_bound_on sets it (before each Z3 check; cheap when set); sv_memory_after_check
 * lifts it when Z3 holds half of it or more (after each check); sv_memory_lift lifts it (before
 * Z3_del_context). No errors (Z3_global_param_set reports none). */
void sv_memory_bound_on(void);
void sv_memory_after_check(void);
void sv_memory_lift(void);
/* Start the watchdog thread for context z (solver_new, when there is a timeout). */
void sv_watchdog_start(watchdog *w, Z3_context z);
/* Stop and join the watchdog thread (no-op when it never started). */
void sv_watchdog_stop(watchdog *w);

#endif
