/* data_log.c: reading what the executor logged during one run (sites, tuples and their keys, recorded values, refused statements). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proto/proto.h"
#include "util/util.h"
#include "data_int.h"

int dsite_find(const dstate_x *x, const char *id)
{
    for (int i = 0; i < x->nsites; i++)
        if (!strcmp(x->sites[i].id, id)) return i;
    return -1;
}

/* Split line at tabs into f[0..max); returns the number of fields. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

/* A site seen for the first time: its table's size by an exact count (read-only). */
static int add_site(dstate_x *x, char **f, int nf)
{
    dsite *ns = realloc(x->sites, (size_t)(x->nsites + 1) * sizeof *ns);
    if (!ns) return -1;
    x->sites = ns;
    dsite *s = &x->sites[x->nsites];
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", f[1]);
    s->ncols = atoi(f[2]);
    s->sql = strdup(f[4]);
    s->table_rows = -1;
    s->nparams = nf - 5;
    s->params = calloc((size_t)(s->nparams > 0 ? s->nparams : 1), sizeof *s->params);
    for (int i = 0; i < s->nparams && s->params; i++) s->params[i] = strdup(f[5 + i]);
    x->nsites++;
    char *full = data_wrap_select(s->sql, strlen(s->sql), s->ncols, NULL, 0), *err = NULL;
    if (full) {
        s->table_rows = data_source_count(x->ds, full, (const char *const *)s->params, s->nparams, &err);
        s->full_cost = (double)(s->table_rows > 0 ? s->table_rows : 1);
        data_estimate e;
        if (x->dialect == DATA_PG && !data_source_estimate(x->ds, full, (const char *const *)s->params, s->nparams, 0,
                                                           0, (double)s->table_rows, &e, &err))
            s->full_cost = e.cost;
        if (s->table_rows < 0 || err)
            fprintf(stderr, "sympath data: cannot size the query of site %s: %s\n", s->id, err ? err : "?");
    }
    free(full);
    free(err);
    return x->nsites - 1;
}

/* A site whose tuples have no keys (aggregates, GROUP BY, ...): when every table it reads has at
 * most WHOLE_MAX rows, its tests' fixtures hold those tables whole ("<table>:*"), so that replay
 * computes the same results; larger tables are not copied (the test is counted unkeyed). */
#define WHOLE_MAX 20000
static void whole_tables(dstate_x *x, dsite *s, char **names, int n)
{
    s->whole_tried = true;
    char **keys = calloc((size_t)n, sizeof *keys);
    if (!keys) return;
    for (int i = 0; i < n; i++) {
        char *q = NULL, *err = NULL;
        if (asprintf(&q, "SELECT 1 FROM \"%s\" LIMIT %d", names[i], WHOLE_MAX + 1) < 0) q = NULL;
        int64_t c = q ? data_source_count(x->ds, q, NULL, 0, &err) : -1;
        free(q), free(err);
        if (c < 0 || c > WHOLE_MAX || asprintf(&keys[i], "%s:*", names[i]) < 0) {
            for (int k = 0; k < i; k++) free(keys[k]);
            free(keys);
            return;
        }
    }
    s->whole = keys;
    s->nwhole = n;
}

static void add_write(dstate_x *x, const char *what)
{
    for (size_t i = 0; i < x->nwrites; i++)
        if (!strcmp(x->writes[i], what)) return;
    char **nw = realloc(x->writes, (x->nwrites + 1) * sizeof *nw);
    if (!nw) return;
    x->writes = nw;
    x->writes[x->nwrites] = strdup(what);
    if (x->writes[x->nwrites]) x->nwrites++;
}

/* The replay's results (proto.h's .results) as the log shows them: the block being read is
 * res->items[cur] (cur == SIZE_MAX: none), its current row rows[nrows - 1] with nvals values. */
typedef struct res_state {
    results res;
    size_t cur;
    bool in_row;
    int nvals;
    bool failed;
} res_state;

