/* solver_z3.c: the Z3 side of the solver: expressions translated to QF_BV (and FP) terms, the watchdog thread that interrupts overrunning checks, running a check and reading its model or unsat core. */
#include "solver/solver_int.h"
#include "solver/solver_sample.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/util.h"

/* ------------------------------------------------------------------ translation to Z3 */

/* In reference-counted mode Z3 may free an unreferenced result at the next API call,
 * so each intermediate term of a node's translation is held until the node is done. */
static Z3_ast hold(solver *s, Z3_ast a)
{
    if (!a) {
        s->failed = true;
        return NULL;
    }
    Z3_inc_ref(s->z3, a);
    s->hold[s->nhold++] = a;
    return a;
}

static void release_held(solver *s)
{
    while (s->nhold) Z3_dec_ref(s->z3, s->hold[--s->nhold]);
}

/* Bool -> BV1 (#b1 / #b0). */
static Z3_ast bool_to_bv1(solver *s, Z3_ast b)
{
    if (!b) return NULL;
    return Z3_mk_ite(s->z3, b, s->one, s->zero);
}

/* The Z3 variable of input symbol `idx` at `width`: "in<idx>" for the first width
 * seen, "in<idx>_w<width>" for any other. NULL on failure. */
static Z3_ast symbol_var(solver *s, uint32_t idx, unsigned width)
{
    if (!sv_ensure_sym(s, idx)) return NULL;
    if (s->sym_width[idx] < width) s->sym_width[idx] = width;
    for (int32_t v = s->sym_head[idx]; v >= 0; v = s->vars[v].next)
        if (s->vars[v].width == width) return s->vars[v].ast;
    if (!sv_grow((void **)&s->vars, &s->vars_cap, s->nvars + 1, sizeof *s->vars)) return NULL;
    char name[48];
    if (s->sym_head[idx] < 0)
        snprintf(name, sizeof name, "in%u", idx);
    else
        snprintf(name, sizeof name, "in%u_w%u", idx, width);
    Z3_ast a = Z3_mk_const(s->z3, Z3_mk_string_symbol(s->z3, name), s->bv[width]);
    if (!a) return NULL;
    Z3_inc_ref(s->z3, a);
    symvar *sv = &s->vars[s->nvars];
    sv->ast = a;
    sv->width = width;
    sv->next = s->sym_head[idx];
    s->sym_head[idx] = (int32_t)s->nvars++;
    return a;
}

/* Bit `bit` of x as BV1. */
static Z3_ast bit_of(solver *s, Z3_ast x, unsigned bit) { return Z3_mk_extract(s->z3, bit, bit, x); }

/* The FP term of kid k read as a float of its width: its own FP translation when it
 * is float-valued, else ((_ to_fp e s) bits), memoized in fpast. NULL on failure. */
static Z3_ast fp_of(solver *s, const expr *k)
{
    if (s->fpast[k->id]) return s->fpast[k->id];
    Z3_ast t = fpz_from_bits(&s->fp, s->ast[k->id], k->width);
    if (!t) return NULL;
    Z3_inc_ref(s->z3, t);
    s->fpast[k->id] = t;
    return t;
}

/* A floating-point node (solver_fp.c); its FP term, if any, goes to fpast. */
static Z3_ast translate_fp_node(solver *s, const expr *e)
{
    Z3_ast fk[3] = {NULL, NULL, NULL}, bk[3] = {NULL, NULL, NULL}, bv = NULL;
    bool float_kids = e->op != EXPR_SITOF && e->op != EXPR_UITOF;
    for (unsigned k = 0; k < e->nkids && k < 3; k++) {
        bk[k] = s->ast[e->kid[k]->id];
        if (float_kids && !(fk[k] = fp_of(s, e->kid[k]))) {
            fpz_release(&s->fp);
            return NULL;
        }
    }
    s->fp.failed = false;
    Z3_ast r = fpz_node(&s->fp, e, fk, bk, s->one, s->zero, &bv);
    if (bv) Z3_inc_ref(s->z3, bv); /* survives the release; handed to the caller */
    if (r && bv) {
        Z3_inc_ref(s->z3, r);
        s->fpast[e->id] = r;
    }
    fpz_release(&s->fp);
    if (bv) hold(s, bv), Z3_dec_ref(s->z3, bv); /* now held like the other intermediates */
    return bv;
}

/* Translate one node whose kids are translated. Returns an unreferenced AST (the
 * caller references it), or NULL on a Z3 error or an invalid node.
 * Semantics follow expr.h: SMT-LIB division/shift conventions coincide with it. */
