/* test_expr_random.c: randomized differential test of the simplifying builder, and evaluation of very deep expressions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "expr/expr.h"

/*
 * The differential test grows a pool of nodes from a few symbols by applying
 * random builder calls to random pool members. For every node the builder
 * returns it checks, under the creation inputs (vector 0) and NVEC-1 other
 * random input vectors:
 *   - node->value == expr_eval(node, vector 0): values are computed bottom-up right;
 *   - expr_eval(node, v) == reference semantics of the *requested* operation
 *     applied to expr_eval(kids, v): simplification preserved the meaning.
 * Kid values per vector are cached in the pool so the reference needs no
 * evaluation of its own; expr_eval on the result is what is under test.
 */
enum { NSYM = 10, NVEC = 6, POOL = 3000, STEPS = 6000 };

static const unsigned sym_width[NSYM] = {1, 8, 16, 32, 64, 1, 8, 16, 32, 64};
static uint64_t inputs[NVEC][NSYM];

typedef struct item {
    expr *e;
    uint64_t v[NVEC]; /* value under each input vector */
} item;

static item pool[POOL];
static size_t npool;
/* the last RECENT results, so that expressions also grow deep, not only wide */
enum { RECENT = 32 };
static item recent[RECENT];
static size_t nrecent;

#include "expr_test_util.h"

static item const_item(expr_ctx *cx, uint64_t v, unsigned w)
{
    item it = {.e = expr_const(cx, v, w)};
    for (int k = 0; k < NVEC; k++) it.v[k] = it.e->value;
    return it;
}

/* A random operand: a pool member, or sometimes a fresh edge-biased constant. */
static item any_item(expr_ctx *cx)
{
    uint64_t r = rnd() % 16;
    if (r == 0) {
        static const unsigned ws[] = {1, 8, 16, 32, 64, 5, 13};
        unsigned w = ws[rnd() % 7];
        return const_item(cx, rnd_val(w), w);
    }
    if (r < 8 && nrecent > 0) return recent[rnd() % (nrecent < RECENT ? nrecent : RECENT)];
    return pool[rnd() % npool];
}

/* A random operand of width w; `like` is returned now and then to hit x-op-x rules. */
static item item_of_width(expr_ctx *cx, unsigned w, const item *like)
{
    uint64_t r = rnd() % 8;
    if (like && r == 0) return *like;
    if (r == 1) return const_item(cx, rnd_val(w), w);
    for (int tries = 0; tries < 64; tries++) {
        const item *p = &pool[rnd() % npool];
        if (p->e->width == w) return *p;
    }
    return const_item(cx, rnd_val(w), w);
}

/* Check a built node against per-vector reference values, then add it to the pool. */
static void check_and_add(expr *r, unsigned want_width, const uint64_t ref[NVEC])
{
    assert_non_null(r);
    assert_int_equal(r->width, want_width);
    assert_true(r->value == ref[0]);
    item it = {.e = r};
    for (int k = 0; k < NVEC; k++) {
        it.v[k] = expr_eval(r, inputs[k], NSYM);
        if (it.v[k] != ref[k]) {
            fprintf(stderr, "vector %d: got %llx want %llx for ", k, (unsigned long long)it.v[k],
                    (unsigned long long)ref[k]);
            expr_print(stderr, r, 40);
            fputc('\n', stderr);
        }
        assert_true(it.v[k] == ref[k]);
    }
    assert_true(r->value == it.v[0]);
    if (r->op == EXPR_CONST) return; /* constants are cheap to make afresh; keep the pool symbolic */
    recent[nrecent++ % RECENT] = it;
    if (npool < POOL)
        pool[npool++] = it;
    else
        pool[NSYM + rnd() % (POOL - NSYM)] = it;
}

/* Split a into random pieces, optionally swap one for a foreign node, and concatenate
 * them back in a random association. Unswapped, the merge rules must give back a. */
