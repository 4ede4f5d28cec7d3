/* data_explore.c: the loop of `sympath data`: run on the chosen candidate's tuples, grow the tuple trees, rank candidates by estimated cost per new path (Li and Csallner, section 5). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/util.h"
#include "../explore/explore_state.h"
#include "data_int.h"

#define TUPLE_COST 10.0    /* processing one tuple in the program, in rows the database visits */
#define SAMPLE_ROWS 5000 /* SQLite queries larger than this are estimated on a prefix of this many rows */
#define MAX_TRIES 2        /* queries aimed at a complement node before giving up on it */

/* ---------------------------------------------------------------- one run */

/* What the inputs of a run are: the data inputs' site, tuple and SQL term (by input index). */
typedef struct run_names {
    const run_result *r;
    int *site;          /* -1: not a data input */
    uint64_t *tuple;
    const char **term;
    bool *real;
    uint64_t owner;     /* the tuple whose path the condition being translated joins */
    char **lit;         /* literals of other inputs' values (made on demand) */
} run_names;

/* The SQL of input `index` in a condition of tuple rn->owner: its term when it is a value of
 * that tuple, else the literal of the value it had in this run (values of other tuples, e.g.
 * a limit read from a configuration row, are the same data in the next run: concretized). */
static const char *term_of(void *ctx, uint32_t index, bool *is_real)
{
    run_names *rn = ctx;
    if (index >= rn->r->ninputs)
        return NULL;
    *is_real = rn->r->itypes && rn->r->itypes[index] == IT_DOUBLE;
    if (rn->site[index] >= 0 && rn->tuple[index] == rn->owner)
        return rn->term[index];
    if (!rn->lit[index]) {
        uint64_t v = rn->r->inputs[index];
        unsigned w = rn->r->iwidths ? rn->r->iwidths[index] : 64;
        if (*is_real) {
            double d;
            memcpy(&d, &v, sizeof d);
            rn->lit[index] = data_sql_literal_double(d);
        } else if (w >= 64) {
            rn->lit[index] = data_sql_literal_int((int64_t)v);
        } else if (asprintf(&rn->lit[index], "%llu", (unsigned long long)(v & expr_mask(w))) < 0) {
            rn->lit[index] = NULL;
        }
        if (rn->lit[index] && !strcmp(rn->lit[index], "NULL")) { /* a non-finite double: no literal */
            free(rn->lit[index]);
            rn->lit[index] = NULL;
        }
    }
    return rn->lit[index];
}

static int name_inputs(dstate_x *x, const run_result *r, run_names *rn)
{
    rn->r = r;
    size_t n = r->ninputs ? r->ninputs : 1;
    rn->site = malloc(n * sizeof *rn->site);
    rn->tuple = calloc(n, sizeof *rn->tuple);
    rn->term = calloc(n, sizeof *rn->term);
    rn->real = calloc(n, sizeof *rn->real);
    rn->lit = calloc(n, sizeof *rn->lit);
    if (!rn->site || !rn->tuple || !rn->term || !rn->real || !rn->lit)
        return -1;
    for (uint32_t i = 0; i < r->ninputs; i++) {
        rn->site[i] = -1;
        const char *nm = r->inames ? r->inames[i] : NULL;
        if (!nm || strncmp(nm, "data:", 5) || strlen(nm) < 5 + 17)
            continue;
        char id[17];
        memcpy(id, nm + 5, 16);
        id[16] = 0;
        const char *p = nm + 5 + 16;
        if (*p != ':')
            continue;
        char *end;
        uint64_t t = strtoull(p + 1, &end, 10);
        if (*end != ':')
            continue;
        rn->site[i] = dsite_find(x, id);
        rn->tuple[i] = t;
        rn->term[i] = end + 1;
        rn->real[i] = r->itypes && r->itypes[i] == IT_DOUBLE;
    }
    return 0;
}

static void free_names(run_names *rn)
{
    for (uint32_t i = 0; rn->lit && rn->r && i < rn->r->ninputs; i++)
        free(rn->lit[i]);
    free(rn->lit);
    free(rn->site), free(rn->tuple), free(rn->term), free(rn->real);
}

