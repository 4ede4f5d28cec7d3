/* coordinator.c: the coordinator of a parallel exploration: balances jobs among workers, shares coverage, keeps the suite and writes one report. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../report/report.h"
#include "explore_state.h"
#include "util/util.h"

/*
 * Cloud9's load balancer (Bucur et al. 2011, sec. 3.3) with the test suite beside it. The
 * coordinator runs no program. Workers report their runs that covered something new to
 * them (RESULT) and their figures with the hashes of the paths they ran (STATS, every
 * 0.5 s); the coordinator keeps a run as a test when it adds to the union of coverage or
 * reaches a new error (so the suite is the same kind of suite one explorer writes), sends
 * the union back (COVERAGE, at most every 0.1 s) so that every worker's strategy steers by
 * it, and counts a path hash seen twice as a duplicate path. A worker with no work left
 * says IDLE; the coordinator asks the busy worker with the most open directions to give
 * some (STEAL) and forwards the jobs. All workers idle with no request outstanding means
 * the whole tree is exhausted: STOP "exhausted". A budget, Ctrl-C or a full disk stop
 * every worker the same way; results that still come in are kept.
 */

typedef struct coord_worker {
    int idle;            /* said IDLE and got no job since */
    int asked;           /* thief + 1 of the unanswered STEAL sent to this worker, else 0 */
    int waiting;         /* a STEAL on this worker's behalf is unanswered */
    int done;            /* BYE received, or gone */
    int said_bye;        /* BYE received (its final figures are in) */
    double empty_at;     /* when it last answered a STEAL with no jobs */
    double promising_at; /* when a promising STEAL was last sent on its behalf */
    par_figures fig;     /* latest figures */
} coord_worker;

struct coord {
    coord_worker *w; /* w[1..n] */
    int n;
    uint64_t jobs_moved, steals, steals_empty, steals_promising, lost;
    uint64_t messages;  /* received from the workers */
    double cpu_seconds; /* the coordinator's own CPU time (user + system) */
    uint64_t *bye_hits; /* per error record: hits reported at BYE */
    uint32_t bye_hits_cap;
    int cov_dirty;
    double cov_sent;
    par_figures sum;
};

/* ---- figures ---- */

static void apply_figures(explore_state *s)
{
    struct coord *c = s->coord;
    memset(&c->sum, 0, sizeof c->sum);
    for (int i = 1; i <= c->n; i++) par_figures_add(&c->sum, &c->w[i].fig);
    const par_figures *f = &c->sum;
    s->execs = f->execs;
    s->divergences = f->divergences;
    s->timeouts = f->timeouts;
    s->assume_failed = f->assume_failed;
    s->forks = f->forks;
    s->dropped = f->dropped;
    s->inputs_done = f->inputs_done;
    s->slow_runs = f->slow_runs;
    s->optimistic = f->optimistic;
    s->optimistic_sat = f->optimistic_sat;
    s->events_total = f->events_total;
    s->events_max = f->events_max;
    s->inputs_total = f->inputs_total;
    s->cont_dropped = f->cont_left;
    s->exec_seconds = f->exec_seconds;
    s->solve_seconds = f->solve_seconds;
    s->jobs_sent = f->jobs_sent;
    s->jobs_received = f->jobs_received;
    s->jobs_diverged = f->jobs_diverged;
    s->idle_seconds = f->idle_seconds;
    s->job_seconds = f->job_seconds;
    memcpy(s->conc, f->conc, sizeof s->conc);
    memcpy(s->conc_fn, f->conc_fn, sizeof s->conc_fn);
}