static void pieces_step(expr_ctx *cx, item a)
{
    unsigned w = a.e->width;
    if (w < 2) return;
    item p[6];
    unsigned np = 0, lo = 0;
    unsigned cuts = 1 + rnd() % 5;
    while (lo < w) {
        unsigned pw = (np == cuts || rnd() % 3 == 0) ? w - lo : 1 + rnd() % (w - lo);
        if (np == 5) pw = w - lo;
        item it = {.e = expr_extract(cx, a.e, lo, pw)};
        for (int k = 0; k < NVEC; k++) it.v[k] = (a.v[k] >> lo) & expr_mask(pw);
        p[np++] = it;
        lo += pw;
    }
    /* p[0] is the lowest piece; order high to low for concatenation */
    int swapped = rnd() % 4 == 0;
    if (swapped) {
        unsigned i = rnd() % np;
        p[i] = item_of_width(cx, p[i].e->width, NULL);
    }
    item seq[6];
    for (unsigned i = 0; i < np; i++) seq[i] = p[np - 1 - i];
    unsigned n = np;
    while (n > 1) {
        unsigned i = rnd() % (n - 1); /* concat seq[i] (high) with seq[i+1] (low) */
        unsigned lw = seq[i + 1].e->width, tw = seq[i].e->width + lw;
        uint64_t ref[NVEC];
        for (int k = 0; k < NVEC; k++) ref[k] = (seq[i].v[k] << lw | seq[i + 1].v[k]) & expr_mask(tw);
        expr *r = expr_concat(cx, seq[i].e, seq[i + 1].e);
        check_and_add(r, tw, ref);
        seq[i].e = r;
        for (int k = 0; k < NVEC; k++) seq[i].v[k] = ref[k];
        for (unsigned j = i + 1; j + 1 < n; j++) seq[j] = seq[j + 1];
        n--;
    }
    /* extracts of these look through the operator, so the pieces need not be
     * extracts of a itself; for the rest the merge must give back a exactly */
    switch (a.e->op) {
    case EXPR_CONST:
    case EXPR_ZEXT:
    case EXPR_SEXT:
    case EXPR_CONCAT:
    case EXPR_EXTRACT:
    case EXPR_ADD:
    case EXPR_SUB:
    case EXPR_MUL:
    case EXPR_AND:
    case EXPR_OR:
    case EXPR_XOR: break;
    default:
        if (!swapped) assert_ptr_equal(seq[0].e, a.e);
    }
}

static void random_step(expr_ctx *cx)
{
    item a = any_item(cx);
    unsigned w = a.e->width;
    uint64_t ref[NVEC];
    expr *r;
    unsigned kind = rnd() % 12;
    switch (kind) {
    case 0:
    case 1:
    case 2: { /* arithmetic and bitwise binary */
        expr_op op = (expr_op)(EXPR_ADD + rnd() % (EXPR_XOR - EXPR_ADD + 1));
        item b = item_of_width(cx, w, &a);
        if ((op == EXPR_SHL || op == EXPR_LSHR || op == EXPR_ASHR) && rnd() % 2) b = const_item(cx, rnd() % (w + 2), w);
        r = expr_binary(cx, op, a.e, b.e);
        for (int k = 0; k < NVEC; k++) ref[k] = expr_eval_op(op, w, 0, w, a.v[k], b.v[k], 0);
        check_and_add(r, w, ref);
        break;
    }
    case 3:
    case 4: { /* comparisons by predicate */
        expr_pred p = (expr_pred)(rnd() % 10);
        item b = item_of_width(cx, w, &a);
        r = expr_cmp(cx, p, a.e, b.e);
        for (int k = 0; k < NVEC; k++) ref[k] = (uint64_t)pred_ref(p, a.v[k], b.v[k], w);
        check_and_add(r, 1, ref);
        break;
    }
    case 5: { /* overflow flags and raw canonical comparisons */
        static const expr_op ops[] = {EXPR_UADDO, EXPR_SADDO, EXPR_USUBO, EXPR_SSUBO, EXPR_UMULO,
                                      EXPR_SMULO, EXPR_EQ,    EXPR_ULT,   EXPR_SLT};
        expr_op op = ops[rnd() % 9];
        item b = item_of_width(cx, w, &a);
        r = expr_binary(cx, op, a.e, b.e);
        for (int k = 0; k < NVEC; k++) ref[k] = expr_eval_op(op, 1, 0, w, a.v[k], b.v[k], 0);
        check_and_add(r, 1, ref);
        break;
    }
    case 6: /* not */
        r = expr_not(cx, a.e);
        for (int k = 0; k < NVEC; k++) ref[k] = ~a.v[k] & expr_mask(w);
        check_and_add(r, w, ref);
        break;
    case 7: { /* zext / sext / resize */
        unsigned nw = w + rnd() % (65 - w);
        unsigned how = rnd() % 3;
        if (how == 2) nw = 1 + rnd() % 64;
        r = how == 0 ? expr_zext(cx, a.e, nw) : how == 1 ? expr_sext(cx, a.e, nw) : expr_resize(cx, a.e, nw);
        for (int k = 0; k < NVEC; k++)
            ref[k] = how == 1 ? (uint64_t)expr_sext64(a.v[k], w) & expr_mask(nw) : a.v[k] & expr_mask(nw);
        check_and_add(r, nw, ref);
        break;
    }
    case 8: { /* extract */
        unsigned lo = rnd() % w, ew = 1 + rnd() % (w - lo);
        r = expr_extract(cx, a.e, lo, ew);
        for (int k = 0; k < NVEC; k++) ref[k] = (a.v[k] >> lo) & expr_mask(ew);
        check_and_add(r, ew, ref);
        break;
    }
    case 9: { /* concat of unrelated nodes */
        if (w == 64) break;
        item b = item_of_width(cx, 1 + rnd() % (64 - w), NULL);
        if (b.e->width + w > 64) break;
        unsigned lw = b.e->width;
        r = expr_concat(cx, a.e, b.e);
        for (int k = 0; k < NVEC; k++) ref[k] = (a.v[k] << lw | b.v[k]) & expr_mask(w + lw);
        check_and_add(r, w + lw, ref);
        break;
    }
    case 10: { /* ite and and1 */
        item c = item_of_width(cx, 1, NULL);
        if (rnd() % 3 == 0 && w == 1) {
            r = expr_and1(cx, c.e, a.e);
            for (int k = 0; k < NVEC; k++) ref[k] = c.v[k] & a.v[k];
            check_and_add(r, 1, ref);
            break;
        }
        item e = item_of_width(cx, w, &a);
        r = expr_ite(cx, c.e, a.e, e.e);
        for (int k = 0; k < NVEC; k++) ref[k] = (c.v[k] & 1) ? a.v[k] : e.v[k];
        check_and_add(r, w, ref);
        break;
    }
    default: pieces_step(cx, a); break;
    }
}

