/* expr_test_util.h: helpers the expression tests share: deterministic random values biased to edges, reference predicate semantics. */
#ifndef SYMPATH_EXPR_TEST_UTIL_H
#define SYMPATH_EXPR_TEST_UTIL_H

#include <stdint.h>
#include "expr/expr.h"

/* xorshift64; each test file seeds its own state so results do not depend on test order */
static uint64_t test_rng_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t rnd(void)
{
    test_rng_state ^= test_rng_state << 13;
    test_rng_state ^= test_rng_state >> 7;
    test_rng_state ^= test_rng_state << 17;
    return test_rng_state;
}

/* A value of w bits biased towards the edges: 0, 1, all ones, the sign bit, the largest
 * positive, small shift amounts around the width, or anything. */
static inline uint64_t rnd_val(unsigned w)
{
    uint64_t m = expr_mask(w);
    switch (rnd() % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return m;
    case 3: return (m >> 1) + 1;
    case 4: return m >> 1;
    case 5: return (rnd() % (w + 3)) & m;
    default: return rnd() & m;
    }
}

/* Reference semantics of an LLVM icmp predicate on w-bit values (1 or 0). */
static inline int pred_ref(expr_pred p, uint64_t a, uint64_t b, unsigned w)
{
    int64_t sa = expr_sext64(a, w), sb = expr_sext64(b, w);
    switch (p) {
    case PRED_EQ: return a == b;
    case PRED_NE: return a != b;
    case PRED_UGT: return a > b;
    case PRED_UGE: return a >= b;
    case PRED_ULT: return a < b;
    case PRED_ULE: return a <= b;
    case PRED_SGT: return sa > sb;
    case PRED_SGE: return sa >= sb;
    case PRED_SLT: return sa < sb;
    case PRED_SLE: return sa <= sb;
    }
    return -1;
}

#endif
