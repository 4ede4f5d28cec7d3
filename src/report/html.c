/* html.c: `sympath report`: the static HTML report of an output directory (index.html, no script, nothing fetched). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_int.h"

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;max-width:1200px;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px "
    "6px;vertical-align:top;text-align:left}"
    "td.num{text-align:right}caption{text-align:left;font-weight:bold;padding:4px 0;white-space:nowrap}"
    "figure.plot{display:inline-block;margin:.3em}figcaption{font-size:90%}"
    ".note{color:#777}.cov{color:#17692b}.unc{color:#a31515}.info{color:#555}"
    "table.src{border:none;font-size:13px}table.src td{border:none;padding:0 6px}"
    "table.src pre{margin:0}td.ln{color:#999;text-align:right}td.marks{font-size:12px;max-width:420px}"
    ".err{color:#a31515;font-weight:bold}tr.err td.ln{background:#f08080}tr.cov td.ln{background:#d6f5dc}tr.unc "
    "td.ln{background:#f9d0d0}tr.part td.ln{background:#fbeec0}"
    "pre.desc{background:#f4f4f4;padding:6px;white-space:pre-wrap}div.error{border-left:4px solid "
    "#a31515;padding-left:8px;margin:1em 0}";

static html_kind kind_of(const jv *rep)
{
    const char *tool = jv_str(jv_get(rep, "tool"), "");
    if (strstr(tool, "unit")) return HTML_UNIT;
    if (strstr(tool, "data")) return HTML_DATA;
    return jv_get(rep, "database") ? HTML_DB : HTML_RUN;
}

static const char *kind_words(html_kind k)
{
    switch (k) {
    case HTML_UNIT: return "sympath unit";
    case HTML_DATA: return "sympath data";
    case HTML_DB: return "sympath run --db";
    default: return "sympath run";
    }
}

/* The program's sources, absolute: replay.conf's "source" lines, or the unit's function files. */
static void load_sources(html_ctx *c)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/build/replay.conf", c->out_dir);
    char *text = util_read_file(path, NULL);
    for (char *l = text; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl) *nl = 0;
        if (strncmp(l, "source ", 7) == 0) {
            char **ns = realloc(c->sources, (c->nsources + 1) * sizeof *ns);
            if (ns) (c->sources = ns)[c->nsources++] = strdup(l + 7);
        }
        l = nl ? nl + 1 : NULL;
    }
    free(text);
    const jv *fns = jv_get(c->rep, "functions");
    for (size_t i = 0; i < jv_len(fns); i++) {
        const char *f = jv_str(jv_get(&fns->items[i], "file"), NULL);
        char **ns = f ? realloc(c->sources, (c->nsources + 1) * sizeof *ns) : NULL;
        if (ns) (c->sources = ns)[c->nsources++] = strdup(f);
    }
}

