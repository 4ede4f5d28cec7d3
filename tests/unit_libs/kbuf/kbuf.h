/* kbuf.h: a growable string with its length and capacity in plain fields (klib's kstring_t shape: no constructor,
 * `kbuf s = {0, 0, NULL}` is the empty one); a test library of sympath unit (tests/e2e/test_unit_kbuf.sh). */
#ifndef KBUF_H
#define KBUF_H
#include <stddef.h>

typedef struct kbuf {
    size_t l, m; /* bytes used, bytes allocated */
    char *s;     /* NUL-terminated when l < m */
} kbuf;

/* Makes room for size bytes; 0, or -1 when out of memory. */
int kb_resize(kbuf *s, size_t size);
/* Appends the l bytes of p and a NUL; l, or -1 when out of memory. */
int kb_putsn(const char *p, int l, kbuf *s);
/* The index of the first c among the used bytes, or -1. */
int kb_find(const kbuf *s, char c);

#endif