/* The figures (and for BYE the error hit counts) of worker w; path hashes into s->paths. */
static void on_figures(explore_state *s, int w, par_msg *m, int bye)
{
    struct coord *c = s->coord;
    par_figures f;
    if (par_figures_get(m, &f) != 0) return;
    c->w[w].fig = f;
    uint32_t nh = par_get_u32(m);
    for (uint32_t i = 0; i < nh && !m->bad; i++) {
        uint64_t h = par_get_u64(m);
        int diverged = par_get_u8(m);
        if (!m->bad) pathset_add(&s->paths, h, diverged);
    }
    if (bye) {
        uint32_t ne = par_get_u32(m);
        for (uint32_t i = 0; i < ne && !m->bad; i++) {
            char *key = par_get_str(m);
            uint64_t hits = par_get_u64(m);
            for (uint32_t k = 0; key && k < s->nerrors && k < c->bye_hits_cap; k++)
                if (!strcmp(s->errors[k].key, key)) c->bye_hits[k] += hits;
            free(key);
        }
        uint32_t nr = par_get_u32(m);
        size_t len;
        const uint8_t *body = par_get_bytes(m, &len);
        par_msg b = {0, (uint8_t *)body, len, len, 0, 0};
        for (uint32_t i = 0; body && i < nr && !b.bad; i++) {
            uint32_t site = par_get_u32(&b), dir = par_get_u32(&b);
            char *why = par_get_str(&b);
            if (why && !b.bad) report_reasons_add(s->reasons, site, dir, why);
            free(why);
        }
    }
    apply_figures(s);
}

/* ---- results ---- */

static void on_result(explore_state *s, int w, par_msg *m)
{
    run_result r;
    memset(&r, 0, sizeof r);
    uint8_t *cov = NULL;
    r.ninputs = par_get_u32(m);
    if (m->bad || r.ninputs > (1u << 24)) return;
    size_t n = r.ninputs ? r.ninputs : 1;
    r.inputs = calloc(n, sizeof *r.inputs);
    r.itypes = calloc(n, 1);
    r.iwidths = calloc(n, 1);
    r.inames = calloc(n, sizeof *r.inames);
    cov = calloc(s->nslots + 1, 1);
    if (!r.inputs || !r.itypes || !r.iwidths || !r.inames || !cov) goto out;
    for (uint32_t i = 0; i < r.ninputs; i++) {
        r.inputs[i] = par_get_u64(m);
        r.itypes[i] = par_get_u8(m);
        r.iwidths[i] = par_get_u8(m);
        r.inames[i] = par_get_str(m);
    }
    r.error = (error_kind)par_get_u32(m);
    r.signo = (int)par_get_u32(m);
    r.error_loc = par_get_u32(m);
    r.error_pc = par_get_u64(m);
    for (unsigned k = 0; k < TRACE_CRASH_FRAMES; k++) r.crash_frames[k] = par_get_u64(m);
    r.last_site = par_get_u32(m);
    r.seconds = par_get_f64(m);
    int unconfirmed = (int)par_get_u32(m);
    uint64_t exec_no = par_get_u64(m);
    size_t nb;
    const uint8_t *bits = par_get_bytes(m, &nb);
    if (m->bad || !bits || nb < (s->nslots + 7) / 8) goto out;
    for (uint32_t i = 0; i < s->nslots; i++) cov[i] = (bits[i / 8] >> (i % 8)) & 1;
    if (par_get_u8(m)) { /* PostgreSQL: the results the run recorded (explore_db_write_fixture) */
        size_t tn;
        const uint8_t *t = par_get_bytes(m, &tn);
        if (!t) goto out;
        s->results_text = (const char *)t;
        s->results_len = tn;
    }

    uint32_t fresh = explore_fresh_coverage(s, cov);
    s->timeout_unconfirmed = unconfirmed;
    uint32_t before = s->nerrors;
    int new_error = explore_handle_error(s, &r);
    if (s->nerrors > before && s->nerrors > s->coord->bye_hits_cap) {
        uint32_t nc = s->nerrors * 2;
        uint64_t *bh = realloc(s->coord->bye_hits, nc * sizeof *bh);
        if (bh) {
            memset(bh + s->coord->bye_hits_cap, 0, (nc - s->coord->bye_hits_cap) * sizeof *bh);
            s->coord->bye_hits = bh;
            s->coord->bye_hits_cap = nc;
        }
    }
    if (!s->write_failed && (fresh > 0 || new_error) && !(s->o->max_tests && s->tests >= s->o->max_tests)) {
        char comment[160];
        snprintf(comment, sizeof comment, "worker %d, its execution %llu: %u new branch directions%s", w,
                 (unsigned long long)exec_no, fresh, new_error ? ", new error" : "");
        explore_keep_test(s, &r, comment);
    }
    if (!s->write_failed && explore_merge_run_coverage(s, cov)) s->coord->cov_dirty = 1;
out:
    s->results_text = NULL;
    s->results_len = 0;
    free(cov);
    run_result_clear(&r);
}

