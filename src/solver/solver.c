/* solver.c: path conditions to inputs: the solver's life and solver_solve, the steps of a query (syntactic checks, constraint independence, caches, sampling, Z3). */
#include "solver/solver_int.h"
#include "solver/solver_real.h"
#include "solver/solver_sample.h"

#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

/* ------------------------------------------------------------------ utilities */

/* Grow *p (element size sz, capacity *cap) to hold at least need elements; new
 * elements are zeroed. Returns false when out of memory (then *p is unchanged). */
bool sv_grow(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * sz);
    if (!q) return false;
    memset((char *)q + *cap * sz, 0, (nc - *cap) * sz);
    *p = q;
    *cap = nc;
    return true;
}

/* Z3 does not exit on error with this handler installed; the failing call returns
 * NULL (or UNDEF), which the callers turn into SOLVE_UNKNOWN. */
static void on_z3_error(Z3_context c, Z3_error_code e)
{
    (void)c;
    (void)e;
}

/* Make every per-id array hold index id. */
bool sv_ensure_id(solver *s, uint32_t id)
{
    if (id < s->id_cap) return true;
    size_t need = (size_t)id + 1, c;
    c = s->id_cap;
    if (!sv_grow((void **)&s->ast, &c, need, sizeof *s->ast)) return false;
    c = s->id_cap;
    if (!sv_grow((void **)&s->fpast, &c, need, sizeof *s->fpast)) return false;
    c = s->id_cap;
    if (!sv_grow((void **)&s->skast, &c, need, sizeof *s->skast)) return false;
    c = s->id_cap;
    if (!sv_grow((void **)&s->pinast, &c, need, sizeof *s->pinast)) return false;
    c = s->id_cap;
    if (!sv_grow((void **)&s->sets, &c, need, sizeof *s->sets)) return false;
    c = s->id_cap;
    if (!sv_grow((void **)&s->stamp, &c, need, sizeof *s->stamp)) return false;
    c = s->id_cap;
    if (!sv_grow((void **)&s->core_head, &c, need, sizeof *s->core_head)) return false;
    for (size_t i = s->id_cap; i < c; i++) {
        s->sets[i].len = SYMSET_NONE;
        s->core_head[i] = -1;
    }
    s->id_cap = c;
    return true;
}

bool sv_ensure_sym(solver *s, uint32_t idx)
{
    if (idx < s->sym_cap) return true;
    size_t need = (size_t)idx + 1, c;
    c = s->sym_cap;
    if (!sv_grow((void **)&s->sym_head, &c, need, sizeof *s->sym_head)) return false;
    c = s->sym_cap;
    if (!sv_grow((void **)&s->sym_width, &c, need, sizeof *s->sym_width)) return false;
    c = s->sym_cap;
    if (!sv_grow((void **)&s->uf_parent, &c, need, sizeof *s->uf_parent)) return false;
    c = s->sym_cap;
    if (!sv_grow((void **)&s->uf_stamp, &c, need, sizeof *s->uf_stamp)) return false;
    c = s->sym_cap;
    if (!sv_grow((void **)&s->sym_stamp, &c, need, sizeof *s->sym_stamp)) return false;
    for (size_t i = s->sym_cap; i < c; i++) s->sym_head[i] = -1;
    s->sym_cap = c;
    return true;
}

/* A fresh stamp value for per-query marks; on wrap-around all marks are cleared. */
uint32_t sv_next_stamp(solver *s)
{
    if (++s->qstamp == 0) {
        memset(s->stamp, 0, s->id_cap * sizeof *s->stamp);
        memset(s->uf_stamp, 0, s->sym_cap * sizeof *s->uf_stamp);
        memset(s->sym_stamp, 0, s->sym_cap * sizeof *s->sym_stamp);
        s->qstamp = 1;
    }
    return s->qstamp;
}