/* The tuple a condition belongs to: the latest (highest numbered) tuple whose values it reads,
 * the one being processed; values of other tuples and non-data inputs in it are concretized
 * (term_of). found: 0 no data value, 1 one tuple only, 2 mixed with other values. */
typedef struct walk {
    const run_names *rn;
    int found;
    bool other;         /* it also reads values of other tuples or non-data inputs */
    uint64_t tuple;
    int site;
    uint32_t *seen;     /* visited node ids (small open set) */
    size_t nseen, cap;
} walk;

static bool visited(walk *w, uint32_t id)
{
    for (size_t i = 0; i < w->nseen; i++)
        if (w->seen[i] == id)
            return true;
    if (w->nseen == w->cap) {
        size_t nc = w->cap ? w->cap * 2 : 64;
        uint32_t *ns = realloc(w->seen, nc * sizeof *ns);
        if (!ns)
            return true;
        w->seen = ns;
        w->cap = nc;
    }
    w->seen[w->nseen++] = id;
    return false;
}

static void symbols(walk *w, const expr *e)
{
    if (e->op == EXPR_CONST || w->nseen > 4096 || visited(w, e->id))
        return;
    if (e->op == EXPR_SYMBOL) {
        uint32_t k = e->aux;
        if (k >= w->rn->r->ninputs || w->rn->site[k] < 0) {
            w->other = true;
            return;
        }
        if (!w->found) {
            w->found = 1;
            w->tuple = w->rn->tuple[k];
            w->site = w->rn->site[k];
        } else if (w->tuple != w->rn->tuple[k]) {
            w->other = true;
            if (w->rn->tuple[k] > w->tuple) {
                w->tuple = w->rn->tuple[k];
                w->site = w->rn->site[k];
            }
        }
        return;
    }
    for (unsigned i = 0; i < e->nkids; i++)
        symbols(w, e->kid[i]);
}

/* NOT of a translated condition (a parenthesized term): "NOT (x)" loses its NOT. malloc'ed. */
static char *negate(const char *sql)
{
    char *n = NULL;
    if (!strncmp(sql, "NOT ", 4))
        return strdup(sql + 4);
    return asprintf(&n, "NOT %s", sql) < 0 ? NULL : n;
}

/* Insert the run's per-tuple paths into the sites' trees; returns the complement nodes reached. */
static int grow_trees(dstate_x *x, const run_result *r, run_names *rn, size_t ntuples)
{
    if (!ntuples)
        return 0;
    /* events of each tuple, in order */
    size_t *cnt = calloc(ntuples, sizeof *cnt);
    int *tsite = malloc(ntuples * sizeof *tsite);
    const sym_event ***ev = calloc(ntuples, sizeof *ev);
    char ***sql = calloc(ntuples, sizeof *sql);
    const char ***why = calloc(ntuples, sizeof *why);
    int fresh = 0;
    if (!cnt || !tsite || !ev || !sql || !why)
        goto out;
    for (size_t t = 0; t < ntuples; t++)
        tsite[t] = -1;
    walk w;
    memset(&w, 0, sizeof w);
    w.rn = rn;
    for (uint32_t i = 0; i < r->nevents; i++) {
        const sym_event *e = &r->events[i];
        if (e->kind != BK_BRANCH && e->kind != BK_SWITCH)
            continue;
        w.found = 0;
        w.other = false;
        w.nseen = 0;
        symbols(&w, e->cond);
        if (w.found == 0 || w.tuple >= ntuples || w.site < 0)
            continue;
        if (w.other)
            x->cross_tuple++;
        rn->owner = w.tuple;
        size_t t = w.tuple;
        const sym_event **ne = realloc(ev[t], (cnt[t] + 1) * sizeof *ne);
        char **ns = realloc(sql[t], (cnt[t] + 1) * sizeof *ns);
        const char **nw = realloc(why[t], (cnt[t] + 1) * sizeof *nw);
        if (ne)
            ev[t] = ne;
        if (ns)
            sql[t] = ns;
        if (nw)
            why[t] = nw;
        if (!ne || !ns || !nw)
            continue;
        const char *reason = NULL;
        /* the condition of the direction taken */
        sql[t][cnt[t]] = data_expr_sql(x->dialect, e->cond, term_of, rn, &reason);
        if (sql[t][cnt[t]] && !e->taken) {
            char *neg = negate(sql[t][cnt[t]]);
            free(sql[t][cnt[t]]);
            sql[t][cnt[t]] = neg;
        }
        if (!sql[t][cnt[t]])
            x->not_sql++;
        why[t][cnt[t]] = reason;
        ev[t][cnt[t]] = e;
        tsite[t] = w.site;
        cnt[t]++;
    }
    free(w.seen);
    for (size_t t = 0; t < ntuples; t++) {
        if (tsite[t] < 0)
            continue;
        int f = dtree_insert(&x->sites[tsite[t]], ev[t], sql[t], why[t], cnt[t]);
        if (f > 0)
            fresh += f;
    }
out:
    for (size_t t = 0; t < ntuples && sql; t++) {
        for (size_t k = 0; k < cnt[t]; k++)
            free(sql[t][k]);
        free(sql[t]), free(ev ? (void *)ev[t] : NULL), free(why ? (void *)why[t] : NULL);
    }
    free(cnt), free(tsite), free(ev), free(sql), free(why);
    return fresh;
}

