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
    case DN_DIVERGED:
        return "tuples of its query did not take it (a condition is not exact in SQL, or the path depends on other "
               "tuples)";
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
    if (n->explored || !n->parent) return;
    r->left++;
    if (!r->j) return;
    const site_info *si =
        n->bsite >= 1 && n->bsite <= r->x->sites_tab.nsites ? &r->x->sites_tab.sites[n->bsite - 1] : NULL;
    json_begin_object(r->j);
    json_kv_str(r->j, "site", r->x->sites[r->site].id);
    char where[512];
    snprintf(where, sizeof where, "%s:%u", si && si->file ? si->file : "?", si ? si->line : 0);
    json_kv_str(r->j, "branch", where);
    json_kv_bool(r->j, "direction", n->dir);
    json_kv_str(r->j, "why", n->state == DN_NOT_SQL && n->why ? n->why : state_why(n));
    static const char *const names[] = {"budget", "no_data", "diverged", "not_sql", "exhausted", "timeout"};
    json_kv_str(r->j, "state", names[n->state]);
    unsigned dropped = 0;
    char *cond = dtree_path_sql(n, &dropped);
    json_kv_str(r->j, "condition", cond);
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
    for (int i = 0; i < x->nsites; i++) t += x->sites[i].table_rows > 0 ? x->sites[i].table_rows : 0;
    return x->nsites ? t : -1;
}

static uint32_t paths(const dstate_x *x)
{
    uint32_t p = 0;
    for (int i = 0; i < x->nsites; i++) p += dtree_paths(&x->sites[i].root);
    return p;
}

int data_write_report(const dstate_x *x)
{
    json_writer *j = json_new();
    if (!j) return -1;
    json_begin_object(j);
    json_kv_str(j, "tool", "sympath data");
    json_kv_str(j, "database", x->o->db);
    json_key(j, "coverage");
    json_begin_object(j);
    json_kv_uint(j, "branches_total", x->user_slots);
    json_kv_uint(j, "branches_covered", x->user_covered);
    json_end_object(j);
    json_kv_uint(j, "tests", x->tests);
    json_kv_uint(j, "errors", x->errors);
    json_key(j, "data");
    json_begin_object(j);
    json_kv_str(j, "mode", x->o->full_scan ? "full scan" : "candidate queries");
    json_kv_str(j, "dialect", x->dialect == DATA_PG ? "postgresql" : "sqlite");
    json_kv_uint(j, "runs", x->runs);
    json_kv_uint(j, "tuples_fetched", x->tuples_fetched);
    json_kv_int(j, "table_rows", table_rows(x));
    json_kv_uint(j, "paths", paths(x));
    json_kv_str(j, "stop_reason", x->stop_reason);
    json_kv_double(j, "seconds", x->total_seconds);
    json_kv_double(j, "run_seconds", x->exec_seconds);
    json_kv_uint(j, "estimates", x->estimates);
    json_kv_double(j, "estimate_seconds", x->estimate_seconds);
    json_kv_uint(j, "runs_timed_out", x->timeouts);
    json_kv_uint(j, "tests_without_rows", x->tests_unkeyed);
    json_kv_uint(j, "conditions_not_sql", x->not_sql);
    json_kv_uint(j, "branches_across_tuples", x->cross_tuple);
    json_key(j, "sites");
    json_begin_array(j);
    for (int i = 0; i < x->nsites; i++) {
        const dsite *s = &x->sites[i];
        json_begin_object(j);
        json_kv_str(j, "id", s->id);
        json_kv_str(j, "sql", s->sql);
        json_kv_int(j, "table_rows", s->table_rows);
        json_kv_uint(j, "tuples_fetched", s->fetched);
        json_kv_uint(j, "distinct_tuples", s->distinct);
        json_kv_uint(j, "paths", dtree_paths(&s->root));
        json_end_object(j);
    }
    json_end_array(j);
    json_key(j, "queries");
    json_begin_array(j);
    for (size_t i = 0; i < x->nqueries; i++) {
        const dquery *q = &x->queries[i];
        json_begin_object(j);
        json_kv_str(j, "site", x->sites[q->site].id);
        json_kv_str(j, "where", q->cond);
        json_kv_uint(j, "limit", q->limit);
        json_kv_uint(j, "offset", q->offset);
        json_kv_str(j, "sql", q->sql);
        json_kv_str(j, "target", q->aimed_leaf ? "complement node" : "internal node");
        json_kv_double(j, "estimated_rows", q->est_rows);
        json_key(j, "dbms_estimated_rows");
        if (q->dbms_rows >= 0)
            json_double(j, q->dbms_rows);
        else
            json_null(j);
        json_kv_double(j, "estimated_cost", q->est_cost);
        json_kv_uint(j, "tuples_fetched", q->fetched);
        json_kv_uint(j, "new_paths", q->new_paths);
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
    for (size_t i = 0; i < x->nwrites; i++) json_string(j, x->writes[i]);
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
        fprintf(f,
                "sympath data: %llu tests ran on tuples of queries without row keys: their fixtures lack those "
                "rows (replay differs)\n",
                (unsigned long long)x->tests_unkeyed);
    for (size_t i = 0; i < x->nwrites; i++)
        fprintf(f, "sympath data: statement refused or failed (the data is never written): %s\n", x->writes[i]);
}
