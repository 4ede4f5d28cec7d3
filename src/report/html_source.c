/* html_source.c: the program's sources with each branch direction marked covered or not, and why not when known. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../instrument/instrument.h"
#include "report.h"
#include "report_int.h"

/*
 * A mark is one branch direction (or one note) at a source line. Marks come from
 * report.json's coverage.sites (run, --db; unit: every function's exploration, merged by
 * site id: one executor serves them all) with reasons from build/reasons.tsv, or, for
 * data outputs, from the site table and data.complement_left. They are grouped by file and
 * printed next to the line they belong to.
 */
typedef struct mark {
    char *file;
    unsigned line;
    int state;  /* 1 covered, 0 not covered, -1 a note, 2 an error found here */
    char *text; /* plain text */
} mark;

typedef struct marks {
    mark *m;
    size_t n, cap;
} marks;

static void add_mark(marks *ms, const char *file, unsigned line, int state, char *text)
{
    if (ms->n == ms->cap) {
        size_t nc = ms->cap ? ms->cap * 2 : 64;
        mark *nm = realloc(ms->m, nc * sizeof *nm);
        if (!nm) {
            free(text);
            return;
        }
        ms->m = nm;
        ms->cap = nc;
    }
    ms->m[ms->n++] = (mark){strdup(file), line, state, text};
}

const char *html_reason_words(const char *why)
{
    if (!strcmp(why, "infeasible")) return "UNSAT: no input takes it after the paths that reached it";
    if (!strcmp(why, "unknown")) return "solver time-out or give-up";
    if (!strcmp(why, "bounded")) return "loop bound or depth bound (--loop-bound, --max-depth)";
    if (!strcmp(why, "diverged")) return "divergence: the run solved for it took another path";
    if (!strcmp(why, "open") || !strcmp(why, "pending")) return "budget: not tried before the exploration stopped";
    if (!strcmp(why, "ignored")) return "not worth a run (the false side of an assumption)";
    if (!strcmp(why, "concretization")) return "a symbolic value was concretized after this branch";
    return why;
}

/* ---- sites with coverage (run, --db, unit) ---- */

typedef struct site_cov {
    unsigned id, line;
    const char *file, *function, *kind;
    unsigned char covered[64];
    unsigned ndirs;
} site_cov;

/* Merge the coverage.sites of one report.json into *sites (by id). */
static void merge_sites(const jv *rep, site_cov **sites, size_t *n)
{
    const jv *arr = jv_get(jv_get(rep, "coverage"), "sites");
    for (size_t i = 0; i < jv_len(arr); i++) {
        const jv *o = &arr->items[i];
        unsigned id = (unsigned)jv_num(jv_get(o, "id"), 0);
        site_cov *sc = NULL;
        for (size_t k = 0; k < *n && !sc; k++)
            if ((*sites)[k].id == id) sc = &(*sites)[k];
        if (!sc) {
            site_cov *ns = realloc(*sites, (*n + 1) * sizeof *ns);
            if (!ns) return;
            *sites = ns;
            sc = &ns[(*n)++];
            memset(sc, 0, sizeof *sc);
            sc->id = id;
            sc->line = (unsigned)jv_num(jv_get(o, "line"), 0);
            sc->file = jv_str(jv_get(o, "file"), "?");
            sc->function = jv_str(jv_get(o, "function"), "?");
            sc->kind = jv_str(jv_get(o, "kind"), "br");
        }
        const jv *cov = jv_get(o, "covered");
        for (size_t d = 0; d < jv_len(cov) && d < 64; d++) {
            if (jv_num(&cov->items[d], 0)) sc->covered[d] = 1;
            if (d + 1 > sc->ndirs) sc->ndirs = (unsigned)d + 1;
        }
    }
}

static void add_reasons(const char *dir, report_reason **all, size_t *n)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/build/reasons.tsv", dir);
    report_reason *rows;
    size_t k;
    if (report_reasons_read(path, &rows, &k) != 0) return;
    report_reason *na = realloc(*all, (*n + k + 1) * sizeof *na);
    if (na) {
        memcpy(na + *n, rows, k * sizeof *rows);
        *all = na;
        *n += k;
    }
    free(rows);
}