static results_item *res_add(res_state *rs)
{
    results_item *v = realloc(rs->res.items, (rs->res.nitems + 1) * sizeof *v);
    if (!v) {
        rs->failed = true;
        return NULL;
    }
    rs->res.items = v;
    memset(&v[rs->res.nitems], 0, sizeof *v);
    return &v[rs->res.nitems++];
}

/* An "s" line: a new block of site with ncols columns. */
static void res_block(res_state *rs, const char *site, int ncols)
{
    rs->in_row = false;
    results_item *b = res_add(rs);
    if (!b) {
        rs->cur = SIZE_MAX;
        return;
    }
    snprintf(b->site, sizeof b->site, "%s", site);
    b->ncols = ncols > 0 && ncols <= RESULTS_MAX_COLS ? ncols : 0;
    rs->cur = rs->res.nitems - 1;
}

/* An "n" line's names (flat, as logged, tab-separated in text), before the first row;
 * missing ones "?column?". */
static void res_names(res_state *rs, char *text)
{
    results_item *b = rs->cur == SIZE_MAX ? NULL : &rs->res.items[rs->cur];
    if (!b || rs->in_row || b->names || b->nrows) return;
    if (!(b->names = calloc((size_t)b->ncols + 1, sizeof *b->names))) return;
    char *p = text;
    for (int i = 0; i < b->ncols; i++) {
        char *t = p ? strchr(p, '\t') : NULL;
        if (t) *t = 0;
        if (!(b->names[i] = strdup(p ? p : "?column?"))) rs->failed = true;
        p = t ? t + 1 : NULL;
    }
}

/* A "t" line: a new row of the block (values NULL until their "v" lines). */
static void res_row(res_state *rs)
{
    results_item *b = rs->cur == SIZE_MAX ? NULL : &rs->res.items[rs->cur];
    if (!b) return;
    char ***nr = realloc(b->rows, (b->nrows + 1) * sizeof *nr);
    char **row = nr ? calloc((size_t)b->ncols + 1, sizeof *row) : NULL;
    if (nr) b->rows = nr;
    if (!row) {
        rs->failed = true;
        return;
    }
    b->rows[b->nrows++] = row;
    rs->in_row = true;
    rs->nvals = 0;
}

/* A "v" line's value (escaped as in the log), the next one of the current row. */
static void res_value(res_state *rs, char *v)
{
    results_item *b = rs->cur == SIZE_MAX ? NULL : &rs->res.items[rs->cur];
    if (!b || !rs->in_row || rs->nvals >= b->ncols) return;
    char *u = results_unescape(v, NULL);
    char **slot = &b->rows[b->nrows - 1][rs->nvals++];
    if (u && !(*slot = strdup(u))) rs->failed = true;
}

/* A "w" line: the current SELECT (sql == its text, no row yet) failed, or another statement did. */
static void res_failure(res_state *rs, const char *msg, const char *sql, const char *cur_sql)
{
    results_item *b = rs->cur == SIZE_MAX ? NULL : &rs->res.items[rs->cur];
    if (b && !rs->in_row && !b->nrows && !b->error && !strcmp(sql, cur_sql)) {
        if (!(b->error = strdup(msg))) rs->failed = true;
        return;
    }
    rs->in_row = false;
    size_t keep = rs->cur;
    results_item *it = res_add(rs);
    rs->cur = keep;
    if (it) {
        it->is_fail = 1;
        if (!(it->msg = strdup(msg)) || !(it->sql = strdup(sql))) rs->failed = true;
    }
}

