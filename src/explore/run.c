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