static void send_coverage(explore_state *s)
{
    struct coord *c = s->coord;
    uint32_t nb = (s->nslots + 7) / 8;
    uint8_t *bits = calloc(nb ? nb : 1, 1);
    if (!bits) return;
    for (uint32_t i = 0; i < s->nslots; i++)
        if (s->covered[i]) bits[i / 8] |= (uint8_t)(1u << (i % 8));
    par_msg m;
    par_msg_init(&m, PAR_COVERAGE);
    par_put_u32(&m, s->nslots);
    par_put_bytes(&m, bits, nb);
    for (int i = 1; i <= c->n; i++)
        if (!c->w[i].done) par_send(s->link, i, &m);
    par_msg_free(&m);
    free(bits);
    c->cov_dirty = 0;
    c->cov_sent = util_now_s();
}

/* ---- balancing ---- */

static void on_jobs(explore_state *s, int giver, par_msg *m)
{
    struct coord *c = s->coord;
    uint32_t thief = par_get_u32(m);
    uint32_t n = par_get_u32(m);
    c->w[giver].asked = 0;
    if (thief < 1 || (int)thief > c->n) return;
    coord_worker *t = &c->w[thief];
    t->waiting = 0;
    if (n == 0 || m->bad) {
        c->steals_empty++;
        c->w[giver].empty_at = util_now_s();
        return;
    }
    if (t->done || par_send(s->link, (int)thief, m) != 0) {
        /* the thief is gone: its jobs are lost (their directions stay remote at the giver) */
        c->lost += n;
        return;
    }
    t->idle = 0;
    c->jobs_moved += n;
}

static int send_steal(explore_state *s, int giver, int thief, int promising)
{
    struct coord *c = s->coord;
    par_msg m;
    par_msg_init(&m, PAR_STEAL);
    par_put_u32(&m, (uint32_t)thief);
    par_put_u8(&m, (uint8_t)promising);
    int rc = par_send(s->link, giver, &m);
    par_msg_free(&m);
    if (rc != 0) return -1;
    c->w[giver].asked = thief + 1;
    c->w[thief].waiting = 1;
    c->steals++;
    return 0;
}

/* Coverage-aware balancing: a busy worker none of whose open directions leads to a branch
 * nobody covered (its coverage-guided strategy has nothing of the first choice) gets half
 * of such directions from the worker with the most, at most once a second. Without this,
 * the one worker whose part of the tree holds the uncovered branches works on them alone. */
static void balance_promising(explore_state *s, double now)
{
    struct coord *c = s->coord;
    for (int t = 1; t <= c->n; t++) {
        coord_worker *tw = &c->w[t];
        if (tw->done || tw->idle || tw->waiting || tw->fig.promising || !tw->fig.execs || now - tw->promising_at < 1.0)
            continue;
        int best = 0;
        for (int v = 1; v <= c->n; v++) {
            coord_worker *vw = &c->w[v];
            if (v == t || vw->done || vw->idle || vw->asked || vw->fig.promising < 2) continue;
            if (!best || vw->fig.promising > c->w[best].fig.promising) best = v;
        }
        if (best && send_steal(s, best, t, 1) == 0) {
            tw->promising_at = now;
            c->steals_promising++;
        }
    }
}

/* For every idle worker without a request on its behalf, ask the busy worker with the most
 * open directions (one request per giver at a time; a giver that had nothing to give is
 * asked again after 20 ms); then balance_promising. */
static void balance(explore_state *s)
{
    struct coord *c = s->coord;
    double now = util_now_s();
    for (int t = 1; t <= c->n; t++) {
        coord_worker *tw = &c->w[t];
        if (tw->done || !tw->idle || tw->waiting) continue;
        int best = 0;
        for (int v = 1; v <= c->n; v++) {
            coord_worker *vw = &c->w[v];
            if (v == t || vw->done || vw->idle || vw->asked || now - vw->empty_at < 0.02) continue;
            if (!best || vw->fig.open > c->w[best].fig.open) best = v;
        }
        if (best) send_steal(s, best, t, 0);
    }
    balance_promising(s, now);
}

