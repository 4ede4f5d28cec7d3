/* test_runtime_trace.c: unit tests of the runtime's inputs, trace writer, branch/check events, parameter slots and intrinsics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "sympath.h"
#include "runtime/core/rt_internal.h"
#include "runtime/core/rt_fast.c" /* the inline fast paths, normally linked as bitcode */

int __VERIFIER_nondet_int(void);
unsigned char __VERIFIER_nondet_uchar(void);
double __VERIFIER_nondet_double(void);

static int setup(void **state)
{
    static const uint64_t in[] = {5, 0x1ff, ~0ull, 0x4008000000000000ull /* 3.0 */};
    rt_test_setup(in, 4, 4096, 64);
    return 0;
}

/* Every record's expression references point backwards: kids first. */
static void check_kids_first(void)
{
    const trace_rec *r = rt_test_records();
    uint64_t n = rt_test_header()->nrecs;
    uint32_t defined = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (r[i].type == REC_EXPR) {
            assert_int_equal(r[i].u.e.id, defined + 1); /* dense from 1 */
            for (int k = 0; k < 3; k++) assert_true(r[i].u.e.kid[k] <= defined);
            defined++;
        } else if (r[i].type == REC_BRANCH) {
            assert_true(r[i].u.br.cond >= 1 && r[i].u.br.cond <= defined);
        } else if (r[i].type == REC_INPUT && r[i].u.in.expr_id) {
            assert_true(r[i].u.in.expr_id <= defined);
        }
    }
}

static void test_inputs(void **state)
{
    assert_int_equal(sym_int("x"), 5);
    expr *x = __sym_get_ret(5, 32);
    assert_non_null(x);
    assert_int_equal(x->op, EXPR_SYMBOL);
    assert_int_equal(x->width, 32);
    assert_int_equal(x->aux, 0);

    assert_int_equal(__VERIFIER_nondet_uchar(), 0xff); /* masked to the width */
    expr *c = __sym_get_ret(0xff, 8);
    assert_non_null(c);
    assert_int_equal(c->width, 8);
    assert_int_equal(c->aux, 1);

    assert_true(sym_bool("a_rather_long_input_name_of_more_than_24_bytes"));
    expr *b = __sym_get_ret(1, 1);
    assert_non_null(b);
    assert_int_equal(b->width, 1);
    assert_int_equal(b->aux, 2);

    assert_true(__VERIFIER_nondet_double() == 3.0); /* symbolic: its IEEE bit pattern */
    expr *d = __sym_get_ret(0x4008000000000000ull, 64);
    assert_non_null(d);
    assert_int_equal(d->op, EXPR_SYMBOL);
    assert_int_equal(d->width, 64);
    assert_int_equal(d->aux, 3);
    assert_int_equal(__VERIFIER_nondet_int(), 0); /* past the vector: 0, still symbolic */
    assert_int_equal(__sym_get_ret(0, 32)->aux, 4);

    trace_header *h = rt_test_header();
    assert_int_equal(h->inputs_read, 5);
    assert_int_equal(h->conc[CONC_FLOAT], 0);
    const trace_rec *r = rt_test_records();
    /* e(x) in(x) name(x) e(c) in(c) e(b) in(b) name name e(d) in(double) e in */
    assert_int_equal(h->nrecs, 13);
    assert_int_equal(r[0].type, REC_EXPR);
    assert_int_equal(r[0].u.e.op, EXPR_SYMBOL);
    assert_int_equal(r[1].type, REC_INPUT);
    assert_int_equal(r[1].u.in.itype, IT_INT);
    assert_int_equal(r[1].u.in.width, 32);
    assert_int_equal(r[1].u.in.index, 0);
    assert_int_equal(r[1].u.in.expr_id, r[0].u.e.id);
    assert_int_equal(r[1].u.in.value, 5);
    assert_int_equal(r[2].type, REC_NAME);
    assert_string_equal(r[2].u.name.text, "x");
    assert_int_equal(r[4].u.in.itype, IT_UCHAR);
    assert_int_equal(r[6].u.in.itype, IT_BOOL);
    assert_int_equal(r[6].u.in.width, 1);
    char name[80] = "";
    for (int i = 7; i < 9; i++) { /* 46 characters and the NUL: two chunks */
        assert_int_equal(r[i].type, REC_NAME);
        strncat(name, r[i].u.name.text, 24);
    }
    assert_string_equal(name, "a_rather_long_input_name_of_more_than_24_bytes");
    assert_int_equal(r[8].u.name.text[22], 0);
    assert_int_equal(r[9].type, REC_EXPR);
    assert_int_equal(r[10].type, REC_INPUT);
    assert_int_equal(r[10].u.in.itype, IT_DOUBLE);
    assert_int_equal(r[10].u.in.expr_id, r[9].u.e.id);
    assert_int_equal(r[10].u.in.value, 0x4008000000000000ull);
    assert_int_equal(r[12].u.in.index, 4);
    check_kids_first();
}

