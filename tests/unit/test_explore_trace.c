/* test_explore_trace.c: trace_read on hand-made regions (inputs, names, errors, malformed traces, header checks, a million records) and input vectors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explore/run.h"
#include "explore/trace_read.h"
#include "trace_test_util.h"
#include "util/util.h"

static expr_ctx *cx;

static int setup(void **state)
{
    cx = expr_ctx_new();
    return cx ? 0 : -1;
}

static int teardown(void **state)
{
    expr_ctx_free(cx);
    return 0;
}

#define T_RECS 64
typedef struct fake_region {
    trace_header *h;
    trace_rec *recs;
    unsigned char *mem;
} fake_region;

static void region_init(fake_region *fr, uint64_t recs_cap)
{
    size_t size = TRACE_HEADER_SIZE + recs_cap * sizeof(trace_rec);
    fr->mem = calloc(1, size);
    assert_non_null(fr->mem);
    fr->h = (trace_header *)fr->mem;
    fr->h->magic = TRACE_MAGIC;
    fr->h->version = 1;
    fr->h->total_size = size;
    fr->h->inputs_off = fr->h->cov_off = fr->h->recs_off = TRACE_HEADER_SIZE;
    fr->h->recs_cap = recs_cap;
    fr->recs = (trace_rec *)(fr->mem + TRACE_HEADER_SIZE);
}

static void put(fake_region *fr, const trace_rec *r) { emit(fr->h, fr->recs, r); }

static void put_expr(fake_region *fr, unsigned op, unsigned width, uint32_t id, uint32_t k0, uint32_t k1,
                     uint64_t value)
{
    emit_expr(fr->h, fr->recs, op, width, id, k0, k1, 0, value);
}

static void put_input(fake_region *fr, uint32_t index, unsigned width, uint64_t value)
{
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_INPUT;
    r.u.in.itype = IT_UCHAR;
    r.u.in.width = (uint8_t)width;
    r.u.in.index = index;
    r.u.in.value = value;
    put(fr, &r);
}

static void put_branch(fake_region *fr, uint32_t cond, unsigned taken)
{
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_BRANCH;
    r.u.br.kind = BK_BRANCH;
    r.u.br.taken = (uint8_t)taken;
    r.u.br.site = 3;
    r.u.br.cond = cond;
    put(fr, &r);
}

static void put_end(fake_region *fr, int32_t status)
{
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_END;
    r.u.end.status = status;
    put(fr, &r);
}

static void test_trace_inputs_and_names(void **state)
{
    fake_region fr;
    region_init(&fr, T_RECS);
    put_input(&fr, 0, 8, 0x1ff); /* masked to 8 bits */
    put_input(&fr, 3, 16, 7);    /* gap: inputs 1 and 2 read as 0 */
    trace_rec r;
    for (int i = 0; i < 12; i++) { /* 12 * 24 = 288 bytes: capped at 255 */
        memset(&r, 0, sizeof r);
        r.type = REC_NAME;
        memset(r.u.name.text, 'a' + i, sizeof r.u.name.text);
        put(&fr, &r);
    }
    put_end(&fr, SYM_ASSUME_EXIT_CODE);
    run_result out;
    char *err = NULL;
    assert_int_equal(trace_read(fr.h, fr.mem, cx, &out, &err), 0);
    assert_null(err);
    assert_int_equal(out.ninputs, 4);
    assert_int_equal(out.inputs[0], 0xff);
    assert_int_equal(out.inputs[1], 0);
    assert_int_equal(out.inputs[2], 0);
    assert_int_equal(out.inputs[3], 7);
    assert_int_equal(out.iwidths[3], 16);
    assert_int_equal(out.itypes[3], IT_UCHAR);
    assert_null(out.inames[0]);
    assert_null(out.inames[1]);
    assert_non_null(out.inames[3]);
    assert_int_equal(strlen(out.inames[3]), 255);
    assert_int_equal(out.inames[3][0], 'a');
    assert_int_equal(out.inames[3][254], 'a' + 10);
    assert_true(out.ended);
    assert_int_equal(out.exit_code, SYM_ASSUME_EXIT_CODE);
    assert_true(out.assume_failed);
    run_result_clear(&out);
    free(fr.mem);
}