bool sv_push(solver *s, size_t *sp, const expr *e)
{
    if (!sv_grow((void **)&s->stack, &s->stack_cap, *sp + 1, sizeof *s->stack)) return false;
    s->stack[(*sp)++] = e;
    return true;
}

/* ------------------------------------------------------------------ Z3's memory bound */

/*
 * A bound on Z3's memory (memory_max_size, process-wide, in MB): bit-blasting floating-point
 * operations on doubles can grow without end, and past the bound the check gives up (unknown)
 * instead of taking the machine's memory. Z3 enforces it in every allocation by throwing, and a
 * throw from a destructor ends the process (std::terminate: "terminate called after throwing an
 * instance of 'out_of_memory_error'"): releasing the solver of a check that stopped at the bound
 * allocates its deletion work lists and did, losing every test of a stb_c_lexer.h exploration. So the
 * bound holds during checks only: lifted after a check that left Z3 holding half of it or more,
 * until the next check begins (and before a context is deleted).
 */
#define SV_MEMORY_MB 3072u      /* the bound */
#define SV_MEMORY_MB_FAULT 24u  /* under the hook solver_memory (src/util/fault.c) */
static long sv_memory_set = -1; /* the bound now set in MB, 0 lifted, -1 never set */

static unsigned sv_memory_mb(void) { return util_fault("solver_memory") ? SV_MEMORY_MB_FAULT : SV_MEMORY_MB; }

static void sv_memory_set_mb(unsigned mb)
{
    if (sv_memory_set == (long)mb) return;
    char v[16];
    snprintf(v, sizeof v, "%u", mb); /* 0: no bound */
    Z3_global_param_set("memory_max_size", v);
    sv_memory_set = (long)mb;
}

void sv_memory_bound_on(void) { sv_memory_set_mb(sv_memory_mb()); }

void sv_memory_lift(void) { sv_memory_set_mb(0); }

void sv_memory_after_check(void)
{
    if (Z3_get_estimated_alloc_size() >= (uint64_t)sv_memory_mb() * 1024 * 1024 / 2) sv_memory_lift();
}

/* ------------------------------------------------------------------ lifecycle */

solver *solver_new(unsigned timeout_ms)
{
    solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    sv_memory_bound_on();
    Z3_config cfg = Z3_mk_config();
    if (!cfg) {
        free(s);
        return NULL;
    }
    Z3_set_param_value(cfg, "model", "true");
    s->z3 = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (!s->z3) {
        free(s);
        return NULL;
    }
    Z3_set_error_handler(s->z3, on_z3_error);
    Z3_context z = s->z3;
    for (unsigned w = 1; w <= 64; w++) {
        s->bv[w] = Z3_mk_bv_sort(z, w);
        Z3_inc_ref(z, Z3_sort_to_ast(z, s->bv[w]));
    }
    s->boolean = Z3_mk_bool_sort(z);
    Z3_inc_ref(z, Z3_sort_to_ast(z, s->boolean));
    s->one = Z3_mk_unsigned_int64(z, 1, s->bv[1]);
    Z3_inc_ref(z, s->one);
    s->zero = Z3_mk_unsigned_int64(z, 0, s->bv[1]);
    Z3_inc_ref(z, s->zero);
    if (!fpz_init(&s->fp, z)) {
        solver_free(s);
        return NULL;
    }
    s->params = Z3_mk_params(z);
    Z3_params_inc_ref(z, s->params);
    if (timeout_ms) Z3_params_set_uint(z, s->params, Z3_mk_string_symbol(z, "timeout"), timeout_ms);
    if (Z3_get_error_code(z) != Z3_OK) {
        solver_free(s);
        return NULL;
    }
    s->timeout_ms = timeout_ms;
    if (timeout_ms) sv_watchdog_start(&s->wd, z);
    for (size_t i = 0; i < CORE_MAX; i++) s->cores[i].next = -1;
    return s;
}