static Z3_ast translate_node(solver *s, const expr *e, Z3_ast *memo)
{
    Z3_context z = s->z3;
    unsigned w = e->width;
    if (w < 1 || w > 64) return NULL;
    Z3_ast a = e->nkids > 0 ? memo[e->kid[0]->id] : NULL;
    Z3_ast b = e->nkids > 1 ? memo[e->kid[1]->id] : NULL;
    Z3_ast c = e->nkids > 2 ? memo[e->kid[2]->id] : NULL;
    unsigned aw = e->nkids > 0 ? e->kid[0]->width : 0;
    switch ((expr_op)e->op) {
    case EXPR_CONST: return Z3_mk_unsigned_int64(z, e->value & expr_mask(w), s->bv[w]);
    case EXPR_SYMBOL: {
        return symbol_var(s, e->aux, w); /* the caller adds the memo's own reference */
    }
    case EXPR_ADD: return Z3_mk_bvadd(z, a, b);
    case EXPR_SUB: return Z3_mk_bvsub(z, a, b);
    case EXPR_MUL: return Z3_mk_bvmul(z, a, b);
    case EXPR_UDIV: return Z3_mk_bvudiv(z, a, b);
    case EXPR_SDIV: return Z3_mk_bvsdiv(z, a, b);
    case EXPR_UREM: return Z3_mk_bvurem(z, a, b);
    case EXPR_SREM: return Z3_mk_bvsrem(z, a, b);
    case EXPR_SHL: return Z3_mk_bvshl(z, a, b);
    case EXPR_LSHR: return Z3_mk_bvlshr(z, a, b);
    case EXPR_ASHR: return Z3_mk_bvashr(z, a, b);
    case EXPR_AND: return Z3_mk_bvand(z, a, b);
    case EXPR_OR: return Z3_mk_bvor(z, a, b);
    case EXPR_XOR: return Z3_mk_bvxor(z, a, b);
    case EXPR_NOT: return Z3_mk_bvnot(z, a);
    case EXPR_EQ: return bool_to_bv1(s, hold(s, Z3_mk_eq(z, a, b)));
    case EXPR_ULT: return bool_to_bv1(s, hold(s, Z3_mk_bvult(z, a, b)));
    case EXPR_SLT: return bool_to_bv1(s, hold(s, Z3_mk_bvslt(z, a, b)));
    case EXPR_ZEXT: return w == aw ? a : Z3_mk_zero_ext(z, w - aw, a);
    case EXPR_SEXT: return w == aw ? a : Z3_mk_sign_ext(z, w - aw, a);
    case EXPR_EXTRACT: return Z3_mk_extract(z, e->aux + w - 1, e->aux, a);
    case EXPR_CONCAT: return Z3_mk_concat(z, a, b);
    case EXPR_ITE: return Z3_mk_ite(z, hold(s, Z3_mk_eq(z, a, s->one)), b, c);
    /* Add/sub overflow: compute in width aw+1 and compare the top two bits (signed)
     * or look at the carry bit (unsigned); the result is already a BV1. */
    case EXPR_UADDO: {
        Z3_ast x = hold(s, Z3_mk_zero_ext(z, 1, a)), y = hold(s, Z3_mk_zero_ext(z, 1, b));
        return bit_of(s, hold(s, Z3_mk_bvadd(z, x, y)), aw);
    }
    case EXPR_SADDO:
    case EXPR_SSUBO: {
        Z3_ast x = hold(s, Z3_mk_sign_ext(z, 1, a)), y = hold(s, Z3_mk_sign_ext(z, 1, b));
        Z3_ast r = hold(s, e->op == EXPR_SADDO ? Z3_mk_bvadd(z, x, y) : Z3_mk_bvsub(z, x, y));
        Z3_ast hi = hold(s, bit_of(s, r, aw)), lo = hold(s, bit_of(s, r, aw - 1));
        return Z3_mk_bvxor(z, hi, lo);
    }
    case EXPR_USUBO: return bool_to_bv1(s, hold(s, Z3_mk_bvult(z, a, b)));
    /* Multiplication overflow: Z3's native predicates (bit-blasted without a double-width product). */
    case EXPR_UMULO: return bool_to_bv1(s, hold(s, Z3_mk_not(z, hold(s, Z3_mk_bvmul_no_overflow(z, a, b, false)))));
    case EXPR_SMULO: {
        Z3_ast ok[2];
        ok[0] = hold(s, Z3_mk_bvmul_no_overflow(z, a, b, true));
        ok[1] = hold(s, Z3_mk_bvmul_no_underflow(z, a, b));
        if (!ok[0] || !ok[1]) return NULL;
        Z3_ast both = hold(s, Z3_mk_and(z, 2, ok));
        return bool_to_bv1(s, hold(s, Z3_mk_not(z, both)));
    }
    default:
        if (expr_op_is_fp(e->op) && memo == s->ast) return translate_fp_node(s, e);
        return NULL;
    }
}

/* Translate root (and any untranslated node below it), memoized per id. Iterative
 * post-order like sv_symset_of. Returns a referenced-by-the-cache AST or NULL on failure. */