static void test_trace_error_record(void **state)
{
    fake_region fr;
    region_init(&fr, T_RECS);
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_ERROR;
    r.u.err.kind = ERR_ASSERT;
    r.u.err.loc = 12;
    r.u.err.signo = 0;
    r.u.err.pc = 0x1234;
    put(&fr, &r);
    put_end(&fr, SYM_ASSUME_EXIT_CODE); /* with an error this is not a failed assumption */
    fr.h->dropped = 5;
    run_result out;
    assert_int_equal(trace_read(fr.h, fr.mem, cx, &out, NULL), 0);
    assert_int_equal(out.error, ERR_ASSERT);
    assert_int_equal(out.error_loc, 12);
    assert_int_equal(out.error_pc, 0x1234);
    assert_int_equal(out.dropped, 5);
    assert_false(out.assume_failed);
    run_result_clear(&out);
    free(fr.mem);
}

/* A REC_MARK (sympath unit's harness before the call of the target) puts the events after it in
 * the target phase. */
static void test_trace_mark(void **state)
{
    (void)state;
    fake_region fr;
    region_init(&fr, T_RECS);
    put_input(&fr, 0, 8, 1);
    put_expr(&fr, EXPR_SYMBOL, 8, 1, 0, 0, 0);
    put_expr(&fr, EXPR_CONST, 8, 2, 0, 0, 5);
    put_expr(&fr, EXPR_EQ, 1, 3, 1, 2, 0);
    put_branch(&fr, 3, 0);
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_MARK;
    put(&fr, &r);
    put_branch(&fr, 3, 1);
    put_end(&fr, 0);
    run_result out;
    char *err = NULL;
    assert_int_equal(trace_read(fr.h, fr.mem, cx, &out, &err), 0);
    assert_null(err);
    assert_int_equal(out.nevents, 2);
    assert_int_equal(out.events[0].phase, 0);
    assert_int_equal(out.events[1].phase, 1);
    run_result_clear(&out);
    free(fr.mem);
}

