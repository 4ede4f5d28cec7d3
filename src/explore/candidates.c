/* candidates.c: runs that covered nothing new but a new combination of user branch directions or of consecutive symbolic branches, saved as candidate tests for sympath unit's mutation analysis. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore_state.h"
#include "util/util.h"

/* FNV-1a over the indices of the user slots cov covers: the run's combination of branch directions. */
static uint64_t combination_hash(const explore_state *s, const uint8_t *cov)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < s->nslots; i++)
        if (cov[i] && s->slot_user[i]) {
            h ^= i;
            h *= 1099511628211ull;
        }
    return h ? h : 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* FNV-1a over the distinct pairs of consecutive symbolic branch directions inside the target's call
 * (phase 1): "%41" then "a" and "a" then "%41" are two combinations, though they cover the same
 * directions (a pointer stepped wrongly after an escape shows only in the first). */
static uint64_t sequence_hash(const run_result *r)
{
    uint64_t *pairs = malloc((r->nevents + 1) * sizeof *pairs), h = 1469598103934665603ull;
    if (!pairs) return h;
    size_t n = 0;
    uint32_t prev = 0;
    for (uint32_t i = 0; i < r->nevents; i++) {
        const sym_event *e = &r->events[i];
        if (e->phase != 1 || (e->kind != BK_BRANCH && e->kind != BK_SWITCH)) continue;
        uint32_t cur = e->site * 2u + e->taken + (e->kind == BK_SWITCH ? e->arg * 0x9e3779b1u : 0);
        pairs[n++] = (uint64_t)prev << 32 | cur;
        prev = cur;
    }
    qsort(pairs, n, sizeof *pairs, cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || pairs[i] != pairs[i - 1]) {
            h ^= pairs[i];
            h *= 1099511628211ull;
        }
    free(pairs);
    return h;
}

/* 1 when h was new to the set (and is now in it); 0 when seen or the set is full. */
static int combination_add(explore_state *s, uint64_t h)
{
    enum { CAP = 8192 };
    if (!s->cand_seen && !(s->cand_seen = calloc(CAP, sizeof *s->cand_seen))) return 0;
    for (uint32_t k = 0, i = (uint32_t)(h % CAP); k < CAP; k++, i = (i + 1) % CAP) {
        if (s->cand_seen[i] == h) return 0;
        if (!s->cand_seen[i]) {
            s->cand_seen[i] = h;
            return 1;
        }
    }
    return 0;
}

/* Write r as the next candidate test, with its coverage cov; 0, or -1 when it was not written. */
static int candidate_write(explore_state *s, const run_result *r, const uint8_t *cov, const char *comment)
{
    test_case tc;
    explore_fill_test_case(r, &tc);
    char path[4200];
    unsigned num = s->ncand + 1;
    snprintf(path, sizeof path, "%s/tests/cand-%05u.xml", s->o->out_dir, num);
    char *err = NULL;
    if (suite_write_test_to(path, &tc, comment, &err) != 0) {
        free(err);
        return -1; /* a candidate is an extra: its loss costs no test */
    }
    strbuf b = STRBUF_INIT;
    explore_cov_list(&b, s->slot_user, s->slot_target, s->nslots, cov, r->marked);
    snprintf(path, sizeof path, "%s/tests/cand-%05u.cov", s->o->out_dir, num);
    if (b.s) util_write_atomic(path, b.s, b.len);
    sb_free(&b);
    s->ncand = num;
    explore_div_queue_cand(s, num, r, cov); /* its free inputs varied at the end (diversify.c) */
    return 0;
}

void explore_candidate_consider(explore_state *s, const run_result *r, const uint8_t *cov, int diverged)
{
    if (!s->o->candidates || s->ncand >= s->o->candidates || diverged || r->error != ERR_NONE || !r->marked ||
        r->inputs_done || !r->ninputs || s->write_failed)
        return;
    if (!combination_add(s, combination_hash(s, cov) ^ sequence_hash(r) * 31)) return;
    candidate_write(s, r, cov, "a new combination of branch directions (a candidate test)");
}

/* The comparison under cond (at most one NOT over EQ, ULT or SLT: expr.h), or NULL when it is none
 * of the ordered ones. */
static const expr *ordered_cmp(const expr *cond)
{
    if (cond->op == EXPR_NOT && cond->width == 1) cond = cond->kid[0];
    return cond->op == EXPR_ULT || cond->op == EXPR_SLT ? cond : NULL;
}

/* 1 when site's boundary goal g was not tried yet (and is now marked tried). */
static int boundary_new(explore_state *s, uint32_t site, unsigned g)
{
    return combination_add(s, 0x5bd1e9955bd1e995ull ^ ((uint64_t)site << 2 | g));
}

void explore_boundary_candidates(explore_state *s, const run_result *r, double deadline)
{
    unsigned cap = s->o->candidates + s->o->candidates / 2; /* a third of them kept for these */
    if (!s->o->candidates || s->ncand >= cap || s->write_failed || !s->nex || !r->ninputs) return;
    size_t npc;
    expr **pc, **sym;
    uint64_t *cur;
    if (explore_run_path(s, r, 2, &pc, &npc, &cur, &sym)) return;
    free(sym);
    if (!s->min_solver && !(s->min_solver = solver_new(300))) {
        free(pc), free(cur);
        return;
    }
    uint64_t *vals = malloc(((size_t)r->ninputs + 1) * sizeof *vals);
    size_t k = 0; /* pc entries before event i */
    for (uint32_t i = 0; vals && i < r->nevents && util_now_s() < deadline && s->ncand < cap; i++) {
        const sym_event *e = &r->events[i];
        if (!e->cond) continue;
        size_t before = k++;
        const expr *c = e->phase == 1 && e->kind == BK_BRANCH ? ordered_cmp(e->cond) : NULL;
        if (!c) continue;
        expr *a = c->kid[0], *b = c->kid[1];
        /* a == b (the edge where a < b turns false) and a + 1 == b (where it turns true): a relational
         * or constant mutant of the comparison changes its outcome on one of them */
        for (unsigned g = 0; g < 2 && util_now_s() < deadline; g++) {
            expr *lhs = g ? expr_binary(s->cx, EXPR_ADD, a, expr_const(s->cx, 1, a->width)) : a;
            expr *goal = expr_cmp(s->cx, PRED_EQ, lhs, b);
            if (expr_eval(goal, r->inputs, r->ninputs)) continue; /* this run is on it already */
            if (!boundary_new(s, e->site, g)) continue;
            memcpy(vals, r->inputs, r->ninputs * sizeof *vals);
            if (!explore_try_solve(s, pc, before, goal, vals, r->ninputs)) continue;
            executor *ex = s->ex[0];
            char *err = NULL;
            run_result out;
            memset(&out, 0, sizeof out);
            if (executor_begin(ex, vals, r->ninputs, &err) == 0) {
                executor *one[1] = {ex};
                if (executor_wait_any(one, 1) == 0 && executor_finish(ex, s->cx, &out, &err) == 0 &&
                    out.error == ERR_NONE && out.marked && !out.inputs_done && out.ninputs)
                    candidate_write(s, &out, executor_coverage(ex), "on a comparison's boundary (a candidate test)");
            }
            free(err);
            run_result_clear(&out);
        }
    }
    free(vals);
    free(pc);
    free(cur);
}
