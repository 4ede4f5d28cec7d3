/* strategy_random.c: uniformly random choice among the open directions, reproducible from a seed (LCT sec. 5). */
#include "strategy_impl.h"

#include <stdlib.h>

/* An unordered array of candidates; next() draws an index uniformly and removes it by
 * moving the last element into its place (O(1)). Stale entries are dropped when drawn,
 * so the draw is uniform over the entries still in the array. The generator is
 * splitmix64 (Steele, Lea, Flood 2014): tiny, and any seed (0 included) is good. */
typedef struct rnd {
    strategy base;
    candidate *v;
    size_t n, cap;
    uint64_t state;
} rnd;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) without modulo bias (rejection of the short last interval). */
static size_t draw(uint64_t *state, size_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = splitmix64(state);
    while (x >= limit);
    return (size_t)(x % n);
}

static void rnd_add(strategy *s, tree_node *node, int dir)
{
    rnd *r = (rnd *)s;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        candidate *v = realloc(r->v, cap * sizeof *v);
        if (!v) return; /* out of memory: the direction is not offered */
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = (candidate){.node = node, .dir = (uint8_t)dir, .bound = 0};
}

static bool rnd_next(strategy *s, candidate *out)
{
    rnd *r = (rnd *)s;
    while (r->n) {
        size_t i = draw(&r->state, r->n);
        candidate c = r->v[i];
        r->v[i] = r->v[--r->n];
        if (cand_open(c.node, c.dir)) {
            *out = c;
            return true;
        }
    }
    return false;
}

static void rnd_destroy(strategy *s)
{
    rnd *r = (rnd *)s;
    if (!r) return;
    free(r->v);
    free(r);
}

strategy *strategy_random_new(uint64_t seed)
{
    rnd *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->state = seed;
    r->base = (strategy){"random", rnd_add, rnd_next, strategy_ignore_run, rnd_destroy, NULL, NULL, NULL};
    return &r->base;
}
