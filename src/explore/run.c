/* run.c: ownership helpers for run results and reference-counted input vectors. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

input_vec *input_vec_new(const uint64_t *values, uint32_t n)
{
    input_vec *v = malloc(sizeof *v);
    if (!v) return NULL;
    v->refs = 1;
    v->n = n;
    v->values = NULL;
    if (n) {
        v->values = malloc((size_t)n * sizeof *v->values);
        if (!v->values) {
            free(v);
            return NULL;
        }
        if (values)
            memcpy(v->values, values, (size_t)n * sizeof *v->values);
        else
            memset(v->values, 0, (size_t)n * sizeof *v->values);
    }
    return v;
}

input_vec *input_vec_retain(input_vec *v)
{
    if (v) v->refs++;
    return v;
}

void input_vec_release(input_vec *v)
{
    if (!v || --v->refs > 0) return;
    free(v->values);
    free(v);
}

int run_result_copy(run_result *dst, const run_result *src)
{
    *dst = *src; /* the scalars; the arrays copied below */
    uint32_t n = src->ninputs;
    dst->inputs = malloc((n + 1) * sizeof *dst->inputs);
    dst->itypes = malloc(n + 1);
    dst->iwidths = malloc(n + 1);
    dst->inames = calloc(n + 1, sizeof *dst->inames);
    dst->events = malloc(((size_t)src->nevents + 1) * sizeof *dst->events);
    bool ok = dst->inputs && dst->itypes && dst->iwidths && dst->inames && dst->events;
    if (ok && n) {
        memcpy(dst->inputs, src->inputs, n * sizeof *dst->inputs);
        memcpy(dst->itypes, src->itypes, n);
        memcpy(dst->iwidths, src->iwidths, n);
    }
    if (ok && src->nevents) memcpy(dst->events, src->events, (size_t)src->nevents * sizeof *dst->events);
    if (ok) {
        for (uint32_t i = 0; ok && i < n; i++)
            if (src->inames && src->inames[i] && !(dst->inames[i] = strdup(src->inames[i]))) ok = false;
    }
    if (!ok) run_result_clear(dst);
    return ok ? 0 : -1;
}

void run_result_clear(run_result *r)
{
    if (!r) return;
    if (r->inames)
        for (uint32_t i = 0; i < r->ninputs; i++) free(r->inames[i]);
    free(r->inputs);
    free(r->itypes);
    free(r->iwidths);
    free(r->inames);
    free(r->events);
    memset(r, 0, sizeof *r);
}
