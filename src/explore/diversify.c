/* diversify.c: kept tests re-solved on their own path with the inputs the path leaves free at varied, non-trivial values, kept only when the run follows the same path. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../emit/emit.h"
#include "explore_state.h"
#include "util/util.h"

/*
 * A kept test's inputs are the solver's first model of its path condition: an input no branch
 * constrains keeps its default, 0. A unit test built from it asserts what the function computes
 * from zeros, which a mutant of the arithmetic rarely changes (base64 of "\0\0\0" is "AAAA").
 * After the exploration (so it costs the search nothing) each kept test is solved again with its
 * own path condition plus, input by input in test-vector order, the caller's preferred values
 * (explore_opts.diversify_prefs: distinct printable bytes, integers away from 0 and 1); a
 * preference the path forbids is skipped and the input keeps the model's value, pinned for the
 * later choices. The model is run on executor 0 and replaces the test's inputs only when the run
 * has the same events (kind, site, outcome), the same ending and the same user coverage, so the
 * test's meaning and coverage are unchanged. The same design as db_minimize.c, with the opposite
 * preference (varied instead of simplest values).
 */

#define DIV_QUERIES 120  /* solver queries per test at most */
#define DIV_QUERY_MS 300 /* time-out of each */
#define DIV_PREFS 3      /* preferred values tried per input */
#define DIV_SECONDS 0.5  /* per test at most; in all o->diversify_share of the budget, 0.5 s at least */
#define DIV_EVALS 200000 /* boundary detection: path conditions x inputs at most */
#define DIV_INPUTS 512   /* a test reading more inputs is left as it is (a run cut by the input limit) */

typedef struct div_entry {
    struct div_entry *next;
    int num;      /* test-NNNNN, or cand-NNNNN when cand */
    int cand;     /* a candidate test of the mutation analysis (candidates.c) */
    run_result r; /* a copy: inputs, their types, widths and names, events */
    uint8_t *cov; /* the run's coverage bytes (nslots) */
} div_entry;

static void entry_free(div_entry *e)
{
    run_result_clear(&e->r);
    free(e->cov);
    free(e);
}

/* tests/test-NNNNN.cov: the user slots cov covers (explore_cov_list). */
static void write_cov(explore_state *s, int num, const uint8_t *cov, bool marked)
{
    strbuf b = STRBUF_INIT;
    explore_cov_list(&b, s->slot_user, s->slot_target, s->nslots, cov, marked);
    char path[4200];
    snprintf(path, sizeof path, "%s/tests/test-%05d.cov", s->o->out_dir, num);
    if (b.s && util_write_atomic(path, b.s, b.len) != 0)
        explore_output_failed(s, "cannot write a coverage file", NULL, errno);
    sb_free(&b);
}

/* Queue run r (test or candidate num, coverage cov) for the pass at the end. */
static void queue(explore_state *s, int num, int cand, const run_result *r, const uint8_t *cov)
{
    div_entry *e = calloc(1, sizeof *e);
    if (!e) return;
    e->num = num;
    e->cand = cand;
    e->cov = malloc(s->nslots + 1);
    if (!e->cov || run_result_copy(&e->r, r)) {
        entry_free(e);
        return;
    }
    memcpy(e->cov, cov, s->nslots);
    e->next = s->div_queue;
    s->div_queue = e;
}

void explore_div_queue_kept(explore_state *s, int num, const run_result *r, const uint8_t *cov)
{
    if (s->o->test_coverage) write_cov(s, num, cov, r->marked);
    if ((!s->o->diversify_prefs && !s->o->candidates) || r->error != ERR_NONE || !r->ninputs) return;
    queue(s, num, 0, r, cov);
}

void explore_div_queue_cand(explore_state *s, unsigned num, const run_result *r, const uint8_t *cov)
{
    if (!s->o->diversify_prefs || r->error != ERR_NONE || !r->ninputs) return;
    queue(s, (int)num, 1, r, cov);
}

/* The same user coverage as the queued run's. */
static bool same_cov(const explore_state *s, const uint8_t *a, const uint8_t *b)
{
    for (uint32_t i = 0; i < s->nslots; i++)
        if (s->slot_user[i] && !a[i] != !b[i]) return false;
    return true;
}

/* Whether input i's value sits on a branch boundary of r's path: its neighbour value (one less
 * or one more, within its width; for a byte, 0 aside: the end of a string is no boundary worth
 * keeping) breaks one of the path's conditions pc[0..npc), the other inputs as they are in vals
 * (restored). Such a value (`handle = 0` under `handle < 0`, a type byte 4 under `t > 3`) kills
 * the relational and constant mutants there and keeps it; floating point has no neighbours. */
