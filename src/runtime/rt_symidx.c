/* rt_symidx.c: loads through a symbolic address become a select over the neighbouring elements instead of a pinned address. */
#include <stdint.h>
#include "rt_internal.h"

/*
 * A load a[i] with symbolic i reaches the runtime as a load through the address
 * expression A = &a[0] + i*size whose concrete value is addr. Pinning A == addr (the
 * fallback) makes the loaded value concrete, so a later branch on it is not symbolic and
 * the explorer can only enumerate i one run at a time. Instead the value becomes
 *
 *     ite(A == p0, m[p0], ite(A == p1, m[p1], ... m[pn]))
 *
 * over the element positions p0 < ... < pn (stride = access size) around addr, and the
 * run records the assumption p0 <= A <= pn && A == addr (mod size) as a BK_CONCRETIZE
 * node: its other side, an address outside the window, is a candidate like any other, and
 * that run builds its own window there. This is the "small object" version of array
 * theory (KLEE resolves a symbolic pointer to its object and reads it as an array).
 *
 * The runtime does not know object bounds, so the window stays inside the 4 KiB page of
 * addr: every position read is mapped memory. Positions past the object's end hold
 * whatever lies there; the program's own bounds checks (part of the path condition)
 * normally exclude them, and any value read is the real value at that address in this run.
 */
#define SYMIDX_WINDOW 32   /* elements on each side of the concrete address */
#define PAGE_SIZE_BYTES 4096u

expr *rt_symbolic_read(const void *addr, uint64_t size, expr *addr_e)
{
    uintptr_t a = (uintptr_t)addr;
    if (size == 0 || size > 8 || (size & (size - 1)) || addr_e->width != 64 || addr_e->value != a)
        return NULL;
    uintptr_t page = a & ~(uintptr_t)(PAGE_SIZE_BYTES - 1);
    if (a + size > page + PAGE_SIZE_BYTES)
        return NULL;   /* straddles a page: keep it simple, pin */
    uintptr_t lo = a, hi = a;
    for (unsigned k = 0; k < SYMIDX_WINDOW && lo >= page + size; k++)
        lo -= size;
    for (unsigned k = 0; k < SYMIDX_WINDOW && hi + 2 * size <= page + PAGE_SIZE_BYTES; k++)
        hi += size;
    if (lo == hi)
        return NULL;

    expr_ctx *cx = rt_cx();
    unsigned w = 8 * (unsigned)size;
    expr *acc = rt_shadow_load((const void *)hi, size);
    for (uintptr_t p = hi; p > lo;) {
        p -= size;
        expr *here = expr_cmp(cx, PRED_EQ, addr_e, expr_const(cx, p, 64));
        acc = expr_ite(cx, here, rt_shadow_load((const void *)p, size), acc);
    }
    (void)w;

    /* the window this value is exact for */
    expr *in = expr_and1(cx, expr_cmp(cx, PRED_ULE, expr_const(cx, lo, 64), addr_e),
                         expr_cmp(cx, PRED_ULE, addr_e, expr_const(cx, hi, 64)));
    if (size > 1) {
        expr *mask = expr_const(cx, size - 1, 64);
        in = expr_and1(cx, in, expr_cmp(cx, PRED_EQ, expr_binary(cx, EXPR_AND, addr_e, mask),
                                        expr_const(cx, a & (size - 1), 64)));
    }
    rt_count_conc(CONC_SYM_POINTER);
    if (in->op != EXPR_CONST)
        rt_trace_event(BK_CONCRETIZE, 0, 1, in, CONC_SYM_POINTER);
    return acc;
}
