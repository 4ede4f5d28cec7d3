/* strategy_gen.c: SAGE's generational search (Godefroid, Levin, Molnar 2008). */
#include "strategy_impl.h"

#include <stdlib.h>
#include <string.h>

/*
 * Generational search (SAGE; the EvoSuite DSE thesis, ch. 3, "búsqueda generacional"):
 * instead of flipping one branch per run, a run is *expanded*: every branch of its path
 * at position >= the run's bound is negated, each giving one child. A child made by
 * flipping position i gets bound i + 1, so it never re-flips the prefix its parent
 * already expanded: the same path is not generated twice from one family. Runs wait in
 * a max-heap scored by the new coverage they produced (a bonus for errors); the best
 * run is expanded next, and its children are handed out one by one. Directions opened
 * by tree_insert (add) are ignored: only expansions produce candidates.
 */

#define GEN_ERROR_BONUS 16u /* score added for a run that hit an error: expand near errors early */

typedef struct gen_run {
    tree_node **path; /* owned copy of the run's nodes */
    uint8_t *taken;   /* owned copy of its directions */
    uint32_t npath;
    uint32_t bound;
    uint64_t score;
    uint64_t seq;
} gen_run;

typedef struct gen {
    strategy base;
    heap runs; /* gen_run, best score first, then oldest */
    uint64_t seq;
    candidate *list; /* expansion list of the run being expanded */
    size_t nlist, pos, cap;
} gen;

static int gen_before(const void *a, const void *b)
{
    const gen_run *x = a, *y = b;
    return x->score != y->score ? x->score > y->score : x->seq < y->seq;
}

static void gen_add(strategy *s, tree_node *node, int dir)
{
    (void)s;
    (void)node;
    (void)dir;
}

static void gen_on_run(strategy *s, const run_feedback *fb)
{
    gen *g = (gen *)s;
    gen_run r = {0};
    r.npath = fb->npath;
    r.bound = fb->bound;
    r.score = (uint64_t)fb->new_slots + (fb->error ? GEN_ERROR_BONUS : 0);
    r.seq = g->seq++;
    if (r.bound >= r.npath) return; /* nothing to expand */
    r.path = malloc((size_t)r.npath * sizeof *r.path);
    r.taken = malloc(r.npath);
    if (!r.path || !r.taken) goto fail;
    memcpy(r.path, fb->path, (size_t)r.npath * sizeof *r.path);
    memcpy(r.taken, fb->taken, r.npath);
    if (heap_push(&g->runs, &r) == 0) return;
fail: /* out of memory: the run is not expanded */
    free(r.path);
    free(r.taken);
}

/* Build the expansion list of r (entries open now; next() re-checks) and free r's copies. */
static void expand(gen *g, gen_run *r)
{
    g->nlist = g->pos = 0;
    size_t want = r->npath - r->bound;
    if (want > g->cap) {
        candidate *l = realloc(g->list, want * sizeof *l);
        if (l) {
            g->list = l;
            g->cap = want;
        }
    }
    for (uint32_t i = r->bound; i < r->npath && g->nlist < g->cap; i++) {
        int d = !r->taken[i];
        if (cand_open(r->path[i], d))
            g->list[g->nlist++] = (candidate){.node = r->path[i], .dir = (uint8_t)d, .bound = i + 1};
    }
    free(r->path);
    free(r->taken);
}

static bool gen_next(strategy *s, candidate *out)
{
    gen *g = (gen *)s;
    for (;;) {
        while (g->pos < g->nlist) {
            candidate c = g->list[g->pos++];
            if (cand_open(c.node, c.dir)) {
                *out = c;
                return true;
            }
        }
        gen_run r;
        if (!heap_pop(&g->runs, &r)) return false;
        expand(g, &r);
    }
}

static void gen_destroy(strategy *s)
{
    gen *g = (gen *)s;
    if (!g) return;
    gen_run r;
    while (heap_pop(&g->runs, &r)) {
        free(r.path);
        free(r.taken);
    }
    heap_free(&g->runs);
    free(g->list);
    free(g);
}

strategy *strategy_gen_new(void)
{
    gen *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    if (heap_init(&g->runs, sizeof(gen_run), gen_before) < 0) {
        free(g);
        return NULL;
    }
    g->base = (strategy){"generational", gen_add, gen_next, gen_on_run, gen_destroy, NULL, NULL, NULL};
    return &g->base;
}
