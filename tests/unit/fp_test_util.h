/* fp_test_util.h: float and double values <-> their IEEE-754 bit patterns, for the floating-point tests. */
#ifndef SYMPATH_FP_TEST_UTIL_H
#define SYMPATH_FP_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

/* The bit pattern of a float (zero-extended to 64 bits) / of a double. */
static inline uint64_t fb(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static inline uint64_t db(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}
/* The float / double whose bit pattern is b (a float: its low 32 bits). */
static inline float bf(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline double bd(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

#endif
