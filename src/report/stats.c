/* stats.c: the OUT/stats format: one tab-separated line per sample, its writer-side formatting and its reader. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/*
 * One line per sample, columns in the ORDER of the header; numbers in C locale, seconds
 * with three decimals. A line starting with '#' is the header (or a comment). The file is
 * appended to while the exploration runs, one write per line, so a reader may see a last
 * line cut short: it is malformed and skipped.
 */
const char report_stats_header[] =
    "# elapsed_s\texecs\tcovered\ttotal\ttests\terrors\tsolver_s\tqueries\tsolver_timeouts\tdivergences";

size_t report_stats_format(const report_sample *r, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%.3f\t%llu\t%u\t%u\t%llu\t%u\t%.3f\t%llu\t%llu\t%llu\n", r->elapsed,
                       (unsigned long long)r->execs, r->covered, r->total, (unsigned long long)r->tests, r->errors,
                       r->solver_seconds, (unsigned long long)r->queries, (unsigned long long)r->timeouts,
                       (unsigned long long)r->divergences);
    if (len < 0 || (size_t)len >= n) {
        if (n) buf[0] = 0;
        return 0;
    }
    return (size_t)len;
}

/* Parse one unsigned field ending at a tab, newline or NUL; advances *p past the tab. */
static int field_u64(const char **p, unsigned long long *v)
{
    char *end;
    if (**p < '0' || **p > '9') return -1;
    errno = 0;
    *v = strtoull(*p, &end, 10);
    if (errno || (*end != '\t' && *end != '\n' && *end != 0)) return -1;
    *p = *end == '\t' ? end + 1 : end;
    return 0;
}

static int field_double(const char **p, double *v)
{
    char *end;
    if ((**p < '0' || **p > '9') && **p != '.') return -1;
    *v = strtod(*p, &end);
    if (end == *p || (*end != '\t' && *end != '\n' && *end != 0)) return -1;
    *p = *end == '\t' ? end + 1 : end;
    return 0;
}

int report_stats_parse(const char *line, report_sample *r)
{
    memset(r, 0, sizeof *r);
    if (!line || line[0] == '#' || line[0] == '\n' || line[0] == 0) return -1;
    const char *p = line;
    unsigned long long v[8] = {0};
    if (field_double(&p, &r->elapsed)) return -1;
    /* the two required counters (execs, covered, total) must be there; the rest default to 0 */
    for (int i = 0; i < 5; i++) {
        if (*p == 0 || *p == '\n') {
            if (i < 3) return -1;
            break;
        }
        if (field_u64(&p, &v[i])) return -1;
    }
    if (*p && *p != '\n' && field_double(&p, &r->solver_seconds)) return -1;
    for (int i = 5; i < 8 && *p && *p != '\n'; i++)
        if (field_u64(&p, &v[i])) return -1;
    r->execs = v[0];
    r->covered = (uint32_t)v[1];
    r->total = (uint32_t)v[2];
    r->tests = v[3];
    r->errors = (uint32_t)v[4];
    r->queries = v[5];
    r->timeouts = v[6];
    r->divergences = v[7];
    return r->covered <= r->total ? 0 : -1;
}

int report_stats_read(const char *path, report_sample **rows, size_t *n)
{
    *rows = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0, len = 0, rcap = 0;
    report_sample *out = NULL;
    while (getline(&line, &cap, f) > 0) {
        report_sample r;
        if (report_stats_parse(line, &r)) continue;
        if (strchr(line, '\n') == NULL) continue; /* the last line, still being written */
        if (len == rcap) {
            size_t nc = rcap ? rcap * 2 : 64;
            report_sample *nr = realloc(out, nc * sizeof *nr);
            if (!nr) break;
            out = nr;
            rcap = nc;
        }
        out[len++] = r;
    }
    free(line);
    fclose(f);
    *rows = out;
    *n = len;
    return 0;
}
