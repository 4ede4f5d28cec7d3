/* scale_solver.c: a parallel-exploration workload (bench/scale.sh) whose time goes into the solver.
 * Four 32-bit and two 64-bit inputs go through nonlinear arithmetic (products, divisions,
 * remainders, multiplicative hashes); the program branches on the results at many sites, and each
 * branch's path condition carries the earlier products, so most queries take Z3 tens to hundreds
 * of milliseconds. A run itself is short. */
#include <stdint.h>
#include "sympath.h"

static uint32_t mix32(uint32_t h)
{
    h *= 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x85ebca77u;
    return h;
}

int main(void)
{
    uint32_t a = sym_u32("a"), b = sym_u32("b"), c = sym_u32("c"), d = sym_u32("d");
    uint64_t p = sym_u64("p"), q = sym_u64("q");
    int score = 0;

    /* products and divisions of two inputs */
    uint32_t ab = a * b;
    if (ab == 0x12345679u) score++;
    if (ab > 0xf0000000u) score++;
    if (a != 0 && b / (a | 1) == 77) score++;
    if ((a % 1009u) * (b % 1013u) == 512000u) score++;
    if (a * a + b * b == c * c && a > 100 && b > 100) score += 2;

    /* a hash of each input, branched on a few bits at a time: many sites, each nonlinear */
    uint32_t h = mix32(c);
    for (int k = 0; k < 6; k++) {
        uint32_t bits = (h >> (4 * k)) & 0xfu;
        if (bits == (uint32_t)(k + 3)) score++;
        else if (bits > 12) score--;
    }
    uint32_t g = mix32(d ^ a);
    if ((g & 0xffu) == 0x5au) {
        score += 2;
        if ((g >> 24) == 0xc3u) score += 3;
    }
    if ((g % 10007u) == 4242u) score++;

    /* 64-bit products and remainders */
    uint64_t pq = p * q;
    if (pq == 0x0123456789abcdefull) score++;
    if (p > 1 && q > 1 && pq == 1000000007ull * 998244353ull) score += 4; /* a factorisation */
    if ((p * p) % 1000003ull == 999ull) score++;
    if ((q >> 32) * (q & 0xffffffffull) == 0x00000001deadbeefull) score++;
    if (p != 0 && (q / p) == 123456789ull && (q % p) == 42) score++;

    /* a second round over the first: the deeper sites carry both hashes */
    uint32_t h2 = mix32(h ^ b);
    for (int k = 0; k < 5; k++) {
        if (((h2 >> (6 * k)) & 0x3fu) == (uint32_t)(11 * k + 1)) score++;
        else if (((h2 >> (6 * k)) & 0x3fu) < (uint32_t)k) score--;
    }
    uint64_t m = p * 0x9e3779b97f4a7c15ull;
    m ^= m >> 29;
    switch ((int)(m & 7)) {
    case 0: if ((m >> 60) == 9) score++; break;
    case 1: if (m % 12345ull == 678ull) score++; break;
    case 2: if ((uint32_t)(m >> 32) * a == 0x13579bdfu) score++; break;
    case 3: if ((m ^ q) == 0) score += 2; break;
    default: break;
    }

    /* a little polynomial in the 32-bit inputs, its value classified */
    uint32_t poly = a * a * a + 3u * b * b - 7u * c + d;
    if (poly == 0xcafef00du) score += 2;
    else if ((poly & 0xffffu) == 0xbeefu) score++;
    else if (poly < 1000u) score--;
    int cls = (int)(poly >> 29);
    switch (cls) {
    case 0: if ((poly % 97u) == 3u) score++; break;
    case 1: if ((poly * 3u) % 101u == 5u) score++; break;
    case 2: if ((poly ^ ab) % 103u == 7u) score++; break;
    case 3: if ((poly + g) % 107u == 11u) score++; break;
    case 4: if ((poly * h) % 109u == 13u) score++; break;
    case 5: if (poly / 1000u == ab / 1000u) score++; break;
    case 6: if ((poly | ab) == 0xffffffffu) score++; break;
    default: if ((poly & ab) == 0) score++; break;
    }
    return score & 0x7f;
}
