/* trace_test_util.h: writing trace records into a region by hand, as the runtime does (for the explore tests). */
#ifndef SYMPATH_TRACE_TEST_UTIL_H
#define SYMPATH_TRACE_TEST_UTIL_H

#include <stdint.h>
#include <string.h>
#include "proto/trace.h"

/* Append one record and publish it (release order, as the runtime does). */
static void emit(trace_header *h, trace_rec *recs, const trace_rec *r)
{
    uint64_t n = h->nrecs;
    if (n >= h->recs_cap) {
        h->dropped++;
        return;
    }
    recs[n] = *r;
    __atomic_store_n(&h->nrecs, n + 1, __ATOMIC_RELEASE);
}

static void emit_expr(trace_header *h, trace_rec *recs, unsigned op, unsigned width, uint32_t id, uint32_t k0,
                      uint32_t k1, uint32_t aux, uint64_t value)
{
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_EXPR;
    r.u.e.op = (uint8_t)op;
    r.u.e.width = (uint8_t)width;
    r.u.e.id = id;
    r.u.e.kid[0] = k0;
    r.u.e.kid[1] = k1;
    r.u.e.aux = aux;
    r.u.e.value = value;
    emit(h, recs, &r);
}

#endif