/* 1 when every live worker is idle and no request is outstanding: the tree is exhausted. */
static int all_idle(const struct coord *c)
{
    int live = 0;
    for (int i = 1; i <= c->n; i++) {
        const coord_worker *w = &c->w[i];
        if (w->done) continue;
        live++;
        if (!w->idle || w->asked || w->waiting) return 0;
    }
    return live > 0;
}

static int all_done(const struct coord *c)
{
    for (int i = 1; i <= c->n; i++)
        if (!c->w[i].done) return 0;
    return 1;
}

/* ---- the loop ---- */

static void handle(explore_state *s, int src, par_msg *m)
{
    struct coord *c = s->coord;
    if (src < 1 || src > c->n) return;
    coord_worker *w = &c->w[src];
    if (m->bad && m->len == 0) { /* the worker's end closed */
        if (!w->done && !w->said_bye) c->lost++;
        w->done = 1;
        return;
    }
    if (m->bad) return;
    c->messages++;
    switch (m->type) {
    case PAR_RESULT: on_result(s, src, m); break;
    case PAR_STATS: on_figures(s, src, m, 0); break;
    case PAR_IDLE: w->idle = 1; break;
    case PAR_JOBS: on_jobs(s, src, m); break;
    case PAR_BYE:
        on_figures(s, src, m, 1);
        w->said_bye = 1;
        w->done = 1;
        break;
    default: break;
    }
}

/* Receive for at most timeout_ms, then whatever else is there. -1 when every worker is gone. */
static int pump(explore_state *s, int timeout_ms)
{
    par_msg m;
    par_msg_init(&m, 0);
    int src, rc;
    while ((rc = par_recv(s->link, &src, &m, timeout_ms)) == 1) {
        handle(s, src, &m);
        timeout_ms = 0;
    }
    par_msg_free(&m);
    if (rc < 0)
        for (int i = 1; i <= s->coord->n; i++) s->coord->w[i].done = 1;
    return rc < 0 ? -1 : 0;
}

static const char *stop_reason(explore_state *s)
{
    if (s->write_failed) return "write-error";
    if (s->o->interrupted && *s->o->interrupted) return "interrupted";
    if (s->o->budget_seconds > 0 && util_now_s() - s->t0 >= s->o->budget_seconds) return "budget";
    if (s->o->max_execs && s->execs >= s->o->max_execs) return "max-execs";
    if (s->o->max_tests && s->tests >= s->o->max_tests) return "max-tests";
    return NULL;
}

static void coordinate(explore_state *s)
{
    struct coord *c = s->coord;
    const char *reason = NULL;
    for (;;) {
        pump(s, 20);
        if ((reason = stop_reason(s)) != NULL) break;
        if (all_done(c)) {
            reason = c->lost ? "worker-failure" : "stopped";
            break;
        }
        balance(s);
        if (all_idle(c)) {
            reason = "exhausted";
            s->exhausted = 1;
            break;
        }
        if (c->cov_dirty && util_now_s() - c->cov_sent >= 0.1) send_coverage(s);
        explore_progress(s, 0);
    }
    /* stop every worker; keep what they still send until each said BYE (or is gone) */
    par_msg m;
    par_msg_init(&m, PAR_STOP);
    par_put_str(&m, reason);
    for (int i = 1; i <= c->n; i++)
        if (!c->w[i].done) par_send(s->link, i, &m);
    par_msg_free(&m);
    double grace = 5.0 + (double)s->o->run_timeout_ms * CONFIRM_FACTOR / 1000.0, t0 = util_now_s();
    while (!all_done(c) && util_now_s() - t0 < grace)
        if (pump(s, 100) < 0) break;
    for (int i = 1; i <= c->n; i++)
        if (!c->w[i].done) c->lost++; /* no BYE within the grace time */
    s->stop_reason = reason;
}

