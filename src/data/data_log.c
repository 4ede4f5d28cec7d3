/* data_log.c: reading what the executor logged during one run (sites, tuples and their keys, recorded values, refused statements). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "data_int.h"

int dsite_find(const dstate_x *x, const char *id)
{
    for (int i = 0; i < x->nsites; i++)
        if (!strcmp(x->sites[i].id, id))
            return i;
    return -1;
}

/* Split line at tabs into f[0..max); returns the number of fields. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

/* A site seen for the first time: its table's size by an exact count (read-only). */
static int add_site(dstate_x *x, char **f, int nf)
{
    dsite *ns = realloc(x->sites, (size_t)(x->nsites + 1) * sizeof *ns);
    if (!ns)
        return -1;
    x->sites = ns;
    dsite *s = &x->sites[x->nsites];
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", f[1]);
    s->ncols = atoi(f[2]);
    s->sql = strdup(f[4]);
    s->table_rows = -1;
    s->nparams = nf - 5;
    s->params = calloc((size_t)(s->nparams > 0 ? s->nparams : 1), sizeof *s->params);
    for (int i = 0; i < s->nparams && s->params; i++)
        s->params[i] = strdup(f[5 + i]);
    x->nsites++;
    char *full = data_wrap_select(s->sql, strlen(s->sql), s->ncols, NULL, 0), *err = NULL;
    if (full) {
        s->table_rows = data_source_count(x->ds, full, (const char *const *)s->params, s->nparams, &err);
        s->full_cost = (double)(s->table_rows > 0 ? s->table_rows : 1);
        data_estimate e;
        if (x->dialect == DATA_PG &&
            !data_source_estimate(x->ds, full, (const char *const *)s->params, s->nparams, 0, 0,
                                  (double)s->table_rows, &e, &err))
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
    if (!keys)
        return;
    for (int i = 0; i < n; i++) {
        char *q = NULL, *err = NULL;
        if (asprintf(&q, "SELECT 1 FROM \"%s\" LIMIT %d", names[i], WHOLE_MAX + 1) < 0)
            q = NULL;
        int64_t c = q ? data_source_count(x->ds, q, NULL, 0, &err) : -1;
        free(q), free(err);
        if (c < 0 || c > WHOLE_MAX || asprintf(&keys[i], "%s:*", names[i]) < 0) {
            for (int k = 0; k < i; k++)
                free(keys[k]);
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
        if (!strcmp(x->writes[i], what))
            return;
    char **nw = realloc(x->writes, (x->nwrites + 1) * sizeof *nw);
    if (!nw)
        return;
    x->writes = nw;
    x->writes[x->nwrites] = strdup(what);
    if (x->writes[x->nwrites])
        x->nwrites++;
}

int dlog_read(dstate_x *x, dlog *lg)
{
    memset(lg, 0, sizeof *lg);
    FILE *f = fopen(x->log_path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    strbuf res = STRBUF_INIT;
    bool in_result = false, in_row = false;
    char cur_sql[4096] = ""; /* the SQL of the current result block */
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = 0;
        char *fl[64];
        if (line[0] == 's' && line[1] == '\t') {
            int nf = split(line, fl, 64);
            if (nf < 5)
                continue;
            int si = dsite_find(x, fl[1]);
            if (si < 0)
                si = add_site(x, fl, nf);
            if (in_row)
                sb_puts(&res, "\n");
            if (in_result)
                sb_puts(&res, "end\n");
            in_row = false;
            in_result = true;
            sb_printf(&res, "result\t%s\t%s\n", fl[1], fl[2]);
            if (!strcmp(fl[3], "pg")) /* PostgreSQL: the results are recorded (replay_pq.c) */
                lg->results = (char *)1;
            snprintf(cur_sql, sizeof cur_sql, "%s", fl[4]);
        } else if (line[0] == 'n' && line[1] == '\t') { /* PostgreSQL: the columns' names */
            if (in_result && !in_row)
                sb_printf(&res, "names\t%s\n", strchr(line + 2, '\t') ? strchr(line + 2, '\t') + 1 : "");
        } else if (line[0] == 't' && line[1] == '\t') {
            int nf = split(line, fl, 64);
            if (nf < 4)
                continue;
            int si = dsite_find(x, fl[1]);
            size_t k = strtoull(fl[2], NULL, 10);
            if (si < 0 || k > (1u << 24))
                continue;
            if (k >= lg->ntuples) {
                dlog_tuple *nt = realloc(lg->tuples, (k + 1) * sizeof *nt);
                if (!nt)
                    continue;
                memset(nt + lg->ntuples, 0, (k + 1 - lg->ntuples) * sizeof *nt);
                for (size_t j = lg->ntuples; j <= k; j++)
                    nt[j].site = -1;
                lg->tuples = nt;
                lg->ntuples = k + 1;
            }
            dlog_tuple *t = &lg->tuples[k];
            t->site = si;
            if (strcmp(fl[3], "-")) {
                t->keys = calloc((size_t)(nf - 3), sizeof *t->keys);
                for (int i = 3; i < nf && t->keys; i++)
                    t->keys[t->nkeys++] = strdup(fl[i]);
            }
            x->sites[si].fetched++;
            x->tuples_fetched++;
            if (in_row)
                sb_puts(&res, "\n");
            sb_puts(&res, "row");
            in_row = true;
        } else if (line[0] == 'k' && line[1] == '\t') { /* a site without keys: the tables it reads */
            int nf = split(line, fl, 64);
            int si = nf >= 3 ? dsite_find(x, fl[1]) : -1;
            if (si >= 0 && !x->sites[si].whole_tried)
                whole_tables(x, &x->sites[si], fl + 2, nf - 2);
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
            if (nf == 4 && in_row)
                sb_printf(&res, "\t%s", fl[3]);
            lg->results = (char *)1; /* PostgreSQL values were recorded */
        } else if (line[0] == 'w' && line[1] == '\t') {
            int nf = split(line, fl, 3);
            /* the replay's results: the current SELECT failed, or another statement did */
            if (in_result && !in_row && nf > 2 && !strcmp(fl[2], cur_sql))
                sb_printf(&res, "error\t%s\n", fl[1]);
            else if (nf > 2) {
                if (in_row) /* the row's values are complete */
                    sb_puts(&res, "\n");
                in_row = false;
                sb_printf(&res, "fail\t%s\t%s\n", fl[1], fl[2]);
            }
            char *what = NULL;
            if (asprintf(&what, "%s%s%s", fl[1], nf > 2 && *fl[2] ? ": " : "", nf > 2 ? fl[2] : "") >= 0) {
                add_write(x, what);
                free(what);
            }
        }
    }
    free(line);
    fclose(f);
    if (in_row)
        sb_puts(&res, "\n");
    if (in_result)
        sb_puts(&res, "end\n");
    if (lg->results) {
        char *text = NULL;
        if (asprintf(&text, "sympath-results 1\n%s", res.s ? res.s : "") < 0)
            text = NULL;
        lg->results = text;
    }
    sb_free(&res);
    return 0;
}

void dlog_free(dlog *lg)
{
    for (size_t i = 0; i < lg->ntuples; i++) {
        for (int k = 0; k < lg->tuples[i].nkeys; k++)
            free(lg->tuples[i].keys[k]);
        free(lg->tuples[i].keys);
    }
    free(lg->tuples);
    free(lg->results);
    memset(lg, 0, sizeof *lg);
}
