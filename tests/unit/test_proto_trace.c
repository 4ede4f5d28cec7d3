/* test_proto_trace.c: the trace ABI (proto/trace.h) round-trips: records written by the runtime's writer are read back by the explorer's trace_read unchanged. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sympath.h"
#include "proto/trace.h"
#include "runtime/core/rt_internal.h"
#include "runtime/core/rt_fast.c" /* the inline fast paths, normally linked as bitcode */
#include "explore/trace_read.h"

unsigned char __VERIFIER_nondet_uchar(void);
double __VERIFIER_nondet_double(void);

/*
 * The writer (src/runtime/core: rt_trace.c, rt_input.c, rt_main.c) and the reader
 * (src/explore/trace_read.c) live in different processes and only meet in the region's
 * layout. Each test here drives the runtime as instrumented code would, then decodes the
 * runtime's own region with trace_read into a fresh expression context, and checks that
 * what was written is what is read: inputs (value, type, width, name), events (kind,
 * site, direction, argument) and every condition's expression DAG node by node.
 */

static expr_ctx *cx;

static int setup(void **state)
{
    static const uint64_t in[] = {5, 0x41, 0x4008000000000000ull /* 3.0 */, 7};
    rt_test_setup(in, 4, 4096, 64);
    cx = expr_ctx_new();
    return cx ? 0 : -1;
}

static int teardown(void **state)
{
    expr_ctx_free(cx);
    return 0;
}

/* The same expression in the runtime's context (w) and the explorer's (r): same
 * operator, width, aux, concrete value and kids, recursively. */
static void same_expr(const expr *w, const expr *r)
{
    assert_non_null(w);
    assert_non_null(r);
    assert_int_equal(w->op, r->op);
    assert_int_equal(w->width, r->width);
    assert_int_equal(w->aux, r->aux);
    assert_int_equal(w->value, r->value);
    assert_int_equal(w->nkids, r->nkids);
    for (int k = 0; k < w->nkids; k++) same_expr(w->kid[k], r->kid[k]);
}

/* Decode the runtime's current region into *out (asserting success). */
static void read_back(run_result *out)
{
    char *err = NULL;
    memset(out, 0, sizeof *out);
    trace_header *h = rt_test_header();
    int rc = trace_read(h, h, cx, out, &err);
    if (rc) fprintf(stderr, "trace_read: %s\n", err ? err : "?");
    assert_int_equal(rc, 0);
    assert_null(err);
}

static void test_inputs_round_trip(void **state)
{
    assert_int_equal(sym_int("count"), 5);
    assert_int_equal(__VERIFIER_nondet_uchar(), 0x41);
    assert_true(__VERIFIER_nondet_double() == 3.0);
    rt_end_run(0);

    run_result r;
    read_back(&r);
    assert_int_equal(r.ninputs, 3);
    assert_int_equal(r.inputs[0], 5);
    assert_int_equal(r.itypes[0], IT_INT);
    assert_int_equal(r.iwidths[0], 32);
    assert_non_null(r.inames[0]);
    assert_string_equal(r.inames[0], "count");
    assert_int_equal(r.inputs[1], 0x41);
    assert_int_equal(r.itypes[1], IT_UCHAR);
    assert_int_equal(r.iwidths[1], 8);
    assert_int_equal(r.inputs[2], 0x4008000000000000ull);
    assert_int_equal(r.itypes[2], IT_DOUBLE);
    assert_int_equal(r.iwidths[2], 64);
    assert_true(r.ended);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(r.error, ERR_NONE);
    assert_int_equal(r.nevents, 0);
    run_result_clear(&r);
}

static void test_events_round_trip(void **state)
{
    int v = sym_int("x"); /* 5 */
    expr *x = __sym_get_ret((uint32_t)v, 32);
    expr *y = __sym_binop(EXPR_ADD, 32, x, 5, NULL, 3);
    expr *c = __sym_icmp(PRED_SLT, 32, y, 8, NULL, 10);
    assert_non_null(c);
    assert_int_equal(c->value, 1);
    __sym_branch(7, 4, (unsigned)c->value, c);
    uint64_t cases[] = {1, 5, 9};
    uint32_t slots[] = {20, 21, 22};
    __sym_switch(3, 32, 5, x, cases, slots, 3, 23); /* case 1 not taken, case 5 taken */
    rt_end_run(3);

    /* what the writer put in the area, in order */
    const trace_rec *w = rt_test_records();
    uint64_t nw = rt_test_header()->nrecs;
    const trace_rec *wev[8];
    int nwev = 0;
    for (uint64_t i = 0; i < nw; i++)
        if (w[i].type == REC_BRANCH) {
            assert_true(nwev < 8);
            wev[nwev++] = &w[i];
        }
    assert_int_equal(nwev, 3);

    run_result r;
    read_back(&r);
    assert_int_equal(r.ninputs, 1);
    assert_string_equal(r.inames[0], "x");
    assert_int_equal(r.nevents, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r.events[i].kind, wev[i]->u.br.kind);
        assert_int_equal(r.events[i].site, wev[i]->u.br.site);
        assert_int_equal(r.events[i].taken, wev[i]->u.br.taken);
        assert_int_equal(r.events[i].arg, wev[i]->u.br.arg);
        assert_int_equal(r.events[i].cond->width, 1);
    }
    assert_int_equal(r.events[0].kind, BK_BRANCH);
    assert_int_equal(r.events[0].site, 7);
    assert_int_equal(r.events[0].taken, 1);
    assert_int_equal(r.events[0].arg, 4);
    same_expr(c, r.events[0].cond);
    assert_int_equal(r.events[1].kind, BK_SWITCH);
    assert_int_equal(r.events[1].taken, 0);
    assert_int_equal(r.events[1].arg, 20);
    assert_int_equal(r.events[2].kind, BK_SWITCH);
    assert_int_equal(r.events[2].taken, 1);
    assert_int_equal(r.events[2].arg, 21);
    assert_true(r.ended);
    assert_int_equal(r.exit_code, 3);
    assert_int_equal(r.last_site, 3); /* the switch ran last */
    assert_int_equal(r.last_site, rt_test_header()->last_site);
    run_result_clear(&r);
}

static void test_error_round_trip(void **state)
{
    (void)sym_int("x");
    rt_record_error(ERR_ASSERT, 12, 0, 0);
    run_result r;
    read_back(&r);
    assert_int_equal(r.error, ERR_ASSERT);
    assert_int_equal(r.error_loc, 12);
    assert_int_equal(r.ninputs, 1);
    run_result_clear(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_inputs_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_events_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_round_trip, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