static Z3_ast translate(solver *s, const expr *root)
{
    if (!sv_ensure_id(s, root->id)) return NULL;
    if (s->ast[root->id]) return s->ast[root->id];
    size_t sp = 0;
    if (!sv_push(s, &sp, root)) return NULL;
    while (sp) {
        const expr *e = s->stack[sp - 1];
        if (s->ast[e->id]) {
            sp--;
            continue;
        }
        bool ready = true;
        for (unsigned k = 0; k < e->nkids && k < 3; k++) {
            const expr *c = e->kid[k];
            if (!sv_ensure_id(s, c->id)) return NULL;
            if (!s->ast[c->id]) {
                ready = false;
                if (!sv_push(s, &sp, c)) return NULL;
            }
        }
        if (!ready) continue;
        s->failed = false;
        Z3_ast a = translate_node(s, e, s->ast);
        if (a && !s->failed) Z3_inc_ref(s->z3, a);
        release_held(s);
        if (!a || s->failed) return NULL;
        s->ast[e->id] = a;
        sp--;
    }
    return s->ast[root->id];
}

/* ------------------------------------------------------------------ watchdog */

static bool ts_before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *watchdog_main(void *arg)
{
    watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->quit) {
        if (!w->armed) {
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        struct timespec wake = w->deadline, now;
        if (w->stop) { /* wake every 50 ms to look at the stop flag (Ctrl-C) */
            clock_gettime(CLOCK_REALTIME, &now);
            now.tv_nsec += 50000000L;
            if (now.tv_nsec >= 1000000000L) now.tv_sec++, now.tv_nsec -= 1000000000L;
            if (ts_before(&now, &wake)) wake = now;
        }
        pthread_cond_timedwait(&w->cv, &w->mu, &wake);
        if (!w->armed || w->quit) continue;
        clock_gettime(CLOCK_REALTIME, &now);
        bool stopped = w->stop && *w->stop, overrun = !ts_before(&now, &w->deadline);
        if (stopped || overrun) {
            Z3_interrupt(w->z3);
            if (!stopped) w->fired++;
            w->armed = 0;
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

void sv_watchdog_start(watchdog *w, Z3_context z)
{
    w->z3 = z;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    w->running = pthread_create(&w->th, NULL, watchdog_main, w) == 0;
}

void sv_watchdog_stop(watchdog *w)
{
    if (!w->running) return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    w->running = 0;
}

/* Arm for ms milliseconds from now (0: disarm). */
static void watchdog_arm(watchdog *w, unsigned ms)
{
    if (!w->running) return;
    pthread_mutex_lock(&w->mu);
    if (ms) {
        clock_gettime(CLOCK_REALTIME, &w->deadline);
        w->deadline.tv_sec += ms / 1000;
        w->deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
        if (w->deadline.tv_nsec >= 1000000000L) {
            w->deadline.tv_sec++;
            w->deadline.tv_nsec -= 1000000000L;
        }
    }
    w->armed = ms != 0;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Value of input symbol idx in model m. A symbol normally has one variable; if it was
 * seen at several widths, take the widest variable that this query's model
 * interprets (variables of other queries are not in the model). Masked to that width.
 * Returns false on a Z3 failure. */
static bool model_value(solver *s, Z3_model m, uint32_t idx, uint64_t *val)
{
    Z3_context z = s->z3;
    Z3_ast best = NULL, any = NULL;
    uint32_t bw = 0, aw = 0;
    int32_t head = s->sym_head[idx];
    for (int32_t v = head; v >= 0; v = s->vars[v].next) {
        const symvar *sv = &s->vars[v];
        if (sv->width > aw) {
            aw = sv->width;
            any = sv->ast;
        }
        if (sv->width > bw &&
            (s->vars[head].next < 0 || Z3_model_has_interp(z, m, Z3_get_app_decl(z, Z3_to_app(z, sv->ast))))) {
            bw = sv->width;
            best = sv->ast;
        }
    }
    if (!best) {
        best = any;
        bw = aw;
    }
    if (!best) { /* in no constraint Z3 saw (one only below a pinned node: sv_fp_pinned_solve) */
        *val = 0;
        return true;
    }
    Z3_ast r = NULL;
    uint64_t x = 0;
    if (!best || !Z3_model_eval(z, m, best, true, &r) || !r) return false;
    Z3_inc_ref(z, r);
    bool ok = Z3_get_numeral_uint64(z, r, &x);
    Z3_dec_ref(z, r);
    *val = x & expr_mask(bw);
    return ok;
}

/* One Z3 check of the kept set, translated into memo (s->ast, or s->skast for the
 * skeleton), with the given engine and timeout (ms, 0 = none). engine 0: Z3's SMT core
 * (simple solver); 1: the solver of Z3's QF_FPBV tactic (qffpbv: FP to bit-vectors,
 * then bit-blasting and SAT). *undef is set when Z3 gave up. */
static solve_result run_z3_engine(solver *s, size_t nkept, size_t nsyms, int engine, unsigned timeout_ms, bool *undef,
                                  Z3_ast *memo)
{
    Z3_context z = s->z3;
    *undef = false;
    Z3_solver zs = NULL;
    if (engine == 1) {
        Z3_tactic t = Z3_mk_tactic(z, "qffpbv");
        if (t) {
            Z3_tactic_inc_ref(z, t);
            zs = Z3_mk_solver_from_tactic(z, t);
            if (zs) Z3_solver_inc_ref(z, zs);
            Z3_tactic_dec_ref(z, t);
        }
    } else {
        zs = Z3_mk_simple_solver(z);
        if (zs) Z3_solver_inc_ref(z, zs);
    }
    if (!zs) return SOLVE_UNKNOWN;
    Z3_params params = Z3_mk_params(z);
    if (!params) {
        Z3_solver_dec_ref(z, zs);
        return SOLVE_UNKNOWN;
    }
    Z3_params_inc_ref(z, params);
    if (timeout_ms) Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "timeout"), timeout_ms);
    /* Z3 would install its own SIGINT handler during the check and eat the user's Ctrl-C */
    Z3_params_set_bool(z, params, Z3_mk_string_symbol(z, "ctrl_c"), false);
    Z3_solver_set_params(z, zs, params);
    Z3_params_dec_ref(z, params);
    solve_result r = SOLVE_UNKNOWN;
    size_t ntrk = 0;
    bool ok = true;
    /* Each constraint is asserted as trk_id => (c = #b1) and trk_id is assumed, so
     * the unsat core names constraints by id (the tracker's integer symbol). */
    for (size_t i = 0; i < nkept && ok; i++) {
        const expr *c = s->kept[i];
        Z3_ast t = Z3_mk_const(z, Z3_mk_int_symbol(z, (int)c->id), s->boolean);
        if (!t) {
            ok = false;
            break;
        }
        Z3_inc_ref(z, t);
        s->trk[ntrk++] = t;
        Z3_ast eq = Z3_mk_eq(z, memo[c->id], s->one);
        if (!eq) {
            ok = false;
            break;
        }
        Z3_inc_ref(z, eq);
        Z3_ast imp = Z3_mk_implies(z, t, eq);
        if (imp) {
            Z3_inc_ref(z, imp);
            Z3_solver_assert(z, zs, imp);
            Z3_dec_ref(z, imp);
        }
        Z3_dec_ref(z, eq);
        ok = imp != NULL && Z3_get_error_code(z) == Z3_OK;
    }
    if (ok) {
        /* the grace lets Z3's own timeout answer first when it works */
        watchdog_arm(&s->wd, timeout_ms ? timeout_ms + timeout_ms / 2 + 100 : 0);
        sv_memory_bound_on();
        Z3_lbool res = Z3_solver_check_assumptions(z, zs, (unsigned)ntrk, s->trk);
        sv_memory_after_check();
        watchdog_arm(&s->wd, 0);
        if (res == Z3_L_TRUE) {
            Z3_model m = Z3_solver_get_model(z, zs);
            if (m) {
                Z3_model_inc_ref(z, m);
                r = SOLVE_SAT;
                for (size_t i = 0; i < nsyms && r == SOLVE_SAT; i++) {
                    if (!model_value(s, m, s->kept_syms[i], &s->vals[i])) r = SOLVE_UNKNOWN;
                }
                Z3_model_dec_ref(z, m);
            }
        } else if (res == Z3_L_FALSE) {
            r = SOLVE_UNSAT;
            Z3_ast_vector core_v = Z3_solver_get_unsat_core(z, zs);
            if (core_v) {
                Z3_ast_vector_inc_ref(z, core_v);
                unsigned cn = Z3_ast_vector_size(z, core_v), k = 0;
                /* reuse tmp_set as the scratch for core ids */
                if (sv_grow((void **)&s->tmp_set, &s->tmp_set_cap, cn + 1, sizeof *s->tmp_set)) {
                    for (unsigned i = 0; i < cn; i++) {
                        Z3_ast a = Z3_ast_vector_get(z, core_v, i);
                        Z3_app app = a ? Z3_to_app(z, a) : NULL;
                        Z3_func_decl d = app ? Z3_get_app_decl(z, app) : NULL;
                        Z3_symbol sym = d ? Z3_get_decl_name(z, d) : NULL;
                        if (!sym || Z3_get_symbol_kind(z, sym) != Z3_INT_SYMBOL) {
                            k = 0;
                            break;
                        }
                        int id = Z3_get_symbol_int(z, sym);
                        if (id <= 0 || (size_t)id >= s->id_cap) {
                            k = 0;
                            break;
                        }
                        s->tmp_set[k++] = (uint32_t)id;
                    }
                    if (k) {
                        qsort(s->tmp_set, k, sizeof *s->tmp_set, sv_cmp_u32);
                        if (s->in_child)
                            s->child_ncore = k; /* the parent stores it (run_z3_forked) */
                        else
                            sv_core_add(s, s->tmp_set, k);
                    }
                }
                Z3_ast_vector_dec_ref(z, core_v);
            }
        } else {
            *undef = true;
        }
    }
    for (size_t i = 0; i < ntrk; i++) Z3_dec_ref(z, s->trk[i]);
    Z3_solver_dec_ref(z, zs);
    return r;
}

/* Write n bytes (retrying short writes); false on error. */
static bool write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        c += w, n -= (size_t)w;
    }
    return true;
}