/* Tuples the run fetched that no earlier run had (by key); for the exhaustion test. */
static void count_distinct(dstate_x *x, const dlog *lg)
{
    for (size_t t = 0; t < lg->ntuples; t++) {
        const dlog_tuple *tp = &lg->tuples[t];
        if (tp->site < 0)
            continue;
        if (!tp->nkeys) { /* no key: every fetched tuple counts (an upper bound) */
            x->sites[tp->site].distinct++;
            continue;
        }
        uint64_t h = 1469598103934665603ull ^ (uint64_t)tp->site;
        for (int k = 0; k < tp->nkeys; k++)
            for (const char *p = tp->keys[k]; *p; p++)
                h = (h ^ (uint8_t)*p) * 1099511628211ull;
        h |= 1;
        if (x->seen_n * 2 >= x->seen_cap) {
            size_t nc = x->seen_cap ? x->seen_cap * 2 : 1024;
            uint64_t *ns = calloc(nc, sizeof *ns);
            if (!ns)
                return;
            for (size_t i = 0; i < x->seen_cap; i++)
                if (x->seen[i])
                    for (size_t j = x->seen[i] % nc;; j = (j + 1) % nc)
                        if (!ns[j]) {
                            ns[j] = x->seen[i];
                            break;
                        }
            free(x->seen);
            x->seen = ns;
            x->seen_cap = nc;
        }
        for (size_t j = h % x->seen_cap;; j = (j + 1) % x->seen_cap) {
            if (x->seen[j] == h)
                break;
            if (!x->seen[j]) {
                x->seen[j] = h;
                x->seen_n++;
                x->sites[tp->site].distinct++;
                break;
            }
        }
    }
}

static uint32_t merge_coverage(dstate_x *x, const uint8_t *cov)
{
    uint32_t fresh = 0;
    for (uint32_t i = 0; i < x->nslots; i++)
        if (cov[i] && !x->covered[i]) {
            x->covered[i] = 1;
            if (x->slot_user[i]) {
                fresh++;
                x->user_covered++;
            }
        }
    return fresh;
}

/* The test of a run: the program's own inputs (data inputs are not replayed: the fixture
 * or the recorded results give those values), and beside it the tuples it ran on. */
