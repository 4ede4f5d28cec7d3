/* solver_sample.c: a fallback for floating-point queries Z3 gave up on: candidate values built from the query's constants, checked by concrete evaluation. */
#include "solver/solver_sample.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/util.h"

/*
 * Why. Z3 bit-blasts floating-point operations; a double sqrt, division or product can
 * take it seconds (solver_z3.c, run_z3), while the branch itself is usually "some input,
 * through one or two operations, equals / exceeds a constant". Such a branch is often
 * satisfied by a value built from the constants in sight: c, -c, the neighbours of c,
 * c*c and sqrt(c) (inverse of sqrt and square), c1*c2, c1/c2, c1+c2, c1-c2 (inverses of
 * the arithmetic with a constant operand), one of the special values (0, -0, +-1,
 * +-inf, NaN, the extremes, the smallest denormal), or a value drawn at random on the
 * scale of the constants. Checking cheap candidates by
 * concrete evaluation is the idea of search-based floating-point solving (JFS, Liew et
 * al. 2019, fuzzes FP constraints; CoverMe, Fu and Su 2017, minimises a distance),
 * reduced here to one small deterministic round: every candidate is checked exactly
 * against the whole kept constraint set with expr_eval, so an answer is never wrong,
 * only sometimes missing.
 *
 * One symbol is varied at a time, the others keep the parent run's values. When a
 * candidate satisfies the target but not the prefix, a bisection between it and the
 * parent's value (which satisfies the prefix) looks for the point where the target
 * turns true (see bisect); an equality target no candidate hits is bisected on which
 * side of its constant the computed value lies (see bisect_eq).
 */

enum { MAX_NODES = 20000, MAX_CONSTS = 24, MAX_FSYMS = 8, MAX_EVALS = 12000, MAX_CANDS = 4096 };
#define MAX_SECONDS 0.1 /* a round never costs more than this (long path conditions) */

typedef struct fsym {
    uint32_t idx;
    unsigned width;
    bool is_float;
} fsym;

typedef struct scan {
    double consts[MAX_CONSTS];
    size_t nconsts;
    fsym syms[MAX_FSYMS];
    size_t nsyms;
    bool any_fp;
} scan;

static void add_const(scan *sc, double v)
{
    for (size_t i = 0; i < sc->nconsts; i++)
        if (sc->consts[i] == v || (isnan(v) && isnan(sc->consts[i]))) return;
    if (sc->nconsts < MAX_CONSTS) sc->consts[sc->nconsts++] = v;
}

static void add_sym(scan *sc, const expr *k, bool is_float)
{
    for (size_t i = 0; i < sc->nsyms; i++)
        if (sc->syms[i].idx == k->aux && sc->syms[i].width == k->width) {
            sc->syms[i].is_float |= is_float;
            return;
        }
    if (sc->nsyms < MAX_FSYMS) sc->syms[sc->nsyms++] = (fsym){k->aux, k->width, is_float};
}

/* Constants and symbols read directly by floating-point operators, over the DAGs,
 * the last constraint (the target, whose constants matter most) first. */
static bool scan_dags(const expr *const *cs, size_t n, scan *sc)
{
    ptrmap seen = PTRMAP_INIT; /* the nodes scanned, at most MAX_NODES */
    size_t cap = 256, sp = 0;
    const expr **st = malloc(cap * sizeof *st);
    if (!st) return false;
    for (size_t i = n; i-- > 0;) {
        st[sp++] = cs[i];
        while (sp) {
            const expr *e = st[--sp];
            if (ptrmap_get(&seen, e)) continue;
            if (seen.n >= MAX_NODES || ptrmap_put(&seen, e, NULL, NULL)) {
                sp = 0; /* too big: scan what was seen */
                continue;
            }
            bool fp = expr_op_is_fp(e->op);
            sc->any_fp |= fp;
            bool int_kid = e->op == EXPR_SITOF || e->op == EXPR_UITOF;
            for (unsigned k = 0; k < e->nkids; k++) {
                const expr *x = e->kid[k];
                if (fp && x->op == EXPR_CONST && !int_kid) add_const(sc, expr_fp_value(x->value, x->width));
                if (fp && x->op == EXPR_SYMBOL && (int_kid || x->width == 32 || x->width == 64))
                    add_sym(sc, x, !int_kid);
                if (sp + 1 > cap) {
                    const expr **ns = realloc(st, 2 * cap * sizeof *st);
                    if (!ns) continue;
                    st = ns;
                    cap *= 2;
                }
                st[sp++] = x;
            }
        }
    }
    ptrmap_clear(&seen);
    free(st);
    return true;
}

