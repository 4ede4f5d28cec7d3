/* lazynull.c: pointers checked for NULL in one function and dereferenced unchecked in others (sympath unit e2e: lazy, per-path NULL). */
#include <stddef.h>

struct pt {
    int x, y;
};

/* Dereferences p without a check: p is never NULL in its tests. */
int sum_pt(const struct pt *p) { return p->x + p->y > 10 ? 1 : 0; }

/* Checks a parameter also named p before using it: NULL is one of its tests. */
int pt_or_default(const struct pt *p)
{
    if (p == NULL) return -1;
    return p->x > 0;
}

/* Passes q to a callee that checks it: NULL is one of its tests. */
int via_callee(const struct pt *q) { return pt_or_default(q) + 1; }

/* Dereferences p, then checks it (too late): p is never NULL in its tests. */
int check_after_use(const struct pt *p)
{
    int v = p->x;
    if (!p) return -2;
    return v > 3;
}
