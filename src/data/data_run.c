/* data_run.c: one run of `sympath data`: the program on a plan's tuples, its inputs named by their SQL terms, the tuple trees grown with the SQL of its branch conditions, its test and fixture. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "../report/report.h"
#include "data_int.h"
#include "db/db.h"

/* What the inputs of a run are: the data inputs' site, tuple and SQL term (by input index). */
typedef struct run_names {
    const run_result *r;
    int *site; /* -1: not a data input */
    uint64_t *tuple;
    const char **term;
    bool *real;
    uint64_t owner; /* the tuple whose path the condition being translated joins */
    char **lit;     /* literals of other inputs' values (made on demand) */
} run_names;

/* The SQL of input `index` in a condition of tuple rn->owner: its term when it is a value of
 * that tuple, else the literal of the value it had in this run (values of other tuples, e.g.
 * a limit read from a configuration row, are the same data in the next run: concretized). */
static const char *term_of(void *ctx, uint32_t index, bool *is_real)
{
    run_names *rn = ctx;
    if (index >= rn->r->ninputs) return NULL;
    *is_real = rn->r->itypes && rn->r->itypes[index] == IT_DOUBLE;
    if (rn->site[index] >= 0 && rn->tuple[index] == rn->owner) return rn->term[index];
    if (!rn->lit[index]) {
        uint64_t v = rn->r->inputs[index];
        unsigned w = rn->r->iwidths ? rn->r->iwidths[index] : 64;
        if (*is_real) {
            double d;
            memcpy(&d, &v, sizeof d);
            rn->lit[index] = db_sql_double(d);
        } else if (w >= 64) {
            rn->lit[index] = db_sql_int((int64_t)v);
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
    if (!rn->site || !rn->tuple || !rn->term || !rn->real || !rn->lit) return -1;
    for (uint32_t i = 0; i < r->ninputs; i++) {
        rn->site[i] = -1;
        const char *nm = r->inames ? r->inames[i] : NULL;
        if (!nm || strncmp(nm, "data:", 5) || strlen(nm) < 5 + 17) continue;
        char id[17];
        memcpy(id, nm + 5, 16);
        id[16] = 0;
        const char *p = nm + 5 + 16;
        if (*p != ':') continue;
        char *end;
        uint64_t t = strtoull(p + 1, &end, 10);
        if (*end != ':') continue;
        rn->site[i] = dsite_find(x, id);
        rn->tuple[i] = t;
        rn->term[i] = end + 1;
        rn->real[i] = r->itypes && r->itypes[i] == IT_DOUBLE;
    }
    return 0;
}

static void free_names(run_names *rn)
{
    for (uint32_t i = 0; rn->lit && rn->r && i < rn->r->ninputs; i++) free(rn->lit[i]);
    free(rn->lit);
    free(rn->site), free(rn->tuple), free(rn->term), free(rn->real);
}

/* The tuple a condition belongs to: the latest (highest numbered) tuple whose values it reads,
 * the one being processed; values of other tuples and non-data inputs in it are concretized
 * (term_of). found: 0 no data value, 1 one tuple only, 2 mixed with other values. */
typedef struct walk {
    const run_names *rn;
    int found;
    bool other; /* it also reads values of other tuples or non-data inputs */
    uint64_t tuple;
    int site;
    uint32_t *seen; /* visited node ids (small open set) */
    size_t nseen, cap;
} walk;

static bool visited(walk *w, uint32_t id)
{
    for (size_t i = 0; i < w->nseen; i++)
        if (w->seen[i] == id) return true;
    if (w->nseen == w->cap) {
        size_t nc = w->cap ? w->cap * 2 : 64;
        uint32_t *ns = realloc(w->seen, nc * sizeof *ns);
        if (!ns) return true;
        w->seen = ns;
        w->cap = nc;
    }
    w->seen[w->nseen++] = id;
    return false;
}

static void symbols(walk *w, const expr *e)
{
    if (e->op == EXPR_CONST || w->nseen > 4096 || visited(w, e->id)) return;
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
    for (unsigned i = 0; i < e->nkids; i++) symbols(w, e->kid[i]);
}

/* NOT of a translated condition (a parenthesized term): "NOT (x)" loses its NOT. malloc'ed. */
static char *negate(const char *sql)
{
    char *n = NULL;
    if (!strncmp(sql, "NOT ", 4)) return strdup(sql + 4);
    return asprintf(&n, "NOT %s", sql) < 0 ? NULL : n;
}

/* Insert the run's per-tuple paths into the sites' trees; returns the complement nodes reached. */
static int grow_trees(dstate_x *x, const run_result *r, run_names *rn, size_t ntuples)
{
    if (!ntuples) return 0;
    /* events of each tuple, in order */
    size_t *cnt = calloc(ntuples, sizeof *cnt);
    int *tsite = malloc(ntuples * sizeof *tsite);
    const sym_event ***ev = calloc(ntuples, sizeof *ev);
    char ***sql = calloc(ntuples, sizeof *sql);
    const char ***why = calloc(ntuples, sizeof *why);
    int fresh = 0;
    if (!cnt || !tsite || !ev || !sql || !why) goto out;
    for (size_t t = 0; t < ntuples; t++) tsite[t] = -1;
    walk w;
    memset(&w, 0, sizeof w);
    w.rn = rn;
    for (uint32_t i = 0; i < r->nevents; i++) {
        const sym_event *e = &r->events[i];
        if (e->kind != BK_BRANCH && e->kind != BK_SWITCH) continue;
        w.found = 0;
        w.other = false;
        w.nseen = 0;
        symbols(&w, e->cond);
        if (w.found == 0 || w.tuple >= ntuples || w.site < 0) continue;
        if (w.other) x->cross_tuple++;
        rn->owner = w.tuple;
        size_t t = w.tuple;
        const sym_event **ne = realloc(ev[t], (cnt[t] + 1) * sizeof *ne);
        char **ns = realloc(sql[t], (cnt[t] + 1) * sizeof *ns);
        const char **nw = realloc(why[t], (cnt[t] + 1) * sizeof *nw);
        if (ne) ev[t] = ne;
        if (ns) sql[t] = ns;
        if (nw) why[t] = nw;
        if (!ne || !ns || !nw) continue;
        const char *reason = NULL;
        /* the condition of the direction taken */
        sql[t][cnt[t]] = data_expr_sql(x->dialect, e->cond, term_of, rn, &reason);
        if (sql[t][cnt[t]] && !e->taken) {
            char *neg = negate(sql[t][cnt[t]]);
            free(sql[t][cnt[t]]);
            sql[t][cnt[t]] = neg;
        }
        if (!sql[t][cnt[t]]) x->not_sql++;
        why[t][cnt[t]] = reason;
        ev[t][cnt[t]] = e;
        tsite[t] = w.site;
        cnt[t]++;
    }
    free(w.seen);
    for (size_t t = 0; t < ntuples; t++) {
        if (tsite[t] < 0) continue;
        int f = dtree_insert(&x->sites[tsite[t]], ev[t], sql[t], why[t], cnt[t]);
        if (f > 0) fresh += f;
    }
out:
    for (size_t t = 0; t < ntuples && sql; t++) {
        for (size_t k = 0; k < cnt[t]; k++) free(sql[t][k]);
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
        if (tp->site < 0) continue;
        if (!tp->nkeys) { /* no key: every fetched tuple counts (an upper bound) */
            x->sites[tp->site].distinct++;
            continue;
        }
        uint64_t h = 1469598103934665603ull ^ (uint64_t)tp->site;
        for (int k = 0; k < tp->nkeys; k++)
            for (const char *p = tp->keys[k]; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ull;
        h |= 1;
        if (x->seen_n * 2 >= x->seen_cap) {
            size_t nc = x->seen_cap ? x->seen_cap * 2 : 1024;
            uint64_t *ns = calloc(nc, sizeof *ns);
            if (!ns) return;
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
            if (x->seen[j] == h) break;
            if (!x->seen[j]) {
                x->seen[j] = h;
                x->seen_n++;
                x->sites[tp->site].distinct++;
                break;
            }
        }
    }
}

/* The test of a run: the program's own inputs (data inputs are not replayed: the fixture
 * or the recorded results give those values), and beside it the tuples it ran on. */
static void write_test(dstate_x *x, const run_result *r, const dlog *lg, uint32_t fresh)
{
    uint32_t n = 0;
    uint64_t *vals = calloc(r->ninputs + 1, sizeof *vals);
    uint8_t *types = calloc(r->ninputs + 1, 1);
    const char **names = calloc(r->ninputs + 1, sizeof *names);
    if (!vals || !types || !names) goto out;
    for (uint32_t i = 0; i < r->ninputs; i++) {
        const char *nm = r->inames ? r->inames[i] : NULL;
        if (nm && !strncmp(nm, "data:", 5)) continue;
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
        snprintf(path, sizeof path, r->error != ERR_NONE ? "%s/error-%03d.results" : "%s/test-%05d.results", dir, num);
        if (write_file_atomic(path, lg->results, strlen(lg->results)))
            fprintf(stderr, "sympath data: cannot write %s: %s\n", path, strerror(errno));
    } else { /* SQLite: the rows, as a fixture */
        size_t nk = 0, nw = 0;
        bool unkeyed = false;
        for (int i = 0; i < x->nsites; i++) nw += (size_t)x->sites[i].nwhole;
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
            for (int k = 0; k < lg->tuples[t].nkeys; k++) keys[nk++] = lg->tuples[t].keys[k];
        for (int i = 0; keys && i < x->nsites; i++) { /* keyless sites of this run: their tables whole */
            bool used = false;
            for (size_t t = 0; t < lg->ntuples && !used; t++) used = lg->tuples[t].site == i && !lg->tuples[t].nkeys;
            for (int k = 0; used && k < x->sites[i].nwhole; k++) keys[nk++] = x->sites[i].whole[k];
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

void data_stats_sample(dstate_x *x, int final)
{
    report_sample rs = {util_now_s() - x->t0,
                        x->runs,
                        x->user_covered,
                        x->user_slots,
                        x->tests,
                        (uint32_t)x->errors,
                        x->estimate_seconds,
                        x->nqueries,
                        x->timeouts,
                        0};
    report_progress_update(x->progress, &rs, NULL, final);
}

/* Run the executor once with `plan`; process the run. Returns the tuples fetched, -1 on failure. */
int64_t data_run_once(dstate_x *x, const char *plan, uint32_t *new_paths)
{
    *new_paths = 0;
    if (write_file_atomic(x->plan_path, plan, strlen(plan))) return -1;
    FILE *lf = fopen(x->log_path, "w");
    if (lf) fclose(lf);
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
    for (int i = 0; i < x->nsites; i++) before += dtree_paths(&x->sites[i].root);
    run_names rn;
    memset(&rn, 0, sizeof rn);
    if (!name_inputs(x, &r, &rn)) grow_trees(x, &r, &rn, lg.ntuples);
    free_names(&rn);
    uint32_t after = 0;
    for (int i = 0; i < x->nsites; i++) after += dtree_paths(&x->sites[i].root);
    *new_paths = after - before;
    uint32_t fresh =
        explore_merge_coverage(x->covered, x->slot_user, x->nslots, executor_coverage(x->ex), &x->user_covered);
    /* a run over the time limit is, here, a query slower than the limit (its tuples never
     * came): counted and reported with its node, not kept as a hang of the program */
    bool timed_out = r.error == ERR_TIMEOUT;
    if (timed_out) x->timeouts++;
    /* the full-scan comparison keeps no test: its fixture would be the whole table */
    if ((fresh || (r.error != ERR_NONE && !timed_out)) && !x->o->full_scan) write_test(x, &r, &lg, fresh);
    int64_t fetched = timed_out && !lg.ntuples ? -2 : (int64_t)lg.ntuples;
    data_stats_sample(x, 0);
    dlog_free(&lg);
    run_result_clear(&r);
    return fetched;
}