/* Read n bytes by `deadline` (util_now_s() seconds); false on EOF, error, time-out, or once *stop (may be
 * NULL) is set. */
static bool read_all(int fd, void *p, size_t n, double deadline, volatile sig_atomic_t *stop)
{
    char *c = p;
    while (n) {
        double left = deadline - util_now_s();
        if (left <= 0) return false;
        struct pollfd pf = {fd, POLLIN, 0};
        int ms = (int)(left * 1000.0) + 1;
        if (stop && ms > 50) ms = 50; /* a Ctrl-C (the stop flag) is seen within 50 ms */
        int r = poll(&pf, 1, ms);
        if (stop && *stop) return false;                   /* the query is abandoned */
        if (r == 0 || (r < 0 && errno == EINTR)) continue; /* the deadline is checked above */
        if (r < 0) return false;
        ssize_t got = read(fd, c, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        c += got, n -= (size_t)got;
    }
    return true;
}

/*
 * run_z3_engine in a forked child, killed at the deadline. Z3 4.8.12's SMT core on some
 * floating-point queries honours neither its timeout nor Z3_interrupt for many seconds
 * (measured: 9 s past a 2 s timeout on tests/programs/float_exact.c, 30 s past it on a
 * SQLite program averaging REAL balances), which overran --budget by as much. A child can be
 * killed (KLEE runs every query in a forked process for the same reason). The child shares
 * the translated terms copy-on-write and sends back the result, the model's values of
 * kept_syms and the unsat core; the parent waits timeout + half of it + 100 ms. Falls back
 * to run_z3_engine in the process when fork or pipe fails.
 */
static solve_result run_z3_deep(solver *s, size_t nkept, size_t nsyms, int engine, unsigned timeout_ms, bool *undef,
                                Z3_ast *memo);

static solve_result run_z3_forked(solver *s, size_t nkept, size_t nsyms, int engine, unsigned timeout_ms, bool *undef,
                                  Z3_ast *memo)
{
    int fd[2];
    if (pipe(fd)) return engine < 0 ? SOLVE_UNKNOWN : run_z3_engine(s, nkept, nsyms, engine, timeout_ms, undef, memo);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return engine < 0 ? SOLVE_UNKNOWN : run_z3_engine(s, nkept, nsyms, engine, timeout_ms, undef, memo);
    }
    if (pid == 0) { /* the child: no watchdog thread here (fork copies only this thread) */
        close(fd[0]);
        s->wd.running = 0;
        s->in_child = true;
        s->child_ncore = 0;
        bool u = false;
        solve_result r = engine < 0 ? run_z3_deep(s, nkept, nsyms, engine, timeout_ms, &u, memo)
                                    : run_z3_engine(s, nkept, nsyms, engine, timeout_ms, &u, memo);
        uint64_t head[4] = {(uint64_t)r, u, r == SOLVE_SAT ? nsyms : 0, r == SOLVE_UNSAT ? s->child_ncore : 0};
        bool ok = write_all(fd[1], head, sizeof head) && write_all(fd[1], s->vals, head[2] * sizeof *s->vals) &&
                  write_all(fd[1], s->tmp_set, head[3] * sizeof *s->tmp_set);
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    double deadline = util_now_s() + (timeout_ms ? (timeout_ms + timeout_ms / 2 + 100) / 1000.0 : 1e9);
    uint64_t head[4];
    solve_result r = SOLVE_UNKNOWN;
    *undef = true;
    if (read_all(fd[0], head, sizeof head, deadline, s->wd.stop) && head[2] <= nsyms &&
        read_all(fd[0], s->vals, head[2] * sizeof *s->vals, deadline, s->wd.stop) &&
        sv_grow((void **)&s->tmp_set, &s->tmp_set_cap, head[3] + 1, sizeof *s->tmp_set) &&
        read_all(fd[0], s->tmp_set, head[3] * sizeof *s->tmp_set, deadline, s->wd.stop)) {
        r = (solve_result)head[0];
        *undef = head[1] != 0;
        if (r == SOLVE_UNSAT && head[3]) sv_core_add(s, s->tmp_set, head[3]);
    }
    close(fd[0]);
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    return r;
}

/*
 * Run Z3 on kept[0..nkept) (ids in kept_ids, sorted separately). On SAT fills vals[]
 * for kept_syms[0..nsyms); on UNSAT stores the unsat core.
 *
 * Engines. Integer queries go to Z3's SMT core as before. A query with a floating-point
 * operator (FP query) is first given to the qffpbv tactic (eager bit-blasting), then,
 * if that gives up, to the SMT core (whose FP theory solver is lazy), each with half the
 * timeout: measured on Z3 4.8.12, neither dominates (sqrt(d) == 3.0: tactic 0.6 s, SMT
 * core over 10 s; d*d + d == 12.0: tactic 6.3 s, SMT core with the QF_FPBV logic 0.7 s),
 * and most FP queries of real programs (comparisons of a few operations against
 * constants) take the tactic milliseconds.
 */
static solve_result run_z3(solver *s, size_t nkept, size_t nsyms)
{
    for (size_t i = 0; i < nkept; i++)
        if (!translate(s, s->kept[i])) return SOLVE_UNKNOWN;
    bool is_fp = false, undef = false;
    for (size_t i = 0; i < nkept && !is_fp; i++) is_fp = s->kept[i]->flags & EXPR_FLAG_FP;
    s->st.z3_calls++;
    if (is_fp) s->st.fp_queries++;
    double t0 = util_now_s();
    solve_result r;
    if (!is_fp) {
        r = run_z3_engine(s, nkept, nsyms, 0, s->timeout_ms, &undef, s->ast);
    } else {
        unsigned first = s->timeout_ms ? (s->timeout_ms + 1) / 2 : 0;
        r = run_z3_engine(s, nkept, nsyms, 1, first, &undef, s->ast);
        /* the SMT core's FP theory may run far past its timeout: in a child that can be killed */
        if (r == SOLVE_UNKNOWN)
            r = s->timeout_ms ? run_z3_forked(s, nkept, nsyms, 0, s->timeout_ms - first + 1, &undef, s->ast)
                              : run_z3_engine(s, nkept, nsyms, 0, 0, &undef, s->ast);
    }
    double dt = util_now_s() - t0;
    s->st.z3_seconds += dt;
    if (undef) s->st.z3_timeouts++;
    if (is_fp) {
        s->st.fp_seconds += dt;
        if (undef) s->st.fp_timeouts++;
    }
    return r;
}

/*
 * Deep expressions. Our own passes are iterative, but Z3's simplifier and bit-blaster
 * recurse on the term structure: a chain a few tens of thousands deep (a checksum loop
 * over the input) overflows an 8 MB stack inside Z3_solver_check. Queries whose
 * deepest kept constraint exceeds DEEP_QUERY run on a helper thread whose stack grows
 * with the depth (address space only: pages are touched as Z3 needs them). Beyond
 * MAX_QUERY_DEPTH the query is not attempted and answers UNKNOWN: Z3 4.8's
 * preprocessing grows superlinearly on deep add/xor chains (depth 2000: 1.3 s,
 * 4000: 6 s, 8000: minutes, measured with tests/unit/test_solver_watchdog.c's shape)
 * and neither its timeout nor Z3_interrupt stops it there.
 */
#define DEEP_QUERY 2000u
#define MAX_QUERY_DEPTH 4000u
#define STACK_PER_LEVEL 4096u

typedef struct z3_job {
    solver *s;
    size_t nkept, nsyms;
    solve_result r;
} z3_job;

static void *z3_job_run(void *arg)
{
    z3_job *j = arg;
    j->r = run_z3(j->s, j->nkept, j->nsyms);
    return NULL;
}

/* run_z3 on a thread whose stack grows with depth (Z3 recurses on terms), joined; UNKNOWN when none can start. */
static solve_result run_z3_big_stack(solver *s, size_t nkept, size_t nsyms, uint32_t depth)
{
    z3_job j = {s, nkept, nsyms, SOLVE_UNKNOWN};
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) != 0) return SOLVE_UNKNOWN;
    size_t stack = ((size_t)64 << 20) + (size_t)depth * STACK_PER_LEVEL;
    bool ok = pthread_attr_setstacksize(&attr, stack) == 0 && pthread_create(&th, &attr, z3_job_run, &j) == 0;
    pthread_attr_destroy(&attr);
    if (!ok) return SOLVE_UNKNOWN;
    pthread_join(th, NULL);
    return j.r;
}