int explore_coordinate(const explore_opts *o, explore_summary *sum, char **err)
{
    explore_state s;
    memset(&s, 0, sizeof s);
    s.t0 = util_now_s();
    s.par_role = PAR_COORDINATOR;
    s.link = o->link;
    struct coord c;
    memset(&c, 0, sizeof c);
    c.n = o->link->nworkers;
    c.w = calloc((size_t)c.n + 1, sizeof *c.w);
    if (!c.w) {
        *err = strdup("out of memory");
        return -1;
    }
    s.coord = &c;
    s.agg = &c.sum;
    if (explore_setup(&s, o, err) != 0) {
        explore_teardown(&s);
        free(c.w);
        return -1;
    }
    s.reasons = report_reasons_new(); /* filled from the workers' BYE, written by explore_finish */
    coordinate(&s);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        c.cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                        ru.ru_stime.tv_usec / 1e6;
    for (uint32_t k = 0; k < s.nerrors && k < c.bye_hits_cap; k++)
        if (c.bye_hits[k] > s.errors[k].hits) s.errors[k].hits = c.bye_hits[k];
    /* complete: the tree exhausted, and every worker's share complete */
    int all_complete = s.exhausted;
    for (int i = 1; i <= c.n; i++) all_complete = all_complete && c.w[i].said_bye && c.w[i].fig.complete_local;
    s.complete = all_complete && explore_is_complete(&s, &c.sum.tree) && c.lost == 0;
    if (c.lost && !s.exhausted)
        fprintf(stderr, "sympath: %llu worker(s) or job(s) lost: their part of the tree was not explored\n",
                (unsigned long long)c.lost);
    int rc = explore_finish(&s, sum, err);
    explore_teardown(&s);
    free(c.bye_hits);
    free(c.w);
    return rc;
}

/* ---- what report.c shows of a parallel exploration ---- */

void explore_report_parallel(struct json_writer *j, const explore_state *s)
{
    json_key(j, "paths");
    json_begin_object(j);
    json_kv_uint(j, "distinct", s->paths.n);
    json_kv_uint(j, "duplicates", s->paths.dup);
    json_kv_uint(j, "duplicates_aimed", s->paths.dup_aimed);
    char fp[32];
    snprintf(fp, sizeof fp, "%016llx", (unsigned long long)s->paths.fingerprint);
    json_kv_str(j, "fingerprint", fp);
    json_end_object(j);
    if (s->par_role != PAR_COORDINATOR) return;
    const struct coord *c = s->coord;
    json_key(j, "parallel");
    json_begin_object(j);
    json_kv_uint(j, "workers", (uint64_t)c->n);
    json_kv_uint(j, "paths", s->paths.n);
    json_kv_uint(j, "duplicate_paths", s->paths.dup);
    json_kv_uint(j, "duplicate_paths_aimed", s->paths.dup_aimed);
    json_kv_str(j, "path_fingerprint", fp);
    json_kv_uint(j, "jobs_moved", c->jobs_moved);
    json_kv_uint(j, "steal_requests", c->steals);
    json_kv_uint(j, "steal_requests_empty", c->steals_empty);
    json_kv_uint(j, "steal_requests_promising", c->steals_promising);
    json_kv_uint(j, "jobs_diverged", c->sum.jobs_diverged);
    json_kv_uint(j, "jobs_unsolved", c->sum.jobs_unsolved); /* UNSAT or unknown at the taker */
    json_kv_uint(j, "lost", c->lost);
    json_kv_double(j, "idle_seconds", c->sum.idle_seconds);
    json_kv_double(j, "job_seconds", c->sum.job_seconds);
    /* what limits the number of workers one coordinator serves: its CPU time and message rate */
    json_kv_double(j, "coordinator_cpu_seconds", c->cpu_seconds);
    json_kv_uint(j, "coordinator_messages", c->messages);
    json_kv_double(j, "idle_share", s->total_seconds > 0 && c->n ? c->sum.idle_seconds / (s->total_seconds * c->n) : 0);
    json_key(j, "per_worker");
    json_begin_array(j);
    for (int i = 1; i <= c->n; i++) {
        const par_figures *f = &c->w[i].fig;
        json_begin_object(j);
        json_kv_uint(j, "worker", (uint64_t)i);
        json_kv_uint(j, "execs", f->execs);
        json_kv_double(j, "solver_seconds", f->solve_seconds);
        json_kv_double(j, "exec_seconds", f->exec_seconds);
        json_kv_double(j, "idle_seconds", f->idle_seconds);
        json_kv_double(j, "job_seconds", f->job_seconds);
        json_kv_uint(j, "jobs_sent", f->jobs_sent);
        json_kv_uint(j, "jobs_received", f->jobs_received);
        json_kv_uint(j, "tree_nodes", f->tree.nodes);
        json_kv_bool(j, "finished", c->w[i].said_bye);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
}
