/* data_cand.c: the candidates of `sympath data`: per node of the tuple trees, its query's estimated size and cost, and n_q chosen for the least cost per expected new path (Li and Csallner, section 5). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "data_int.h"

#define TUPLE_COST 10.0  /* processing one tuple in the program, in rows the database visits */
#define SAMPLE_ROWS 5000 /* SQLite queries larger than this are estimated on a prefix of this many rows */

/* Estimate of a node's query (cached on the node). */
static int estimate(dstate_x *x, dsite *s, dnode *n, const char *cond)
{
    if (n->est_known) return 0;
    if (!*cond && s->table_rows >= 0) { /* the site's own query: its size is known */
        n->est_known = true;
        n->rows = (double)s->table_rows;
        n->rows_exact = true;
        n->cost1 = 1;
        return 0;
    }
    double T = (double)(s->table_rows > 0 ? s->table_rows : 1);
    const char *const *params = (const char *const *)s->params;
    char *err = NULL;
    double t0 = util_now_s();
    if (x->dialect == DATA_PG) {
        /* the planner's own figures (EXPLAIN), reported; its selectivities for conditions over
         * byte terms are defaults, so the rows used come from counts as below */
        char *sql = data_wrap_select(s->sql, strlen(s->sql), s->ncols, cond, 0);
        data_estimate e;
        if (sql && !data_source_estimate(x->ds, sql, params, s->nparams, 1, 0, T, &e, &err))
            n->dbms_rows = e.rows;
        else
            n->dbms_rows = -1;
        free(sql);
        free(err);
        err = NULL;
    }
    int64_t c;
    bool sampled = s->table_rows > SAMPLE_ROWS;
    if (sampled) {
        /* a count over the first SAMPLE_ROWS rows of the site's query, scaled; none there means
         * rarer than that (the candidate's own query then shows whether any tuple exists) */
        char *pre = NULL;
        if (asprintf(&pre, "SELECT * FROM (%s) AS sympath_s LIMIT %d", s->sql, SAMPLE_ROWS) < 0) return -1;
        char *sql = data_wrap_select(pre, strlen(pre), s->ncols, cond, 0);
        free(pre);
        c = sql ? data_source_count(x->ds, sql, params, s->nparams, &err) : -1;
        free(sql);
    } else { /* a small query: counted exactly */
        char *sql = data_wrap_select(s->sql, strlen(s->sql), s->ncols, cond, 0);
        c = sql ? data_source_count(x->ds, sql, params, s->nparams, &err) : -1;
        free(sql);
    }
    x->estimate_seconds += util_now_s() - t0;
    x->estimates++;
    if (c < 0) {
        fprintf(stderr, "sympath data: estimate failed: %s\n", err ? err : "?");
        free(err);
        n->state = DN_NOT_SQL;
        n->why = "the database rejected its query";
        return -1;
    }
    n->est_known = true;
    n->rows_exact = !sampled;
    n->rows_unseen = sampled && c == 0;
    n->rows = !sampled ? (double)c : c > 0 ? (double)c * T / SAMPLE_ROWS : T / (2.0 * SAMPLE_ROWS);
    /* cost of its first tuple: the share of a full scan (in the DBMS's cost units) that finds one */
    n->cost1 = n->rows > 1 ? s->full_cost / n->rows : s->full_cost;
    return 0;
}

typedef struct collect {
    dstate_x *x;
    int site;
    int pass; /* 0: complement leaves, 1: internal nodes (their expectations need the leaves' estimates) */
    dcand *c;
    size_t n, cap;
} collect;

static void push(collect *cl, dcand c)
{
    if (cl->n == cl->cap) {
        size_t nc = cl->cap ? cl->cap * 2 : 32;
        dcand *ns = realloc(cl->c, nc * sizeof *ns);
        if (!ns) {
            free(c.cond);
            return;
        }
        cl->c = ns;
        cl->cap = nc;
    }
    cl->c[cl->n++] = c;
}

