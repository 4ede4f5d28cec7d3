/* ringq.h: a header-only ring queue of ints (sympath unit e2e: test_unit_header_only.sh). Define RINGQ_DECLS_ONLY
 * to get the declarations without the definitions; RINGQ_CAP sets the capacity (default 4). */
#ifndef RINGQ_H
#define RINGQ_H

#include <stddef.h>

#ifndef RINGQ_CAP
#define RINGQ_CAP 4
#endif

typedef struct ringq {
    int items[RINGQ_CAP];
    size_t head;
    size_t count;
} ringq;

/* append v; 1 when stored, 0 when full, -1 for NULL */
int ringq_push(ringq *q, int v);
/* remove the oldest item into *out; 1 when there was one, 0 when empty, -1 for NULL */
int ringq_pop(ringq *q, int *out);

#ifndef RINGQ_DECLS_ONLY
/* the slot after i */
static inline size_t ringq_next(size_t i) {
    return i + 1 >= RINGQ_CAP ? 0 : i + 1;
}

/* whether q has no room left: a static helper of the implementation */
static int ringq_full(const ringq *q) {
    return q->count >= RINGQ_CAP;
}

int ringq_push(ringq *q, int v) {
    if (q == NULL) return -1;
    if (ringq_full(q)) return 0;
    q->items[(q->head % RINGQ_CAP + q->count) % RINGQ_CAP] = v;
    q->count++;
    return 1;
}

int ringq_pop(ringq *q, int *out) {
    if (q == NULL || out == NULL) return -1;
    if (q->count == 0) return 0;
    size_t h = q->head % RINGQ_CAP;
    *out = q->items[h];
    q->head = ringq_next(h);
    q->count--;
    return 1;
}
#endif

#endif