/* Candidate doubles from the constants (see the block comment). */
static size_t candidates(const scan *sc, double *out, size_t max)
{
    size_t n = 0;
#define PUT(v)                       \
    do {                             \
        if (n < max) out[n++] = (v); \
    } while (0)
    for (size_t i = 0; i < sc->nconsts; i++) {
        double c = sc->consts[i];
        PUT(c);
        PUT(-c);
        PUT(nextafter(c, INFINITY));
        PUT(nextafter(c, -INFINITY));
        PUT(nextafterf((float)c, INFINITY));
        PUT(nextafterf((float)c, -INFINITY));
        PUT(c * c);
        PUT(sqrt(fabs(c)));
        PUT(c + 0.5);
        PUT(c - 0.5);
    }
    static const double special[] = {0.0,
                                     -0.0,
                                     1.0,
                                     -1.0,
                                     0.5,
                                     2.0,
                                     INFINITY,
                                     -INFINITY,
                                     NAN,
                                     3.4028234663852886e38,
                                     -3.4028234663852886e38,
                                     1.7976931348623157e308,
                                     -1.7976931348623157e308,
                                     1.401298464324817e-45,
                                     4.9406564584124654e-324};
    for (size_t i = 0; i < sizeof special / sizeof *special; i++) PUT(special[i]);
    /* values drawn on the scale of the constants, for ranges no constant expression hits
     * (a fixed xorshift seed: a query always gets the same candidates) */
    double scale = 1.0;
    for (size_t i = 0; i < sc->nconsts; i++)
        if (isfinite(sc->consts[i]) && 2.0 * fabs(sc->consts[i]) > scale) scale = 2.0 * fabs(sc->consts[i]);
    uint64_t st = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 128; k++) {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        double u = (double)(st >> 11) * 0x1p-53; /* [0, 1) */
        if (k % 3 == 0)
            PUT((2.0 * u - 1.0) * scale);
        else if (k % 3 == 1)
            PUT(u * scale);
        else /* any magnitude from 2^-20 to 2^40, either sign */
            PUT(ldexp(1.0 + u, (int)(st % 61) - 20) * ((st >> 62) & 1 ? -1.0 : 1.0));
    }
    for (size_t i = 0; i < sc->nconsts; i++)
        for (size_t j = 0; j < sc->nconsts; j++) {
            double a = sc->consts[i], b = sc->consts[j];
            PUT(a * b);
            PUT(a / b);
            PUT(a + b);
            PUT(a - b);
        }
#undef PUT
    return n;
}

static uint64_t bits_of(double v, unsigned w, bool is_float)
{
    if (!is_float) { /* an integer converted to floating point: the integer nearest v */
        if (isnan(v) || fabs(v) >= 9.2e18) return 0;
        return (uint64_t)(int64_t)nearbyint(v) & (w >= 64 ? ~0ull : (1ull << w) - 1);
    }
    return expr_fp_bits(v, w);
}

/* Order-preserving map of a w-bit value to an unsigned key: IEEE floats ordered by value
 * (negatives flipped, positives above them), integers as signed. */
static uint64_t to_key(uint64_t b, unsigned w, bool is_float)
{
    uint64_t sign = 1ull << (w - 1), m = w >= 64 ? ~0ull : (1ull << w) - 1;
    if (!is_float) return (b ^ sign) & m;
    return ((b & sign) ? ~b : (b | sign)) & m;
}
static uint64_t from_key(uint64_t k, unsigned w, bool is_float)
{
    uint64_t sign = 1ull << (w - 1), m = w >= 64 ? ~0ull : (1ull << w) - 1;
    if (!is_float) return (k ^ sign) & m;
    return ((k & sign) ? (k ^ sign) : ~k) & m;
}

/*
 * The candidates found a value `hit` of the symbol that makes the target true but breaks
 * the prefix, and the parent's value `base` keeps the prefix (the parent run followed it)
 * with the target false. Bisect between them, in value order, for the target-true value
 * nearest to base, and check everything there: for the usual branch (a threshold on a
 * monotone stretch of a computation) that point also keeps the prefix. At most 70 steps.
 */
static bool bisect(const expr *const *cs, size_t n, uint64_t *assign, size_t na, const fsym *fs, uint64_t base,
                   uint64_t hit, size_t *evals)
{
    uint64_t lo = to_key(base, fs->width, fs->is_float), hi = to_key(hit, fs->width, fs->is_float);
    for (int step = 0; step < 70 && (lo > hi ? lo - hi : hi - lo) > 1; step++) {
        uint64_t mid = lo < hi ? lo + (hi - lo) / 2 : hi + (lo - hi) / 2;
        assign[fs->idx] = from_key(mid, fs->width, fs->is_float);
        (*evals)++;
        if ((expr_eval(cs[n - 1], assign, na) & 1) == 1)
            hi = mid;
        else
            lo = mid;
    }
    assign[fs->idx] = from_key(hi, fs->width, fs->is_float);
    for (size_t i = n; i-- > 0;) {
        (*evals)++;
        if ((expr_eval(cs[i], assign, na) & 1) != 1) return false;
    }
    return true;
}

/* Is the left side of the equality target below its constant right side at the current
 * assignment? Signed for integers (EQ), in value order for floats (FOEQ); NaN is not below. */
