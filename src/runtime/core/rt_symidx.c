/* rt_symidx.c: loads through a symbolic address become a select over the neighbouring elements instead of a pinned address. */
#include <stdint.h>
#include <stdlib.h>
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
 * Where the window lies. When addr falls inside a global object the instrumenter listed
 * (__sym_objects, src/instrument/objects.c), the window is that object: all of it when it
 * has at most SYMIDX_WHOLE_MAX elements (a lookup table such as glibc's ctype tables is
 * then read exactly, for every index), else SYMIDX_WINDOW elements on each side clipped to
 * the object. Otherwise (stack, heap) the runtime does not know object bounds, so the
 * window stays inside the 4 KiB page of addr: every position read is mapped memory.
 * Positions past the object's end hold whatever lies there; the program's own bounds
 * checks (part of the path condition) normally exclude them, and any value read is the
 * real value at that address in this run.
 */
#define SYMIDX_WINDOW 32 /* elements on each side of the concrete address */
/* a known object of at most this many elements is read whole (the 384-entry ctype tables,
 * 256-entry lookup tables) */
#define SYMIDX_WHOLE_MAX 512
#define PAGE_SIZE_BYTES 4096u

/* The module's global objects (objects.c), absent (NULL) in executables built without them. */
typedef struct sym_object {
    const char *start;
    uint64_t size;
} sym_object;
extern const sym_object __sym_objects[] __attribute__((weak));
extern const uint64_t __sym_nobjects __attribute__((weak));

static sym_object *sorted_objects; /* by start address, built on first use */
static size_t nsorted;
static int sorted_ready;

static int by_start(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const sym_object *)a)->start, y = (uintptr_t)((const sym_object *)b)->start;
    return x < y ? -1 : x > y;
}

void rt_objects_init(void)
{
    if (sorted_ready) return;
    sorted_ready = 1;
    if (__sym_objects && &__sym_nobjects && __sym_nobjects) {
        sorted_objects = malloc(__sym_nobjects * sizeof *sorted_objects);
        if (sorted_objects) {
            for (uint64_t i = 0; i < __sym_nobjects; i++) sorted_objects[i] = __sym_objects[i];
            nsorted = __sym_nobjects;
            qsort(sorted_objects, nsorted, sizeof *sorted_objects, by_start);
        }
    }
}

/* The known object holding [a, a + size), or NULL (binary search over the sorted table). */
static const sym_object *object_at(uintptr_t a, uint64_t size)
{
    rt_objects_init();
    size_t lo = 0, hi = nsorted;
    while (lo < hi) { /* first object starting after a */
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)sorted_objects[mid].start <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) return NULL;
    const sym_object *o = &sorted_objects[lo - 1];
    uintptr_t s = (uintptr_t)o->start;
    return a + size <= s + o->size ? o : NULL;
}

expr *rt_symbolic_read(const void *addr, uint64_t size, expr *addr_e)
{
    uintptr_t a = (uintptr_t)addr;
    if (size == 0 || size > 8 || (size & (size - 1)) || addr_e->width != 64 || addr_e->value != a) return NULL;
    /* [first, end): the bytes the window may cover */
    uintptr_t first, end;
    unsigned reach = SYMIDX_WINDOW;
    const sym_object *obj = object_at(a, size);
    if (obj) {
        first = (uintptr_t)obj->start;
        end = first + obj->size;
        if (obj->size / size <= SYMIDX_WHOLE_MAX) reach = SYMIDX_WHOLE_MAX;
    } else {
        first = a & ~(uintptr_t)(PAGE_SIZE_BYTES - 1);
        end = first + PAGE_SIZE_BYTES;
        if (a + size > end) return NULL; /* straddles a page: keep it simple, pin */
    }
    uintptr_t lo = a, hi = a;
    for (unsigned k = 0; k < reach && lo >= first + size; k++) lo -= size;
    for (unsigned k = 0; k < reach && hi + 2 * size <= end; k++) hi += size;
    if (lo == hi) return NULL;

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
        in = expr_and1(
            cx, in, expr_cmp(cx, PRED_EQ, expr_binary(cx, EXPR_AND, addr_e, mask), expr_const(cx, a & (size - 1), 64)));
    }
    rt_count_conc(CONC_SYM_POINTER);
    if (in->op != EXPR_CONST) rt_trace_event(BK_CONCRETIZE, 0, 1, in, CONC_SYM_POINTER);
    return acc;
}
