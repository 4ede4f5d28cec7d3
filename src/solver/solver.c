/* solver.c: path conditions to inputs with Z3 — translation to QF_BV, constraint independence, query cache, unsat-core subsets. */
#include "solver/solver.h"
#include "solver/solver_fp.h"
#include "solver/solver_sample.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>
#include "util/util.h"

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

#define SYMSET_NONE UINT32_MAX   /* sets[id].len before the set is computed */
#define CORE_MAX 4096            /* unsat cores kept (a ring: the oldest is evicted) */
#define QCACHE_MAX_ENTRIES (1u << 16)
#define QCACHE_MAX_WORDS (1u << 24) /* ids + values kept in the query cache, in 32-bit words */
#define CEX_MODELS 8             /* recent SAT models tried for counterexample reuse */
#define CEX_MAX_KEPT 256         /* skip reuse for kept sets larger than this (evaluation cost) */

/* A node's symbol set: pool[off .. off+len), sorted ascending, no duplicates. */
typedef struct symset { uint32_t off, len; } symset;

/* One Z3 variable for (symbol index, width); a chain per index (normally one link). */
typedef struct symvar { Z3_ast ast; uint32_t width; int32_t next; } symvar;

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
    uint32_t *ids;        /* sorted constraint ids */
    uint32_t *syms;       /* SAT: symbol indices ... */
    uint64_t *vals;       /* ... and their values (masked) */
    int32_t next;         /* hash chain */
    uint8_t result;       /* solve_result */
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
    uint32_t *ids;        /* sorted; NULL when the slot is empty */
    uint32_t n;
    uint32_t watch;       /* id whose list holds the core */
    int32_t next;         /* next core in the watch list */
} core;

/* A recent SAT model for counterexample reuse (KLEE): symbol/value pairs. */
typedef struct cex_model { uint32_t n; uint32_t *syms; uint64_t *vals; } cex_model;

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
    struct timespec deadline;  /* CLOCK_REALTIME, for pthread_cond_timedwait */
    Z3_context z3;
    uint64_t fired;
} watchdog;

struct solver {
    Z3_context z3;
    Z3_params params;
    unsigned timeout_ms;
    watchdog wd;
    Z3_sort bv[65];           /* bv[w]: BitVec sort of width w (referenced) */
    Z3_sort boolean;
    Z3_ast one, zero;         /* #b1, #b0 */
    fpz fp;                   /* floating-point sorts and rounding modes (solver_fp.h) */
    bool no_sampling;         /* solver_set_fp_sampling(s, 0) */

    /* per expression id */
    size_t id_cap;
    Z3_ast *ast;
    Z3_ast *fpast;            /* FP-sort term of a node read as a float (referenced), or NULL */
    symset *sets;
    uint32_t *stamp;
    int32_t *core_head;

    /* symbol-set pool */
    uint32_t *pool;
    size_t pool_n, pool_cap;

    /* per symbol index */
    size_t sym_cap;
    int32_t *sym_head;        /* first symvar, -1 = no Z3 variable yet */
    uint32_t *sym_width;      /* widest width seen (0 = never seen) */
    uint32_t *uf_parent, *uf_stamp, *sym_stamp;
    symvar *vars;
    size_t nvars, vars_cap;

    uint32_t qstamp;          /* current per-query stamp value */

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
    uint64_t *vals;
    Z3_ast *trk;
    size_t kept_cap, ksyms_cap;
    uint64_t *assign;
    size_t assign_cap;
    Z3_ast hold[8];
    unsigned nhold;
    bool failed;              /* a Z3 call returned NULL during translation */

    solver_stats st;
};

/* ------------------------------------------------------------------ utilities */

/* Grow *p (element size sz, capacity *cap) to hold at least need elements; new
 * elements are zeroed. Returns false when out of memory (then *p is unchanged). */
static bool grow(void **p, size_t *cap, size_t need, size_t sz) {
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
static void on_z3_error(Z3_context c, Z3_error_code e) { (void)c; (void)e; }

/* Make every per-id array hold index id. */
static bool ensure_id(solver *s, uint32_t id) {
    if (id < s->id_cap) return true;
    size_t need = (size_t)id + 1, c;
    c = s->id_cap; if (!grow((void **)&s->ast, &c, need, sizeof *s->ast)) return false;
    c = s->id_cap; if (!grow((void **)&s->fpast, &c, need, sizeof *s->fpast)) return false;
    c = s->id_cap; if (!grow((void **)&s->sets, &c, need, sizeof *s->sets)) return false;
    c = s->id_cap; if (!grow((void **)&s->stamp, &c, need, sizeof *s->stamp)) return false;
    c = s->id_cap; if (!grow((void **)&s->core_head, &c, need, sizeof *s->core_head)) return false;
    for (size_t i = s->id_cap; i < c; i++) { s->sets[i].len = SYMSET_NONE; s->core_head[i] = -1; }
    s->id_cap = c;
    return true;
}

static bool ensure_sym(solver *s, uint32_t idx) {
    if (idx < s->sym_cap) return true;
    size_t need = (size_t)idx + 1, c;
    c = s->sym_cap; if (!grow((void **)&s->sym_head, &c, need, sizeof *s->sym_head)) return false;
    c = s->sym_cap; if (!grow((void **)&s->sym_width, &c, need, sizeof *s->sym_width)) return false;
    c = s->sym_cap; if (!grow((void **)&s->uf_parent, &c, need, sizeof *s->uf_parent)) return false;
    c = s->sym_cap; if (!grow((void **)&s->uf_stamp, &c, need, sizeof *s->uf_stamp)) return false;
    c = s->sym_cap; if (!grow((void **)&s->sym_stamp, &c, need, sizeof *s->sym_stamp)) return false;
    for (size_t i = s->sym_cap; i < c; i++) s->sym_head[i] = -1;
    s->sym_cap = c;
    return true;
}

/* A fresh stamp value for per-query marks; on wrap-around all marks are cleared. */
static uint32_t next_stamp(solver *s) {
    if (++s->qstamp == 0) {
        memset(s->stamp, 0, s->id_cap * sizeof *s->stamp);
        memset(s->uf_stamp, 0, s->sym_cap * sizeof *s->uf_stamp);
        memset(s->sym_stamp, 0, s->sym_cap * sizeof *s->sym_stamp);
        s->qstamp = 1;
    }
    return s->qstamp;
}

static bool push(solver *s, size_t *sp, const expr *e) {
    if (!grow((void **)&s->stack, &s->stack_cap, *sp + 1, sizeof *s->stack)) return false;
    s->stack[(*sp)++] = e;
    return true;
}

/* ------------------------------------------------------------------ symbol sets */

/* Merge sorted a[0..na) and b[0..nb) into s->tmp_set; returns the length or SIZE_MAX on OOM. */
static size_t merge_sets(solver *s, const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
    if (!grow((void **)&s->tmp_set, &s->tmp_set_cap, na + nb, sizeof *s->tmp_set)) return SIZE_MAX;
    uint32_t *o = s->tmp_set;
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j]) o[k++] = a[i++];
        else if (b[j] < a[i]) o[k++] = b[j++];
        else { o[k++] = a[i++]; j++; }
    }
    while (i < na) o[k++] = a[i++];
    while (j < nb) o[k++] = b[j++];
    return k;
}

