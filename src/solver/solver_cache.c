/* solver_cache.c: what the solver answers without Z3: symbol sets and the union-find of constraint independence, the query cache, unsat-core subsets, counterexample reuse. */
#include "solver/solver_int.h"
#include "solver/solver_sample.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

/* ------------------------------------------------------------------ symbol sets */

/* Merge sorted a[0..na) and b[0..nb) into s->tmp_set; returns the length or SIZE_MAX on OOM. */
static size_t merge_sets(solver *s, const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    if (!sv_grow((void **)&s->tmp_set, &s->tmp_set_cap, na + nb, sizeof *s->tmp_set)) return SIZE_MAX;
    uint32_t *o = s->tmp_set;
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j])
            o[k++] = a[i++];
        else if (b[j] < a[i])
            o[k++] = b[j++];
        else {
            o[k++] = a[i++];
            j++;
        }
    }
    while (i < na) o[k++] = a[i++];
    while (j < nb) o[k++] = b[j++];
    return k;
}

/* Append tmp_set[0..n) to the pool; returns its offset or UINT32_MAX on OOM. */
static uint32_t pool_add(solver *s, const uint32_t *v, size_t n)
{
    if (s->pool_n + n >= UINT32_MAX) return UINT32_MAX;
    if (!sv_grow((void **)&s->pool, &s->pool_cap, s->pool_n + n, sizeof *s->pool)) return UINT32_MAX;
    uint32_t off = (uint32_t)s->pool_n;
    memcpy(s->pool + off, v, n * sizeof *v);
    s->pool_n += n;
    return off;
}

/* Set of one node whose kids' sets are known. A node whose set equals one kid's set
 * (the common case: one symbol flows through a chain of operations) shares that kid's
 * pool slice, so chains cost no pool space. */
static bool symset_node(solver *s, const expr *e)
{
    symset r = {0, 0};
    if (e->op == EXPR_SYMBOL) {
        if (!sv_ensure_sym(s, e->aux)) return false;
        if (s->sym_width[e->aux] < e->width) s->sym_width[e->aux] = e->width;
        uint32_t v = e->aux;
        r.off = pool_add(s, &v, 1);
        if (r.off == UINT32_MAX) return false;
        r.len = 1;
    } else if (e->op != EXPR_CONST) {
        for (unsigned k = 0; k < e->nkids && k < 3; k++) {
            symset ks = s->sets[e->kid[k]->id];
            if (ks.len == 0) continue;
            if (r.len == 0) {
                r = ks;
                continue;
            }
            if (ks.off == r.off && ks.len == r.len) continue;
            size_t n = merge_sets(s, s->pool + r.off, r.len, s->pool + ks.off, ks.len);
            if (n == SIZE_MAX) return false;
            if (n == r.len) continue; /* ks is a subset of r */
            if (n == ks.len) {
                r = ks;
                continue;
            } /* r is a subset of ks */
            uint32_t off = pool_add(s, s->tmp_set, n);
            if (off == UINT32_MAX) return false;
            r.off = off;
            r.len = (uint32_t)n;
        }
    }
    s->sets[e->id] = r;
    return true;
}

/* Compute (once, then cached) the symbol set of root and of every node below it.
 * Iterative post-order with an explicit stack: expressions can be thousands deep.
 * A node is pushed only while its set is unknown, so the work is O(new nodes + edges). */
bool sv_symset_of(solver *s, const expr *root)
{
    if (!sv_ensure_id(s, root->id)) return false;
    if (s->sets[root->id].len != SYMSET_NONE) return true;
    size_t sp = 0;
    if (!sv_push(s, &sp, root)) return false;
    while (sp) {
        const expr *e = s->stack[sp - 1];
        if (s->sets[e->id].len != SYMSET_NONE) {
            sp--;
            continue;
        }
        bool ready = true;
        for (unsigned k = 0; k < e->nkids && k < 3; k++) {
            const expr *c = e->kid[k];
            if (!sv_ensure_id(s, c->id)) return false;
            if (s->sets[c->id].len == SYMSET_NONE) {
                ready = false;
                if (!sv_push(s, &sp, c)) return false;
            }
        }
        if (!ready) continue;
        if (!symset_node(s, e)) return false;
        sp--;
    }
    return true;
}

/* ------------------------------------------------------------------ query cache */