static void test_sym_bytes(void **state)
{
    unsigned char buf[3];
    sym_bytes(buf, 3, "buf");
    assert_int_equal(buf[0], 5);
    assert_int_equal(buf[1], 0xff);
    expr *w = __sym_load(buf, 2, NULL);
    assert_non_null(w);
    assert_int_equal(w->op, EXPR_CONCAT);
    assert_int_equal(w->value, 0xff05);
    assert_int_equal(rt_test_header()->inputs_read, 3);
}

static void test_branch_records(void **state)
{
    int v = sym_int("x");
    expr *x = __sym_get_ret((uint32_t)v, 32);
    uint64_t before = rt_test_header()->nrecs;
    expr *y = __sym_binop(EXPR_ADD, 32, x, 5, NULL, 3);
    expr *c = __sym_icmp(PRED_SLT, 32, y, 8, NULL, 10);
    assert_non_null(c);
    assert_int_equal(c->width, 1);
    assert_int_equal(c->value, 1);
    __sym_branch(7, 4, 1, c);
    assert_int_equal(__sym_cov[5], 1);
    assert_int_equal(__sym_cov[4], 0);
    assert_int_equal(rt_test_header()->last_site, 7);
    const trace_rec *r = rt_test_records();
    uint64_t n = rt_test_header()->nrecs;
    assert_true(n > before + 1);
    const trace_rec *br = &r[n - 1];
    assert_int_equal(br->type, REC_BRANCH);
    assert_int_equal(br->u.br.kind, BK_BRANCH);
    assert_int_equal(br->u.br.site, 7);
    assert_int_equal(br->u.br.taken, 1);
    assert_int_equal(br->u.br.arg, 4);
    assert_int_equal(br->u.br.cond, c->mark);
    assert_int_equal(r[n - 2].type, REC_EXPR); /* the condition itself, right before */
    assert_int_equal(r[n - 2].u.e.id, c->mark);
    check_kids_first();
    /* a second branch on the same condition writes no expression again */
    __sym_branch(7, 4, 1, c);
    assert_int_equal(rt_test_header()->nrecs, n + 1);
    /* concrete branch: coverage only */
    __sym_branch(8, 10, 0, NULL);
    assert_int_equal(__sym_cov[10], 1);
    assert_int_equal(rt_test_header()->nrecs, n + 1);
}

static void test_switch_records(void **state)
{
    int v = sym_int("x"); /* 5 */
    expr *x = __sym_get_ret((uint32_t)v, 32);
    uint64_t cases[] = {1, 5, 9};
    uint32_t slots[] = {20, 21, 22};
    uint64_t n0 = rt_test_header()->nrecs;
    __sym_switch(3, 32, 5, x, cases, slots, 3, 23);
    assert_int_equal(__sym_cov[21], 1);
    const trace_rec *r = rt_test_records();
    int events = 0;
    for (uint64_t i = n0; i < rt_test_header()->nrecs; i++)
        if (r[i].type == REC_BRANCH) {
            assert_int_equal(r[i].u.br.kind, BK_SWITCH);
            assert_int_equal(r[i].u.br.taken, events == 1);
            assert_int_equal(r[i].u.br.arg, slots[events]);
            events++;
        }
    assert_int_equal(events, 2);
    __sym_switch(3, 32, 77, NULL, cases, slots, 3, 23);
    assert_int_equal(__sym_cov[23], 1);
}

static int count_checks(uint64_t from, int arg)
{
    const trace_rec *r = rt_test_records();
    int n = 0;
    for (uint64_t i = from; i < rt_test_header()->nrecs; i++)
        if (r[i].type == REC_BRANCH && r[i].u.br.kind == BK_CHECK && r[i].u.br.arg == (uint32_t)arg) n++;
    return n;
}

