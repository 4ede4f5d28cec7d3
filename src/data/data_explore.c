/* data_explore.c: the loop of `sympath data` (Li and Csallner, section 5): run on the chosen candidate's tuples (data_run.c), learn from what its query gave, until no candidate (data_cand.c) is left or the budget ends. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/util.h"
#include "../report/report.h"
#include "data_int.h"
#include "proto/env.h"

#define MAX_TRIES 2 /* queries aimed at a complement node before giving up on it */

static const char *budget_reason(dstate_x *x)
{
    if (x->o->interrupted && *x->o->interrupted) return "interrupted";
    if (x->o->budget_seconds > 0 && util_now_s() - x->t0 >= x->o->budget_seconds) return "budget";
    return NULL;
}

/* Every site's table was seen completely: no query can bring anything new. */
static bool tables_seen(const dstate_x *x)
{
    if (!x->nsites) return false;
    for (int i = 0; i < x->nsites; i++)
        if (x->sites[i].table_rows < 0 || x->sites[i].distinct < (uint64_t)x->sites[i].table_rows) return false;
    return true;
}

static void mark_exhausted(dnode *n, void *ctx)
{
    (void)ctx;
    if (!n->explored && n->parent && n->state == DN_OPEN) n->state = DN_EXHAUSTED;
}

static void explore_loop(dstate_x *x)
{
    char plan[64 * 1024];
    uint32_t np;
    if (x->o->full_scan) {
        snprintf(plan, sizeof plan, "limit\t0\nsymbolic\t0\n");
        data_run_once(x, plan, &np);
        x->stop_reason = "full scan";
        return;
    }
    snprintf(plan, sizeof plan, "limit\t%u\n", x->o->first_limit);
    if (data_run_once(x, plan, &np) < 0) {
        x->stop_reason = "the program could not be run";
        return;
    }
    for (;;) {
        if ((x->stop_reason = budget_reason(x))) return;
        if (tables_seen(x)) {
            for (int i = 0; i < x->nsites; i++) dtree_walk(&x->sites[i].root, mark_exhausted, NULL);
            x->stop_reason = "table exhausted";
            return;
        }
        dcand c;
        if (!data_choose(x, &c)) {
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
        int n = snprintf(plan, sizeof plan, "limit\t1\nsite\t%s\t%llu\t%llu\t%s\n", s->id, (unsigned long long)c.limit,
                         (unsigned long long)c.node->offset, c.cond);
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
        int64_t got = data_run_once(x, plan, &np);
        if (nq) {
            nq = &x->queries[x->nqueries - 1];
            nq->fetched = got > 0 ? (uint64_t)got : 0;
            nq->new_paths = np;
        }
        if (got == -2) { /* its query did not finish within the run's time limit */
            c.node->state = c.leaf ? DN_TIMEOUT : c.node->state;
            if (!c.leaf) c.node->rows = 0, c.node->rows_exact = true; /* not asked again */
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
        if (got > 0) c.node->offset += (uint64_t)got;
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
    if (asprintf(&x.plan_path, "%s/data-plan", o->work_dir) < 0 ||
        asprintf(&x.log_path, "%s/data-log", o->work_dir) < 0)
        goto out;
    x.ds = data_source_open(o->db, err);
    if (!x.ds) goto out;
    x.dialect = data_source_dialect(x.ds);
    if (site_table_load(o->sites_path, &x.sites_tab, err)) goto out;
    x.nslots = x.sites_tab.nslots;
    x.covered = calloc(x.nslots + 1, 1);
    x.slot_user = calloc(x.nslots + 1, 1);
    x.cx = expr_ctx_new();
    if (!x.covered || !x.slot_user || !x.cx) goto out;
    x.user_slots = explore_user_slots(&x.sites_tab, x.slot_user, x.nslots);
    x.suite = explore_open_suite(o->out_dir, o->sources[0], err);
    if (!x.suite) goto out;
    setenv(SYMPATH_ENV_DATA_PLAN, x.plan_path, 1);
    setenv(SYMPATH_ENV_DATA_LOG, x.log_path, 1);
    setenv(SYMPATH_ENV_DATA_DB, o->db, 1);
    executor_opts eo = {o->exe_path, o->work_dir, 0, o->run_timeout_ms, o->mem_mb, o->out_kb, x.nslots, 0, 0, 0};
    x.ex = executor_start(&eo, err);
    if (!x.ex) goto out;
    x.progress = report_progress_open(o->out_dir, REPORT_DISPLAY_OFF, NULL, o->budget_seconds); /* OUT/stats */
    explore_loop(&x);
    data_stats_sample(&x, 1);
    x.total_seconds = util_now_s() - x.t0;
    char *serr = NULL;
    if (data_write_report(&x))
        fprintf(stderr, "sympath data: cannot write report.json: %s\n", strerror(errno));
    else if (report_write_sarif(o->out_dir, &serr) != 0) /* errors.sarif next to report.json */
        fprintf(stderr, "sympath data: cannot write errors.sarif: %s\n", serr ? serr : "?");
    free(serr);
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
        for (int i = 0; i < x.nsites; i++) sum->paths += dtree_paths(&x.sites[i].root);
        sum->stop_reason = x.stop_reason;
        sum->seconds = util_now_s() - x.t0;
    }
    rc = 0;
out:
    if (rc && err && !*err) *err = strdup("out of memory");
    report_progress_close(x.progress);
    executor_stop(x.ex);
    if (x.suite) suite_close(x.suite);
    data_source_close(x.ds);
    site_table_free(&x.sites_tab);
    for (int i = 0; i < x.nsites; i++) {
        dtree_free(&x.sites[i].root);
        for (int k = 0; k < x.sites[i].nparams; k++) free(x.sites[i].params[k]);
        for (int k = 0; k < x.sites[i].nwhole; k++) free(x.sites[i].whole[k]);
        free(x.sites[i].whole);
        free(x.sites[i].params);
        free(x.sites[i].sql);
    }
    free(x.sites);
    for (size_t i = 0; i < x.nqueries; i++) free(x.queries[i].cond), free(x.queries[i].sql);
    free(x.queries);
    for (size_t i = 0; i < x.nwrites; i++) free(x.writes[i]);
    free(x.writes);
    free(x.seen);
    free(x.covered), free(x.slot_user);
    expr_ctx_free(x.cx);
    free(x.plan_path), free(x.log_path);
    return rc;
}