/* Each kind of malformed record stops decoding with a message and keeps the prefix. */
static void test_trace_malformed(void **state)
{
    static const struct {
        const char *what;
        int kind;
    } cases[] = {
        {"out of order", 0},  {"defined twice", 1}, {"has width 8", 2},           {"unknown record type", 3},
        {"invalid shape", 4}, {"unknown id 5", 5},  {"input index 0 repeats", 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fake_region fr;
        region_init(&fr, T_RECS);
        put_input(&fr, 0, 8, 3);
        put_expr(&fr, EXPR_SYMBOL, 8, 1, 0, 0, 3);
        put_expr(&fr, EXPR_CONST, 8, 2, 0, 0, 9);
        put_expr(&fr, EXPR_ULT, 1, 3, 1, 2, 1);
        put_branch(&fr, 3, 1);
        trace_rec r;
        switch (cases[i].kind) {
        case 0: put_expr(&fr, EXPR_CONST, 8, 9, 0, 0, 1); break;
        case 1: put_expr(&fr, EXPR_CONST, 8, 3, 0, 0, 1); break;
        case 2: put_branch(&fr, 1, 0); break;
        case 3:
            memset(&r, 0, sizeof r);
            r.type = 77;
            put(&fr, &r);
            break;
        case 4: put_expr(&fr, EXPR_ADD, 16, 4, 1, 2, 0); break; /* kid widths 8 != 16 */
        case 5: put_branch(&fr, 5, 0); break;
        case 6: put_input(&fr, 0, 8, 1); break;
        }
        put_branch(&fr, 3, 1);
        put_end(&fr, 0);
        run_result out;
        char *err = NULL;
        assert_int_equal(trace_read(fr.h, fr.mem, cx, &out, &err), -1);
        assert_non_null(err);
        if (!strstr(err, cases[i].what)) print_error("case %zu: %s\n", i, err);
        assert_non_null(strstr(err, cases[i].what));
        free(err);
        assert_int_equal(out.nevents, 1);
        assert_int_equal(out.ninputs, 1);
        assert_int_equal(out.events[0].cond->op, EXPR_ULT);
        assert_false(out.ended);
        assert_int_equal(out.exit_code, -1);
        run_result_clear(&out);
        free(fr.mem);
    }
}

/* nrecs beyond the capacity is clamped; a corrupted header is rejected. */
static void test_trace_header_checks(void **state)
{
    fake_region fr;
    region_init(&fr, 4);
    put_expr(&fr, EXPR_SYMBOL, 1, 1, 0, 0, 0);
    put_branch(&fr, 1, 0);
    put_branch(&fr, 1, 0);
    put_branch(&fr, 1, 0);
    fr.h->nrecs = 1000;
    run_result out;
    assert_int_equal(trace_read(fr.h, fr.mem, cx, &out, NULL), 0);
    assert_int_equal(out.nevents, 3);
    run_result_clear(&out);
    fr.h->recs_cap = 1u << 30;
    char *err = NULL;
    assert_int_equal(trace_read(fr.h, fr.mem, cx, &out, &err), -1);
    assert_non_null(strstr(err, "outside the region"));
    free(err);
    run_result_clear(&out);
    fr.h->magic = 0;
    assert_int_equal(trace_read(fr.h, fr.mem, cx, &out, NULL), -1);
    run_result_clear(&out);
    free(fr.mem);
}

/* The time bound of test_trace_large: the sanitizer build (ASan, -O0) is some ten times slower. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TRACE_LARGE_SECONDS 30.0
#endif
#endif
#ifndef TRACE_LARGE_SECONDS
#define TRACE_LARGE_SECONDS 2.0
#endif

/* A trace of a million records decodes in well under a second. */
static void test_trace_large(void **state)
{
    const uint64_t n = 1000000;
    fake_region fr;
    region_init(&fr, n + 8);
    put_expr(&fr, EXPR_SYMBOL, 32, 1, 0, 0, 0);
    uint32_t id = 1;
    for (uint64_t i = 0; fr.h->nrecs + 3 <= n; i++) {
        put_expr(&fr, EXPR_CONST, 32, ++id, 0, 0, i);
        put_expr(&fr, EXPR_SLT, 1, id + 1, 1, id, 0);
        id++;
        put_branch(&fr, id, 0);
    }
    expr_ctx *big = expr_ctx_new();
    run_result out;
    double t0 = util_now_s();
    assert_int_equal(trace_read(fr.h, fr.mem, big, &out, NULL), 0);
    double took = util_now_s() - t0;
    assert_int_equal(out.nevents, (n - 1) / 3);
    assert_true(took < TRACE_LARGE_SECONDS);
    run_result_clear(&out);
    expr_ctx_free(big);
    free(fr.mem);
}

static void test_input_vec(void **state)
{
    uint64_t v[] = {1, 2, 3};
    input_vec *a = input_vec_new(v, 3);
    assert_non_null(a);
    v[0] = 9;
    assert_int_equal(a->values[0], 1);
    assert_int_equal(a->n, 3);
    assert_ptr_equal(input_vec_retain(a), a);
    assert_int_equal(a->refs, 2);
    input_vec_release(a);
    assert_int_equal(a->refs, 1);
    input_vec_release(a);
    input_vec_release(NULL);
    assert_null(input_vec_retain(NULL));
    input_vec *e = input_vec_new(NULL, 0);
    assert_non_null(e);
    input_vec_release(e);
    run_result r = {0};
    run_result_clear(&r);
    run_result_clear(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_vec),          cmocka_unit_test(test_trace_inputs_and_names),
        cmocka_unit_test(test_trace_error_record), cmocka_unit_test(test_trace_malformed),
        cmocka_unit_test(test_trace_mark),         cmocka_unit_test(test_trace_header_checks),
        cmocka_unit_test(test_trace_large),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