/* Append tmp_set[0..n) to the pool; returns its offset or UINT32_MAX on OOM. */
static uint32_t pool_add(solver *s, const uint32_t *v, size_t n) {
    if (s->pool_n + n >= UINT32_MAX) return UINT32_MAX;
    if (!grow((void **)&s->pool, &s->pool_cap, s->pool_n + n, sizeof *s->pool)) return UINT32_MAX;
    uint32_t off = (uint32_t)s->pool_n;
    memcpy(s->pool + off, v, n * sizeof *v);
    s->pool_n += n;
    return off;
}

/* Set of one node whose kids' sets are known. A node whose set equals one kid's set
 * (the common case: one symbol flows through a chain of operations) shares that kid's
 * pool slice, so chains cost no pool space. */
static bool symset_node(solver *s, const expr *e) {
    symset r = {0, 0};
    if (e->op == EXPR_SYMBOL) {
        if (!ensure_sym(s, e->aux)) return false;
        if (s->sym_width[e->aux] < e->width) s->sym_width[e->aux] = e->width;
        uint32_t v = e->aux;
        r.off = pool_add(s, &v, 1);
        if (r.off == UINT32_MAX) return false;
        r.len = 1;
    } else if (e->op != EXPR_CONST) {
        for (unsigned k = 0; k < e->nkids && k < 3; k++) {
            symset ks = s->sets[e->kid[k]->id];
            if (ks.len == 0) continue;
            if (r.len == 0) { r = ks; continue; }
            if (ks.off == r.off && ks.len == r.len) continue;
            size_t n = merge_sets(s, s->pool + r.off, r.len, s->pool + ks.off, ks.len);
            if (n == SIZE_MAX) return false;
            if (n == r.len) continue;                 /* ks is a subset of r */
            if (n == ks.len) { r = ks; continue; }    /* r is a subset of ks */
            uint32_t off = pool_add(s, s->tmp_set, n);
            if (off == UINT32_MAX) return false;
            r.off = off;
            r.len = (uint32_t)n;
        }
    }
    s->sets[e->id] = r;
    return true;
}

/* Compute (once, then cached) the symbol set of root and of every node below it.
 * Iterative post-order with an explicit stack: expressions can be thousands deep.
 * A node is pushed only while its set is unknown, so the work is O(new nodes + edges). */
static bool symset_of(solver *s, const expr *root) {
    if (!ensure_id(s, root->id)) return false;
    if (s->sets[root->id].len != SYMSET_NONE) return true;
    size_t sp = 0;
    if (!push(s, &sp, root)) return false;
    while (sp) {
        const expr *e = s->stack[sp - 1];
        if (s->sets[e->id].len != SYMSET_NONE) { sp--; continue; }
        bool ready = true;
        for (unsigned k = 0; k < e->nkids && k < 3; k++) {
            const expr *c = e->kid[k];
            if (!ensure_id(s, c->id)) return false;
            if (s->sets[c->id].len == SYMSET_NONE) { ready = false; if (!push(s, &sp, c)) return false; }
        }
        if (!ready) continue;
        if (!symset_node(s, e)) return false;
        sp--;
    }
    return true;
}

/* ------------------------------------------------------------------ translation to Z3 */

/* In reference-counted mode Z3 may free an unreferenced result at the next API call,
 * so each intermediate term of a node's translation is held until the node is done. */
static Z3_ast hold(solver *s, Z3_ast a) {
    if (!a) { s->failed = true; return NULL; }
    Z3_inc_ref(s->z3, a);
    s->hold[s->nhold++] = a;
    return a;
}

static void release_held(solver *s) {
    while (s->nhold) Z3_dec_ref(s->z3, s->hold[--s->nhold]);
}

/* Bool -> BV1 (#b1 / #b0). */
static Z3_ast bool_to_bv1(solver *s, Z3_ast b) {
    if (!b) return NULL;
    return Z3_mk_ite(s->z3, b, s->one, s->zero);
}

/* The Z3 variable of input symbol `idx` at `width`: "in<idx>" for the first width
 * seen, "in<idx>_w<width>" for any other. NULL on failure. */
