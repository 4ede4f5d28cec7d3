/* data_report.c: report.json and the summary of `sympath data` (coverage, queries, tuples against the full scan, complement nodes left). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "../emit/emit.h"
#include "data_int.h"

static const char *state_why(const dnode *n)
{
    switch (n->state) {
    case DN_NO_DATA: return "no tuple in the data satisfies it";
    case DN_DIVERGED: return "tuples of its query did not take it (a condition is not exact in SQL, or the path depends on other tuples)";
    case DN_NOT_SQL: return "not expressible in SQL";
    case DN_EXHAUSTED: return "every tuple of the table was seen";
    case DN_TIMEOUT: return "its query ran longer than the run time limit (--timeout)";
    default: return "budget";
    }
}

typedef struct rep {
    json_writer *j;
    const dstate_x *x;
    int site;
    uint32_t left;
} rep;

static void left_node(dnode *n, void *ctx)
{
    rep *r = ctx;
    if (n->explored || !n->parent)
        return;
    r->left++;
    if (!r->j)
        return;
    const site_info *si = n->bsite >= 1 && n->bsite <= r->x->sites_tab.nsites ? &r->x->sites_tab.sites[n->bsite - 1] : NULL;
    json_begin_object(r->j);
    json_key(r->j, "site");
    json_string(r->j, r->x->sites[r->site].id);
    json_key(r->j, "branch");
    char where[512];
    snprintf(where, sizeof where, "%s:%u", si && si->file ? si->file : "?", si ? si->line : 0);
    json_string(r->j, where);
    json_key(r->j, "direction");
    json_bool(r->j, n->dir);
    json_key(r->j, "why");
    json_string(r->j, n->state == DN_NOT_SQL && n->why ? n->why : state_why(n));
    json_key(r->j, "state");
    static const char *const names[] = {"budget", "no_data", "diverged", "not_sql", "exhausted", "timeout"};
    json_string(r->j, names[n->state]);
    unsigned dropped = 0;
    char *cond = dtree_path_sql(n, &dropped);
    json_key(r->j, "condition");
    json_string(r->j, cond);
    free(cond);
    json_end_object(r->j);
}

static uint32_t count_left(const dstate_x *x)
{
    rep r = {NULL, x, 0, 0};
    for (int i = 0; i < x->nsites; i++) {
        r.site = i;
        dtree_walk(&x->sites[i].root, left_node, &r);
    }
    return r.left;
}

static int64_t table_rows(const dstate_x *x)
{
    int64_t t = 0;
    for (int i = 0; i < x->nsites; i++)
        t += x->sites[i].table_rows > 0 ? x->sites[i].table_rows : 0;
    return x->nsites ? t : -1;
}

static uint32_t paths(const dstate_x *x)
{
    uint32_t p = 0;
    for (int i = 0; i < x->nsites; i++)
        p += dtree_paths(&x->sites[i].root);
    return p;
}

int data_write_report(const dstate_x *x)
{
    json_writer *j = json_new();
    if (!j)
        return -1;
    json_begin_object(j);
    json_key(j, "tool");
    json_string(j, "sympath data");
    json_key(j, "database");
    json_string(j, x->o->db);
    json_key(j, "coverage");
    json_begin_object(j);
    json_key(j, "branches_total");
    json_uint(j, x->user_slots);
    json_key(j, "branches_covered");
    json_uint(j, x->user_covered);
    json_end_object(j);
    json_key(j, "tests");
    json_uint(j, x->tests);
    json_key(j, "errors");
    json_uint(j, x->errors);
    json_key(j, "data");
    json_begin_object(j);
    json_key(j, "mode");
    json_string(j, x->o->full_scan ? "full scan" : "candidate queries");
    json_key(j, "dialect");
    json_string(j, x->dialect == DATA_PG ? "postgresql" : "sqlite");
    json_key(j, "runs");
    json_uint(j, x->runs);
    json_key(j, "tuples_fetched");
    json_uint(j, x->tuples_fetched);
    json_key(j, "table_rows");
    json_int(j, table_rows(x));
    json_key(j, "paths");
    json_uint(j, paths(x));
    json_key(j, "stop_reason");
    json_string(j, x->stop_reason);
    json_key(j, "seconds");
    json_double(j, x->total_seconds);
    json_key(j, "run_seconds");
    json_double(j, x->exec_seconds);
    json_key(j, "estimates");
    json_uint(j, x->estimates);
    json_key(j, "estimate_seconds");
    json_double(j, x->estimate_seconds);
    json_key(j, "runs_timed_out");
    json_uint(j, x->timeouts);
    json_key(j, "tests_without_rows");
    json_uint(j, x->tests_unkeyed);
    json_key(j, "conditions_not_sql");
    json_uint(j, x->not_sql);
    json_key(j, "branches_across_tuples");
    json_uint(j, x->cross_tuple);
    json_key(j, "sites");
    json_begin_array(j);
    for (int i = 0; i < x->nsites; i++) {
        const dsite *s = &x->sites[i];
        json_begin_object(j);
        json_key(j, "id");
        json_string(j, s->id);
        json_key(j, "sql");
        json_string(j, s->sql);
        json_key(j, "table_rows");
        json_int(j, s->table_rows);
        json_key(j, "tuples_fetched");
        json_uint(j, s->fetched);
        json_key(j, "distinct_tuples");
        json_uint(j, s->distinct);
        json_key(j, "paths");
        json_uint(j, dtree_paths(&s->root));
        json_end_object(j);
    }
    json_end_array(j);
    json_key(j, "queries");
    json_begin_array(j);
    for (size_t i = 0; i < x->nqueries; i++) {
        const dquery *q = &x->queries[i];
        json_begin_object(j);
        json_key(j, "site");
        json_string(j, x->sites[q->site].id);
        json_key(j, "where");
        json_string(j, q->cond);
        json_key(j, "limit");
        json_uint(j, q->limit);
        json_key(j, "offset");
        json_uint(j, q->offset);
        json_key(j, "sql");
        json_string(j, q->sql);
        json_key(j, "target");
        json_string(j, q->aimed_leaf ? "complement node" : "internal node");
        json_key(j, "estimated_rows");
        json_double(j, q->est_rows);
        json_key(j, "dbms_estimated_rows");
        if (q->dbms_rows >= 0)
            json_double(j, q->dbms_rows);
        else
            json_null(j);
        json_key(j, "estimated_cost");
        json_double(j, q->est_cost);
        json_key(j, "tuples_fetched");
        json_uint(j, q->fetched);
        json_key(j, "new_paths");
        json_uint(j, q->new_paths);
        json_end_object(j);
    }
    json_end_array(j);
    json_key(j, "complement_left");
    json_begin_array(j);
    rep r = {j, x, 0, 0};
    for (int i = 0; i < x->nsites; i++) {
        r.site = i;
        dtree_walk(&x->sites[i].root, left_node, &r);
    }
    json_end_array(j);
    json_key(j, "statements_refused_or_failed");
    json_begin_array(j);
    for (size_t i = 0; i < x->nwrites; i++)
        json_string(j, x->writes[i]);
    json_end_array(j);
    json_end_object(j);
    json_end_object(j);
    char path[4096];
    snprintf(path, sizeof path, "%s/report.json", x->o->out_dir);
    int rc = json_write_file(j, path);
    json_free(j);
    return rc;
}

void data_print_summary(const dstate_x *x, FILE *f)
{
    int64_t rows = table_rows(x);
    fprintf(f,
            "sympath data: %u/%u branch directions, %u paths, %zu queries, %llu tuples fetched, table %lld rows "
            "(a full scan fetches %lld), %llu runs, %.1f s, stopped: %s\n",
            x->user_covered, x->user_slots, paths(x), x->nqueries, (unsigned long long)x->tuples_fetched,
            (long long)rows, (long long)rows, (unsigned long long)x->runs, x->total_seconds,
            x->stop_reason ? x->stop_reason : "?");
    uint32_t left = count_left(x);
    if (left)
        fprintf(f, "sympath data: %u complement node%s not reached (report.json data.complement_left says why)\n", left,
                left == 1 ? "" : "s");
    fprintf(f, "sympath data: %llu tests, %llu errors; cardinality estimates: %llu (%.2f s)\n",
            (unsigned long long)x->tests, (unsigned long long)x->errors, (unsigned long long)x->estimates,
            x->estimate_seconds);
    if (x->tests_unkeyed)
        fprintf(f, "sympath data: %llu tests ran on tuples of queries without row keys: their fixtures lack those "
                   "rows (replay differs)\n", (unsigned long long)x->tests_unkeyed);
    for (size_t i = 0; i < x->nwrites; i++)
        fprintf(f, "sympath data: statement refused or failed (the data is never written): %s\n", x->writes[i]);
}