static void site_marks(const html_ctx *c, marks *ms)
{
    site_cov *sites = NULL;
    size_t ns = 0, nr = 0;
    report_reason *rs = NULL;
    jv **runs = NULL;
    size_t nruns = 0;
    if (c->kind == HTML_UNIT) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/build/runs", c->out_dir);
        size_t nd = 0;
        char **dirs = util_list_dir(dir, "*", &nd);
        for (size_t i = 0; i < nd; i++) {
            char *path = util_strf("%s/report.json", dirs[i]), *err = NULL;
            jv *r = path ? jv_read_file(path, &err) : NULL;
            free(err);
            free(path);
            jv **nr2 = r ? realloc(runs, (nruns + 1) * sizeof *nr2) : NULL;
            if (!nr2) {
                jv_free(r);
                continue;
            }
            runs = nr2;
            runs[nruns++] = r;
            merge_sites(r, &sites, &ns);
            add_reasons(dirs[i], &rs, &nr);
        }
        util_free_strv(dirs);
    } else {
        merge_sites(c->rep, &sites, &ns);
        add_reasons(c->out_dir, &rs, &nr);
    }
    for (size_t i = 0; i < ns; i++) {
        const site_cov *sc = &sites[i];
        for (unsigned d = 0; d < sc->ndirs; d++) {
            char name[32];
            if (!strcmp(sc->kind, "br"))
                snprintf(name, sizeof name, "%s", d ? "true" : "false");
            else
                snprintf(name, sizeof name, "destination %u", d + 1);
            strbuf t = STRBUF_INIT;
            sb_printf(&t, "%s %s: %s", sc->kind, name, sc->covered[d] ? "covered" : "not covered");
            if (!sc->covered[d]) {
                int any = 0;
                for (size_t k = 0; k < nr; k++)
                    if (rs[k].site == sc->id && rs[k].dir == d) {
                        sb_printf(&t, "%s%s (%llu)", any ? "; " : " - ", html_reason_words(rs[k].why),
                                  (unsigned long long)rs[k].count);
                        any = 1;
                    }
                if (!any)
                    sb_puts(&t, " - no recorded reason: its condition was concrete on every run that reached it (a "
                                "counter, or a value concretized by a call without a model), or no run reached it");
            }
            add_mark(ms, sc->file, sc->line, sc->covered[d], t.s);
        }
        for (size_t k = 0; k < nr; k++)
            if (rs[k].site == sc->id && rs[k].dir == REPORT_DIR_ANY) {
                char *t = NULL;
                if (asprintf(&t, "%s (%llu)", html_reason_words(rs[k].why), (unsigned long long)rs[k].count) > 0)
                    add_mark(ms, sc->file, sc->line, -1, t);
            }
    }
    free(sites); /* its strings belong to the reports, still alive until here */
    free(rs);
    for (size_t i = 0; i < nruns; i++) jv_free(runs[i]);
    free(runs);
}

/* ---- data outputs: the complement nodes left, at their branch ---- */

/* 1 when file holds a branch site of the user's code in the site table (not a libc model). */
static int user_file(const site_table *t, const char *file)
{
    for (uint32_t i = 0; i < t->nsites; i++)
        if (t->sites[i].user && strcmp(t->sites[i].file, file) == 0) return 1;
    return 0;
}

static void data_marks(const html_ctx *c, marks *ms)
{
    char path[4200], *err = NULL;
    snprintf(path, sizeof path, "%s/build/sites.tsv", c->out_dir);
    site_table tab;
    memset(&tab, 0, sizeof tab);
    int have_sites = site_table_load(path, &tab, &err) == 0;
    free(err);
    const jv *left = jv_get(jv_get(c->rep, "data"), "complement_left");
    for (size_t i = 0; i < jv_len(left); i++) {
        const jv *o = &left->items[i];
        const char *br = jv_str(jv_get(o, "branch"), NULL);
        const char *colon = br ? strrchr(br, ':') : NULL;
        if (!colon) continue;
        char *file = strndup(br, (size_t)(colon - br));
        if (!file || (have_sites && !user_file(&tab, file))) { /* a branch inside a libc model */
            free(file);
            continue;
        }
        char *t = NULL;
        if (asprintf(&t, "%s direction not reached: %s", jv_num(jv_get(o, "direction"), 0) ? "true" : "false",
                     jv_str(jv_get(o, "why"), "?")) > 0)
            add_mark(ms, file, (unsigned)strtoul(colon + 1, NULL, 10), 0, t);
        free(file);
    }
    if (have_sites) site_table_free(&tab);
}

/* ---- printing ---- */

/* The readable path of a source file named as in the reports, or NULL (malloc'ed). */
static char *find_source(const html_ctx *c, const char *file)
{
    if (file[0] == '/') return access(file, R_OK) == 0 ? strdup(file) : NULL;
    size_t fl = strlen(file);
    for (size_t i = 0; i < c->nsources; i++) {
        size_t sl = strlen(c->sources[i]);
        if (sl > fl && c->sources[i][sl - fl - 1] == '/' && strcmp(c->sources[i] + sl - fl, file) == 0)
            return strdup(c->sources[i]);
    }
    if (access(file, R_OK) == 0) return realpath(file, NULL);
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    for (size_t i = 0; i < c->nsources; i++) {
        const char *sb = strrchr(c->sources[i], '/') ? strrchr(c->sources[i], '/') + 1 : c->sources[i];
        if (strcmp(sb, base) == 0) return strdup(c->sources[i]);
    }
    return NULL;
}

