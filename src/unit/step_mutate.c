/* step_mutate.c: step 4b of `sympath unit`: the mutants of a target its kept tests kill, and candidate tests added for the ones they miss. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit/pipeline_int.h"
#include "util/util.h"
#include "proto/env.h"

/*
 * A test kills a mutant when the mutant-schemata recorder (build_mutants), run on the test's vector
 * with that mutant selected, ends differently or records other values than with none selected: the
 * record holds what the emitted test asserts (the returned value, every value the call changed, the
 * stand-ins' calls), so a different record is a failing regression test (strong mutation, DeMillo,
 * Lipton and Sayward 1978). The kept tests are tried first; a mutant none of them kills is tried on
 * the exploration's candidate tests (runs that covered nothing new but a new combination of branch
 * directions), simplest first, and a candidate that kills one joins the suite (EvoSuite keeps tests
 * by the mutants they kill the same way, Fraser and Zeller, ISSTA 2010). Each test then carries the
 * mutants it kills as extra goals of the suite minimisation (step_minimize.c).
 */

#define MUT_SAMPLE 150 /* mutants analysed per function at most */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run vec through the mutant-schemata recorder once for the mutants ids[0..n) (-1: none, the original), each
 * in its own child (the batch mode of the replay library, SYMPATH_MUTANT=list:...). keys[i] (malloc'ed) gets
 * "SIGNAL EXIT\nRECORD" of mutant ids[i], or NULL when it did not run (the whole batch stopped). */
static void run_batch(const char *exe, const char *rec_path, const char *vec, const char *fn, const int *ids, size_t n,
                      char **keys)
{
    for (size_t i = 0; i < n; i++) keys[i] = NULL;
    strbuf list = STRBUF_INIT;
    sb_puts(&list, SYMPATH_ENV_MUTANT "=list:");
    for (size_t i = 0; i < n; i++) sb_printf(&list, "%s%d", i ? "," : "", ids[i]);
    char *e1 = NULL, *e2 = NULL, *e3 = NULL;
    if (!list.s || asprintf(&e1, SYMPATH_ENV_TESTCASE "=%s", vec) < 0 ||
        asprintf(&e2, SYMPATH_ENV_UNIT_FUNCTION "=%s", fn) < 0 ||
        asprintf(&e3, SYMPATH_ENV_UNIT_RECORD "=%s", rec_path) < 0)
        goto out;
    char *env[] = {e1, e2, e3, list.s, NULL};
    char *argv[] = {(char *)exe, NULL};
    char status_path[PATH_MAX + 80];
    snprintf(status_path, sizeof status_path, "%s.status", rec_path);
    unlink(status_path);
    int st = 0;
    up_run(argv, env, NULL, 2.0 + 0.15 * (double)n, &st); /* each child stops itself after 0.1 s */
    char *status = util_read_file(status_path, NULL);
    size_t i = 0;
    for (char *p = status; p && *p && i < n; i++) {
        char *e;
        long id = strtol(p, &e, 10);
        int ws = (int)strtol(e, &e, 10);
        p = strchr(e, '\n');
        p = p ? p + 1 : NULL;
        if (id != ids[i]) break;
        char rp[PATH_MAX + 80];
        snprintf(rp, sizeof rp, "%s.%ld", rec_path, id);
        char *text = util_read_file(rp, NULL);
        unlink(rp);
        if (asprintf(&keys[i], "%d %d\n%s", WIFSIGNALED(ws) ? WTERMSIG(ws) : 0, WIFEXITED(ws) ? WEXITSTATUS(ws) : -1,
                     text ? text : "") < 0)
            keys[i] = NULL;
        free(text);
    }
    free(status);
    unlink(status_path);
out:
    sb_free(&list);
    free(e1);
    free(e2);
    free(e3);
}

/* Run vec on the original and on the mutants ms[j] with want[j] set; kills[j] = 1 for those whose
 * outcome differs from the original's, 2 when the mutant ran too long. Returns 0, or -1 when the original did not run. */
static int kills_of(const unit_mut_ctx *mc, const char *rec_path, const char *vec, const char *fn, const uint32_t *ms,
                    size_t nm, const uint8_t *want, uint8_t *kills)
{
    int *ids = malloc((nm + 1) * sizeof *ids);
    size_t *at = malloc((nm + 1) * sizeof *at);
    char **keys = calloc(nm + 1, sizeof *keys);
    int rc = -1;
    if (!ids || !at || !keys) goto out;
    /* first the original alone, saying which mutants changed a value at all (weak mutation): only those
     * can be killed; when it says nothing (it crashed before its exit), every wanted one is run */
    uint8_t *infected = calloc(mc->nmutants + 1, 1);
    if (!infected) goto out;
    int probe = -2;
    run_batch(mc->exe, rec_path, vec, fn, &probe, 1, keys);
    free(keys[0]);
    keys[0] = NULL;
    char ip[PATH_MAX + 80];
    snprintf(ip, sizeof ip, "%s.infect", rec_path);
    char *list = util_read_file(ip, NULL);
    unlink(ip);
    for (char *p = list; p && *p;) {
        char *e;
        unsigned long id = strtoul(p, &e, 10);
        if (e == p) break;
        if (id < mc->nmutants) infected[id] = 1;
        p = *e ? e + 1 : e;
    }
    size_t n = 0;
    ids[n++] = -1;
    for (size_t j = 0; j < nm; j++) {
        kills[j] = 0;
        if (want[j] && (!list || infected[ms[j]])) at[n] = j, ids[n++] = (int)ms[j];
    }
    free(list);
    free(infected);
    run_batch(mc->exe, rec_path, vec, fn, ids, n, keys);
    if (keys[0]) {
        rc = 0;
        /* 2: killed by running too long (SIGALRM), not worth running on another test */
        for (size_t i = 1; i < n; i++)
            kills[at[i]] = keys[i] && strcmp(keys[i], keys[0]) != 0 ? (strncmp(keys[i], "14 ", 3) ? 1 : 2) : 0;
    }
    for (size_t i = 0; i < n; i++) free(keys[i]);
out:
    free(ids);
    free(at);
    free(keys);
    return rc;
}

static int stopped(const unit_mut_ctx *mc) { return mc->interrupted && *mc->interrupted; }

static int add_kill(unit_test *t, uint32_t m)
{
    uint32_t *nk = realloc(t->kills, (t->nkills + 1) * sizeof *nk);
    if (!nk) return -1;
    t->kills = nk;
    t->kills[t->nkills++] = m;
    return 0;
}

/* The vector path of test t of fr (its origin in the run's tests or errors directory). */
static char *vector_of(const fn_result *fr, const unit_test *t)
{
    char *p = NULL;
    if (!t->origin) return NULL;
    const char *dir = !strncmp(t->origin, "error-", 6) ? "errors" : "tests";
    if (asprintf(&p, "%s/%s/%s", fr->run_dir, dir, t->origin) < 0) return NULL;
    return p;
}

void unit_mutation_step(const unit_mut_ctx *mc, fn_result *fr, tests_vec *tv, unsigned *counter)
{
    double t0 = now_s(), deadline = t0 + mc->seconds;
    const char *fn = fr->fn->name;
    /* this function's mutants */
    size_t nm = 0;
    uint32_t *ms = calloc(mc->nmutants + 1, sizeof *ms);
    if (!ms) return;
    for (size_t i = 0; i < mc->nmutants; i++)
        if (!strcmp(mc->mutants[i].function, fn)) ms[nm++] = (uint32_t)i;
    fr->mut_built = (unsigned)nm;
    if (nm > MUT_SAMPLE) { /* a large function: an even sample over its whole body, not its first lines */
        for (size_t j = 0; j < MUT_SAMPLE; j++) ms[j] = ms[j * nm / MUT_SAMPLE];
        nm = MUT_SAMPLE;
    }
    fr->mut_total = (unsigned)nm;
    if (nm == 0) {
        free(ms);
        return;
    }
    char rec_path[PATH_MAX + 64];
    snprintf(rec_path, sizeof rec_path, "%s/mutant-record.txt", fr->run_dir);
    /* each kept test on the mutants fewer than two tests killed so far */
    uint8_t *alive = calloc(nm, 1), *want = calloc(nm, 1), *hit = calloc(nm, 1), *killers = calloc(nm, 1);
    if (!alive || !want || !hit || !killers) goto out;
    /* the kept tests get half the share when there are candidates to try after them */
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/tests", fr->run_dir);
    size_t nc = 0;
    char **cands = util_list_dir(dir, "cand-*.xml", &nc);
    double kept_deadline = nc ? t0 + mc->seconds / 2 : deadline;
    for (size_t k = 0; k < tv->n && now_s() < kept_deadline && !stopped(mc); k++) {
        unit_test *t = &tv->v[k];
        if (t->fn != fr->fn || t->outcome != UO_NORMAL) continue; /* a failing test's child: not compared */
        char *vec = vector_of(fr, t);
        size_t nw = 0;
        for (size_t j = 0; j < nm; j++) nw += want[j] = killers[j] < 2;
        if (vec && nw && kills_of(mc, rec_path, vec, fn, ms, nm, want, hit) == 0)
            for (size_t j = 0; j < nm; j++)
                if (hit[j]) add_kill(t, ms[j]), killers[j] += hit[j];
        free(vec);
    }
    unsigned killed = 0;
    for (size_t j = 0; j < nm; j++) {
        alive[j] = killers[j] == 0;
        killed += !alive[j];
    }
    fr->mut_killed_kept = killed;
    /* candidates, simplest first, on the mutants still alive */
    unit_sort_by_size(cands, nc);
    fr->mut_candidates = (unsigned)nc;
    fn_result scratch;
    for (size_t c = 0; c < nc && killed < nm && now_s() < deadline && !stopped(mc); c++) {
        /* the mutants it kills first (one process); recorded natively only when it kills one */
        if (kills_of(mc, rec_path, cands[c], fn, ms, nm, alive, hit) != 0) continue;
        size_t nk = 0;
        for (size_t j = 0; j < nm; j++) nk += hit[j] != 0;
        if (!nk) continue;
        memset(&scratch, 0, sizeof scratch);
        scratch.fn = fr->fn;
        unsigned dummy = 0;
        size_t before = tv->n;
        record_vector(mc->recorder, rec_path, cands[c], &scratch, tv, &dummy);
        free(scratch.drops);
        if (tv->n == before) continue; /* failed to record, or a duplicate of a kept test */
        unit_test *t = &tv->v[tv->n - 1];
        if (t->outcome == UO_NORMAL)
            for (size_t j = 0; j < nm; j++)
                if (hit[j]) add_kill(t, ms[j]);
        if (t->nkills == 0) { /* kills nothing new: not a test of the suite */
            tv->n--;
            free(tv->texts[tv->n]);
            continue;
        }
        for (size_t q = 0; q < t->nkills; q++)
            for (size_t j = 0; j < nm; j++)
                if (ms[j] == t->kills[q] && alive[j]) alive[j] = 0, killed++;
        free(t->name);
        if (asprintf(&t->name, "test_%s_%u", fn, ++*counter) < 0) t->name = NULL;
        fr->mut_added++;
    }
    util_free_strv(cands);
    fr->mut_killed = killed;
    /* what survives, for the report: "line L: what" lines */
    strbuf b = STRBUF_INIT;
    for (size_t j = 0; j < nm; j++)
        if (alive[j]) sb_printf(&b, "line %u: %s\n", mc->mutants[ms[j]].line, mc->mutants[ms[j]].what);
    fr->mut_survivors = b.s;
out:
    free(alive);
    free(want);
    free(hit);
    free(killers);
    free(ms);
    unlink(rec_path);
    fr->mut_seconds = now_s() - t0;
}