/* Sum over the open complement leaves below n of 1 - (1 - p_L)^k, p_L = rows_L / rows_n. */
static double expected_new(const dnode *n, double rows_n, double k)
{
    double e = 0;
    for (const dnode *c = n->kids; c; c = c->next) {
        if (c->explored)
            e += expected_new(c, rows_n, k);
        else if (c->state == DN_OPEN && c->est_known && !c->rows_unseen && rows_n > 0) {
            /* (a leaf no sampled tuple satisfies is left to its own query: expecting it from an
             * internal node's first tuples would chase a guess) */
            double p = c->rows / rows_n;
            e += 1 - pow(1 - (p < 1 ? p : 1), k);
        }
    }
    return e;
}

static void collect_node(dnode *n, void *ctx)
{
    collect *cl = ctx;
    dstate_x *x = cl->x;
    dsite *s = &x->sites[cl->site];
    bool leaf = !n->explored && n->parent;
    if (leaf != (cl->pass == 0)) return;
    if (leaf && n->state != DN_OPEN) return;
    if (!leaf && !n->open_below) return;
    unsigned dropped = 0;
    char *cond = dtree_path_sql(n, &dropped);
    if (cond && x->dialect == DATA_PG && *cond) { /* byte and length terms computed once per row */
        char *shared = data_pg_share_terms(cond);
        free(cond);
        cond = shared;
    }
    if (!cond || estimate(x, s, n, cond)) {
        free(cond);
        return;
    }
    if (n->offset && n->rows_exact && (double)n->offset >= n->rows) { /* its query has nothing more */
        if (leaf) n->state = DN_DIVERGED;
        free(cond);
        return;
    }
    double tuple_cost = TUPLE_COST * s->full_cost / (double)(s->table_rows > 0 ? s->table_rows : 1);
    double skip = (double)n->offset; /* OFFSET rescans the tuples given before */
    dcand c = {cl->site, n, leaf, cond, 1, 0, n->rows, 0};
    if (leaf) {
        if (n->rows <= 0 && n->rows_exact) { /* no tuple satisfies it (a wider query when conditions were dropped) */
            n->state = DN_NO_DATA;
            free(cond);
            return;
        }
        c.cost = fmin((skip + 1) * n->cost1, s->full_cost) + tuple_cost;
        c.score = c.cost;
    } else {
        /* internal node: choose n_q minimising cost / expected new paths */
        c.score = INFINITY;
        for (uint64_t k = 1; k <= x->o->max_limit; k *= 2) {
            double e = expected_new(n, n->rows, (double)k);
            if (e <= 0) continue;
            double cost = fmin((skip + (double)k) * n->cost1, s->full_cost) + (double)k * tuple_cost;
            if (cost / e < c.score) {
                c.score = cost / e;
                c.limit = k;
                c.cost = cost;
            }
        }
        if (!isfinite(c.score)) {
            free(cond);
            return;
        }
    }
    push(cl, c);
}

/* The best candidate over all sites; 0 when none is left. Leaves' estimates are made first
 * (internal nodes' expectations use them). */
int data_choose(dstate_x *x, dcand *best)
{
    collect cl;
    memset(&cl, 0, sizeof cl);
    cl.x = x;
    for (cl.pass = 0; cl.pass < 2; cl.pass++)
        for (int i = 0; i < x->nsites; i++) {
            dtree_count_open(&x->sites[i].root);
            cl.site = i;
            dtree_walk(&x->sites[i].root, collect_node, &cl);
        }
    int found = 0;
    size_t bi = 0;
    for (size_t i = 0; i < cl.n; i++) {
        /* a leaf's estimate may have just shown it empty: internal nodes counted it as open */
        if (!found || cl.c[i].score < cl.c[bi].score || (cl.c[i].score == cl.c[bi].score && cl.c[i].leaf)) {
            bi = i;
            found = 1;
        }
    }
    for (size_t i = 0; i < cl.n; i++)
        if (!found || i != bi) free(cl.c[i].cond);
    if (found) *best = cl.c[bi];
    free(cl.c);
    return found;
}