static int by_file_line(const void *a, const void *b)
{
    const mark *x = a, *y = b;
    int k = strcmp(x->file, y->file);
    return k ? k : x->line < y->line ? -1 : x->line > y->line;
}

/* Print one file: a table of lines; marks in the middle column. m[0..n) are its marks. */
static void print_file(strbuf *b, const html_ctx *c, const mark *m, size_t n, int idx)
{
    unsigned cov = 0, unc = 0;
    for (size_t i = 0; i < n; i++) cov += m[i].state == 1, unc += m[i].state == 0;
    sb_printf(b, "<h3 id=\"src-%d\">", idx);
    html_escaped(b, m[0].file);
    sb_printf(b, " <small>(%u directions covered, %u not)</small></h3>\n", cov, unc);
    char *path = find_source(c, m[0].file);
    char *text = path ? util_read_file(path, NULL) : NULL;
    free(path);
    if (!text) {
        sb_puts(b, "<p class=\"note\">Source not found; the branch directions:</p>\n<ul>\n");
        for (size_t i = 0; i < n; i++) {
            static const char *const cls[] = {"info", "unc", "cov", "err"};
            sb_printf(b, "<li class=\"%s\">line %u: ", cls[m[i].state + 1], m[i].line);
            html_escaped(b, m[i].text);
            sb_puts(b, "</li>\n");
        }
        sb_puts(b, "</ul>\n");
        return;
    }
    sb_puts(b, "<table class=\"src\">\n");
    size_t k = 0;
    unsigned ln = 1;
    for (char *l = text; l && *l; ln++) {
        char *nl = strchr(l, '\n');
        if (nl) *nl = 0;
        size_t from = k;
        int has_c = 0, has_u = 0, has_e = 0;
        while (k < n && m[k].line <= ln) {
            if (m[k].line == ln) has_c |= m[k].state == 1, has_u |= m[k].state == 0, has_e |= m[k].state == 2;
            k++;
        }
        const char *cls = has_e ? "err" : has_u && has_c ? "part" : has_u ? "unc" : has_c ? "cov" : "";
        sb_printf(b, "<tr class=\"%s\" id=\"L%d-%u\"><td class=\"ln\">%u</td><td class=\"marks\">", cls, idx, ln, ln);
        for (size_t i = from; i < k; i++) {
            if (m[i].line != ln) continue;
            static const char *const cls[] = {"info", "unc", "cov", "err"}, *const sym[] = {"&#9432;", "&#10007;",
                                                                                            "&#10003;", "&#9888;"};
            sb_printf(b, "<div class=\"%s\">%s ", cls[m[i].state + 1], sym[m[i].state + 1]);
            html_escaped(b, m[i].text);
            sb_puts(b, "</div>");
        }
        sb_puts(b, "</td><td class=\"code\"><pre>");
        html_escaped(b, l);
        sb_puts(b, "</pre></td></tr>\n");
        l = nl ? nl + 1 : NULL;
    }
    sb_puts(b, "</table>\n");
    free(text);
}

void html_sources(strbuf *b, const html_ctx *c)
{
    marks ms = {NULL, 0, 0};
    if (c->kind == HTML_DATA)
        data_marks(c, &ms);
    else
        site_marks(c, &ms);
    rerror *es = NULL;
    size_t ne = 0;
    rerrors_collect(c->out_dir, &es, &ne);
    for (size_t i = 0; i < ne; i++) {
        char *t = NULL;
        if (es[i].file && es[i].line &&
            asprintf(&t, "error: %s (%s)", es[i].kind, es[i].reproducer ? es[i].reproducer : "no reproducer") > 0)
            add_mark(&ms, es[i].file, es[i].line, 2, t);
    }
    rerrors_free(es, ne);
    sb_puts(b, "<section id=\"sources\"><h2>Sources</h2>\n");
    if (!ms.n)
        sb_puts(b, "<p class=\"note\">No branch site recorded (no coverage.sites in report.json).</p>\n");
    else
        sb_puts(b,
                "<p>&#10003; covered direction, &#10007; direction no test takes (with the reason sympath recorded), "
                "&#9888; error found here, &#9432; note.</p>\n");
    qsort(ms.m, ms.n, sizeof *ms.m, by_file_line);
    int idx = 0;
    for (size_t i = 0; i < ms.n;) {
        size_t j = i;
        while (j < ms.n && strcmp(ms.m[j].file, ms.m[i].file) == 0) j++;
        /* the unit harness is sympath's own code: not shown */
        const char *base = strrchr(ms.m[i].file, '/') ? strrchr(ms.m[i].file, '/') + 1 : ms.m[i].file;
        if (!(c->kind == HTML_UNIT && strcmp(base, "harness.c") == 0)) print_file(b, c, ms.m + i, j - i, idx++);
        i = j;
    }
    sb_puts(b, "</section>\n");
    for (size_t i = 0; i < ms.n; i++) free(ms.m[i].file), free(ms.m[i].text);
    free(ms.m);
}
