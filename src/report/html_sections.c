/* html_sections.c: the HTML report's sections other than plots and sources: errors, limits, unit functions, data queries. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_int.h"

static void td_text(strbuf *b, const char *s)
{
    sb_puts(b, "<td>");
    html_escaped(b, s ? s : "-");
    sb_puts(b, "</td>");
}

static void td_num(strbuf *b, double v) { sb_printf(b, "<td class=\"num\">%.10g</td>", v); }

/* A link to a file of the output directory from the HTML directory. */
static void out_link(strbuf *b, const html_ctx *c, const char *rel)
{
    sb_puts(b, "<a href=\"");
    html_escaped(b, c->link);
    html_escaped(b, rel);
    sb_puts(b, "\">");
    html_escaped(b, rel);
    sb_puts(b, "</a>");
}

void html_errors(strbuf *b, const html_ctx *c)
{
    rerror *es = NULL;
    size_t n = 0;
    rerrors_collect(c->out_dir, &es, &n);
    sb_printf(b, "<section id=\"errors\"><h2>Errors (%zu)</h2>\n", n);
    if (!n) sb_puts(b, "<p>No error found.</p>\n");
    for (size_t i = 0; i < n; i++) {
        const rerror *e = &es[i];
        sb_printf(b, "<div class=\"error\" id=\"error-%zu\"><h3>", i + 1);
        html_escaped(b, e->kind);
        sb_puts(b, " at ");
        html_escaped(b, e->location ? e->location : e->file ? e->file : "unknown location");
        if (e->function) {
            sb_puts(b, " in ");
            html_escaped(b, e->function);
        }
        sb_puts(b, "</h3>\n<table class=\"kv\">");
        if (e->klass) {
            sb_puts(b, "<tr><th>class</th>");
            td_text(b, e->klass);
            sb_puts(b, "</tr>");
        }
        if (e->scope) {
            sb_puts(b, "<tr><th>unit test of</th>");
            td_text(b, e->scope);
            sb_puts(b, "</tr>");
        }
        if (e->found_seconds >= 0) sb_printf(b, "<tr><th>found after</th><td>%.2f s</td></tr>", e->found_seconds);
        if (e->reproducer) {
            sb_puts(b, "<tr><th>input (test case)</th><td>");
            out_link(b, c, e->reproducer);
            sb_puts(b, "</td></tr>");
        }
        if (e->fixture) {
            sb_puts(b, "<tr><th>database fixture</th><td>");
            out_link(b, c, e->fixture);
            sb_puts(b, "</td></tr>");
        }
        if (c->kind != HTML_UNIT) {
            sb_puts(b, "<tr><th>replay</th><td><code>sympath replay ");
            html_escaped(b, c->out_dir);
            sb_puts(b, "</code> (every test and reproducer, natively)");
            if (c->kind == HTML_RUN && e->reproducer) { /* one reproducer alone, e.g. under a debugger */
                sb_puts(b, "; then this one alone: <code>SYMPATH_TESTCASE=");
                html_escaped(b, c->out_dir);
                sb_puts(b, "/");
                html_escaped(b, e->reproducer);
                sb_puts(b, " gdb ");
                html_escaped(b, c->out_dir);
                sb_puts(b, "/replay/prog</code>");
            }
            sb_puts(b, "</td></tr>");
        }
        sb_puts(b, "</table>\n");
        if (e->description) {
            sb_puts(b, "<pre class=\"desc\">");
            html_escaped(b, e->description);
            sb_puts(b, "</pre>\n");
        }
        if (e->fixture) { /* a small fixture is shown: the rows the error needs */
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", c->out_dir, e->fixture);
            size_t len = 0;
            char *fx = util_read_file(path, &len);
            if (fx && len <= 8192) {
                sb_puts(b, "<p>Database fixture:</p><pre class=\"desc\">");
                html_escaped(b, fx);
                sb_puts(b, "</pre>\n");
            }
            free(fx);
        }
        sb_puts(b, "</div>\n");
    }
    sb_puts(b, "</section>\n");
    rerrors_free(es, n);
}

/* The nonzero members of a flat object of counters as a two-column table (nothing when
 * none); the member named skip (may be NULL) is left out. */