void solver_stop_on(solver *s, volatile sig_atomic_t *flag)
{
    if (!s) return;
    if (s->wd.running) pthread_mutex_lock(&s->wd.mu);
    s->wd.stop = flag;
    if (s->wd.running) pthread_mutex_unlock(&s->wd.mu);
}

void solver_free(solver *s)
{
    if (!s) return;
    sv_watchdog_stop(&s->wd);
    Z3_context z = s->z3;
    if (z) {
        for (size_t i = 0; i < s->id_cap; i++)
            if (s->ast[i]) Z3_dec_ref(z, s->ast[i]);
        for (size_t i = 0; i < s->id_cap; i++)
            if (s->fpast[i]) Z3_dec_ref(z, s->fpast[i]);
        for (size_t i = 0; i < s->id_cap; i++)
            if (s->skast[i]) Z3_dec_ref(z, s->skast[i]);
        fpz_fini(&s->fp);
        for (size_t i = 0; i < s->nvars; i++) Z3_dec_ref(z, s->vars[i].ast);
        if (s->one) Z3_dec_ref(z, s->one);
        if (s->zero) Z3_dec_ref(z, s->zero);
        if (s->params) Z3_params_dec_ref(z, s->params);
        for (unsigned w = 1; w <= 64; w++)
            if (s->bv[w]) Z3_dec_ref(z, Z3_sort_to_ast(z, s->bv[w]));
        if (s->boolean) Z3_dec_ref(z, Z3_sort_to_ast(z, s->boolean));
        sv_memory_lift(); /* the deletion allocates its work lists */
        Z3_del_context(z);
    }
    sv_qcache_clear(s);
    free(s->qe);
    free(s->qbuckets);
    for (size_t i = 0; i < CORE_MAX; i++) free(s->cores[i].ids);
    for (size_t i = 0; i < CEX_MODELS; i++) {
        free(s->cex[i].syms);
        free(s->cex[i].vals);
    }
    free(s->ast);
    free(s->fpast);
    free(s->skast);
    free(s->pinast); /* (empty between queries) */
    free(s->pin_ids);
    free(s->sets);
    free(s->stamp);
    free(s->core_head);
    free(s->pool);
    free(s->sym_head);
    free(s->sym_width);
    free(s->uf_parent);
    free(s->uf_stamp);
    free(s->sym_stamp);
    free(s->vars);
    free(s->stack);
    free(s->tmp_set);
    free(s->kept);
    free(s->kept_ids);
    free(s->core_idx);
    free(s->kept_syms);
    free(s->vals);
    free(s->trk);
    free(s->assign);
    free(s);
}

void solver_set_fp_sampling(solver *s, int on) { s->no_sampling = !on; }

void solver_get_stats(const solver *s, solver_stats *out) { *out = s->st; }

/* ------------------------------------------------------------------ solver_solve */

static bool ensure_kept(solver *s, size_t n)
{
    size_t c = s->kept_cap;
    if (!sv_grow((void **)&s->kept, &c, n, sizeof *s->kept)) return false;
    c = s->kept_cap;
    if (!sv_grow((void **)&s->kept_ids, &c, n, sizeof *s->kept_ids)) return false;
    c = s->kept_cap;
    if (!sv_grow((void **)&s->trk, &c, n, sizeof *s->trk)) return false;
    c = s->kept_cap;
    if (!sv_grow((void **)&s->core_idx, &c, n, sizeof *s->core_idx)) return false;
    s->kept_cap = c;
    return true;
}

#define LIKELY_UNSAT_MIN_MS 500 /* Z3's time for a query the reals found UNSAT on a clean core (step 5) */
#define PINNED_MS 250           /* an integer query of the program's size: milliseconds when it is SAT */
#define SKELETON_MS 300         /* the skeleton's UNSAT is propositional: it comes at once or not at all */
#define CORE_CHECK_MIN_MS 250
#define CORE_CHECK_MAX_MS 1000