static uint32_t kept_depth(const solver *s, size_t nkept)
{
    uint32_t depth = 0;
    for (size_t i = 0; i < nkept; i++)
        if (s->kept[i]->depth > depth) depth = s->kept[i]->depth;
    return depth;
}

solve_result sv_run_z3_any_depth(solver *s, size_t nkept, size_t nsyms)
{
    uint32_t depth = kept_depth(s, nkept);
    if (depth <= DEEP_QUERY) return run_z3(s, nkept, nsyms);
    if (depth > MAX_QUERY_DEPTH) return SOLVE_UNKNOWN;
    if (s->timeout_ms && !s->in_child) {
        /* in a child killed at the time limit: below MAX_QUERY_DEPTH Z3's preprocessing of a wide DAG of
         * xor chains still ran past its timeout and Z3_interrupt (tiny-AES-c's AES_CBC_encrypt_buffer: one
         * query held `sympath unit --budget 30s` for over 10 minutes) */
        bool undef = false;
        double t0 = util_now_s();
        s->st.z3_calls++;
        solve_result r = run_z3_forked(s, nkept, nsyms, -1, s->timeout_ms, &undef, s->ast);
        s->st.z3_seconds += util_now_s() - t0;
        if (undef) s->st.z3_timeouts++;
        return r;
    }
    return run_z3_big_stack(s, nkept, nsyms, depth);
}