static int counters_but(strbuf *b, const jv *o, const char *caption, const char *skip)
{
    int any = 0;
    for (size_t i = 0; o && o->t == JV_OBJ && i < o->n; i++) {
        if (o->items[i].t != JV_NUM || o->items[i].num == 0) continue;
        if (skip && !strcmp(o->keys[i], skip)) continue;
        if (!any) {
            sb_puts(b, "<table class=\"kv\"><caption>");
            html_escaped(b, caption);
            sb_puts(b, "</caption>");
        }
        any = 1;
        sb_puts(b, "<tr><th>");
        html_escaped(b, o->keys[i]);
        sb_puts(b, "</th>");
        td_num(b, o->items[i].num);
        sb_puts(b, "</tr>");
    }
    if (any) sb_puts(b, "</table>\n");
    return any;
}

static int counters(strbuf *b, const jv *o, const char *caption) { return counters_but(b, o, caption, NULL); }

/* The limits recorded in one report.json; returns nonzero when something was written. */
static int limits_of(strbuf *b, const jv *r)
{
    int any = 0;
    const char *stop = jv_str(jv_get(r, "stop_reason"), jv_str(jv_get(jv_get(r, "data"), "stop_reason"), NULL));
    if (stop) {
        sb_puts(b, "<p>Stopped: <b>");
        html_escaped(b, stop);
        sb_puts(b, "</b>");
        const jv *comp = jv_get(r, "complete");
        if (comp && comp->t == JV_BOOL)
            sb_puts(b,
                    comp->b ? " (exploration complete: every feasible path was run)" : " (exploration not complete)");
        sb_puts(b, "</p>\n");
    }
    any |= counters(b, jv_get(r, "concretizations_by_function"),
                    "symbolic values concretized by calls of libc functions without a model, by function");
    any |= counters(b, jv_get(r, "concretizations"), "concretizations by kind");
    any |= counters(b, jv_get(r, "unsupported_instructions"), "instructions the instrumentation does not model");
    any |= counters_but(b, jv_get(jv_get(r, "tree"), "directions"), "execution-tree directions not run, by status",
                        "visited");
    any |= counters(b, jv_get(r, "solver"), "solver");
    /* --db: per query site whether sympath understood it (else it ran concretely) and what it did not model */
    const jv *db = jv_get(r, "database");
    const jv *q = jv_get(db, "queries");
    for (size_t i = 0; i < jv_len(q); i++) {
        const jv *o = &q->items[i];
        if (!i)
            sb_puts(b,
                    "<table class=\"list\"><caption>SQL of the program (not understood: run concretely, its rows "
                    "not synthesized)</caption><tr><th>SQL</th><th>understood</th><th>executions</th>"
                    "<th>fixture rows returned</th><th>constructs not modelled</th><th>model mismatches</th></tr>\n");
        sb_puts(b, "<tr>");
        td_text(b, jv_str(jv_get(o, "sql"), "?"));
        sb_printf(b, "<td class=\"%s\">%s</td>", jv_num(jv_get(o, "understood"), 0) ? "cov" : "unc",
                  jv_num(jv_get(o, "understood"), 0) ? "yes" : "no: run concretely");
        td_num(b, jv_num(jv_get(o, "executions"), 0));
        td_num(b, jv_num(jv_get(o, "fixture_rows_returned"), 0));
        strbuf k = STRBUF_INIT;
        const jv *un = jv_get(o, "unsupported");
        for (size_t u = 0; u < jv_len(un); u++) sb_printf(&k, "%s%s", u ? ", " : "", jv_str(&un->items[u], "?"));
        td_text(b, k.s ? k.s : "-");
        sb_free(&k);
        td_num(b, jv_num(jv_get(o, "model_mismatches"), 0));
        sb_puts(b, "</tr>\n");
        if (i + 1 == jv_len(q)) sb_puts(b, "</table>\n"), any = 1;
    }
    static const char *const lists[][2] = {{"constraints_not_modelled", "schema constraints not modelled"},
                                           {"statement_error_messages", "statements that failed at run time"},
                                           {"fixture_error_messages", "fixtures that could not be built"}};
    for (size_t l = 0; l < 3; l++) {
        const jv *a = jv_get(db, lists[l][0]);
        for (size_t i = 0; i < jv_len(a); i++) {
            if (!i) sb_printf(b, "<table class=\"list\"><caption>%s</caption>\n", lists[l][1]);
            sb_puts(b, "<tr>");
            td_text(b, jv_str(&a->items[i], "?"));
            sb_puts(b, "</tr>\n");
            if (i + 1 == jv_len(a)) sb_puts(b, "</table>\n"), any = 1;
        }
    }
    if (db && db->t == JV_OBJ) any |= counters(b, db, "database");
    const jv *refused = jv_get(jv_get(r, "data"), "statements_refused_or_failed");
    for (size_t i = 0; i < jv_len(refused); i++) {
        if (!i) sb_puts(b, "<table class=\"list\"><caption>statements refused or failed (read-only)</caption>\n");
        sb_puts(b, "<tr>");
        td_text(b, jv_str(&refused->items[i], "?"));
        sb_puts(b, "</tr>\n");
        if (i + 1 == jv_len(refused)) sb_puts(b, "</table>\n"), any = 1;
    }
    return any;
}

