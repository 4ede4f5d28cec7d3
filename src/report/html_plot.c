/* html_plot.c: coverage over time as inline SVG line plots, one polyline point per line of OUT/stats. */
#include <string.h>

#include "report.h"
#include "report_int.h"

#define W 460 /* plot area, SVG user units (two plots side by side in 1200 pixels) */
#define H 140
#define ML 64 /* margins: left (y labels), bottom (x labels), top, right */
#define MB 24
#define MT 22
#define MR 12

typedef double (*series_fn)(const report_sample *r);

static double s_covered(const report_sample *r) { return r->covered; }
static double s_execs(const report_sample *r) { return (double)r->execs; }
static double s_tests(const report_sample *r) { return (double)r->tests; }
static double s_share(const report_sample *r) { return r->elapsed > 0 ? 100.0 * r->solver_seconds / r->elapsed : 0; }

/* One plot: y from 0 to ymax (at least the series' maximum), x from 0 to the last elapsed. */
static void plot(strbuf *b, const report_sample *rows, size_t n, const char *id, const char *title, const char *unit,
                 series_fn f, double ymax)
{
    double xmax = n ? rows[n - 1].elapsed : 0;
    for (size_t i = 0; i < n; i++)
        if (f(&rows[i]) > ymax) ymax = f(&rows[i]);
    if (ymax <= 0) ymax = 1;
    if (xmax <= 0) xmax = 1;
    sb_printf(b, "<figure class=\"plot\"><figcaption>%s</figcaption>\n", title);
    sb_printf(b,
              "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
              "role=\"img\" aria-label=\"%s\">\n",
              id, ML + W + MR, MT + H + MB, ML + W + MR, MT + H + MB, title);
    sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#999\"/>\n", ML, MT, W,
              H);
    sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">%.6g%s</text>\n", ML - 4, MT + 10, ymax,
              unit);
    sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">0</text>\n", ML - 4, MT + H);
    sb_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">0 s</text>\n", ML, MT + H + 16);
    sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">%.1f s</text>\n", ML + W, MT + H + 16,
              xmax);
    sb_puts(b, "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\" points=\"");
    for (size_t i = 0; i < n; i++) {
        double x = ML + W * rows[i].elapsed / xmax;
        double y = MT + H - H * f(&rows[i]) / ymax;
        sb_printf(b, "%s%.1f,%.1f", i ? " " : "", x, y);
    }
    sb_puts(b, "\"/>\n</svg></figure>\n");
}

void html_plots(strbuf *b, const report_sample *rows, size_t n, const char *id_prefix)
{
    if (n == 0) {
        sb_puts(b, "<p class=\"note\">No time series (OUT/stats is missing or empty).</p>\n");
        return;
    }
    char id[160];
    double total = rows[n - 1].total;
    snprintf(id, sizeof id, "%s-covered", id_prefix);
    plot(b, rows, n, id, "branch directions covered", "", s_covered, total);
    snprintf(id, sizeof id, "%s-execs", id_prefix);
    plot(b, rows, n, id, "executions", "", s_execs, 0);
    snprintf(id, sizeof id, "%s-tests", id_prefix);
    plot(b, rows, n, id, "tests kept", "", s_tests, 0);
    snprintf(id, sizeof id, "%s-solver", id_prefix);
    plot(b, rows, n, id, "solver share of the time (%)", "%", s_share, 100);
}