/* A deep query in the forked child (engine < 0 in run_z3_forked): run_z3 on a thread whose stack grows with
 * the depth, as sv_run_z3_any_depth does in the process; *undef when it gave no answer. */
static solve_result run_z3_deep(solver *s, size_t nkept, size_t nsyms, int engine, unsigned timeout_ms, bool *undef,
                                Z3_ast *memo)
{
    (void)engine, (void)timeout_ms, (void)memo;
    solve_result r = run_z3_big_stack(s, nkept, nsyms, kept_depth(s, nkept));
    *undef = r == SOLVE_UNKNOWN;
    return r;
}

/* ------------------------------------------------ floating-point operators replaced: skeleton, pinned */

/* Remember that pinast[id] holds a term of this query (referenced); false when out of memory. */
static bool pin_note(solver *s, uint32_t id, Z3_ast a)
{
    if (!sv_grow((void **)&s->pin_ids, &s->pin_ids_cap, s->npin_ids + 1, sizeof *s->pin_ids)) return false;
    Z3_inc_ref(s->z3, a);
    s->pinast[id] = a;
    s->pin_ids[s->npin_ids++] = id;
    return true;
}

/* Drop this query's pinned terms. */
static void pin_clear(solver *s)
{
    for (size_t i = 0; i < s->npin_ids; i++) {
        Z3_dec_ref(s->z3, s->pinast[s->pin_ids[i]]);
        s->pinast[s->pin_ids[i]] = NULL;
    }
    s->npin_ids = 0;
}