static void row(strbuf *b, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void row(strbuf *b, const char *k, const char *fmt, ...)
{
    char v[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    sb_printf(b, "<tr><th>%s</th><td>", k);
    html_escaped(b, v);
    sb_puts(b, "</td></tr>\n");
}

static void summary(strbuf *b, const html_ctx *c, const report_sample *last)
{
    const jv *r = c->rep;
    const jv *cov = jv_get(r, "coverage");
    sb_puts(b, "<section id=\"summary\"><h2>Summary</h2>\n<table class=\"kv\">\n");
    row(b, "command", "%s", kind_words(c->kind));
    const jv *prog = jv_get(r, "program");
    for (size_t i = 0; i < jv_len(prog); i++) row(b, "program", "%s", jv_str(&prog->items[i], "?"));
    if (c->kind == HTML_DATA) row(b, "database", "%s", jv_str(jv_get(r, "database"), "?"));
    if (cov) {
        double t = jv_num(jv_get(cov, "branches_total"), 0), k = jv_num(jv_get(cov, "branches_covered"), 0);
        row(b, "branch directions covered", "%.0f/%.0f (%.1f%%)", k, t, t > 0 ? 100 * k / t : 100.0);
    } else if (c->kind == HTML_UNIT) {
        const jv *fns = jv_get(r, "functions");
        double t = 0, k = 0, tests = 0;
        for (size_t i = 0; i < jv_len(fns); i++) {
            t += jv_num(jv_get(jv_get(&fns->items[i], "coverage"), "branches_total"), 0);
            k += jv_num(jv_get(jv_get(&fns->items[i], "coverage"), "branches_covered"), 0);
            tests += jv_num(jv_get(&fns->items[i], "tests_emitted"), 0);
        }
        row(b, "functions", "%zu", jv_len(fns));
        row(b, "branch directions covered", "%.0f/%.0f (%.1f%%)", k, t, t > 0 ? 100 * k / t : 100.0);
        row(b, "tests emitted", "%.0f", tests);
    }
    const jv *tests = jv_get(r, "tests");
    if (tests && tests->t == JV_NUM) row(b, "tests kept", "%.0f", tests->num);
    const jv *errs = jv_get(r, "errors");
    if (errs && errs->t == JV_ARR)
        row(b, "errors", "%zu (%.0f property violations, %.0f other terminations)", jv_len(errs),
            jv_num(jv_get(r, "property_violations"), 0), jv_num(jv_get(r, "other_terminations"), 0));
    else if (errs)
        row(b, "errors", "%.0f", jv_num(errs, 0));
    const jv *ex = jv_get(r, "executions"), *tm = jv_get(r, "time");
    if (ex) row(b, "executions", "%.0f (%.0f/s)", jv_num(jv_get(ex, "total"), 0), jv_num(jv_get(ex, "per_second"), 0));
    if (tm)
        row(b, "time", "%.1f s exploring (+%.1f s building), solver %.0f%% of it",
            jv_num(jv_get(tm, "total_seconds"), 0), jv_num(jv_get(tm, "build_seconds"), 0),
            100 * jv_num(jv_get(tm, "solver_share"), 0));
    if (jv_get(r, "divergences")) row(b, "divergences", "%.0f", jv_num(jv_get(r, "divergences"), 0));
    if (!tm && last) row(b, "time", "%.1f s exploring", last->elapsed);
    const char *stop = jv_str(jv_get(r, "stop_reason"), jv_str(jv_get(jv_get(r, "data"), "stop_reason"), NULL));
    if (stop) row(b, "stopped", "%s", stop);
    sb_puts(b, "</table>\n</section>\n");
}

int report_write_html(const char *out_dir, const char *html_dir, char **err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/report.json", out_dir);
    jv *rep = jv_read_file(path, err);
    if (!rep) return -1;
    /* links to OUT's files: relative from OUT/report, absolute from elsewhere */
    char link[4200] = "../", abs[4096];
    if (html_dir && realpath(out_dir, abs)) snprintf(link, sizeof link, "%s/", abs);
    html_ctx c = {out_dir, rep, kind_of(rep), NULL, 0, link};
    load_sources(&c);
    report_sample *rows = NULL;
    size_t n = 0;
    snprintf(path, sizeof path, "%s/stats", out_dir);
    report_stats_read(path, &rows, &n);

    strbuf b = STRBUF_INIT;
    sb_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>sympath report: ");
    html_escaped(&b, out_dir);
    sb_printf(&b, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>sympath report: ", style);
    html_escaped(&b, out_dir);
    sb_puts(&b, "</h1>\n<nav><a href=\"#summary\">summary</a> | <a href=\"#progress\">coverage over time</a> | "
                "<a href=\"#errors\">errors</a> | <a href=\"#limits\">limits</a> | ");
    if (c.kind == HTML_UNIT) sb_puts(&b, "<a href=\"#functions\">functions</a> | ");
    if (c.kind == HTML_DATA) sb_puts(&b, "<a href=\"#queries\">queries</a> | ");
    sb_puts(&b, "<a href=\"#sources\">sources</a></nav>\n");
    summary(&b, &c, n ? &rows[n - 1] : NULL);
    sb_puts(&b, "<section id=\"progress\"><h2>Coverage over time</h2>\n");
    if (c.kind == HTML_UNIT)
        sb_puts(&b, "<p>Per function, in the section <a href=\"#functions\">functions</a>.</p>\n");
    else
        html_plots(&b, rows, n, "stats");
    sb_puts(&b, "</section>\n");
    html_errors(&b, &c);
    html_limits(&b, &c);
    if (c.kind == HTML_UNIT) html_unit(&b, &c);
    if (c.kind == HTML_DATA) html_data(&b, &c);
    html_sources(&b, &c);
    sb_puts(&b, "</body>\n</html>\n");

    int rc = 0;
    char dir[4000];
    if (html_dir)
        snprintf(dir, sizeof dir, "%s", html_dir);
    else
        snprintf(dir, sizeof dir, "%s/report", out_dir);
    snprintf(path, sizeof path, "%s/index.html", dir);
    if (b.failed) {
        *err = strdup("out of memory");
        rc = -1;
    } else if (util_mkdir_p(dir) != 0 || util_write_atomic(path, b.s, b.len) != 0) {
        if (asprintf(err, "%s: %s", path, strerror(errno)) < 0) *err = NULL;
        rc = -1;
    }
    sb_free(&b);
    free(rows);
    for (size_t i = 0; i < c.nsources; i++) free(c.sources[i]);
    free(c.sources);
    jv_free(rep);
    return rc;
}
