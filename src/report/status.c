/* status.c: the text of the live status screen (AFL-like boxes of figures), without terminal escapes. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <string.h>

#include "report.h"

typedef struct out {
    char *buf;
    size_t n, len;
    unsigned width;
} out;

/* Append one line, cut at the width (no escape sequences inside, so bytes = columns for ASCII). */
static void line(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(out *o, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    size_t len = strlen(tmp);
    if (len > o->width) len = o->width;
    if (o->len + len + 2 > o->n) return;
    memcpy(o->buf + o->len, tmp, len);
    o->len += len;
    o->buf[o->len++] = '\n';
    o->buf[o->len] = 0;
}

static void clock_text(double s, char *b, size_t n)
{
    unsigned long t = s > 0 ? (unsigned long)s : 0;
    snprintf(b, n, "%luh %02lum %02lus", t / 3600, t / 60 % 60, t % 60);
}

size_t report_status_render(const report_sample *r, const char *title, const char *target, double budget_seconds,
                            const char *const *notes, size_t nnotes, unsigned width, char *buf, size_t n)
{
    out o = {buf, n, 0, width < 40 ? 40 : width};
    if (n) buf[0] = 0;
    char el[48], bud[48] = "none";
    clock_text(r->elapsed, el, sizeof el);
    if (budget_seconds > 0) clock_text(budget_seconds, bud, sizeof bud);
    double pct = r->total ? 100.0 * r->covered / r->total : 100.0;
    double share = r->elapsed > 0 ? 100.0 * r->solver_seconds / r->elapsed : 0.0;
    double rate = r->elapsed > 0 ? r->execs / r->elapsed : 0.0;
    line(&o, " %s", title ? title : "sympath");
    line(&o, " +- time -----------------------------+- results --------------------------+");
    line(&o, " |  elapsed : %-23s | branches : %6u/%-6u (%5.1f%%)  |", el, r->covered, r->total, pct);
    line(&o, " |   budget : %-23s |    tests : %-24llu |", bud, (unsigned long long)r->tests);
    line(&o, " |          :                         |   errors : %-24u |", r->errors);
    line(&o, " +- executions -----------------------+- solver ---------------------------+");
    line(&o, " |    total : %-23llu |  queries : %-24llu |", (unsigned long long)r->execs,
         (unsigned long long)r->queries);
    char sh[40];
    snprintf(sh, sizeof sh, "%.1f%% of the time", share);
    line(&o, " |  execs/s : %-23.1f |    share : %-24s |", rate, sh);
    line(&o, " | diverged : %-23llu | time-outs: %-24llu |", (unsigned long long)r->divergences,
         (unsigned long long)r->timeouts);
    line(&o, " +------------------------------------+------------------------------------+");
    line(&o, "   target : %s", target && *target ? target : "-");
    line(&o, " ");
    for (size_t i = 0; i < nnotes; i++) line(&o, " %s", notes[i]);
    line(&o, " ");
    line(&o, " Ctrl-C stops and keeps everything found so far.");
    return o.len;
}