static bool below(const expr *t, const uint64_t *assign, size_t na)
{
    const expr *l = t->kid[0], *c = t->kid[1];
    uint64_t v = expr_eval(l, assign, na);
    if (t->op == EXPR_EQ) return expr_sext64(v, l->width) < expr_sext64(c->value, c->width);
    return l->width == 32 || l->width == 64 ? expr_fp_value(v, l->width) < expr_fp_value(c->value, c->width) : false;
}

/*
 * An equality target f(x) == c (f often integer-valued, as (int)(y * 10) == 25, or a
 * float computation) that no candidate hits exactly: find a candidate on the other side
 * of c than the parent's value, bisect on "f(x) < c" between the two, and check everything
 * at both ends of the final step, where f crosses c.
 */
static bool bisect_eq(const expr *const *cs, size_t n, uint64_t *assign, size_t na, const fsym *fs, uint64_t base,
                      const double *cand, size_t nc, size_t *evals)
{
    const expr *t = cs[n - 1];
    if ((t->op != EXPR_EQ && t->op != EXPR_FOEQ) || t->kid[1]->op != EXPR_CONST) return false;
    assign[fs->idx] = base;
    bool b0 = below(t, assign, na);
    uint64_t other = 0;
    bool have = false;
    for (size_t c = 0; c < nc && !have && *evals < MAX_EVALS; c++) {
        assign[fs->idx] = bits_of(cand[c], fs->width, fs->is_float);
        (*evals)++;
        if (below(t, assign, na) != b0) {
            have = true;
            other = assign[fs->idx];
        }
    }
    if (!have) return false;
    uint64_t lo = to_key(base, fs->width, fs->is_float), hi = to_key(other, fs->width, fs->is_float);
    for (int step = 0; step < 70 && (lo > hi ? lo - hi : hi - lo) > 1; step++) {
        uint64_t mid = lo < hi ? lo + (hi - lo) / 2 : hi + (lo - hi) / 2;
        assign[fs->idx] = from_key(mid, fs->width, fs->is_float);
        (*evals)++;
        if (below(t, assign, na) == b0)
            lo = mid;
        else
            hi = mid;
    }
    for (int end = 0; end < 2; end++) {
        assign[fs->idx] = from_key(end ? lo : hi, fs->width, fs->is_float);
        bool ok = true;
        for (size_t i = n; i-- > 0 && ok;) {
            (*evals)++;
            ok = (expr_eval(cs[i], assign, na) & 1) == 1;
        }
        if (ok) return true;
    }
    return false;
}

int fp_sample_solve(const expr *const *cs, size_t n, const uint32_t *syms, size_t nsyms, const uint64_t *parent,
                    size_t parent_n, uint64_t *vals)
{
    scan sc;
    memset(&sc, 0, sizeof sc);
    if (n == 0 || !scan_dags(cs, n, &sc) || !sc.any_fp || sc.nsyms == 0) return 0;
    size_t na = parent_n;
    for (size_t i = 0; i < nsyms; i++)
        if ((size_t)syms[i] + 1 > na) na = (size_t)syms[i] + 1;
    uint64_t *assign = calloc(na + 1, sizeof *assign);
    double *cand = malloc(MAX_CANDS * sizeof *cand);
    if (!assign || !cand) {
        free(assign);
        free(cand);
        return 0;
    }
    if (parent_n) memcpy(assign, parent, parent_n * sizeof *assign);
    size_t nc = candidates(&sc, cand, MAX_CANDS), evals = 0;
    int found = 0;
    double t0 = util_now_s();
    for (size_t s = 0; s < sc.nsyms && !found && evals < MAX_EVALS; s++) {
        const fsym *fs = &sc.syms[s];
        if (fs->idx >= na) continue;
        uint64_t keep = assign[fs->idx], hit = 0;
        bool have_hit = false;
        for (size_t c = 0; c < nc && !found && evals < MAX_EVALS; c++) {
            assign[fs->idx] = bits_of(cand[c], fs->width, fs->is_float);
            bool ok = true;
            for (size_t i = n; i-- > 0 && ok;) { /* the target (last) fails most often */
                if (++evals % 64 == 0 && util_now_s() - t0 > MAX_SECONDS) evals = MAX_EVALS;
                ok = (expr_eval(cs[i], assign, na) & 1) == 1;
                if (ok && i == n - 1 && !have_hit) {
                    have_hit = true;
                    hit = assign[fs->idx];
                }
            }
            found = ok;
        }
        if (!found && have_hit && n > 1) found = bisect(cs, n, assign, na, fs, keep, hit, &evals);
        if (!found && evals < MAX_EVALS) found = bisect_eq(cs, n, assign, na, fs, keep, cand, nc, &evals);
        if (!found) assign[fs->idx] = keep;
    }
    if (found)
        for (size_t i = 0; i < nsyms; i++) vals[i] = assign[syms[i]];
    free(assign);
    free(cand);
    return found;
}
