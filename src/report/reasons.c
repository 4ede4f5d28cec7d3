/* reasons.c: OUT/build/reasons.tsv, why branch directions stay uncovered (tree statuses per site and direction). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_int.h"

/* A flat list searched linearly: a program has at most a few thousand (site, dir, why)
 * triples, and the list is built once, at the end of a run. */
struct report_reasons {
    report_reason *rows;
    size_t n, cap;
};

report_reasons *report_reasons_new(void) { return calloc(1, sizeof(report_reasons)); }

void report_reasons_add(report_reasons *r, uint32_t site, uint32_t dir, const char *why)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].site == site && r->rows[i].dir == dir && strncmp(r->rows[i].why, why, 23) == 0) {
            r->rows[i].count++;
            return;
        }
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 64;
        report_reason *nr = realloc(r->rows, nc * sizeof *nr);
        if (!nr) return;
        r->rows = nr;
        r->cap = nc;
    }
    report_reason *x = &r->rows[r->n++];
    x->site = site;
    x->dir = dir;
    snprintf(x->why, sizeof x->why, "%s", why);
    x->count = 1;
}

int report_reasons_write(const report_reasons *r, const char *out_dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/build", out_dir);
    if (util_mkdir_p(path) != 0) return -1;
    snprintf(path, sizeof path, "%s/build/reasons.tsv", out_dir);
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "# site\tdir\twhy\tcount\n");
    for (size_t i = 0; r && i < r->n; i++) {
        const report_reason *x = &r->rows[i];
        if (x->dir == REPORT_DIR_ANY)
            sb_printf(&b, "%u\t*\t%s\t%llu\n", x->site, x->why, (unsigned long long)x->count);
        else
            sb_printf(&b, "%u\t%u\t%s\t%llu\n", x->site, x->dir, x->why, (unsigned long long)x->count);
    }
    if (b.failed) {
        sb_free(&b);
        errno = ENOMEM;
        return -1;
    }
    int rc = util_write_atomic(path, b.s, b.len);
    sb_free(&b);
    return rc;
}

void report_reasons_free(report_reasons *r)
{
    if (!r) return;
    free(r->rows);
    free(r);
}

int report_reasons_read(const char *path, report_reason **rows, size_t *n)
{
    *rows = NULL;
    *n = 0;
    char *text = util_read_file(path, NULL);
    if (!text) return -1;
    report_reasons acc = {NULL, 0, 0};
    for (char *l = text; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl) *nl = 0;
        unsigned site;
        char dir[16], why[32];
        unsigned long long count;
        if (l[0] != '#' && sscanf(l, "%u\t%15[^\t]\t%31[^\t]\t%llu", &site, dir, why, &count) == 4) {
            uint32_t d = strcmp(dir, "*") == 0 ? REPORT_DIR_ANY : (uint32_t)strtoul(dir, NULL, 10);
            size_t before = acc.n;
            report_reasons_add(&acc, site, d, why); /* the writer never repeats a triple */
            if (acc.n > before) acc.rows[acc.n - 1].count = count;
        }
        l = nl ? nl + 1 : NULL;
    }
    free(text);
    *rows = acc.rows;
    *n = acc.n;
    return 0;
}