/* How translate_fp_replaced stands in for a floating-point operator node (and which memo it fills). */
typedef struct fp_replace {
    bool pinned;            /* true: its value under assign (pinast, per query); false: a free unknown (skast) */
    const uint64_t *assign; /* pinned: the parent's inputs, by symbol index, [0..na) */
    size_t na;
    bool *pin; /* pinned: the symbols below a replaced node are marked here */
} fp_replace;

/* Store a's translation of node id in the memo of mode m (referenced); false when out of memory. */
static bool fp_replaced_put(solver *s, const fp_replace *m, uint32_t id, Z3_ast a)
{
    if (m->pinned) return pin_note(s, id, a);
    Z3_inc_ref(s->z3, a);
    s->skast[id] = a;
    return true;
}

/* Is e a comparison of floats (==, <, <=, unordered)? */
static bool fp_compare(const expr *e)
{
    return e->op == EXPR_FOEQ || e->op == EXPR_FOLT || e->op == EXPR_FOLE || e->op == EXPR_FUNO;
}

/* The comparison e of two floats over its kids' terms in memo (their bits read as floats): exact, as BV1, held like
 * translate_node's intermediates; NULL on failure. Cheap to bit-blast: no IEEE arithmetic. */
static Z3_ast compare_replaced(solver *s, const expr *e, const Z3_ast *memo)
{
    Z3_ast fk[3] = {NULL, NULL, NULL}, bk[3] = {NULL, NULL, NULL}, bv = NULL;
    for (unsigned k = 0; k < 2; k++) {
        bk[k] = memo[e->kid[k]->id];
        if (!(fk[k] = fpz_from_bits(&s->fp, bk[k], e->kid[k]->width))) {
            fpz_release(&s->fp);
            return NULL;
        }
    }
    s->fp.failed = false;
    fpz_node(&s->fp, e, fk, bk, s->one, s->zero, &bv);
    if (bv) Z3_inc_ref(s->z3, bv); /* survives the release */
    fpz_release(&s->fp);
    if (bv) hold(s, bv), Z3_dec_ref(s->z3, bv);
    return bv;
}

/*
 * root with its floating-point operator nodes replaced (sv_fp_skeleton_unsat, sv_fp_pinned_solve): a node with
 * no floating-point operator at or below it is its bit-precise translation (ast); in the skeleton a comparison of
 * floats stays exact over its kids' replaced terms (so an ite that picks a sum or 0.0 by row conditions is still compared:
 * `bill > 5000` with no row in the window is UNSAT in the skeleton); any other floating-point operator node
 * is, in the skeleton, a free bit-vector of its width named "fp<id>" (one per node, so a comparison shared by two
 * constraints is the same unknown in both), pinned, the constant of its value under m->assign (the symbols below
 * it marked in m->pin); other nodes combine their kids as translate_node does. Memoized in skast (for the
 * solver's life) or pinast (for the query); NULL on failure.
 */