static void test_division_checks(void **state)
{
    int v = sym_int("d");
    expr *d = __sym_get_ret((uint32_t)v, 32);
    uint64_t n0 = rt_test_header()->nrecs;
    expr *q = __sym_binop(EXPR_UDIV, 32, NULL, 100, d, 5);
    assert_int_equal(q->value, 20);
    assert_int_equal(count_checks(n0, 0), 1);
    assert_int_equal(count_checks(n0, 1), 0);
    const trace_rec *r = rt_test_records();
    assert_int_equal(r[rt_test_header()->nrecs - 1].u.br.taken, 0);
    /* signed: the overflow check appears when INT_MIN / -1 is possible */
    n0 = rt_test_header()->nrecs;
    __sym_binop(EXPR_SREM, 32, d, 5, d, 5);
    assert_int_equal(count_checks(n0, 0), 1);
    assert_int_equal(count_checks(n0, 1), 1);
    /* a constant dividend that is not INT_MIN: no overflow check */
    n0 = rt_test_header()->nrecs;
    __sym_binop(EXPR_SDIV, 32, NULL, 100, d, 5);
    assert_int_equal(count_checks(n0, 1), 0);
    /* a concrete non-zero divisor: no check at all */
    n0 = rt_test_header()->nrecs;
    __sym_binop(EXPR_UDIV, 32, d, 5, NULL, 3);
    assert_int_equal(count_checks(n0, 0), 0);
}

static void test_param_staleness(void **state)
{
    int v = sym_int("x");
    expr *x = __sym_get_ret((uint32_t)v, 32);
    __sym_set_param(0, x);
    assert_ptr_equal(__sym_get_param(0, 5, 32), x);
    assert_null(__sym_get_param(0, 6, 32));
    assert_null(__sym_get_param(64, 5, 32));
    __sym_set_param(64, x); /* ignored */
    __sym_set_ret(x);
    assert_ptr_equal(__sym_get_ret(5, 32), x);
    assert_null(__sym_get_ret(4, 32));
    __sym_set_ret(NULL);
    assert_null(__sym_get_ret(5, 32));

    /* another width than the slot's expression: resized so the value matches, never passed on as is */
    __sym_set_ret(x);
    expr *z = __sym_get_ret(5, 64);
    assert_non_null(z);
    assert_int_equal(z->width, 64);
    assert_int_equal(z->value, 5);
    expr *t = __sym_get_ret(5, 8);
    assert_non_null(t);
    assert_int_equal(t->width, 8);
    assert_null(__sym_get_ret(6, 8));
    assert_null(__sym_get_ret(0xffffffff00000005ull, 64)); /* neither zext nor sext of 5 */
    __sym_set_ret(NULL);
}

static void test_assume_records(void **state)
{
    int v = sym_int("x");
    expr *x = __sym_get_ret((uint32_t)v, 32);
    __sym_set_param(0, __sym_icmp(PRED_SGT, 32, x, 5, NULL, 0)
                           ? __sym_cast(EXPR_ZEXT, 1, 32, __sym_icmp(PRED_SGT, 32, x, 5, NULL, 0))
                           : NULL);
    sym_assume(1);
    const trace_rec *r = rt_test_records();
    const trace_rec *ev = &r[rt_test_header()->nrecs - 1];
    assert_int_equal(ev->type, REC_BRANCH);
    assert_int_equal(ev->u.br.kind, BK_ASSUME);
    assert_int_equal(ev->u.br.taken, 1);
}

static void test_trace_full(void **state)
{
    rt_test_setup((const uint64_t[]){1}, 1, 8, 16);
    int v = sym_int(NULL);
    expr *x = __sym_get_ret((uint32_t)v, 32);
    int went_concrete = 0;
    for (unsigned i = 0; i < 20; i++) {
        expr *c = __sym_icmp(PRED_EQ, 32, x, 1, NULL, i);
        if (!c) { /* once the trace is full, the run goes concrete */
            went_concrete = 1;
            __sym_branch(1, 0, i == 1, NULL);
            continue;
        }
        __sym_branch(1, 0, c->value, c);
    }
    assert_true(went_concrete);
    assert_null(__sym_binop(EXPR_ADD, 32, x, 1, x, 1));
    trace_header *h = rt_test_header();
    assert_int_equal(h->nrecs, 7); /* the last slot is kept for the end */
    assert_true(h->dropped > 0);
    assert_int_equal(h->conc[CONC_TRACE_FULL], h->dropped);
    rt_end_run(3);
    assert_int_equal(h->nrecs, 8);
    assert_int_equal(rt_test_records()[7].type, REC_END);
    assert_int_equal(rt_test_records()[7].u.end.status, 3);
    assert_int_equal(h->ended, 1);
    rt_end_run(4); /* once only */
    assert_int_equal(h->nrecs, 8);
}

