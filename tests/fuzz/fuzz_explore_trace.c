/* fuzz_explore_trace.c (links sympath_explore): trace_read on arbitrary trace records, then every branch condition evaluated. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explore/trace_read.h"

/*
 * The input is the record area of a region: its bytes, cut to whole 40-byte records,
 * follow a valid header (magic, version, offsets) whose count of published records is
 * every record. The header checks themselves are a few comparisons, covered by
 * test_explore_executor; the fuzzer spends its time on records. An input index from
 * 4096 up to twice the largest gap trace_read fills with zeros (2^20) is reduced modulo
 * 4096: a gap of a million inputs is legal but costs milliseconds, and a fuzzer that
 * finds it would do little else (indexes beyond still reach the "gap" error). Seeds
 * (tests/fuzz/corpus/fuzz_explore_trace) are record areas of real executor runs,
 * written by tests/fuzz/make_corpus.sh.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t nrecs = size / sizeof(trace_rec);
    size_t total = TRACE_HEADER_SIZE + nrecs * sizeof(trace_rec);
    unsigned char *mem = calloc(1, total);
    if (!mem) return 0;
    trace_header *h = (trace_header *)mem;
    h->magic = TRACE_MAGIC;
    h->version = 1;
    h->total_size = total;
    h->inputs_off = h->cov_off = h->recs_off = TRACE_HEADER_SIZE;
    h->recs_cap = nrecs;
    h->nrecs = nrecs;
    memcpy(mem + TRACE_HEADER_SIZE, data, nrecs * sizeof(trace_rec));
    trace_rec *recs = (trace_rec *)(mem + TRACE_HEADER_SIZE);
    for (size_t i = 0; i < nrecs; i++)
        if (recs[i].type == REC_INPUT && recs[i].u.in.index >= 4096 && recs[i].u.in.index < (2u << 20))
            recs[i].u.in.index %= 4096;

    expr_ctx *cx = expr_ctx_new();
    run_result out;
    char *err = NULL;
    int rc = trace_read(h, mem, cx, &out, &err);
    if (rc != 0 && !err) abort(); /* a failure always comes with its message (unless out of memory) */
    /* what the explorer does next: evaluate the conditions under the run's inputs */
    for (uint32_t i = 0; i < out.nevents; i++)
        if (expr_eval(out.events[i].cond, out.inputs, out.ninputs) > 1) abort(); /* a branch condition has width 1 */
    free(err);
    run_result_clear(&out);
    expr_ctx_free(cx);
    free(mem);
    return 0;
}