static void test_random_differential(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    assert_non_null(cx);
    for (int k = 0; k < NVEC; k++)
        for (int i = 0; i < NSYM; i++) inputs[k][i] = rnd_val(sym_width[i]);
    npool = nrecent = 0;
    for (int i = 0; i < NSYM; i++) {
        item it = {.e = expr_symbol(cx, (uint32_t)i, sym_width[i], inputs[0][i])};
        for (int k = 0; k < NVEC; k++) it.v[k] = inputs[k][i];
        pool[npool++] = it;
    }
    for (int s = 0; s < STEPS; s++) random_step(cx);
    /* every node in the context (including intermediate ones) is self-consistent */
    for (uint32_t id = 1; id <= expr_ctx_count(cx); id++) {
        expr *e = expr_by_id(cx, id);
        assert_true(e->value == expr_eval(e, inputs[0], NSYM));
        if (e->nkids) {
            unsigned d = 0;
            for (unsigned i = 0; i < e->nkids; i++) {
                assert_true(e->kid[i]->id < e->id);
                if (e->kid[i]->depth > d) d = e->kid[i]->depth;
            }
            assert_int_equal(e->depth, d + 1);
        }
    }
    expr_ctx_free(cx);
}

/* A 200000-deep chain: evaluation and printing must not recurse. */
static void test_deep_chain(void **state)
{
    (void)state;
    enum { DEPTH = 200000 };
    expr_ctx *cx = expr_ctx_new();
    assert_non_null(cx);
    expr *x = expr_symbol(cx, 0, 32, 3);
    expr *y = expr_symbol(cx, 1, 32, 5);
    expr *e = expr_binary(cx, EXPR_ADD, x, y);
    uint32_t want = 8, want2 = 18;
    for (int i = 0; i < DEPTH; i++) {
        e = (i & 1) ? expr_binary(cx, EXPR_MUL, e, y) : expr_binary(cx, EXPR_XOR, e, x);
        want = (i & 1) ? want * 5 : want ^ 3;
        want2 = (i & 1) ? want2 * 11 : want2 ^ 7;
    }
    assert_true(e->depth > DEPTH);
    assert_int_equal(e->value, want);
    uint64_t in[2] = {3, 5};
    assert_int_equal(expr_eval(e, in, 2), want);
    uint64_t in2[2] = {7, 11};
    assert_int_equal(expr_eval(e, in2, 2), want2);
    /* a comparison on top of it, and its negation */
    expr *c = expr_cmp(cx, PRED_UGT, e, expr_const(cx, 1000, 32));
    assert_int_equal(expr_eval(c, in2, 2), want2 > 1000);
    assert_int_equal(expr_eval(expr_not(cx, c), in2, 2), !(want2 > 1000));
    FILE *f = fopen("/dev/null", "w");
    assert_non_null(f);
    expr_print(f, e, 10);
    expr_print(f, e, (size_t)-1);
    fclose(f);
    expr_ctx_free(cx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_differential),
        cmocka_unit_test(test_deep_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