int dlog_read(dstate_x *x, dlog *lg)
{
    memset(lg, 0, sizeof *lg);
    FILE *f = fopen(x->log_path, "r");
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    res_state rs = {.cur = SIZE_MAX};
    char cur_sql[4096] = ""; /* the SQL of the current result block */
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n') line[--len] = 0;
        char *fl[64];
        if (line[0] == 's' && line[1] == '\t') {
            int nf = split(line, fl, 64);
            if (nf < 5) continue;
            int si = dsite_find(x, fl[1]);
            if (si < 0) si = add_site(x, fl, nf);
            res_block(&rs, fl[1], atoi(fl[2]));
            if (!strcmp(fl[3], "pg")) /* PostgreSQL: the results are recorded (replay_pq.c) */
                lg->results = (char *)1;
            snprintf(cur_sql, sizeof cur_sql, "%s", fl[4]);
        } else if (line[0] == 'n' && line[1] == '\t') { /* PostgreSQL: the columns' names */
            char *names = strchr(line + 2, '\t');       /* after the site */
            if (names) res_names(&rs, names + 1);
        } else if (line[0] == 't' && line[1] == '\t') {
            int nf = split(line, fl, 64);
            if (nf < 4) continue;
            int si = dsite_find(x, fl[1]);
            size_t k = strtoull(fl[2], NULL, 10);
            if (si < 0 || k > (1u << 24)) continue;
            if (k >= lg->ntuples) {
                dlog_tuple *nt = realloc(lg->tuples, (k + 1) * sizeof *nt);
                if (!nt) continue;
                memset(nt + lg->ntuples, 0, (k + 1 - lg->ntuples) * sizeof *nt);
                for (size_t j = lg->ntuples; j <= k; j++) nt[j].site = -1;
                lg->tuples = nt;
                lg->ntuples = k + 1;
            }
            dlog_tuple *t = &lg->tuples[k];
            t->site = si;
            if (strcmp(fl[3], "-")) {
                t->keys = calloc((size_t)(nf - 3), sizeof *t->keys);
                for (int i = 3; i < nf && t->keys; i++) t->keys[t->nkeys++] = strdup(fl[i]);
            }
            x->sites[si].fetched++;
            x->tuples_fetched++;
            res_row(&rs);
        } else if (line[0] == 'k' && line[1] == '\t') { /* a site without keys: the tables it reads */
            int nf = split(line, fl, 64);
            int si = nf >= 3 ? dsite_find(x, fl[1]) : -1;
            if (si >= 0 && !x->sites[si].whole_tried) whole_tables(x, &x->sites[si], fl + 2, nf - 2);
        } else if (line[0] == 'c' && line[1] == '\t') { /* rows counted, not logged one by one */
            int nf = split(line, fl, 3);
            int si = nf == 3 ? dsite_find(x, fl[1]) : -1;
            if (si >= 0) {
                uint64_t c = strtoull(fl[2], NULL, 10);
                x->sites[si].fetched += c;
                x->sites[si].distinct += c;
                x->tuples_fetched += c;
            }
        } else if (line[0] == 'v' && line[1] == '\t') {
            int nf = split(line, fl, 4);
            if (nf == 4) res_value(&rs, fl[3]);
            lg->results = (char *)1; /* PostgreSQL values were recorded */
        } else if (line[0] == 'w' && line[1] == '\t') {
            int nf = split(line, fl, 3);
            /* the replay's results: the current SELECT failed, or another statement did */
            if (nf > 2) res_failure(&rs, fl[1], fl[2], cur_sql);
            char *what = NULL;
            if (asprintf(&what, "%s%s%s", fl[1], nf > 2 && *fl[2] ? ": " : "", nf > 2 ? fl[2] : "") >= 0) {
                add_write(x, what);
                free(what);
            }
        }
    }
    free(line);
    fclose(f);
    if (lg->results) /* NULL when out of memory: the test is kept without its results */
        lg->results = rs.failed ? NULL : results_format(&rs.res);
    results_free(&rs.res);
    return 0;
}

void dlog_free(dlog *lg)
{
    for (size_t i = 0; i < lg->ntuples; i++) {
        for (int k = 0; k < lg->tuples[i].nkeys; k++) free(lg->tuples[i].keys[k]);
        free(lg->tuples[i].keys);
    }
    free(lg->tuples);
    free(lg->results);
    memset(lg, 0, sizeof *lg);
}
