/* db_layout.c: when a database exploration stalls, stop it so that it can start again with more row slots and longer texts, from the tests kept so far. */
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "explore_state.h"
#include "util/util.h"

/* Stalled: no new branch direction for 40% of the budget (2 s at least), a quarter of it (2 s at
 * least) still left, and some branch site of the program with one direction taken and another never:
 * a branch on a row count or a text length the layout cannot hold looks so (`count > 3` with 3 row
 * slots; `strlen(name) > 10` with 8-byte cells). A new layout starts a new execution tree: what the
 * solver found on the way is lost but for the kept tests, and on programs whose queries keep Z3 busy
 * coverage comes late and in bursts (40 s runs of five applications: last new branch at 2.6 to 39 s),
 * so only an exploration that has long stopped finding anything starts again, and only once; and
 * only after STALL_RUNS runs found nothing (an exploration whose queries time out runs a few programs
 * in that time and still has directions in hand: one application's run with 23 executions in 17 s
 * started again and ended at 38/50 branches against 45/50 kept). Under a run budget (--max-execs) the
 * shares are of runs, not seconds: no new direction for 40% of the runs (STALL_RUNS_MIN at least), a
 * quarter of them left, so that the same runs make the same decision on any machine (STALL_RUNS is
 * for slow runs under a clock, which a run count already accounts for). */
#define STALL_SHARE 0.4
#define STALL_RUNS 100
#define STALL_RUNS_MIN 20
#define LEFT_SHARE 0.25
#define STALL_MIN_S 2.0
/* the sites are scanned at most this often (seconds; runs under a run budget): the check runs before
 * every candidate */
#define RESCAN_S 0.5
#define RESCAN_RUNS 10

static int half_covered_site(const explore_state *s)
{
    for (uint32_t i = 0; i < s->sites.nsites; i++) {
        const site_info *si = &s->sites.sites[i];
        if (!si->user || si->ndirs < 2) continue;
        uint32_t got = 0;
        for (uint32_t d = 0; d < si->ndirs && si->slot_base + d < s->nslots; d++)
            got += s->covered[si->slot_base + d] != 0;
        if (got > 0 && got < si->ndirs) return 1;
    }
    return 0;
}

int explore_db_layout_stalled(explore_state *s, int exhausted)
{
    const explore_opts *o = s->o;
    if (!o->db_grow || !o->db_schema || (o->budget_seconds <= 0 && !o->max_execs) || s->par_role != PAR_ALONE) return 0;
    if (o->max_execs) { /* a run budget: the same shares of it, in runs, whatever the machine's speed */
        uint64_t idle = s->execs - s->last_cov_execs, min_idle = (uint64_t)(o->max_execs * STALL_SHARE);
        uint64_t left = o->max_execs > s->execs ? o->max_execs - s->execs : 0;
        if (left < (uint64_t)(o->max_execs * LEFT_SHARE)) return 0;
        if (!exhausted && idle < (min_idle > STALL_RUNS_MIN ? min_idle : STALL_RUNS_MIN)) return 0;
        if (!exhausted && s->layout_scanned && s->execs - s->layout_scan_execs < RESCAN_RUNS) return 0;
        s->layout_scan_execs = s->execs;
        s->layout_scanned = 1;
        return half_covered_site(s);
    }
    double now = util_now_s() - s->t0, left = o->budget_seconds - now;
    double min_idle = o->budget_seconds * STALL_SHARE, min_left = o->budget_seconds * LEFT_SHARE;
    if (left < (min_left > STALL_MIN_S ? min_left : STALL_MIN_S)) return 0;
    if (!exhausted && now - s->last_cov_time < (min_idle > STALL_MIN_S ? min_idle : STALL_MIN_S)) return 0;
    if (!exhausted && s->execs - s->last_cov_execs < STALL_RUNS) return 0;
    if (!exhausted && now - s->layout_scan_at < RESCAN_S && s->layout_scanned) return 0;
    s->layout_scan_at = now;
    s->layout_scanned = 1;
    return half_covered_site(s);
}

void explore_db_layout_keep(explore_state *s, const run_result *r)
{
    if (!s->o->db_grow || !s->o->db_schema) return;
    if (s->nkept_seeds == s->kept_seeds_cap) {
        size_t nc = s->kept_seeds_cap ? s->kept_seeds_cap * 2 : 16;
        explore_seed *n = realloc(s->kept_seeds, nc * sizeof *n);
        if (!n) return; /* a seed fewer: the next layout finds its path again or not */
        s->kept_seeds = n;
        s->kept_seeds_cap = nc;
    }
    explore_seed *e = &s->kept_seeds[s->nkept_seeds];
    e->n = r->ninputs;
    e->db_start = UINT32_MAX;
    for (uint32_t i = 0; r->inames && i < r->ninputs; i++)
        if (r->inames[i] && !strncmp(r->inames[i], "db:", 3)) { /* the first table's row count */
            e->db_start = i;
            break;
        }
    e->values = malloc((r->ninputs ? r->ninputs : 1) * sizeof *e->values);
    if (!e->values) return;
    if (r->ninputs) memcpy(e->values, r->inputs, r->ninputs * sizeof *e->values);
    s->nkept_seeds++;
}

int explore_seeds_left(const explore_state *s) { return s->seed_next < s->o->nseeds; }

void explore_seeds_free(explore_seed *seeds, size_t n)
{
    for (size_t i = 0; i < n; i++) free(seeds[i].values);
    free(seeds);
}

explore_seed *explore_seeds_relayout(const explore_seed *seeds, size_t n, const struct db_schema *schema,
                                     const db_limits *from, const db_limits *to)
{
    explore_seed *out = calloc(n ? n : 1, sizeof *out);
    if (!out) return NULL;
    size_t nfrom = db_fixture_ninputs(schema, from), nto = db_fixture_ninputs(schema, to);
    for (size_t i = 0; i < n; i++) {
        const explore_seed *e = &seeds[i];
        int whole = e->db_start != UINT32_MAX && (size_t)e->db_start + nfrom <= e->n;
        size_t len = whole ? e->n - nfrom + nto : e->n;
        out[i].values = malloc((len ? len : 1) * sizeof *out[i].values);
        if (!out[i].values) {
            explore_seeds_free(out, i);
            return NULL;
        }
        out[i].n = (uint32_t)len;
        out[i].db_start = e->db_start;
        if (!whole) { /* the run never read the whole fixture: its inputs keep their places */
            if (e->n) memcpy(out[i].values, e->values, e->n * sizeof *e->values);
            continue;
        }
        uint64_t *v = out[i].values;
        memcpy(v, e->values, e->db_start * sizeof *v);
        db_fixture_relayout(schema, from, e->values + e->db_start, to, v + e->db_start);
        memcpy(v + e->db_start + nto, e->values + e->db_start + nfrom, (e->n - e->db_start - nfrom) * sizeof *v);
    }
    return out;
}