void html_limits(strbuf *b, const html_ctx *c)
{
    sb_puts(b, "<section id=\"limits\"><h2>What limited the run</h2>\n");
    if (c->kind == HTML_UNIT)
        sb_puts(b, "<p>Per function, in the section <a href=\"#functions\">functions</a>.</p>\n");
    else if (!limits_of(b, c->rep))
        sb_puts(b, "<p>Nothing recorded.</p>\n");
    sb_puts(b, "</section>\n");
}

void html_unit(strbuf *b, const html_ctx *c)
{
    const jv *fns = jv_get(c->rep, "functions");
    sb_puts(b, "<section id=\"functions\"><h2>Functions</h2>\n<table class=\"list\"><tr><th>function</th><th>file</th>"
               "<th>branches (explored)</th><th>gcov branches (tests)</th><th>tests</th><th>expect a failure</th>"
               "<th>dropped</th><th>seconds</th></tr>\n");
    for (size_t i = 0; i < jv_len(fns); i++) {
        const jv *f = &fns->items[i];
        const jv *cov = jv_get(f, "coverage"), *g = jv_get(f, "gcov");
        sb_puts(b, "<tr>");
        td_text(b, jv_str(jv_get(f, "function"), "?"));
        td_text(b, jv_str(jv_get(f, "file"), "?"));
        sb_printf(b, "<td>%.0f/%.0f</td>", jv_num(jv_get(cov, "branches_covered"), 0),
                  jv_num(jv_get(cov, "branches_total"), 0));
        if (g && jv_get(g, "unknown")) /* the coverage build wrote no data: unknown, not 0 */
            sb_puts(b, "<td>unknown</td>");
        else if (g)
            sb_printf(b, "<td>%.0f/%.0f</td>", jv_num(jv_get(g, "branches_taken"), 0),
                      jv_num(jv_get(g, "branches_total"), 0));
        else
            sb_puts(b, "<td>-</td>");
        td_num(b, jv_num(jv_get(f, "tests_emitted"), 0));
        td_num(b, jv_num(jv_get(f, "tests_expecting_failure"), 0));
        td_num(b, (double)jv_len(jv_get(f, "dropped")));
        sb_printf(b, "<td class=\"num\">%.2f</td>", jv_num(jv_get(f, "seconds"), 0));
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
    for (size_t i = 0; i < jv_len(fns); i++) {
        const jv *f = &fns->items[i];
        const char *name = jv_str(jv_get(f, "function"), "?");
        sb_printf(b, "<h3 id=\"fn-%zu\">", i);
        html_escaped(b, name);
        sb_puts(b, "</h3>\n<ul>");
        const jv *ts = jv_get(f, "tests");
        for (size_t k = 0; k < jv_len(ts); k++) {
            sb_puts(b, "<li>");
            html_escaped(b, jv_str(jv_get(&ts->items[k], "name"), "?"));
            sb_puts(b, ": expects ");
            html_escaped(b, jv_str(jv_get(&ts->items[k], "expects"), "?"));
            sb_puts(b, "</li>");
        }
        const jv *dr = jv_get(f, "dropped");
        for (size_t k = 0; k < jv_len(dr); k++) {
            sb_puts(b, "<li class=\"unc\">dropped: ");
            const jv *d = &dr->items[k];
            html_escaped(b, d->t == JV_STR ? d->str : jv_str(jv_get(d, "reason"), "?"));
            sb_puts(b, "</li>");
        }
        sb_puts(b, "</ul>\n");
        /* this function's exploration over time */
        char path[4400], id[300];
        snprintf(path, sizeof path, "%s/build/runs/%s/stats", c->out_dir, name);
        snprintf(id, sizeof id, "fn-%zu", i);
        report_sample *rows = NULL;
        size_t n = 0;
        report_stats_read(path, &rows, &n);
        html_plots(b, rows, n, id);
        free(rows);
        /* what limited this function's exploration */
        snprintf(path, sizeof path, "%s/build/runs/%s/report.json", c->out_dir, name);
        char *err = NULL;
        jv *run = jv_read_file(path, &err);
        free(err);
        if (run && !limits_of(b, run)) sb_puts(b, "<p>No limit recorded.</p>\n");
        jv_free(run);
    }
    const jv *files = jv_get(c->rep, "files");
    for (size_t i = 0; i < jv_len(files); i++) {
        if (!i) sb_puts(b, "<h3>Build and run (JUnit XML)</h3>\n");
        sb_puts(b, "<pre class=\"desc\">");
        html_escaped(b, jv_str(jv_get(&files->items[i], "build"), ""));
        sb_puts(b, "</pre>\n");
    }
    const jv *nt = jv_get(c->rep, "not_tested");
    for (size_t i = 0; i < jv_len(nt); i++) {
        if (!i) sb_puts(b, "<h3>Not tested</h3>\n<ul>");
        sb_puts(b, "<li>");
        html_escaped(b, jv_str(jv_get(&nt->items[i], "function"), "?"));
        sb_puts(b, ": ");
        html_escaped(b, jv_str(jv_get(&nt->items[i], "reason"), "?"));
        sb_puts(b, "</li>");
        if (i + 1 == jv_len(nt)) sb_puts(b, "</ul>\n");
    }
    sb_puts(b, "</section>\n");
}

void html_data(strbuf *b, const html_ctx *c)
{
    const jv *d = jv_get(c->rep, "data");
    const jv *qs = jv_get(d, "queries");
    sb_printf(b, "<section id=\"queries\"><h2>Queries (%zu)</h2>\n", jv_len(qs));
    sb_printf(b,
              "<p>%.0f tuples fetched of a table of %.0f rows (what a full scan fetches), %.0f runs, %.0f paths.</p>\n",
              jv_num(jv_get(d, "tuples_fetched"), 0), jv_num(jv_get(d, "table_rows"), 0), jv_num(jv_get(d, "runs"), 0),
              jv_num(jv_get(d, "paths"), 0));
    sb_puts(b, "<table class=\"list\"><tr><th>#</th><th>target</th><th>condition added to the program's query</th>"
               "<th>limit</th><th>estimated rows</th><th>tuples fetched</th><th>new paths</th></tr>\n");
    for (size_t i = 0; i < jv_len(qs); i++) {
        const jv *q = &qs->items[i];
        sb_printf(b, "<tr><td class=\"num\">%zu</td>", i + 1);
        td_text(b, jv_str(jv_get(q, "target"), "-"));
        sb_puts(b, "<td><code>");
        const char *w = jv_str(jv_get(q, "where"), "");
        html_escaped(b, *w ? w : "(none: the program's own query)");
        sb_puts(b, "</code></td>");
        td_num(b, jv_num(jv_get(q, "limit"), 0));
        td_num(b, jv_num(jv_get(q, "estimated_rows"), 0));
        td_num(b, jv_num(jv_get(q, "tuples_fetched"), 0));
        td_num(b, jv_num(jv_get(q, "new_paths"), 0));
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n");
    const jv *sites = jv_get(d, "sites");
    for (size_t i = 0; i < jv_len(sites); i++) {
        if (!i) sb_puts(b, "<h3>The program's queries</h3>\n<ul>");
        sb_puts(b, "<li><code>");
        html_escaped(b, jv_str(jv_get(&sites->items[i], "sql"), "?"));
        sb_printf(b, "</code> (%.0f rows)</li>", jv_num(jv_get(&sites->items[i], "table_rows"), 0));
        if (i + 1 == jv_len(sites)) sb_puts(b, "</ul>\n");
    }
    sb_puts(b, "</section>\n");
}