/* A quarter of t (milliseconds), clamped to [lo, hi]; 0 (no limit) stays 0, and never more than t. */
static unsigned quarter(unsigned t, unsigned lo, unsigned hi)
{
    unsigned q = t / 4 < lo ? lo : t / 4 > hi ? hi : t / 4;
    return q < t ? q : t;
}

/*
 * The approximation over the reals (solver_real.h) found the query UNSAT with the small
 * core s->kept[core_idx[0..ncore)]. Check that subset bit-precisely (Z3, floating-point
 * theory) with a quarter of the timeout (250 ms to 1 s): if it is UNSAT so is the whole
 * query, and Z3 stores the core for later queries; a core that rounding makes satisfiable
 * says nothing (false). The kept set's order is restored either way.
 */
static bool core_unsat(solver *s, size_t nkept, size_t nsyms, size_t ncore)
{
    const expr **all = malloc(nkept * sizeof *all);
    if (!all) return false;
    memcpy(all, s->kept, nkept * sizeof *all);
    for (size_t i = 0; i < ncore; i++) s->kept[i] = all[s->core_idx[i]];
    unsigned timeout = s->timeout_ms;
    s->timeout_ms = quarter(timeout, CORE_CHECK_MIN_MS, CORE_CHECK_MAX_MS); /* UNSAT comes fast or not at all */
    solve_result r = util_fault("solver_fail") ? SOLVE_UNKNOWN : sv_run_z3_any_depth(s, ncore, nsyms);
    s->timeout_ms = timeout;
    memcpy(s->kept, all, nkept * sizeof *all);
    free(all);
    return r == SOLVE_UNSAT;
}

/* Does a kept constraint of the query multiply by a wide constant (EXPR_FLAG_WIDE_MUL)? */
static bool wide_products(const solver *s, size_t nkept)
{
    for (size_t i = 0; i < nkept; i++)
        if (s->kept[i]->flags & EXPR_FLAG_WIDE_MUL) return true;
    return false;
}

static solve_result finish(solver *s, solve_result r, double t0)
{
    if (r == SOLVE_SAT)
        s->st.sat++;
    else if (r == SOLVE_UNSAT)
        s->st.unsat++;
    else
        s->st.unknown++;
    s->st.seconds += util_now_s() - t0;
    return r;
}