static void write_test(dstate_x *x, const run_result *r, const dlog *lg, uint32_t fresh)
{
    uint32_t n = 0;
    uint64_t *vals = calloc(r->ninputs + 1, sizeof *vals);
    uint8_t *types = calloc(r->ninputs + 1, 1);
    const char **names = calloc(r->ninputs + 1, sizeof *names);
    if (!vals || !types || !names)
        goto out;
    for (uint32_t i = 0; i < r->ninputs; i++) {
        const char *nm = r->inames ? r->inames[i] : NULL;
        if (nm && !strncmp(nm, "data:", 5))
            continue;
        vals[n] = r->inputs[i];
        types[n] = r->itypes[i];
        names[n] = nm;
        n++;
    }
    test_case tc = {n, vals, types, names, r->error != ERR_NONE};
    char comment[160], *err = NULL;
    snprintf(comment, sizeof comment, "run %llu: %u new branch directions, %zu tuples", (unsigned long long)x->runs,
             fresh, lg->ntuples);
    int num = r->error != ERR_NONE ? suite_write_error(x->suite, &tc, error_kind_name(r->error), &err)
                                   : suite_write_test(x->suite, &tc, comment, &err);
    if (num < 0) {
        fprintf(stderr, "sympath data: cannot write a test: %s\n", err ? err : "?");
        free(err);
        goto out;
    }
    char path[4096];
    const char *dir = r->error != ERR_NONE ? suite_errors_dir(x->suite) : suite_tests_dir(x->suite);
    if (r->error != ERR_NONE)
        x->errors++;
    else
        x->tests++;
    if (lg->results) { /* PostgreSQL: the recorded results */
        snprintf(path, sizeof path, r->error != ERR_NONE ? "%s/error-%03d.results" : "%s/test-%05d.results", dir,
                 num);
        if (write_file_atomic(path, lg->results, strlen(lg->results)))
            fprintf(stderr, "sympath data: cannot write %s: %s\n", path, strerror(errno));
    } else { /* SQLite: the rows, as a fixture */
        size_t nk = 0, nw = 0;
        bool unkeyed = false;
        for (int i = 0; i < x->nsites; i++)
            nw += (size_t)x->sites[i].nwhole;
        for (size_t t = 0; t < lg->ntuples; t++) {
            const dlog_tuple *tp = &lg->tuples[t];
            nk += (size_t)tp->nkeys;
            unkeyed |= tp->site >= 0 && !tp->nkeys && !x->sites[tp->site].nwhole;
        }
        if (unkeyed) /* no rowids and tables too large to copy: the rows are not in the fixture */
            x->tests_unkeyed++;
        const char **keys = calloc(nk + nw + 1, sizeof *keys);
        nk = 0;
        for (size_t t = 0; keys && t < lg->ntuples; t++)
            for (int k = 0; k < lg->tuples[t].nkeys; k++)
                keys[nk++] = lg->tuples[t].keys[k];
        for (int i = 0; keys && i < x->nsites; i++) { /* keyless sites of this run: their tables whole */
            bool used = false;
            for (size_t t = 0; t < lg->ntuples && !used; t++)
                used = lg->tuples[t].site == i && !lg->tuples[t].nkeys;
            for (int k = 0; used && k < x->sites[i].nwhole; k++)
                keys[nk++] = x->sites[i].whole[k];
        }
        char *ferr = NULL, *sql = keys ? data_source_fixture(x->ds, keys, nk, &ferr) : NULL;
        snprintf(path, sizeof path, r->error != ERR_NONE ? "%s/error-%03d.sql" : "%s/test-%05d.sql", dir, num);
        if (!sql || write_file_atomic(path, sql, strlen(sql)))
            fprintf(stderr, "sympath data: cannot write the fixture %s: %s\n", path, ferr ? ferr : strerror(errno));
        free(sql), free(ferr), free(keys);
    }
out:
    free(vals), free(types), free(names);
}