static bool on_boundary(const run_result *r, expr **pc, size_t npc, uint64_t *vals, uint32_t i, double deadline)
{
    unsigned w = r->iwidths[i];
    if (r->itypes[i] == IT_FLOAT || r->itypes[i] == IT_DOUBLE || w == 0) return false;
    uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1, v = vals[i];
    bool hit = false;
    for (int d = -1; d <= 1 && !hit; d += 2) {
        uint64_t nv = (v + (uint64_t)(int64_t)d) & mask;
        if (nv == v || (w <= 8 && nv == 0)) continue;
        vals[i] = nv;
        /* by the deadline too: DIV_EVALS counts evaluations, and one of an expression of a table-driven
         * cipher (tiny-AES-c: a DAG of S-box lookups) walks a large DAG; the keeping of tests ran 10 minutes */
        for (size_t k = 0; k < npc && !hit && ((k & 15) || util_now_s() < deadline); k++)
            hit = expr_eval(pc[k], vals, r->ninputs) == 0;
        vals[i] = v;
    }
    return hit;
}

/* Input i's preferred values into v (at most DIV_PREFS): none when its value is on a boundary of
 * the path (bound[i]: pinned from the start), 0 for a 0 byte after a 0 byte (cur: the values
 * chosen so far), else the caller's preferences. 0: leave input i as the model has it. */
static unsigned prefs_of(const explore_state *s, const run_result *r, const uint64_t *cur, const bool *bound,
                         uint32_t i, uint64_t *v)
{
    if (bound[i]) return 0;
    /* the bytes after a string's terminator: a byte of a run of bytes after a 0 stays 0 (the
     * test's literal ends there, "full" rather than "full\x00mZp9") */
    if (r->iwidths[i] == 8 && i > 0 && r->iwidths[i - 1] == 8 && cur[i - 1] == 0 && r->inputs[i] == 0) {
        v[0] = 0; /* (an earlier model may have moved it) */
        return 1;
    }
    const char *nm = r->inames && r->inames[i] ? r->inames[i] : "";
    unsigned n = s->o->diversify_prefs(nm, r->itypes[i], r->iwidths[i], cur[i], i, v, DIV_PREFS);
    return n > DIV_PREFS ? DIV_PREFS : n;
}

/* New inputs for e's test by deadline; 1 with *out (the run) when they follow its path. */
static int diversify_run(explore_state *s, const div_entry *e, run_result *out, double deadline)
{
    const run_result *r = &e->r;
    double t0 = util_now_s();
    if (deadline > t0 + DIV_SECONDS) deadline = t0 + DIV_SECONDS;
    size_t npc;
    expr **pc, **sym;
    uint64_t *cur;
    if (explore_run_path(s, r, 2 * (size_t)r->ninputs + 2, &pc, &npc, &cur, &sym)) return 0;
    if (!s->min_solver && !(s->min_solver = solver_new(DIV_QUERY_MS))) {
        free(pc), free(cur), free(sym);
        return 0;
    }
    /* values on a branch boundary stay (a bounded amount of evaluation: pc by input) */
    bool *bound = calloc((size_t)r->ninputs + 1, sizeof *bound);
    if (!bound) {
        free(pc), free(cur), free(sym);
        return 0;
    }
    if ((uint64_t)npc * r->ninputs <= DIV_EVALS)
        for (uint32_t i = 0; i < r->ninputs && util_now_s() < deadline; i++)
            bound[i] = on_boundary(r, pc, npc, cur, i, deadline);
    for (uint32_t i = 0; i < r->ninputs; i++) /* no later model moves them */
        if (bound[i]) pc[npc++] = expr_cmp(s->cx, PRED_EQ, sym[i], expr_const(s->cx, cur[i], r->iwidths[i]));
    unsigned queries = 0;
    /* first every input's first preference in one query (a path that constrains nothing), then
     * input by input */
    expr *all = expr_const(s->cx, 1, 1);
    bool any = false;
    uint64_t *first = malloc(((size_t)r->ninputs + 1) * sizeof *first); /* the values asked for in one query */
    if (first) memcpy(first, cur, r->ninputs * sizeof *first);
    for (uint32_t i = 0; first && i < r->ninputs; i++) {
        uint64_t v[DIV_PREFS];
        if (prefs_of(s, r, first, bound, i, v)) {
            first[i] = v[0];
            all = expr_and1(s->cx, all, expr_cmp(s->cx, PRED_EQ, sym[i], expr_const(s->cx, v[0], r->iwidths[i])));
            any = true;
        }
    }
    free(first);
    bool done = !any || (queries++, explore_try_solve(s, pc, npc, all, cur, r->ninputs));
    for (uint32_t i = 0; !done && i < r->ninputs; i++) {
        uint64_t v[DIV_PREFS];
        unsigned nv = prefs_of(s, r, cur, bound, i, v);
        for (unsigned k = 0; k < nv && queries < DIV_QUERIES && util_now_s() < deadline; k++) {
            if (cur[i] == v[k]) break;
            queries++;
            if (explore_try_solve(s, pc, npc, expr_cmp(s->cx, PRED_EQ, sym[i], expr_const(s->cx, v[k], r->iwidths[i])),
                                  cur, r->ninputs))
                break;
        }
        /* later choices keep this one */
        pc[npc++] = expr_cmp(s->cx, PRED_EQ, sym[i], expr_const(s->cx, cur[i], r->iwidths[i]));
    }
    free(pc), free(sym), free(bound);
    int kept = 0;
    if (memcmp(cur, r->inputs, r->ninputs * sizeof *cur) != 0) {
        executor *ex = s->ex[0];
        char *err = NULL;
        memset(out, 0, sizeof *out);
        if (executor_begin(ex, cur, r->ninputs, &err) == 0) {
            executor *one[1] = {ex};
            if (executor_wait_any(one, 1) == 0 && executor_finish(ex, s->cx, out, &err) == 0)
                kept = explore_same_path(r, out) && out->ninputs == r->ninputs &&
                       same_cov(s, e->cov, executor_coverage(ex));
        }
        free(err);
        if (!kept) {
            run_result_clear(out);
            s->div_rejected++;
        }
    }
    free(cur);
    return kept;
}