solve_result solver_solve(solver *s, expr *const *cs, size_t n, const uint64_t *parent, size_t parent_n, uint64_t **out,
                          size_t *out_n)
{
    double t0 = util_now_s();
    *out = NULL;
    *out_n = 0;
    s->st.queries++;
    s->st.constraints_in += n;
    if (n == 0) /* the empty conjunction: the parent's inputs satisfy it */
        return finish(s, sv_make_output(s, NULL, NULL, 0, parent, parent_n, out, out_n) ? SOLVE_SAT : SOLVE_UNKNOWN,
                      t0);
    const expr *target = cs[n - 1];

    /* 1. Syntactic UNSAT: a constant-false constraint, or the target is the negation of
     *    a prefix constraint (pointer equality is structural equality in an expr_ctx). */
    for (size_t i = 0; i < n; i++) {
        const expr *c = cs[i];
        if (c->op == EXPR_CONST && (c->value & 1) == 0) {
            s->st.syntactic_unsat++;
            return finish(s, SOLVE_UNSAT, t0);
        }
        if (i + 1 < n &&
            ((target->op == EXPR_NOT && target->kid[0] == c) || (c->op == EXPR_NOT && c->kid[0] == target))) {
            s->st.syntactic_unsat++;
            return finish(s, SOLVE_UNSAT, t0);
        }
    }

    /* 2. Constraint independence (CUTE, Sen et al. 2005; KLEE's independent-solver):
     *    union the symbols of each constraint (union-find over symbol indices), then keep
     *    the constraints in the target's component. Duplicates and symbol-free constraints
     *    (true: dropped; false: UNSAT) are removed on the way. Linear in the path length
     *    plus the symbol-set sizes; the sets themselves are cached per expression. */
    if (!ensure_kept(s, n)) return finish(s, SOLVE_UNKNOWN, t0);
    for (size_t i = 0; i < n; i++)
        if (!sv_symset_of(s, cs[i])) return finish(s, SOLVE_UNKNOWN, t0);
    uint32_t dup = sv_next_stamp(s);
    size_t ncand = 0; /* unique constraints with symbols, in kept[] (target last if it has symbols) */
    bool target_in = false;
    for (size_t i = 0; i < n; i++) {
        const expr *c = cs[i];
        bool is_target = (i == n - 1);
        if (s->stamp[c->id] == dup) { /* a duplicate; the target may repeat a prefix constraint */
            if (is_target) {
                for (size_t j = 0; j < ncand; j++)
                    if (s->kept[j] == c) {
                        s->kept[j] = s->kept[ncand - 1];
                        s->kept[ncand - 1] = c;
                        target_in = true;
                        break;
                    }
            }
            continue;
        }
        s->stamp[c->id] = dup;
        symset ss = s->sets[c->id];
        if (c->op == EXPR_CONST) continue; /* constant true (false was handled above) */
        if (ss.len == 0) {                 /* ground but unfolded (e.g. built by expr_raw) */
            if ((expr_eval(c, NULL, 0) & 1) == 0) {
                s->st.syntactic_unsat++;
                return finish(s, SOLVE_UNSAT, t0);
            }
            continue;
        }
        const uint32_t *sy = s->pool + ss.off;
        for (uint32_t k = 1; k < ss.len; k++) sv_uf_union(s, sy[0], sy[k]);
        s->kept[ncand++] = c;
        if (is_target) target_in = true;
    }
    if (!target_in) { /* the target holds whatever the inputs: the parent's inputs do */
        return finish(s, sv_make_output(s, NULL, NULL, 0, parent, parent_n, out, out_n) ? SOLVE_SAT : SOLVE_UNKNOWN,
                      t0);
    }
    uint32_t root = sv_uf_find(s, s->pool[s->sets[target->id].off]);
    size_t nkept = 0;
    for (size_t i = 0; i < ncand; i++) {
        const expr *c = s->kept[i];
        if (sv_uf_find(s, s->pool[s->sets[c->id].off]) == root) s->kept[nkept++] = c;
    }
    s->st.constraints_kept += nkept;
    /* kept symbols: the union of the kept constraints' sets */
    uint32_t symmark = sv_next_stamp(s);
    size_t nsyms = 0;
    for (size_t i = 0; i < nkept; i++) {
        symset ss = s->sets[s->kept[i]->id];
        for (uint32_t k = 0; k < ss.len; k++) {
            uint32_t x = s->pool[ss.off + k];
            if (s->sym_stamp[x] == symmark) continue;
            s->sym_stamp[x] = symmark;
            size_t c = s->ksyms_cap;
            if (!sv_grow((void **)&s->kept_syms, &c, nsyms + 1, sizeof *s->kept_syms))
                return finish(s, SOLVE_UNKNOWN, t0);
            c = s->ksyms_cap;
            if (!sv_grow((void **)&s->vals, &c, nsyms + 1, sizeof *s->vals)) return finish(s, SOLVE_UNKNOWN, t0);
            s->ksyms_cap = c;
            s->kept_syms[nsyms++] = x;
        }
    }
    qsort(s->kept_syms, nsyms, sizeof *s->kept_syms, sv_cmp_u32);

    /* 3. Query cache: exact hit, then UNSAT cores that are subsets of the kept set. */
    for (size_t i = 0; i < nkept; i++) s->kept_ids[i] = s->kept[i]->id;
    qsort(s->kept_ids, nkept, sizeof *s->kept_ids, sv_cmp_u32);
    uint64_t h = sv_hash_ids(s->kept_ids, nkept);
    qentry *q = sv_qcache_find(s, s->kept_ids, nkept, h);
    if (q) {
        s->st.cache_hits++;
        if (q->result == SOLVE_SAT) {
            solve_result r =
                sv_make_output(s, q->syms, q->vals, q->nvals, parent, parent_n, out, out_n) ? SOLVE_SAT : SOLVE_UNKNOWN;
            return finish(s, r, t0);
        }
        return finish(s, (solve_result)q->result, t0);
    }
    uint32_t kmark = sv_next_stamp(s);
    for (size_t i = 0; i < nkept; i++) s->stamp[s->kept_ids[i]] = kmark;
    if (sv_core_subset(s, s->kept_ids, nkept, kmark)) {
        s->st.unsat_subset_hits++;
        return finish(s, SOLVE_UNSAT, t0);
    }
    if (sv_try_cex(s, nkept, nsyms, parent, parent_n)) {
        s->st.cache_hits++;
        sv_qcache_add(s, s->kept_ids, nkept, h, SOLVE_SAT, s->kept_syms, s->vals, nsyms);
        solve_result r =
            sv_make_output(s, s->kept_syms, s->vals, nsyms, parent, parent_n, out, out_n) ? SOLVE_SAT : SOLVE_UNKNOWN;
        return finish(s, r, t0);
    }

    /* 4. Floating-point queries: their approximation over the reals (solver_real.h), then
     *    candidates built from their constants (solver_sample.h), each checked by
     *    evaluation, before Z3, which needs seconds for many double operations; a miss
     *    costs a few milliseconds. */
    bool is_fp = false;
    for (size_t i = 0; i < nkept && !is_fp; i++) is_fp = s->kept[i]->flags & EXPR_FLAG_FP;
    solve_result r = SOLVE_UNKNOWN;
    size_t ncore = 0;
    bool relax = is_fp && !s->no_sampling;
    double tr = relax ? util_now_s() : 0;
    int pinned = relax ? sv_fp_pinned_solve(s, nkept, nsyms, parent, parent_n, PINNED_MS) : 0;
    int relaxed = relax && !pinned ? fp_real_solve(s, nkept, nsyms, parent, parent_n, s->core_idx, &ncore) : 0;
    bool hard = false;
    if (relaxed == -1 && ncore) { /* a core Z3 already timed out on: the same time-out again */
        uint32_t hmark = sv_next_stamp(s);
        for (size_t i = 0; i < nkept; i++) s->stamp[s->kept_ids[i]] = hmark;
        hard = sv_hard_core_subset(s, s->kept_ids, nkept, hmark);
    }
    if (pinned) {
        s->st.fp_pinned++;
        r = pinned == 1 ? SOLVE_SAT : SOLVE_UNSAT;
    } else if (hard) {
        s->st.fp_hard_skipped++;
    } else if (relaxed == 1) {
        s->st.fp_relaxed++;
        r = SOLVE_SAT;
    } else if (relaxed == -1 && !util_fault("solver_fail") &&
               s->unsat_check_waste < 1.0 + 0.25 * (double)(s->st.fp_skeleton_unsat + s->st.fp_core_unsat)) {
        /* the UNSAT checks cost up to a second each: they stop while their misses' time exceeds
         * 1 s plus 0.25 s per query they decided (2 s + 1 s cost the expenses app 4 of 48 branches) */
        double tc = util_now_s();
        if (sv_fp_skeleton_unsat(s, nkept, SKELETON_MS)) {
            s->st.fp_skeleton_unsat++;
            r = SOLVE_UNSAT;
        } else if (ncore && ncore < nkept && core_unsat(s, nkept, nsyms, ncore)) {
            s->st.fp_core_unsat++;
            r = SOLVE_UNSAT;
        } else {
            s->unsat_check_waste += util_now_s() - tc;
        }
    }
    if (relax) s->st.fp_relax_seconds += util_now_s() - tr;
    if (r == SOLVE_UNKNOWN && is_fp && !s->no_sampling && !hard &&
        fp_sample_solve(s->kept, nkept, s->kept_syms, nsyms, parent, parent_n, s->vals)) {
        for (size_t i = 0; i < nsyms; i++) s->vals[i] &= expr_mask(s->sym_width[s->kept_syms[i]]);
        s->st.fp_sampled++;
        r = SOLVE_SAT;
    }
    /* 5. Z3 (the test hook solver_fail stands for a Z3 that crashed or gave up: util/fault.c).
     *    A query the reals found UNSAT on a core without pinned values is most likely UNSAT,
     *    which bit-blasted IEEE operations rarely prove in time: it gets a quarter of the
     *    time-out (at least 500 ms), enough for the float-only models (x + 1 == x) sampling
     *    did not find. The clinic and HR apps spent most of their budget on such time-outs. */
    unsigned full = s->timeout_ms;
    if (relaxed == -1 && ncore && full) s->timeout_ms = quarter(full, LIKELY_UNSAT_MIN_MS, UINT_MAX);
    if (r != SOLVE_SAT && r != SOLVE_UNSAT && !hard)
        r = util_fault("solver_fail") ? SOLVE_UNKNOWN : sv_run_z3_any_depth(s, nkept, nsyms);
    s->timeout_ms = full;
    /* 6. Integer queries holding products by wide constants (a date's day number from its digits) that Z3 did not
     *    answer in time: their integer reading (solver_real.h, wrap-around ignored), which answers in milliseconds
     *    where Z3 bit-blasts for seconds (rota's `$2::date - hired > 3650`: 1.3 s alone, a time-out with its 37 path
     *    constraints); a model is checked by evaluation, an UNSAT only through its core checked bit-precisely. After
     *    Z3, not before: its models are Z3's wherever Z3 answers (tried first, the reading's models, often at the
     *    bounds of the integers' ranges, changed which fixtures test_db_sql's loans got) */
    if (r == SOLVE_UNKNOWN && !is_fp && !hard && !s->no_sampling && wide_products(s, nkept)) {
        size_t icore = 0;
        int ir = fp_real_solve(s, nkept, nsyms, parent, parent_n, s->core_idx, &icore);
        if (ir == 1) {
            s->st.int_relaxed++;
            r = SOLVE_SAT;
        } else if (ir == -1 && icore && icore < nkept && core_unsat(s, nkept, nsyms, icore)) {
            /* UNSAT read as integers proves nothing (wrap-around); its core, bit-precisely, does */
            s->st.int_core_unsat++;
            r = SOLVE_UNSAT;
        }
    }
    if (r == SOLVE_UNKNOWN && relaxed == -1 && ncore && !hard) { /* remembered: later queries holding it skip Z3 */
        uint32_t *ids = malloc(ncore * sizeof *ids);
        for (size_t i = 0; ids && i < ncore; i++) ids[i] = s->kept_ids[s->core_idx[i]];
        if (ids) sv_hard_core_add(s, ids, ncore);
        free(ids);
    }
    if (r == SOLVE_SAT) {
        sv_qcache_add(s, s->kept_ids, nkept, h, SOLVE_SAT, s->kept_syms, s->vals, nsyms);
        sv_cex_add(s, nsyms);
        if (!sv_make_output(s, s->kept_syms, s->vals, nsyms, parent, parent_n, out, out_n)) r = SOLVE_UNKNOWN;
    } else if (r == SOLVE_UNSAT) {
        sv_qcache_add(s, s->kept_ids, nkept, h, SOLVE_UNSAT, NULL, NULL, 0);
    }
    return finish(s, r, t0);
}

void solver_set_timeout(solver *s, unsigned timeout_ms)
{
    if (!s || !s->timeout_ms || !timeout_ms || timeout_ms == s->timeout_ms) return;
    Z3_params_set_uint(s->z3, s->params, Z3_mk_string_symbol(s->z3, "timeout"), timeout_ms);
    s->timeout_ms = timeout_ms;
}