uint64_t sv_hash_ids(const uint32_t *ids, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (size_t i = 0; i < n; i++) {
        h ^= ids[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

qentry *sv_qcache_find(solver *s, const uint32_t *ids, size_t n, uint64_t h)
{
    if (!s->nbuckets) return NULL;
    for (int32_t i = s->qbuckets[h & (s->nbuckets - 1)]; i >= 0; i = s->qe[i].next) {
        qentry *q = &s->qe[i];
        if (q->hash == h && q->nids == n && memcmp(q->ids, ids, n * sizeof *ids) == 0) return q;
    }
    return NULL;
}

/* Record the answer for kept set ids[0..n). For SAT, syms/vals[0..nv) is the model on
 * the set's symbols. Failure to allocate only loses the cache entry. */
void sv_qcache_add(solver *s, const uint32_t *ids, size_t n, uint64_t h, solve_result r, const uint32_t *syms,
                   const uint64_t *vals, size_t nv)
{
    size_t words = n + 3 * nv;
    if (s->nqe >= QCACHE_MAX_ENTRIES || s->qwords + words > QCACHE_MAX_WORDS) sv_qcache_clear(s);
    if (words > QCACHE_MAX_WORDS) return;
    if (!s->nbuckets) {
        s->qbuckets = malloc(1024 * sizeof *s->qbuckets);
        if (!s->qbuckets) return;
        s->nbuckets = 1024;
        memset(s->qbuckets, 0xff, s->nbuckets * sizeof *s->qbuckets);
    }
    if (!sv_grow((void **)&s->qe, &s->qe_cap, s->nqe + 1, sizeof *s->qe)) return;
    if (s->nqe + 1 > s->nbuckets) { /* keep the load factor <= 1: rehash into twice the buckets */
        int32_t *nb = malloc(2 * s->nbuckets * sizeof *nb);
        if (!nb) return;
        free(s->qbuckets);
        s->qbuckets = nb;
        s->nbuckets *= 2;
        memset(s->qbuckets, 0xff, s->nbuckets * sizeof *s->qbuckets);
        for (size_t i = 0; i < s->nqe; i++) {
            size_t b = s->qe[i].hash & (s->nbuckets - 1);
            s->qe[i].next = s->qbuckets[b];
            s->qbuckets[b] = (int32_t)i;
        }
    }
    qentry q = {0};
    q.hash = h;
    q.nids = (uint32_t)n;
    q.result = (uint8_t)r;
    q.ids = malloc(n * sizeof *q.ids + 1);
    if (!q.ids) return;
    memcpy(q.ids, ids, n * sizeof *ids);
    if (r == SOLVE_SAT && nv) {
        q.syms = malloc(nv * sizeof *q.syms);
        q.vals = malloc(nv * sizeof *q.vals);
        if (!q.syms || !q.vals) {
            free(q.ids);
            free(q.syms);
            free(q.vals);
            return;
        }
        memcpy(q.syms, syms, nv * sizeof *syms);
        memcpy(q.vals, vals, nv * sizeof *vals);
        q.nvals = (uint32_t)nv;
    }
    size_t b = h & (s->nbuckets - 1);
    q.next = s->qbuckets[b];
    s->qe[s->nqe] = q;
    s->qbuckets[b] = (int32_t)s->nqe++;
    s->qwords += words;
}

/* Empty the query cache (entries freed, buckets kept). */
void sv_qcache_clear(solver *s)
{
    for (size_t i = 0; i < s->nqe; i++) {
        free(s->qe[i].ids);
        free(s->qe[i].syms);
        free(s->qe[i].vals);
    }
    s->nqe = 0;
    s->qwords = 0;
    if (s->qbuckets) memset(s->qbuckets, 0xff, s->nbuckets * sizeof *s->qbuckets);
}

/* ------------------------------------------------------------------ unsat cores */

static void core_unlink(solver *s, size_t slot)
{
    core *c = &s->cores[slot];
    if (!c->ids) return;
    int32_t *p = &s->core_head[c->watch];
    while (*p >= 0 && *p != (int32_t)slot) p = &s->cores[*p].next;
    if (*p == (int32_t)slot) *p = c->next;
    free(c->ids);
    c->ids = NULL;
    c->n = 0;
    c->next = -1;
}

/* Store a sorted core ids[0..n) (n >= 1), evicting the oldest when the ring is full. */
static void core_add(solver *s, const uint32_t *ids, size_t n, bool hard)
{
    if (n == 0) return;
    size_t slot = s->core_next;
    s->core_next = (s->core_next + 1) % CORE_MAX;
    core_unlink(s, slot);
    core *c = &s->cores[slot];
    c->ids = malloc(n * sizeof *ids);
    if (!c->ids) return;
    memcpy(c->ids, ids, n * sizeof *ids);
    c->n = (uint32_t)n;
    c->hard = hard;
    c->watch = ids[n - 1];
    c->next = s->core_head[c->watch];
    s->core_head[c->watch] = (int32_t)slot;
}

void sv_core_add(solver *s, const uint32_t *ids, size_t n) { core_add(s, ids, n, false); }

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void sv_hard_core_add(solver *s, const uint32_t *ids, size_t n)
{
    uint32_t *sorted = n ? malloc(n * sizeof *sorted) : NULL;
    if (!sorted) return;
    memcpy(sorted, ids, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_u32);
    core_add(s, sorted, n, true);
    free(sorted);
}

/* Is some stored core of kind `hard` a subset of the kept set? The kept ids carry stamp `mark`. */
static bool core_subset(solver *s, const uint32_t *ids, size_t n, uint32_t mark, bool hard)
{
    for (size_t i = 0; i < n; i++) {
        for (int32_t ci = s->core_head[ids[i]]; ci >= 0; ci = s->cores[ci].next) {
            const core *c = &s->cores[ci];
            if (c->hard != hard) continue;
            size_t j = 0;
            while (j < c->n && c->ids[j] < s->id_cap && s->stamp[c->ids[j]] == mark) j++;
            if (j == c->n) return true;
        }
    }
    return false;
}

bool sv_core_subset(solver *s, const uint32_t *ids, size_t n, uint32_t mark)
{
    return core_subset(s, ids, n, mark, false);
}

bool sv_hard_core_subset(solver *s, const uint32_t *ids, size_t n, uint32_t mark)
{
    return core_subset(s, ids, n, mark, true);
}

/* ------------------------------------------------------------------ union-find over symbols */

/* Cells whose stamp is not the current query's are fresh singletons, so a query
 * never pays to reset the table. A parent link always points at a cell stamped in
 * this query (sv_uf_union links found roots only). */
uint32_t sv_uf_find(solver *s, uint32_t x)
{
    if (s->uf_stamp[x] != s->qstamp) {
        s->uf_stamp[x] = s->qstamp;
        s->uf_parent[x] = x;
        return x;
    }
    while (s->uf_parent[x] != x) {
        s->uf_parent[x] = s->uf_parent[s->uf_parent[x]]; /* path halving */
        x = s->uf_parent[x];
    }
    return x;
}

void sv_uf_union(solver *s, uint32_t a, uint32_t b)
{
    a = sv_uf_find(s, a);
    b = sv_uf_find(s, b);
    if (a != b) s->uf_parent[a] = b;
}

int sv_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ answers */

/* Build the output vector: parent values, then vals[i] (masked to the symbol's widest
 * width) at syms[i]. Returns false when out of memory. */
bool sv_make_output(solver *s, const uint32_t *syms, const uint64_t *vals, size_t nv, const uint64_t *parent,
                    size_t parent_n, uint64_t **out, size_t *out_n)
{
    size_t n = parent_n;
    for (size_t i = 0; i < nv; i++)
        if ((size_t)syms[i] + 1 > n) n = (size_t)syms[i] + 1;
    uint64_t *o = calloc(n ? n : 1, sizeof *o);
    if (!o) return false;
    if (parent_n) memcpy(o, parent, parent_n * sizeof *o);
    for (size_t i = 0; i < nv; i++) o[syms[i]] = vals[i] & expr_mask(s->sym_width[syms[i]]);
    *out = o;
    *out_n = n;
    return true;
}

/*
 * Counterexample reuse (KLEE): before calling Z3, try the few most recent SAT models.
 * Each is laid over the parent's inputs (for the kept symbols only) and the kept
 * constraints are evaluated concretely, target first because it is the one most likely
 * to fail. On success the assignment is the answer, stored into vals for the kept symbols.
 */
bool sv_try_cex(solver *s, size_t nkept, size_t nsyms, const uint64_t *parent, size_t parent_n)
{
    if (nkept > CEX_MAX_KEPT) return false;
    size_t n = parent_n;
    for (size_t i = 0; i < nsyms; i++)
        if ((size_t)s->kept_syms[i] + 1 > n) n = (size_t)s->kept_syms[i] + 1;
    if (!sv_grow((void **)&s->assign, &s->assign_cap, n + 1, sizeof *s->assign)) return false;
    uint32_t mark = sv_next_stamp(s); /* sym_stamp = mark: a kept symbol */
    for (size_t i = 0; i < nsyms; i++) s->sym_stamp[s->kept_syms[i]] = mark;
    for (size_t m = 0; m < CEX_MODELS; m++) {
        const cex_model *cm = &s->cex[(s->cex_next + CEX_MODELS - 1 - m) % CEX_MODELS];
        if (!cm->syms) continue;
        if (parent_n) memcpy(s->assign, parent, parent_n * sizeof *s->assign);
        memset(s->assign + parent_n, 0, (n - parent_n) * sizeof *s->assign);
        bool touches = false;
        for (size_t i = 0; i < cm->n; i++) {
            uint32_t x = cm->syms[i];
            if (x < n && x < s->sym_cap && s->sym_stamp[x] == mark) {
                s->assign[x] = cm->vals[i];
                touches = true;
            }
        }
        if (!touches) continue;
        bool ok = true;
        for (size_t i = nkept; i-- > 0 && ok;) /* the target is last in kept[] */
            ok = expr_eval(s->kept[i], s->assign, n) == 1;
        if (!ok) continue;
        for (size_t i = 0; i < nsyms; i++)
            s->vals[i] = s->assign[s->kept_syms[i]] & expr_mask(s->sym_width[s->kept_syms[i]]);
        return true;
    }
    return false;
}

void sv_cex_add(solver *s, size_t nsyms)
{
    cex_model *cm = &s->cex[s->cex_next];
    uint32_t *sy = realloc(cm->syms, (nsyms + 1) * sizeof *sy);
    if (!sy) return;
    cm->syms = sy;
    uint64_t *va = realloc(cm->vals, (nsyms + 1) * sizeof *va);
    if (!va) return;
    cm->vals = va;
    memcpy(cm->syms, s->kept_syms, nsyms * sizeof *sy);
    memcpy(cm->vals, s->vals, nsyms * sizeof *va);
    cm->n = (uint32_t)nsyms;
    s->cex_next = (s->cex_next + 1) % CEX_MODELS;
}