static void test_deep_expression(void **state)
{
    rt_test_setup((const uint64_t[]){1}, 1, 1u << 20, 16);
    int v = sym_int(NULL);
    expr *x = __sym_get_ret((uint32_t)v, 32), *acc = x;
    uint64_t val = 1;
    for (unsigned i = 0; i < 100000; i++) {
        acc = __sym_binop(EXPR_MUL, 32, acc, val, x, 1);
        acc = __sym_binop(EXPR_ADD, 32, acc, val, NULL, i);
        val = acc->value;
    }
    expr *c = __sym_icmp(PRED_EQ, 32, acc, val, NULL, 0);
    __sym_branch(1, 0, c->value, c);
    assert_int_equal(rt_test_records()[rt_test_header()->nrecs - 1].type, REC_BRANCH);
    check_kids_first();
}

/* Each intrinsic's expression, evaluated on several inputs, against a C reference. */
static uint64_t ref_intrinsic(unsigned which, unsigned w, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = expr_mask(w), r = 0;
    int64_t sa = expr_sext64(a, w), sb = expr_sext64(b, w);
    int64_t smin = expr_sext64(1ull << (w - 1), w), smax = (int64_t)(m >> 1);
    switch (which) {
    case SYM_I_BSWAP:
        for (unsigned i = 0; i < w / 8; i++) r |= ((a >> (8 * i)) & 0xff) << (w - 8 - 8 * i);
        break;
    case SYM_I_CTPOP: r = __builtin_popcountll(a); break;
    case SYM_I_CTLZ: r = a ? (uint64_t)(__builtin_clzll(a) - (64 - w)) : w; break;
    case SYM_I_CTTZ: r = a ? (uint64_t)__builtin_ctzll(a) : w; break;
    case SYM_I_BITREVERSE:
        for (unsigned i = 0; i < w; i++) r |= ((a >> i) & 1) << (w - 1 - i);
        break;
    case SYM_I_ABS: r = sa < 0 ? 0 - (uint64_t)sa : (uint64_t)sa; break;
    case SYM_I_SMIN: r = sa < sb ? a : b; break;
    case SYM_I_SMAX: r = sa < sb ? b : a; break;
    case SYM_I_UMIN: r = a < b ? a : b; break;
    case SYM_I_UMAX: r = a < b ? b : a; break;
    case SYM_I_FSHL: {
        unsigned s = c % w;
        r = s ? (a << s) | (b >> (w - s)) : a;
        break;
    }
    case SYM_I_FSHR: {
        unsigned s = c % w;
        r = s ? (b >> s) | (a << (w - s)) : b;
        break;
    }
    case SYM_I_UADD_SAT: r = (unsigned __int128)a + b > m ? m : a + b; break;
    case SYM_I_USUB_SAT: r = a < b ? 0 : a - b; break;
    case SYM_I_SADD_SAT: {
        __int128 s = (__int128)sa + sb;
        r = s > smax ? (uint64_t)smax : s < smin ? (uint64_t)smin : (uint64_t)s;
        break;
    }
    case SYM_I_SSUB_SAT: {
        __int128 s = (__int128)sa - sb;
        r = s > smax ? (uint64_t)smax : s < smin ? (uint64_t)smin : (uint64_t)s;
        break;
    }
    }
    return r & m;
}

static void test_intrinsics(void **state)
{
    static const uint64_t vals[] = {
        0,      1,          2,      3,           0x80,       0x7f,        0xff,
        0x1234, 0x8000,     0xffff, 0x80000000u, 0x7fffffff, 0xffffffffu, 0x123456789abcdef0ull,
        ~0ull,  1ull << 63, 17,     31,          33};
    const unsigned nv = sizeof vals / sizeof vals[0];
    static const unsigned widths[] = {8, 16, 32, 64};
    expr_ctx *cx = rt_cx();
    for (unsigned wi = 0; wi < 4; wi++) {
        unsigned w = widths[wi];
        expr *A = expr_symbol(cx, 0, w, 3), *B = expr_symbol(cx, 1, w, 5), *C = expr_symbol(cx, 2, w, 7);
        for (unsigned which = 0; which < SYM_I_COUNT; which++) {
            if (which == SYM_I_BSWAP && w < 16) continue;
            expr *e = __sym_intrinsic(which, w, A, 3, B, 5, C, 7);
            for (unsigned i = 0; i < nv; i++)
                for (unsigned j = 0; j < nv; j += 3) {
                    uint64_t in[3] = {vals[i] & expr_mask(w), vals[j] & expr_mask(w),
                                      vals[(i + j) % nv] & expr_mask(w)};
                    uint64_t want = ref_intrinsic(which, w, in[0], in[1], in[2]);
                    uint64_t got = e ? expr_eval(e, in, 3) : 0;
                    if (got != want)
                        fail_msg("intrinsic %u width %u on %llx %llx %llx: got %llx want %llx", which, w,
                                 (unsigned long long)in[0], (unsigned long long)in[1], (unsigned long long)in[2],
                                 (unsigned long long)got, (unsigned long long)want);
                }
        }
    }
}