/* Run the executor once with `plan`; process the run. Returns the tuples fetched, -1 on failure. */
static int64_t run_once(dstate_x *x, const char *plan, uint32_t *new_paths)
{
    *new_paths = 0;
    if (write_file_atomic(x->plan_path, plan, strlen(plan)))
        return -1;
    FILE *lf = fopen(x->log_path, "w");
    if (lf)
        fclose(lf);
    char *err = NULL;
    if (executor_begin(x->ex, NULL, 0, &err)) {
        fprintf(stderr, "sympath data: %s\n", err ? err : "cannot run the program");
        free(err);
        return -1;
    }
    executor *exs[1] = {x->ex};
    executor_wait_any(exs, 1);
    run_result r;
    memset(&r, 0, sizeof r);
    if (executor_finish(x->ex, x->cx, &r, &err)) {
        fprintf(stderr, "sympath data: malformed trace: %s\n", err ? err : "?");
        free(err);
    }
    x->runs++;
    x->exec_seconds += r.seconds;
    dlog lg;
    if (dlog_read(x, &lg)) {
        run_result_clear(&r);
        return -1;
    }
    count_distinct(x, &lg);
    uint32_t before = 0;
    for (int i = 0; i < x->nsites; i++)
        before += dtree_paths(&x->sites[i].root);
    run_names rn;
    memset(&rn, 0, sizeof rn);
    if (!name_inputs(x, &r, &rn))
        grow_trees(x, &r, &rn, lg.ntuples);
    free_names(&rn);
    uint32_t after = 0;
    for (int i = 0; i < x->nsites; i++)
        after += dtree_paths(&x->sites[i].root);
    *new_paths = after - before;
    uint32_t fresh = merge_coverage(x, executor_coverage(x->ex));
    /* a run over the time limit is, here, a query slower than the limit (its tuples never
     * came): counted and reported with its node, not kept as a hang of the program */
    bool timed_out = r.error == ERR_TIMEOUT;
    if (timed_out)
        x->timeouts++;
    /* the full-scan comparison keeps no test: its fixture would be the whole table */
    if ((fresh || (r.error != ERR_NONE && !timed_out)) && !x->o->full_scan)
        write_test(x, &r, &lg, fresh);
    int64_t fetched = timed_out && !lg.ntuples ? -2 : (int64_t)lg.ntuples;
    dlog_free(&lg);
    run_result_clear(&r);
    return fetched;
}

/* ---------------------------------------------------------------- candidates */

typedef struct cand {
    int site;
    dnode *node;
    bool leaf;
    char *cond;          /* the node's path condition */
    uint64_t limit;      /* n_q */
    double score, rows, cost;
} cand;

/* Estimate of a node's query (cached on the node). */
static int estimate(dstate_x *x, dsite *s, dnode *n, const char *cond)
{
    if (n->est_known)
        return 0;
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
        if (asprintf(&pre, "SELECT * FROM (%s) AS sympath_s LIMIT %d", s->sql, SAMPLE_ROWS) < 0)
            return -1;
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
    int pass;            /* 0: complement leaves, 1: internal nodes (their expectations need the leaves' estimates) */
    cand *c;
    size_t n, cap;
} collect;

static void push(collect *cl, cand c)
{
    if (cl->n == cl->cap) {
        size_t nc = cl->cap ? cl->cap * 2 : 32;
        cand *ns = realloc(cl->c, nc * sizeof *ns);
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
    if (leaf != (cl->pass == 0))
        return;
    if (leaf && n->state != DN_OPEN)
        return;
    if (!leaf && !n->open_below)
        return;
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
        if (leaf)
            n->state = DN_DIVERGED;
        free(cond);
        return;
    }
    double tuple_cost = TUPLE_COST * s->full_cost / (double)(s->table_rows > 0 ? s->table_rows : 1);
    double skip = (double)n->offset; /* OFFSET rescans the tuples given before */
    cand c = {cl->site, n, leaf, cond, 1, 0, n->rows, 0};
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
            if (e <= 0)
                continue;
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
static int choose(dstate_x *x, cand *best)
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
        if (!found || i != bi)
            free(cl.c[i].cond);
    if (found)
        *best = cl.c[bi];
    free(cl.c);
    return found;
}

static const char *budget_reason(dstate_x *x)
{
    if (x->o->interrupted && *x->o->interrupted)
        return "interrupted";
    if (x->o->budget_seconds > 0 && util_now_s() - x->t0 >= x->o->budget_seconds)
        return "budget";
    return NULL;
}

/* Every site's table was seen completely: no query can bring anything new. */
static bool tables_seen(const dstate_x *x)
{
    if (!x->nsites)
        return false;
    for (int i = 0; i < x->nsites; i++)
        if (x->sites[i].table_rows < 0 || x->sites[i].distinct < (uint64_t)x->sites[i].table_rows)
            return false;
    return true;
}

static void mark_exhausted(dnode *n, void *ctx)
{
    (void)ctx;
    if (!n->explored && n->parent && n->state == DN_OPEN)
        n->state = DN_EXHAUSTED;
}

