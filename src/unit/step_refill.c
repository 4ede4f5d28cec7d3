/* step_refill.c: step 5b' of `sympath unit`: branch directions only dropped tests took (a path through a bug of the unit) sought again among the exploration's candidate tests. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/pipeline_int.h"
#include "util/util.h"

/* A set of coverage slots: one byte per slot number below n. */
typedef struct slot_set {
    uint8_t *on;
    size_t n;
} slot_set;

/* Add (on=1) or remove (on=0) the slots of test vector origin of run_dir; a vector without a .cov file
 * changes nothing. 0, or -1 when out of memory. */
static int set_mark(slot_set *s, const char *run_dir, const char *origin, int on)
{
    uint32_t *cov = NULL;
    size_t n = 0;
    if (unit_read_cov(run_dir, origin, &cov, &n) != 0) return 0;
    for (size_t i = 0; i < n; i++) {
        if (cov[i] >= s->n) {
            if (!on) continue;
            size_t nn = cov[i] + 1 > 2 * s->n ? cov[i] + 1 : 2 * s->n;
            uint8_t *g = realloc(s->on, nn);
            if (!g) {
                free(cov);
                return -1;
            }
            memset(g + s->n, 0, nn - s->n);
            s->on = g;
            s->n = nn;
        }
        s->on[cov[i]] = (uint8_t)on;
    }
    free(cov);
    return 0;
}

/* How many slots of set s test vector origin of run_dir takes. */
static size_t set_hits(const slot_set *s, const char *run_dir, const char *origin)
{
    uint32_t *cov = NULL;
    size_t n = 0, hits = 0;
    if (unit_read_cov(run_dir, origin, &cov, &n) != 0) return 0;
    for (size_t i = 0; i < n; i++) hits += cov[i] < s->n && s->on[cov[i]];
    free(cov);
    return hits;
}

/* The directions fr's recorded tests (all) took that no test of fr left in tv takes. */
static slot_set lost_slots(const fn_result *fr, const tests_vec *all, const tests_vec *tv)
{
    slot_set s = {NULL, 0};
    for (size_t i = 0; i < all->n; i++)
        if (set_mark(&s, fr->run_dir, all->v[i].origin, 1) < 0) break;
    for (size_t i = 0; i < tv->n; i++)
        if (tv->v[i].fn == fr->fn) set_mark(&s, fr->run_dir, tv->v[i].origin, 0);
    return s;
}

/* Record up to UNIT_REFILL_MAX of fr's candidate tests that take slots of lost (smallest first, each
 * taking one no earlier pick took) into all; their copies go to add. */
static void pick_candidates(const char *recorder, fn_result *fr, slot_set *lost, tests_vec *all, unsigned *counter,
                            tests_vec *add)
{
    char dir[PATH_MAX + 16], rec_path[PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s/tests", fr->run_dir);
    snprintf(rec_path, sizeof rec_path, "%s/refill-record.txt", fr->run_dir);
    size_t nc = 0;
    char **cands = util_list_dir(dir, "cand-*.xml", &nc);
    if (!cands) return;
    unit_sort_by_size(cands, nc);
    unsigned picked = 0;
    for (size_t c = 0; c < nc && picked < UNIT_REFILL_MAX; c++) {
        const char *base = uc_base_name(cands[c]);
        if (!set_hits(lost, fr->run_dir, base)) continue;
        fn_result scratch; /* a candidate that is not recorded is not a dropped test */
        memset(&scratch, 0, sizeof scratch);
        scratch.fn = fr->fn;
        size_t before = all->n;
        record_vector(recorder, rec_path, cands[c], &scratch, all, counter);
        free(scratch.drops);
        if (all->n == before) continue;                        /* not recorded, or a duplicate of a recorded test */
        if (all->v[all->n - 1].outcome != UO_NORMAL) continue; /* a failing call: the exploration's tests cover it */
        unit_test *nv = realloc(add->v, (add->n + 1) * sizeof *nv);
        if (!nv) break;
        add->v = nv;
        add->v[add->n++] = all->v[all->n - 1];
        set_mark(lost, fr->run_dir, base, 0);
        picked++;
    }
    unlink(rec_path);
    util_free_strv(cands);
}

size_t unit_refill_lost(const unit_cfg *c, const char *dir, const char *src, const char *recorder, tests_vec *tv,
                        tests_vec *all, fn_result *frs, unsigned *counters, size_t nfr, char **text)
{
    if (!recorder) return 0;
    tests_vec add = {NULL, 0, NULL};
    for (size_t k = 0; k < nfr; k++) {
        fn_result *fr = &frs[k];
        if (strcmp(fr->fn->file, src) || !fr->run_dir) continue;
        slot_set lost = lost_slots(fr, &all[k], tv);
        size_t nlost = 0;
        for (size_t i = 0; i < lost.n; i++) nlost += lost.on[i];
        unsigned local = 0;
        if (nlost) pick_candidates(recorder, fr, &lost, &all[k], counters ? &counters[k] : &local, &add);
        free(lost.on);
    }
    if (!add.n) return 0;
    /* the picks checked as the suite was, with their own figures (a candidate is an extra: its loss is no drop) */
    fn_result *scratch = calloc(nfr, sizeof *scratch);
    size_t added = 0;
    if (scratch) {
        for (size_t k = 0; k < nfr; k++) scratch[k].fn = frs[k].fn, scratch[k].gcov_taken = scratch[k].gcov_total = -1;
        char *atext = NULL, *abugs = NULL;
        double secs = 0;
        size_t kept = verify_file(c, dir, src, &add, scratch, nfr, &atext);
        if (kept && atext) kept = sanitize_file(c, dir, src, &add, scratch, nfr, &atext, &abugs, &secs);
        free(abugs); /* a candidate through a bug: the bug is reported by the test the exploration kept */
        unit_test *nv = kept && atext ? realloc(tv->v, (tv->n + add.n) * sizeof *nv) : NULL;
        if (nv) {
            tv->v = nv;
            for (size_t i = 0; i < add.n; i++) {
                tv->v[tv->n++] = add.v[i];
                for (size_t k = 0; k < nfr; k++)
                    if (frs[k].fn == add.v[i].fn) frs[k].refilled++;
            }
            added = add.n;
        }
        free(atext);
        for (size_t k = 0; k < nfr; k++) free(scratch[k].drops), free(scratch[k].san_bug_lines);
        free(scratch);
    }
    free(add.v);
    if (added) {
        char *t = unit_emit_tests(c->u, tv->v, tv->n, c->mocked, c->nmocked, uc_base_name(src));
        if (t) {
            free(*text);
            *text = t;
        }
    }
    return added;
}