static void test_casts_select_ptr(void **state)
{
    expr_ctx *cx = rt_cx();
    expr *x = expr_symbol(cx, 0, 32, 0xfffffffe);
    expr *t = __sym_cast(EXPR_EXTRACT, 32, 8, x);
    assert_int_equal(t->width, 8);
    assert_int_equal(t->value, 0xfe);
    assert_int_equal(__sym_cast(EXPR_SEXT, 32, 64, x)->value, 0xfffffffffffffffeull);
    assert_int_equal(__sym_cast(EXPR_ZEXT, 32, 64, x)->value, 0xfffffffeull);
    assert_null(__sym_cast(EXPR_ZEXT, 32, 64, NULL));
    /* select with a concrete condition picks the operand's shadow */
    assert_ptr_equal(__sym_select(32, NULL, 1, x, 0xfffffffe, NULL, 3), x);
    assert_null(__sym_select(32, NULL, 0, x, 0xfffffffe, NULL, 3));
    expr *c = __sym_icmp(PRED_ULT, 32, x, 0xfffffffe, NULL, 10);
    expr *s = __sym_select(32, c, 0, NULL, 1, NULL, 2);
    assert_non_null(s);
    assert_int_equal(s->value, 2);
    /* pointer arithmetic: base + sext(idx) * 4 */
    expr *i = expr_symbol(cx, 1, 32, 0xffffffff); /* -1 */
    expr *p = __sym_ptr_add(NULL, 0x1000, i, 0xffffffff, 32, 4);
    assert_int_equal(p->width, 64);
    assert_int_equal(p->value, 0xffc);
    assert_null(__sym_ptr_add(NULL, 0x1000, NULL, 8, 64, 1));
    /* overflow flag */
    expr *o = __sym_overflow(EXPR_UADDO, 32, x, 0xfffffffe, NULL, 5);
    assert_int_equal(o->width, 1);
    assert_int_equal(o->value, 1);
    /* concretization counting */
    __sym_concretize(CONC_EXTERNAL_CALL, x);
    __sym_concretize(CONC_EXTERNAL_CALL, NULL);
    assert_int_equal(rt_test_header()->conc[CONC_EXTERNAL_CALL], 1);
}

/* fork() in the program: the parent counts it; the child writes neither trace nor coverage. */
static void test_fork(void **state)
{
    int v = sym_int(NULL);
    expr *x = __sym_get_ret((uint32_t)v, 32);
    uint64_t n0 = rt_test_header()->nrecs;
    int pid = __sym_fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        __sym_branch(1, 0, 1, __sym_icmp(PRED_EQ, 32, x, 5, NULL, 5));
        int ok = rt.trace_off && __sym_cov_cap == 0 && rt_test_header()->nrecs == n0;
        _exit(ok ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(rt_test_header()->forks, 1);
    assert_int_equal(rt.trace_off, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_inputs, setup),           cmocka_unit_test_setup(test_sym_bytes, setup),
        cmocka_unit_test_setup(test_branch_records, setup),   cmocka_unit_test_setup(test_switch_records, setup),
        cmocka_unit_test_setup(test_division_checks, setup),  cmocka_unit_test_setup(test_param_staleness, setup),
        cmocka_unit_test_setup(test_assume_records, setup),   cmocka_unit_test_setup(test_trace_full, setup),
        cmocka_unit_test_setup(test_deep_expression, setup),  cmocka_unit_test_setup(test_intrinsics, setup),
        cmocka_unit_test_setup(test_casts_select_ptr, setup), cmocka_unit_test_setup(test_fork, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
