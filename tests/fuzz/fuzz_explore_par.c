/* fuzz_explore_par.c: libFuzzer target: a job's path condition and a worker's figures as received, on any bytes: no crash, and a condition that is accepted is written and read back as the same nodes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explore/par_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    expr_ctx *cx = expr_ctx_new();
    if (!cx) return 0;
    par_msg m = {0, (uint8_t *)data, size, size, 0, 0}; /* read only: par_get_* never write */
    expr **roots = NULL;
    size_t n = par_get_exprs(&m, cx, &roots);
    if (n) {
        par_msg w;
        par_msg_init(&w, 0);
        par_put_exprs(&w, roots, n);
        if (!w.bad) { /* (bad only when out of memory) */
            expr **again = NULL;
            size_t n2 = par_get_exprs(&w, cx, &again);
            if (n2 != n) abort();
            for (size_t i = 0; i < n; i++)
                if (again[i] != roots[i]) abort(); /* nodes are interned: the same DAG gives the same nodes */
            free(again);
        }
        par_msg_free(&w);
    }
    free(roots);
    par_msg f = {0, (uint8_t *)data, size, size, 0, 0};
    par_figures fig;
    (void)par_figures_get(&f, &fig);
    expr_ctx_free(cx);
    return 0;
}
