/* ptrmap.c: a hash map from pointers to two pointer-sized values (open addressing, linear probing). */
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* Multiplicative (Fibonacci) hash of the address; the low 4 bits are dropped because
 * allocations are aligned, so they carry no information. */
static size_t ptr_hash(const void *k) { return ((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull; }

int ptrmap_put(ptrmap *m, const void *key, void *a, void *b)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 256;
        ptrmap_ent *ne = calloc(ncap, sizeof *ne);
        if (!ne) return -1;
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].key) {
                size_t j = ptr_hash(m->e[i].key) & (ncap - 1);
                while (ne[j].key) j = (j + 1) & (ncap - 1);
                ne[j] = m->e[i];
            }
        free(m->e);
        m->e = ne;
        m->cap = ncap;
    }
    size_t j = ptr_hash(key) & (m->cap - 1);
    while (m->e[j].key && m->e[j].key != key) j = (j + 1) & (m->cap - 1);
    if (!m->e[j].key) m->n++;
    m->e[j].key = key;
    m->e[j].a = a;
    m->e[j].b = b;
    return 0;
}

ptrmap_ent *ptrmap_get(const ptrmap *m, const void *key)
{
    if (!m->cap) return NULL;
    size_t j = ptr_hash(key) & (m->cap - 1);
    while (m->e[j].key) {
        if (m->e[j].key == key) return &m->e[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

void ptrmap_clear(ptrmap *m)
{
    free(m->e);
    memset(m, 0, sizeof *m);
}