static Z3_ast symbol_var(solver *s, uint32_t idx, unsigned width) {
    if (!ensure_sym(s, idx)) return NULL;
    if (s->sym_width[idx] < width) s->sym_width[idx] = width;
    for (int32_t v = s->sym_head[idx]; v >= 0; v = s->vars[v].next)
        if (s->vars[v].width == width) return s->vars[v].ast;
    if (!grow((void **)&s->vars, &s->vars_cap, s->nvars + 1, sizeof *s->vars)) return NULL;
    char name[48];
    if (s->sym_head[idx] < 0) snprintf(name, sizeof name, "in%u", idx);
    else snprintf(name, sizeof name, "in%u_w%u", idx, width);
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
static Z3_ast bit_of(solver *s, Z3_ast x, unsigned bit) {
    return Z3_mk_extract(s->z3, bit, bit, x);
}

/* The FP term of kid k read as a float of its width: its own FP translation when it
 * is float-valued, else ((_ to_fp e s) bits), memoized in fpast. NULL on failure. */
static Z3_ast fp_of(solver *s, const expr *k) {
    if (s->fpast[k->id]) return s->fpast[k->id];
    Z3_ast t = fpz_from_bits(&s->fp, s->ast[k->id], k->width);
    if (!t) return NULL;
    Z3_inc_ref(s->z3, t);
    s->fpast[k->id] = t;
    return t;
}

/* A floating-point node (solver_fp.c); its FP term, if any, goes to fpast. */
static Z3_ast translate_fp_node(solver *s, const expr *e) {
    Z3_ast fk[3] = {NULL, NULL, NULL}, bk[3] = {NULL, NULL, NULL}, bv = NULL;
    bool float_kids = e->op != EXPR_SITOF && e->op != EXPR_UITOF;
    for (unsigned k = 0; k < e->nkids && k < 3; k++) {
        bk[k] = s->ast[e->kid[k]->id];
        if (float_kids && !(fk[k] = fp_of(s, e->kid[k]))) { fpz_release(&s->fp); return NULL; }
    }
    s->fp.failed = false;
    Z3_ast r = fpz_node(&s->fp, e, fk, bk, s->one, s->zero, &bv);
    if (bv) Z3_inc_ref(s->z3, bv);            /* survives the release; handed to the caller */
    if (r && bv) { Z3_inc_ref(s->z3, r); s->fpast[e->id] = r; }
    fpz_release(&s->fp);
    if (bv) hold(s, bv), Z3_dec_ref(s->z3, bv); /* now held like the other intermediates */
    return bv;
}

/* Translate one node whose kids are translated. Returns an unreferenced AST (the
 * caller references it), or NULL on a Z3 error or an invalid node.
 * Semantics follow expr.h: SMT-LIB division/shift conventions coincide with it. */
static Z3_ast translate_node(solver *s, const expr *e) {
    Z3_context z = s->z3;
    unsigned w = e->width;
    if (w < 1 || w > 64) return NULL;
    Z3_ast a = e->nkids > 0 ? s->ast[e->kid[0]->id] : NULL;
    Z3_ast b = e->nkids > 1 ? s->ast[e->kid[1]->id] : NULL;
    Z3_ast c = e->nkids > 2 ? s->ast[e->kid[2]->id] : NULL;
    unsigned aw = e->nkids > 0 ? e->kid[0]->width : 0;
    switch ((expr_op)e->op) {
    case EXPR_CONST: return Z3_mk_unsigned_int64(z, e->value & expr_mask(w), s->bv[w]);
    case EXPR_SYMBOL: {
        return symbol_var(s, e->aux, w);   /* the caller adds the memo's own reference */
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
    case EXPR_SADDO: case EXPR_SSUBO: {
        Z3_ast x = hold(s, Z3_mk_sign_ext(z, 1, a)), y = hold(s, Z3_mk_sign_ext(z, 1, b));
        Z3_ast r = hold(s, e->op == EXPR_SADDO ? Z3_mk_bvadd(z, x, y) : Z3_mk_bvsub(z, x, y));
        Z3_ast hi = hold(s, bit_of(s, r, aw)), lo = hold(s, bit_of(s, r, aw - 1));
        return Z3_mk_bvxor(z, hi, lo);
    }
    case EXPR_USUBO: return bool_to_bv1(s, hold(s, Z3_mk_bvult(z, a, b)));
    /* Multiplication overflow: Z3's native predicates (bit-blasted without a double-width product). */
    case EXPR_UMULO:
        return bool_to_bv1(s, hold(s, Z3_mk_not(z, hold(s, Z3_mk_bvmul_no_overflow(z, a, b, false)))));
    case EXPR_SMULO: {
        Z3_ast ok[2];
        ok[0] = hold(s, Z3_mk_bvmul_no_overflow(z, a, b, true));
        ok[1] = hold(s, Z3_mk_bvmul_no_underflow(z, a, b));
        if (!ok[0] || !ok[1]) return NULL;
        Z3_ast both = hold(s, Z3_mk_and(z, 2, ok));
        return bool_to_bv1(s, hold(s, Z3_mk_not(z, both)));
    }
    default:
        if (expr_op_is_fp(e->op)) return translate_fp_node(s, e);
        return NULL;
    }
}

/* Translate root (and any untranslated node below it), memoized per id. Iterative
 * post-order like symset_of. Returns a referenced-by-the-cache AST or NULL on failure. */
static Z3_ast translate(solver *s, const expr *root) {
    if (!ensure_id(s, root->id)) return NULL;
    if (s->ast[root->id]) return s->ast[root->id];
    size_t sp = 0;
    if (!push(s, &sp, root)) return NULL;
    while (sp) {
        const expr *e = s->stack[sp - 1];
        if (s->ast[e->id]) { sp--; continue; }
        bool ready = true;
        for (unsigned k = 0; k < e->nkids && k < 3; k++) {
            const expr *c = e->kid[k];
            if (!ensure_id(s, c->id)) return NULL;
            if (!s->ast[c->id]) { ready = false; if (!push(s, &sp, c)) return NULL; }
        }
        if (!ready) continue;
        s->failed = false;
        Z3_ast a = translate_node(s, e);
        if (a && !s->failed) Z3_inc_ref(s->z3, a);
        release_held(s);
        if (!a || s->failed) return NULL;
        s->ast[e->id] = a;
        sp--;
    }
    return s->ast[root->id];
}

/* ------------------------------------------------------------------ watchdog */

static void *watchdog_main(void *arg) {
    watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->quit) {
        if (!w->armed) {
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        if (pthread_cond_timedwait(&w->cv, &w->mu, &w->deadline) == ETIMEDOUT && w->armed && !w->quit) {
            Z3_interrupt(w->z3);
            w->fired++;
            w->armed = 0;
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static void watchdog_start(watchdog *w, Z3_context z) {
    w->z3 = z;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    w->running = pthread_create(&w->th, NULL, watchdog_main, w) == 0;
}

static void watchdog_stop(watchdog *w) {
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
static void watchdog_arm(watchdog *w, unsigned ms) {
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

/* ------------------------------------------------------------------ lifecycle */

solver *solver_new(unsigned timeout_ms) {
    solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    /* A bound on Z3's memory (process-wide, in MB): bit-blasting floating-point
     * operations on doubles can grow without end, and past the bound Z3 gives up
     * (unknown) instead of taking the machine's memory. */
    Z3_global_param_set("memory_max_size", "3072");
    Z3_config cfg = Z3_mk_config();
    if (!cfg) { free(s); return NULL; }
    Z3_set_param_value(cfg, "model", "true");
    s->z3 = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (!s->z3) { free(s); return NULL; }
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
    if (!fpz_init(&s->fp, z)) { solver_free(s); return NULL; }
    s->params = Z3_mk_params(z);
    Z3_params_inc_ref(z, s->params);
    if (timeout_ms) Z3_params_set_uint(z, s->params, Z3_mk_string_symbol(z, "timeout"), timeout_ms);
    if (Z3_get_error_code(z) != Z3_OK) { solver_free(s); return NULL; }
    s->timeout_ms = timeout_ms;
    if (timeout_ms) watchdog_start(&s->wd, z);
    for (size_t i = 0; i < CORE_MAX; i++) s->cores[i].next = -1;
    return s;
}

static void qcache_clear(solver *s) {
    for (size_t i = 0; i < s->nqe; i++) {
        free(s->qe[i].ids);
        free(s->qe[i].syms);
        free(s->qe[i].vals);
    }
    s->nqe = 0;
    s->qwords = 0;
    if (s->qbuckets) memset(s->qbuckets, 0xff, s->nbuckets * sizeof *s->qbuckets);
}

void solver_free(solver *s) {
    if (!s) return;
    watchdog_stop(&s->wd);
    Z3_context z = s->z3;
    if (z) {
        for (size_t i = 0; i < s->id_cap; i++) if (s->ast[i]) Z3_dec_ref(z, s->ast[i]);
        for (size_t i = 0; i < s->id_cap; i++) if (s->fpast[i]) Z3_dec_ref(z, s->fpast[i]);
        fpz_fini(&s->fp);
        for (size_t i = 0; i < s->nvars; i++) Z3_dec_ref(z, s->vars[i].ast);
        if (s->one) Z3_dec_ref(z, s->one);
        if (s->zero) Z3_dec_ref(z, s->zero);
        if (s->params) Z3_params_dec_ref(z, s->params);
        for (unsigned w = 1; w <= 64; w++) if (s->bv[w]) Z3_dec_ref(z, Z3_sort_to_ast(z, s->bv[w]));
        if (s->boolean) Z3_dec_ref(z, Z3_sort_to_ast(z, s->boolean));
        Z3_del_context(z);
    }
    qcache_clear(s);
    free(s->qe);
    free(s->qbuckets);
    for (size_t i = 0; i < CORE_MAX; i++) free(s->cores[i].ids);
    for (size_t i = 0; i < CEX_MODELS; i++) { free(s->cex[i].syms); free(s->cex[i].vals); }
    free(s->ast); free(s->fpast); free(s->sets); free(s->stamp); free(s->core_head); free(s->pool);
    free(s->sym_head); free(s->sym_width); free(s->uf_parent); free(s->uf_stamp); free(s->sym_stamp);
    free(s->vars); free(s->stack); free(s->tmp_set);
    free(s->kept); free(s->kept_ids); free(s->kept_syms); free(s->vals); free(s->trk); free(s->assign);
    free(s);
}

void solver_set_fp_sampling(solver *s, int on) {
    s->no_sampling = !on;
}

void solver_get_stats(const solver *s, solver_stats *out) {
    *out = s->st;
}

/* ------------------------------------------------------------------ query cache */

static uint64_t hash_ids(const uint32_t *ids, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (size_t i = 0; i < n; i++) {
        h ^= ids[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

static qentry *qcache_find(solver *s, const uint32_t *ids, size_t n, uint64_t h) {
    if (!s->nbuckets) return NULL;
    for (int32_t i = s->qbuckets[h & (s->nbuckets - 1)]; i >= 0; i = s->qe[i].next) {
        qentry *q = &s->qe[i];
        if (q->hash == h && q->nids == n && memcmp(q->ids, ids, n * sizeof *ids) == 0) return q;
    }
    return NULL;
}

/* Record the answer for kept set ids[0..n). For SAT, syms/vals[0..nv) is the model on
 * the set's symbols. Failure to allocate only loses the cache entry. */
static void qcache_add(solver *s, const uint32_t *ids, size_t n, uint64_t h, solve_result r,
                       const uint32_t *syms, const uint64_t *vals, size_t nv) {
    size_t words = n + 3 * nv;
    if (s->nqe >= QCACHE_MAX_ENTRIES || s->qwords + words > QCACHE_MAX_WORDS) qcache_clear(s);
    if (words > QCACHE_MAX_WORDS) return;
    if (!s->nbuckets) {
        s->qbuckets = malloc(1024 * sizeof *s->qbuckets);
        if (!s->qbuckets) return;
        s->nbuckets = 1024;
        memset(s->qbuckets, 0xff, s->nbuckets * sizeof *s->qbuckets);
    }
    if (!grow((void **)&s->qe, &s->qe_cap, s->nqe + 1, sizeof *s->qe)) return;
    if (s->nqe + 1 > s->nbuckets) {   /* keep the load factor <= 1: rehash into twice the buckets */
        int32_t *nb = malloc(2 * s->nbuckets * sizeof *nb);
        if (!nb) return;
        free(s->qbuckets);
        s->qbuckets = nb;
        s->nbuckets *= 2;
        memset(s->qbuckets, 0xff, s->nbuckets * sizeof *s->qbuckets);
        for (size_t i = 0; i < s->nqe; i++) {
            size_t b = s->qe[i].hash & (s->nbuckets - 1);
            s->qe[i].next = s->qbuckets[b];
            s->qbuckets[b] = (int32_t)i;
        }
    }
    qentry q = {0};
    q.hash = h;
    q.nids = (uint32_t)n;
    q.result = (uint8_t)r;
    q.ids = malloc(n * sizeof *q.ids + 1);
    if (!q.ids) return;
    memcpy(q.ids, ids, n * sizeof *ids);
    if (r == SOLVE_SAT && nv) {
        q.syms = malloc(nv * sizeof *q.syms);
        q.vals = malloc(nv * sizeof *q.vals);
        if (!q.syms || !q.vals) { free(q.ids); free(q.syms); free(q.vals); return; }
        memcpy(q.syms, syms, nv * sizeof *syms);
        memcpy(q.vals, vals, nv * sizeof *vals);
        q.nvals = (uint32_t)nv;
    }
    size_t b = h & (s->nbuckets - 1);
    q.next = s->qbuckets[b];
    s->qe[s->nqe] = q;
    s->qbuckets[b] = (int32_t)s->nqe++;
    s->qwords += words;
}

/* ------------------------------------------------------------------ unsat cores */

static void core_unlink(solver *s, size_t slot) {
    core *c = &s->cores[slot];
    if (!c->ids) return;
    int32_t *p = &s->core_head[c->watch];
    while (*p >= 0 && *p != (int32_t)slot) p = &s->cores[*p].next;
    if (*p == (int32_t)slot) *p = c->next;
    free(c->ids);
    c->ids = NULL;
    c->n = 0;
    c->next = -1;
}

/* Store a sorted core ids[0..n) (n >= 1), evicting the oldest when the ring is full. */
static void core_add(solver *s, const uint32_t *ids, size_t n) {
    if (n == 0) return;
    size_t slot = s->core_next;
    s->core_next = (s->core_next + 1) % CORE_MAX;
    core_unlink(s, slot);
    core *c = &s->cores[slot];
    c->ids = malloc(n * sizeof *ids);
    if (!c->ids) return;
    memcpy(c->ids, ids, n * sizeof *ids);
    c->n = (uint32_t)n;
    c->watch = ids[n - 1];
    c->next = s->core_head[c->watch];
    s->core_head[c->watch] = (int32_t)slot;
}

/* Is some stored core a subset of the kept set? The kept ids carry stamp `mark`. */
static bool core_subset(solver *s, const uint32_t *ids, size_t n, uint32_t mark) {
    for (size_t i = 0; i < n; i++) {
        for (int32_t ci = s->core_head[ids[i]]; ci >= 0; ci = s->cores[ci].next) {
            const core *c = &s->cores[ci];
            size_t j = 0;
            while (j < c->n && c->ids[j] < s->id_cap && s->stamp[c->ids[j]] == mark) j++;
            if (j == c->n) return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------ union-find over symbols */

/* Cells whose stamp is not the current query's are fresh singletons, so a query
 * never pays to reset the table. A parent link always points at a cell stamped in
 * this query (uf_union links found roots only). */
static uint32_t uf_find(solver *s, uint32_t x) {
    if (s->uf_stamp[x] != s->qstamp) { s->uf_stamp[x] = s->qstamp; s->uf_parent[x] = x; return x; }
    while (s->uf_parent[x] != x) {
        s->uf_parent[x] = s->uf_parent[s->uf_parent[x]];   /* path halving */
        x = s->uf_parent[x];
    }
    return x;
}

static void uf_union(solver *s, uint32_t a, uint32_t b) {
    a = uf_find(s, a);
    b = uf_find(s, b);
    if (a != b) s->uf_parent[a] = b;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ answers */

/* Build the output vector: parent values, then vals[i] (masked to the symbol's widest
 * width) at syms[i]. Returns false when out of memory. */
static bool make_output(solver *s, const uint32_t *syms, const uint64_t *vals, size_t nv,
                        const uint64_t *parent, size_t parent_n, uint64_t **out, size_t *out_n) {
    size_t n = parent_n;
    for (size_t i = 0; i < nv; i++) if ((size_t)syms[i] + 1 > n) n = (size_t)syms[i] + 1;
    uint64_t *o = calloc(n ? n : 1, sizeof *o);
    if (!o) return false;
    if (parent_n) memcpy(o, parent, parent_n * sizeof *o);
    for (size_t i = 0; i < nv; i++) o[syms[i]] = vals[i] & expr_mask(s->sym_width[syms[i]]);
    *out = o;
    *out_n = n;
    return true;
}

/*
 * Counterexample reuse (KLEE): before calling Z3, try the few most recent SAT models.
 * Each is laid over the parent's inputs (for the kept symbols only) and the kept
 * constraints are evaluated concretely, target first because it is the one most likely
 * to fail. On success the assignment is the answer, stored into vals for the kept symbols.
 */
static bool try_cex(solver *s, size_t nkept, size_t nsyms, const uint64_t *parent, size_t parent_n) {
    if (nkept > CEX_MAX_KEPT) return false;
    size_t n = parent_n;
    for (size_t i = 0; i < nsyms; i++) if ((size_t)s->kept_syms[i] + 1 > n) n = (size_t)s->kept_syms[i] + 1;
    if (!grow((void **)&s->assign, &s->assign_cap, n + 1, sizeof *s->assign)) return false;
    uint32_t mark = next_stamp(s);   /* sym_stamp = mark: a kept symbol */
    for (size_t i = 0; i < nsyms; i++) s->sym_stamp[s->kept_syms[i]] = mark;
    for (size_t m = 0; m < CEX_MODELS; m++) {
        const cex_model *cm = &s->cex[(s->cex_next + CEX_MODELS - 1 - m) % CEX_MODELS];
        if (!cm->syms) continue;
        if (parent_n) memcpy(s->assign, parent, parent_n * sizeof *s->assign);
        memset(s->assign + parent_n, 0, (n - parent_n) * sizeof *s->assign);
        bool touches = false;
        for (size_t i = 0; i < cm->n; i++) {
            uint32_t x = cm->syms[i];
            if (x < n && x < s->sym_cap && s->sym_stamp[x] == mark) { s->assign[x] = cm->vals[i]; touches = true; }
        }
        if (!touches) continue;
        bool ok = true;
        for (size_t i = nkept; i-- > 0 && ok;)   /* the target is last in kept[] */
            ok = expr_eval(s->kept[i], s->assign, n) == 1;
        if (!ok) continue;
        for (size_t i = 0; i < nsyms; i++)
            s->vals[i] = s->assign[s->kept_syms[i]] & expr_mask(s->sym_width[s->kept_syms[i]]);
        return true;
    }
    return false;
}

static void cex_add(solver *s, size_t nsyms) {
    cex_model *cm = &s->cex[s->cex_next];
    uint32_t *sy = realloc(cm->syms, (nsyms + 1) * sizeof *sy);
    if (!sy) return;
    cm->syms = sy;
    uint64_t *va = realloc(cm->vals, (nsyms + 1) * sizeof *va);
    if (!va) return;
    cm->vals = va;
    memcpy(cm->syms, s->kept_syms, nsyms * sizeof *sy);
    memcpy(cm->vals, s->vals, nsyms * sizeof *va);
    cm->n = (uint32_t)nsyms;
    s->cex_next = (s->cex_next + 1) % CEX_MODELS;
}

/* Value of input symbol idx in model m. A symbol normally has one variable; if it was
 * seen at several widths, take the widest variable that this query's model
 * interprets (variables of other queries are not in the model). Masked to that width.
 * Returns false on a Z3 failure. */
static bool model_value(solver *s, Z3_model m, uint32_t idx, uint64_t *val) {
    Z3_context z = s->z3;
    Z3_ast best = NULL, any = NULL;
    uint32_t bw = 0, aw = 0;
    int32_t head = s->sym_head[idx];
    for (int32_t v = head; v >= 0; v = s->vars[v].next) {
        const symvar *sv = &s->vars[v];
        if (sv->width > aw) { aw = sv->width; any = sv->ast; }
        if (sv->width > bw && (s->vars[head].next < 0 ||
                               Z3_model_has_interp(z, m, Z3_get_app_decl(z, Z3_to_app(z, sv->ast))))) {
            bw = sv->width;
            best = sv->ast;
        }
    }
    if (!best) { best = any; bw = aw; }
    Z3_ast r = NULL;
    uint64_t x = 0;
    if (!best || !Z3_model_eval(z, m, best, true, &r) || !r) return false;
    Z3_inc_ref(z, r);
    bool ok = Z3_get_numeral_uint64(z, r, &x);
    Z3_dec_ref(z, r);
    *val = x & expr_mask(bw);
    return ok;
}

/* One Z3 check of the translated kept set with the given engine and timeout (ms, 0 =
 * none). engine 0: Z3's SMT core (simple solver); 1: the solver of Z3's QF_FPBV tactic
 * (qffpbv: FP to bit-vectors, then bit-blasting and SAT). *undef is set when Z3 gave up. */
static solve_result run_z3_engine(solver *s, size_t nkept, size_t nsyms, int engine, unsigned timeout_ms,
                                  bool *undef) {
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
    if (!params) { Z3_solver_dec_ref(z, zs); return SOLVE_UNKNOWN; }
    Z3_params_inc_ref(z, params);
    if (timeout_ms) Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "timeout"), timeout_ms);
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
        if (!t) { ok = false; break; }
        Z3_inc_ref(z, t);
        s->trk[ntrk++] = t;
        Z3_ast eq = Z3_mk_eq(z, s->ast[c->id], s->one);
        if (!eq) { ok = false; break; }
        Z3_inc_ref(z, eq);
        Z3_ast imp = Z3_mk_implies(z, t, eq);
        if (imp) { Z3_inc_ref(z, imp); Z3_solver_assert(z, zs, imp); Z3_dec_ref(z, imp); }
        Z3_dec_ref(z, eq);
        ok = imp != NULL && Z3_get_error_code(z) == Z3_OK;
    }
    if (ok) {
        /* the grace lets Z3's own timeout answer first when it works */
        watchdog_arm(&s->wd, timeout_ms ? timeout_ms + timeout_ms / 2 + 100 : 0);
        Z3_lbool res = Z3_solver_check_assumptions(z, zs, (unsigned)ntrk, s->trk);
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
                if (grow((void **)&s->tmp_set, &s->tmp_set_cap, cn + 1, sizeof *s->tmp_set)) {
                    for (unsigned i = 0; i < cn; i++) {
                        Z3_ast a = Z3_ast_vector_get(z, core_v, i);
                        Z3_app app = a ? Z3_to_app(z, a) : NULL;
                        Z3_func_decl d = app ? Z3_get_app_decl(z, app) : NULL;
                        Z3_symbol sym = d ? Z3_get_decl_name(z, d) : NULL;
                        if (!sym || Z3_get_symbol_kind(z, sym) != Z3_INT_SYMBOL) { k = 0; break; }
                        int id = Z3_get_symbol_int(z, sym);
                        if (id <= 0 || (size_t)id >= s->id_cap) { k = 0; break; }
                        s->tmp_set[k++] = (uint32_t)id;
                    }
                    if (k) {
                        qsort(s->tmp_set, k, sizeof *s->tmp_set, cmp_u32);
                        core_add(s, s->tmp_set, k);
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
static solve_result run_z3(solver *s, size_t nkept, size_t nsyms) {
    for (size_t i = 0; i < nkept; i++)
        if (!translate(s, s->kept[i])) return SOLVE_UNKNOWN;
    bool is_fp = false, undef = false;
    for (size_t i = 0; i < nkept && !is_fp; i++) is_fp = s->kept[i]->flags & EXPR_FLAG_FP;
    s->st.z3_calls++;
    if (is_fp) s->st.fp_queries++;
    double t0 = util_now_s();
    solve_result r;
    if (!is_fp) {
        r = run_z3_engine(s, nkept, nsyms, 0, s->timeout_ms, &undef);
    } else {
        unsigned first = s->timeout_ms ? (s->timeout_ms + 1) / 2 : 0;
        r = run_z3_engine(s, nkept, nsyms, 1, first, &undef);
        if (r == SOLVE_UNKNOWN)
            r = run_z3_engine(s, nkept, nsyms, 0, s->timeout_ms ? s->timeout_ms - first + 1 : 0, &undef);
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

typedef struct z3_job { solver *s; size_t nkept, nsyms; solve_result r; } z3_job;

static void *z3_job_run(void *arg) {
    z3_job *j = arg;
    j->r = run_z3(j->s, j->nkept, j->nsyms);
    return NULL;
}

static solve_result run_z3_any_depth(solver *s, size_t nkept, size_t nsyms) {
    uint32_t depth = 0;
    for (size_t i = 0; i < nkept; i++) if (s->kept[i]->depth > depth) depth = s->kept[i]->depth;
    if (depth <= DEEP_QUERY) return run_z3(s, nkept, nsyms);
    if (depth > MAX_QUERY_DEPTH) return SOLVE_UNKNOWN;
    z3_job j = { s, nkept, nsyms, SOLVE_UNKNOWN };
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

/* ------------------------------------------------------------------ solver_solve */

static bool ensure_kept(solver *s, size_t n) {
    size_t c = s->kept_cap;
    if (!grow((void **)&s->kept, &c, n, sizeof *s->kept)) return false;
    c = s->kept_cap; if (!grow((void **)&s->kept_ids, &c, n, sizeof *s->kept_ids)) return false;
    c = s->kept_cap; if (!grow((void **)&s->trk, &c, n, sizeof *s->trk)) return false;
    s->kept_cap = c;
    return true;
}

static solve_result finish(solver *s, solve_result r, double t0) {
    if (r == SOLVE_SAT) s->st.sat++;
    else if (r == SOLVE_UNSAT) s->st.unsat++;
    else s->st.unknown++;
    s->st.seconds += util_now_s() - t0;
    return r;
}

solve_result solver_solve(solver *s, expr *const *cs, size_t n,
                          const uint64_t *parent, size_t parent_n,
                          uint64_t **out, size_t *out_n) {
    double t0 = util_now_s();
    *out = NULL;
    *out_n = 0;
    s->st.queries++;
    s->st.constraints_in += n;
    if (n == 0)   /* the empty conjunction: the parent's inputs satisfy it */
        return finish(s, make_output(s, NULL, NULL, 0, parent, parent_n, out, out_n) ? SOLVE_SAT : SOLVE_UNKNOWN, t0);
    const expr *target = cs[n - 1];

    /* 1. Syntactic UNSAT: a constant-false constraint, or the target is the negation of
     *    a prefix constraint (pointer equality is structural equality in an expr_ctx). */
    for (size_t i = 0; i < n; i++) {
        const expr *c = cs[i];
        if (c->op == EXPR_CONST && (c->value & 1) == 0) { s->st.syntactic_unsat++; return finish(s, SOLVE_UNSAT, t0); }
        if (i + 1 < n && ((target->op == EXPR_NOT && target->kid[0] == c) ||
                          (c->op == EXPR_NOT && c->kid[0] == target))) {
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
        if (!symset_of(s, cs[i])) return finish(s, SOLVE_UNKNOWN, t0);
    uint32_t dup = next_stamp(s);
    size_t ncand = 0;   /* unique constraints with symbols, in kept[] (target last if it has symbols) */
    bool target_in = false;
    for (size_t i = 0; i < n; i++) {
        const expr *c = cs[i];
        bool is_target = (i == n - 1);
        if (s->stamp[c->id] == dup) {   /* a duplicate; the target may repeat a prefix constraint */
            if (is_target) {
                for (size_t j = 0; j < ncand; j++)
                    if (s->kept[j] == c) { s->kept[j] = s->kept[ncand - 1]; s->kept[ncand - 1] = c; target_in = true; break; }
            }
            continue;
        }
        s->stamp[c->id] = dup;
        symset ss = s->sets[c->id];
        if (c->op == EXPR_CONST) continue;   /* constant true (false was handled above) */
        if (ss.len == 0) {                   /* ground but unfolded (e.g. built by expr_raw) */
            if ((expr_eval(c, NULL, 0) & 1) == 0) { s->st.syntactic_unsat++; return finish(s, SOLVE_UNSAT, t0); }
            continue;
        }
        const uint32_t *sy = s->pool + ss.off;
        for (uint32_t k = 1; k < ss.len; k++) uf_union(s, sy[0], sy[k]);
        s->kept[ncand++] = c;
        if (is_target) target_in = true;
    }
    if (!target_in) {   /* the target holds whatever the inputs: the parent's inputs do */
        return finish(s, make_output(s, NULL, NULL, 0, parent, parent_n, out, out_n) ? SOLVE_SAT : SOLVE_UNKNOWN, t0);
    }
    uint32_t root = uf_find(s, s->pool[s->sets[target->id].off]);
    size_t nkept = 0;
    for (size_t i = 0; i < ncand; i++) {
        const expr *c = s->kept[i];
        if (uf_find(s, s->pool[s->sets[c->id].off]) == root) s->kept[nkept++] = c;
    }
    s->st.constraints_kept += nkept;
    /* kept symbols: the union of the kept constraints' sets */
    uint32_t symmark = next_stamp(s);
    size_t nsyms = 0;
    for (size_t i = 0; i < nkept; i++) {
        symset ss = s->sets[s->kept[i]->id];
        for (uint32_t k = 0; k < ss.len; k++) {
            uint32_t x = s->pool[ss.off + k];
            if (s->sym_stamp[x] == symmark) continue;
            s->sym_stamp[x] = symmark;
            size_t c = s->ksyms_cap;
            if (!grow((void **)&s->kept_syms, &c, nsyms + 1, sizeof *s->kept_syms)) return finish(s, SOLVE_UNKNOWN, t0);
            c = s->ksyms_cap;
            if (!grow((void **)&s->vals, &c, nsyms + 1, sizeof *s->vals)) return finish(s, SOLVE_UNKNOWN, t0);
            s->ksyms_cap = c;
            s->kept_syms[nsyms++] = x;
        }
    }
    qsort(s->kept_syms, nsyms, sizeof *s->kept_syms, cmp_u32);

    /* 3. Query cache: exact hit, then UNSAT cores that are subsets of the kept set. */
    for (size_t i = 0; i < nkept; i++) s->kept_ids[i] = s->kept[i]->id;
    qsort(s->kept_ids, nkept, sizeof *s->kept_ids, cmp_u32);
    uint64_t h = hash_ids(s->kept_ids, nkept);
    qentry *q = qcache_find(s, s->kept_ids, nkept, h);
    if (q) {
        s->st.cache_hits++;
        if (q->result == SOLVE_SAT) {
            solve_result r = make_output(s, q->syms, q->vals, q->nvals, parent, parent_n, out, out_n)
                                 ? SOLVE_SAT : SOLVE_UNKNOWN;
            return finish(s, r, t0);
        }
        return finish(s, (solve_result)q->result, t0);
    }
    uint32_t kmark = next_stamp(s);
    for (size_t i = 0; i < nkept; i++) s->stamp[s->kept_ids[i]] = kmark;
    if (core_subset(s, s->kept_ids, nkept, kmark)) {
        s->st.unsat_subset_hits++;
        return finish(s, SOLVE_UNSAT, t0);
    }
    if (try_cex(s, nkept, nsyms, parent, parent_n)) {
        s->st.cache_hits++;
        qcache_add(s, s->kept_ids, nkept, h, SOLVE_SAT, s->kept_syms, s->vals, nsyms);
        solve_result r = make_output(s, s->kept_syms, s->vals, nsyms, parent, parent_n, out, out_n)
                             ? SOLVE_SAT : SOLVE_UNKNOWN;
        return finish(s, r, t0);
    }

    /* 4. Floating-point queries: candidates built from their constants, checked by
     *    evaluation (solver_sample.h), before Z3, which needs seconds for many double
     *    operations; a miss costs a few milliseconds. */
    bool is_fp = false;
    for (size_t i = 0; i < nkept && !is_fp; i++) is_fp = s->kept[i]->flags & EXPR_FLAG_FP;
    solve_result r = SOLVE_UNKNOWN;
    if (is_fp && !s->no_sampling && fp_sample_solve(s->kept, nkept, s->kept_syms, nsyms, parent, parent_n, s->vals)) {
        for (size_t i = 0; i < nsyms; i++) s->vals[i] &= expr_mask(s->sym_width[s->kept_syms[i]]);
        s->st.fp_sampled++;
        r = SOLVE_SAT;
    }
    /* 5. Z3. */
    if (r != SOLVE_SAT) r = run_z3_any_depth(s, nkept, nsyms);
    if (r == SOLVE_SAT) {
        qcache_add(s, s->kept_ids, nkept, h, SOLVE_SAT, s->kept_syms, s->vals, nsyms);
        cex_add(s, nsyms);
        if (!make_output(s, s->kept_syms, s->vals, nsyms, parent, parent_n, out, out_n)) r = SOLVE_UNKNOWN;
    } else if (r == SOLVE_UNSAT) {
        qcache_add(s, s->kept_ids, nkept, h, SOLVE_UNSAT, NULL, NULL, 0);
    }
    return finish(s, r, t0);
}

void solver_set_timeout(solver *s, unsigned timeout_ms) {
    if (!s || !s->timeout_ms || !timeout_ms || timeout_ms == s->timeout_ms) return;
    Z3_params_set_uint(s->z3, s->params, Z3_mk_string_symbol(s->z3, "timeout"), timeout_ms);
    s->timeout_ms = timeout_ms;
}
