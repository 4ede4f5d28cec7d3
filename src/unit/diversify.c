/* diversify.c: the values `sympath unit` prefers for the inputs a test's path leaves free (distinct printable bytes, integers away from 0 and 1). */
#include <string.h>

#include "proto/trace.h"
#include "unit/unit.h"

/* Printable bytes, no two neighbours alike, none a quote, backslash or space: text a reader can
 * follow in the emitted test's string literals. */
static const char div_text[] = "Kq7xB2mZp9Rt4wNc5HvJ8dLs3YgF6eTa";

/* The position in div_text of input i's byte: a multiplicative hash of i (Knuth's), so that two arrays
 * read at a shift do not hold the same text (the text's order by i made csv_write's output, the source
 * after one quote, equal to the bytes its destination held before, and those bytes went unasserted);
 * not the hash position of input i - 1 (neighbours mostly differ). */
static size_t div_pos(uint32_t i)
{
    const size_t L = sizeof div_text - 1;
    size_t k = (size_t)((i * 2654435761u) >> 16) % L;
    size_t before = i ? (size_t)(((i - 1) * 2654435761u) >> 16) % L : L;
    return k == before ? (k + 1) % L : k;
}

unsigned unit_diversify_prefs(const char *name, unsigned type, unsigned width, uint64_t value, uint32_t i, uint64_t *v,
                              unsigned max)
{
    size_t nl = name ? strlen(name) : 0;
    unsigned n = 0;
    if (max == 0) return 0;
    /* the harness's own decisions: lazy NULL flags, which producer, how many items, alias or fresh,
     * a capacity pair's size (its first, larger size is the point of it); the text past a pair's length
     * (harness_pair_text) and the room before a string (unit_reads_before): zero unless the path reads
     * them, so a test does not show text the function skips; the pads after a buffer (harness_pad_elems),
     * which nothing reads */
    if (type == IT_BOOL || type == IT_POINTER || (nl > 5 && !strcmp(name + nl - 5, ".null")) ||
        (nl > 4 && !strcmp(name + nl - 4, ".cap")) || (nl > 7 && !strcmp(name + nl - 7, ".more[]")) ||
        (nl > 7 && !strcmp(name + nl - 7, ".before")) || (nl > 4 && !strcmp(name + nl - 4, ".pad")))
        return 0;
    if (type == IT_DOUBLE) {
        static const uint64_t d[] = {0x4004000000000000ull /* 2.5 */, 0xc00c000000000000ull /* -3.5 */};
        for (unsigned k = 0; k < 2 && n < max; k++)
            if (d[k] != value) v[n++] = d[k];
        return n;
    }
    if (type == IT_FLOAT) {
        static const uint64_t f[] = {0x40200000u /* 2.5f */, 0xc0600000u /* -3.5f */};
        for (unsigned k = 0; k < 2 && n < max; k++)
            if (f[k] != value) v[n++] = f[k];
        return n;
    }
    if (width <= 8) { /* a byte of text or a small integer: a printable character, two more as fallbacks */
        size_t L = sizeof div_text - 1, p = div_pos(i);
        uint64_t c[] = {(uint8_t)div_text[p], (uint8_t)div_text[(p + 11) % L], (uint8_t)div_text[(p + 23) % L]};
        for (unsigned k = 0; k < 3 && n < max; k++)
            if (c[k] != value) v[n++] = c[k];
        return n;
    }
    /* a wider integer: away from 0 and 1, different from input to input; then small ones */
    uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    uint64_t c[] = {(uint64_t)(37 + 6 * (i % 10)), 7, 3};
    for (unsigned k = 0; k < 3 && n < max; k++)
        if ((c[k] & mask) != value) v[n++] = c[k] & mask;
    return n;
}