static Z3_ast translate_fp_replaced(solver *s, const expr *root, const fp_replace *m)
{
    if (!sv_ensure_id(s, root->id)) return NULL;
    Z3_ast **memo = m->pinned ? &s->pinast : &s->skast; /* (sv_ensure_id may move the arrays) */
    if ((*memo)[root->id]) return (*memo)[root->id];
    size_t sp = 0, cap = 64;
    const expr **st = malloc(cap * sizeof *st);
    if (!st) return NULL;
    st[sp++] = root;
    bool ok = true;
    while (sp && ok) {
        const expr *e = st[sp - 1];
        if ((*memo)[e->id]) {
            sp--;
            continue;
        }
        Z3_ast a = NULL;
        if (!(e->flags & EXPR_FLAG_FP)) { /* bit-precise; translate has its own stack (s->stack) */
            a = translate(s, e);
            ok = a && fp_replaced_put(s, m, e->id, a);
            sp--;
            continue;
        }
        if (expr_op_is_fp(e->op) && (m->pinned || !fp_compare(e))) {
            if (e->width < 1 || e->width > 64) {
                ok = false;
                break;
            }
            if (m->pinned) {
                symset ss = s->sets[e->id];
                for (uint32_t k = 0; ss.len != SYMSET_NONE && k < ss.len; k++)
                    if (s->pool[ss.off + k] < m->na) m->pin[s->pool[ss.off + k]] = true;
                uint64_t v = expr_eval(e, m->assign, m->na) & expr_mask(e->width);
                a = Z3_mk_unsigned_int64(s->z3, v, s->bv[e->width]);
            } else {
                char name[24];
                snprintf(name, sizeof name, "fp%u", (unsigned)e->id);
                a = Z3_mk_const(s->z3, Z3_mk_string_symbol(s->z3, name), s->bv[e->width]);
            }
        } else {
            bool ready = true;
            for (unsigned k = 0; k < e->nkids && k < 3 && ok; k++) {
                const expr *c = e->kid[k];
                ok = sv_ensure_id(s, c->id);
                if (!ok || (*memo)[c->id]) continue;
                ready = false;
                if (sp == cap) {
                    const expr **p = realloc(st, 2 * cap * sizeof *st);
                    ok = p != NULL;
                    if (!ok) continue;
                    st = p;
                    cap *= 2;
                }
                st[sp++] = c;
            }
            if (!ok || !ready) continue;
            s->failed = false;
            a = expr_op_is_fp(e->op) ? compare_replaced(s, e, *memo) : translate_node(s, e, *memo);
            if (s->failed) a = NULL;
        }
        ok = a && fp_replaced_put(s, m, e->id, a);
        release_held(s);
        if (ok) sp--;
    }
    free(st);
    return ok ? (*memo)[root->id] : NULL;
}

bool sv_fp_skeleton_unsat(solver *s, size_t nkept, unsigned timeout_ms)
{
    fp_replace m = {.pinned = false};
    for (size_t i = 0; i < nkept; i++)
        if (s->kept[i]->depth > DEEP_QUERY || !translate_fp_replaced(s, s->kept[i], &m)) return false;
    bool undef = false; /* Z3 overran 300 ms by seconds on big digit arithmetic: in a child that can be killed */
    return run_z3_forked(s, nkept, 0, 0, timeout_ms, &undef, s->skast) == SOLVE_UNSAT;
}

int sv_fp_pinned_solve(solver *s, size_t nkept, size_t nsyms, const uint64_t *parent, size_t parent_n,
                       unsigned timeout_ms)
{
    size_t na = parent_n;
    for (size_t i = 0; i < nsyms; i++)
        if ((size_t)s->kept_syms[i] + 1 > na) na = (size_t)s->kept_syms[i] + 1;
    uint64_t *assign = calloc(na + 1, sizeof *assign);
    bool *pin = calloc(na + 1, sizeof *pin);
    int found = 0;
    bool ok = assign && pin;
    if (ok && parent_n) memcpy(assign, parent, parent_n * sizeof *assign);
    fp_replace m = {.pinned = true, .assign = assign, .na = na, .pin = pin};
    for (size_t i = 0; i < nkept && ok; i++)
        ok = s->kept[i]->depth <= DEEP_QUERY && translate_fp_replaced(s, s->kept[i], &m);
    solve_result r = SOLVE_UNKNOWN;
    if (ok) {
        /* in-process (the terms are bit-vectors of the program's size); the core is read, not stored: it may
         * hold a replaced value */
        bool undef = false;
        s->in_child = true;
        s->child_ncore = 0;
        r = run_z3_engine(s, nkept, nsyms, 0, timeout_ms, &undef, s->pinast);
        s->in_child = false;
    }
    if (r == SOLVE_SAT) { /* the pinned symbols keep the parent's values; the answer is checked */
        for (size_t i = 0; i < nsyms; i++)
            if (!pin[s->kept_syms[i]]) assign[s->kept_syms[i]] = s->vals[i];
        bool holds = true;
        for (size_t i = nkept; holds && i-- > 0;) holds = (expr_eval(s->kept[i], assign, na) & 1) == 1;
        if (holds) {
            for (size_t i = 0; i < nsyms; i++)
                s->vals[i] = assign[s->kept_syms[i]] & expr_mask(s->sym_width[s->kept_syms[i]]);
            found = 1;
        }
    } else if (r == SOLVE_UNSAT && s->child_ncore) { /* a proof when no core constraint had a value replaced */
        bool clean = true;
        for (size_t i = 0; i < nkept && clean; i++)
            if (s->kept[i]->flags & EXPR_FLAG_FP)
                clean = !bsearch(&s->kept[i]->id, s->tmp_set, s->child_ncore, sizeof *s->tmp_set, sv_cmp_u32);
        if (clean) {
            sv_core_add(s, s->tmp_set, s->child_ncore);
            found = -1;
        }
    }
    pin_clear(s);
    free(assign);
    free(pin);
    return found;
}