/* Move the queued entries, oldest first, the kept tests to *kept and the candidates to the end of *cand. */
static void drain(explore_state *s, div_entry **kept, div_entry **cand)
{
    div_entry *rev = NULL;
    while (s->div_queue) {
        div_entry *e = s->div_queue;
        s->div_queue = e->next;
        e->next = rev;
        rev = e;
    }
    div_entry **kt = kept, **ct = cand;
    while (*kt) kt = &(*kt)->next;
    while (*ct) ct = &(*ct)->next;
    while (rev) {
        div_entry *e = rev;
        rev = e->next;
        e->next = NULL;
        div_entry ***t = e->cand ? &ct : &kt;
        **t = e;
        *t = &e->next;
    }
}

/* The candidates, after the kept tests and their boundary candidates: diversified within limit
 * seconds, each rewritten in place (tests/cand-NNNNN.xml) when its run keeps the path. */
static void diversify_cands(explore_state *s, div_entry *cand, double limit, bool stop)
{
    double t0 = util_now_s();
    while (cand) {
        div_entry *e = cand;
        cand = e->next;
        stop = stop || s->write_failed || (s->o->interrupted && *s->o->interrupted);
        run_result m;
        if (!stop && util_now_s() - t0 <= limit && e->r.ninputs <= DIV_INPUTS && diversify_run(s, e, &m, t0 + limit)) {
            test_case tc;
            explore_fill_test_case(&m, &tc);
            char path[4200], *err = NULL;
            snprintf(path, sizeof path, "%s/tests/cand-%05d.xml", s->o->out_dir, e->num);
            if (suite_write_test_to(path, &tc, "a candidate test, inputs diversified (diversify.c)", &err) == 0)
                s->cands_diversified++;
            free(err);
            run_result_clear(&m);
        }
        entry_free(e);
    }
    s->div_seconds += util_now_s() - t0;
}

void explore_diversify_kept(explore_state *s)
{
    div_entry *rev = NULL, *cand = NULL; /* oldest first */
    drain(s, &rev, &cand);
    double t0 = util_now_s(), boundary = 0;
    double share = s->o->diversify_share > 0 ? s->o->diversify_share : 0.1;
    double limit = s->o->budget_seconds > 0 ? share * s->o->budget_seconds : share * (t0 - s->t0);
    if (limit < DIV_SECONDS) limit = DIV_SECONDS;
    bool stop = s->write_failed || !s->nex || (s->o->interrupted && *s->o->interrupted);
    s->cur_exec = s->exec_base;
    while (rev) {
        div_entry *e = rev;
        rev = e->next;
        stop = stop || (s->o->interrupted && *s->o->interrupted);
        if (!s->o->diversify_prefs) {
            /* --no-diversify: only the boundary candidates below */
        } else if (stop || util_now_s() - t0 > limit || e->r.ninputs > DIV_INPUTS) {
            s->div_skipped += !stop;
        } else {
            run_result m;
            if (diversify_run(s, e, &m, t0 + limit)) {
                test_case tc;
                explore_fill_test_case(&m, &tc);
                char *err = NULL;
                if (suite_rewrite_test(s->suite, e->num, &tc, "inputs diversified (diversify.c)", &err) == 0)
                    s->diversified++;
                else
                    stop = true; /* a file could not be written: leave the rest as they are */
                free(err);
                run_result_clear(&m);
            }
        }
        /* the comparisons' boundaries on this test's path, for the mutation analysis: a share of its own */
        double b0 = util_now_s();
        if (!stop && s->o->candidates && b0 - t0 < 2 * limit) explore_boundary_candidates(s, &e->r, t0 + 2 * limit);
        boundary += util_now_s() - b0;
        entry_free(e);
    }
    s->div_seconds += util_now_s() - t0 - boundary; /* diversification's own time */
    drain(s, &rev, &cand);                          /* the boundary candidates */
    diversify_cands(s, cand, limit, stop);
}