static void explore_loop(dstate_x *x)
{
    char plan[64 * 1024];
    uint32_t np;
    if (x->o->full_scan) {
        snprintf(plan, sizeof plan, "limit\t0\nsymbolic\t0\n");
        run_once(x, plan, &np);
        x->stop_reason = "full scan";
        return;
    }
    snprintf(plan, sizeof plan, "limit\t%u\n", x->o->first_limit);
    if (run_once(x, plan, &np) < 0) {
        x->stop_reason = "the program could not be run";
        return;
    }
    for (;;) {
        if ((x->stop_reason = budget_reason(x)))
            return;
        if (tables_seen(x)) {
            for (int i = 0; i < x->nsites; i++)
                dtree_walk(&x->sites[i].root, mark_exhausted, NULL);
            x->stop_reason = "table exhausted";
            return;
        }
        cand c;
        if (!choose(x, &c)) {
            x->stop_reason = "no candidate left";
            return;
        }
        if ((x->stop_reason = budget_reason(x))) {
            free(c.cond);
            return;
        }
        dsite *s = &x->sites[c.site];
        /* other sites: the first tuple only (their own candidates come in their turn), but
         * a small one (at most --first rows: a lookup or configuration table) whole */
        int n = snprintf(plan, sizeof plan, "limit\t1\nsite\t%s\t%llu\t%llu\t%s\n", s->id,
                         (unsigned long long)c.limit, (unsigned long long)c.node->offset, c.cond);
        for (int i = 0; i < x->nsites && n < (int)sizeof plan; i++)
            if (i != c.site && x->sites[i].table_rows >= 0 && x->sites[i].table_rows <= (int64_t)x->o->first_limit)
                n += snprintf(plan + n, sizeof plan - (size_t)n, "site\t%s\t0\t0\t\n", x->sites[i].id);
        if (n >= (int)sizeof plan) { /* a condition too long for the plan: give the node up */
            c.node->state = DN_NOT_SQL;
            c.node->why = "condition too long";
            free(c.cond);
            continue;
        }
        dquery *nq = realloc(x->queries, (x->nqueries + 1) * sizeof *nq);
        if (nq) {
            x->queries = nq;
            nq = &x->queries[x->nqueries++];
            memset(nq, 0, sizeof *nq);
            nq->site = c.site;
            nq->cond = strdup(c.cond);
            nq->limit = c.limit;
            nq->offset = c.node->offset;
            nq->sql = data_wrap_select_at(s->sql, strlen(s->sql), s->ncols, c.cond, c.limit, c.node->offset);
            nq->est_rows = c.rows;
            nq->dbms_rows = x->dialect == DATA_PG ? c.node->dbms_rows : -1;
            nq->est_cost = c.cost;
            nq->aimed_leaf = c.leaf;
        }
        int64_t got = run_once(x, plan, &np);
        if (nq) {
            nq = &x->queries[x->nqueries - 1];
            nq->fetched = got > 0 ? (uint64_t)got : 0;
            nq->new_paths = np;
        }
        if (got == -2) { /* its query did not finish within the run's time limit */
            c.node->state = c.leaf ? DN_TIMEOUT : c.node->state;
            if (!c.leaf)
                c.node->rows = 0, c.node->rows_exact = true; /* not asked again */
            free(c.cond);
            continue;
        }
        if (c.leaf && !c.node->explored) {
            if (got == 0) {
                c.node->state = DN_NO_DATA;
            } else if (++c.node->tries >= MAX_TRIES) {
                c.node->state = DN_DIVERGED;
            }
        } else if (!c.leaf && np == 0 && got >= 0 && (uint64_t)got == c.limit) {
            /* an internal query that found nothing new: its estimate was too hopeful */
            c.node->rows = c.node->rows * 4 + 1;
        }
        if (got >= 0 && (uint64_t)got < c.limit) { /* the real size: fewer tuples than asked for */
            c.node->rows = (double)(c.node->offset + (uint64_t)got);
            c.node->rows_exact = true;
        }
        if (got > 0)
            c.node->offset += (uint64_t)got;
        free(c.cond);
        if (got < 0) {
            x->stop_reason = "the program could not be run";
            return;
        }
    }
}

/* ---------------------------------------------------------------- setup */

int data_explore(const data_opts *o, data_summary *sum, char **err)
{
    dstate_x x;
    memset(&x, 0, sizeof x);
    x.o = o;
    x.t0 = util_now_s();
    int rc = -1;
    if (asprintf(&x.plan_path, "%s/data-plan", o->work_dir) < 0 || asprintf(&x.log_path, "%s/data-log", o->work_dir) < 0)
        goto out;
    x.ds = data_source_open(o->db, err);
    if (!x.ds)
        goto out;
    x.dialect = data_source_dialect(x.ds);
    if (site_table_load(o->sites_path, &x.sites_tab, err))
        goto out;
    x.nslots = x.sites_tab.nslots;
    x.covered = calloc(x.nslots + 1, 1);
    x.slot_user = calloc(x.nslots + 1, 1);
    x.cx = expr_ctx_new();
    if (!x.covered || !x.slot_user || !x.cx)
        goto out;
    for (uint32_t i = 0; i < x.sites_tab.nsites; i++) {
        const site_info *si = &x.sites_tab.sites[i];
        if (!si->user)
            continue;
        for (uint32_t d = 0; d < si->ndirs && si->slot_base + d < x.nslots; d++)
            x.slot_user[si->slot_base + d] = 1;
        x.user_slots += si->ndirs;
    }
    char hash[65];
    suite_meta meta = {o->sources[0], sha256_file_hex(o->sources[0], hash) == 0 ? hash : NULL, "main",
                       "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )", "sympath " SYMPATH_VERSION};
    x.suite = suite_open(o->out_dir, &meta, err);
    if (!x.suite)
        goto out;
    setenv("SYMPATH_DATA_PLAN", x.plan_path, 1);
    setenv("SYMPATH_DATA_LOG", x.log_path, 1);
    setenv("SYMPATH_DATA_DB", o->db, 1);
    executor_opts eo = {o->exe_path, o->work_dir, 0, o->run_timeout_ms, o->mem_mb, o->out_kb, x.nslots, 0, 0, 0};
    x.ex = executor_start(&eo, err);
    if (!x.ex)
        goto out;
    explore_loop(&x);
    x.total_seconds = util_now_s() - x.t0;
    if (data_write_report(&x))
        fprintf(stderr, "sympath data: cannot write report.json: %s\n", strerror(errno));
    data_print_summary(&x, stderr);
    if (sum) {
        memset(sum, 0, sizeof *sum);
        sum->slots_total = x.user_slots;
        sum->slots_covered = x.user_covered;
        sum->runs = x.runs;
        sum->queries = x.nqueries;
        sum->tuples_fetched = x.tuples_fetched;
        sum->tests = x.tests;
        sum->table_rows = x.nsites ? x.sites[0].table_rows : -1;
        for (int i = 0; i < x.nsites; i++)
            sum->paths += dtree_paths(&x.sites[i].root);
        sum->stop_reason = x.stop_reason;
        sum->seconds = util_now_s() - x.t0;
    }
    rc = 0;
out:
    if (rc && err && !*err)
        *err = strdup("out of memory");
    executor_stop(x.ex);
    if (x.suite)
        suite_close(x.suite);
    data_source_close(x.ds);
    site_table_free(&x.sites_tab);
    for (int i = 0; i < x.nsites; i++) {
        dtree_free(&x.sites[i].root);
        for (int k = 0; k < x.sites[i].nparams; k++)
            free(x.sites[i].params[k]);
        for (int k = 0; k < x.sites[i].nwhole; k++)
            free(x.sites[i].whole[k]);
        free(x.sites[i].whole);
        free(x.sites[i].params);
        free(x.sites[i].sql);
    }
    free(x.sites);
    for (size_t i = 0; i < x.nqueries; i++)
        free(x.queries[i].cond), free(x.queries[i].sql);
    free(x.queries);
    for (size_t i = 0; i < x.nwrites; i++)
        free(x.writes[i]);
    free(x.writes);
    free(x.seen);
    free(x.covered), free(x.slot_user);
    expr_ctx_free(x.cx);
    free(x.plan_path), free(x.log_path);
    return rc;
}
