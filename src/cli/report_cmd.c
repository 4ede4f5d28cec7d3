/* report_cmd.c: `sympath report OUT [-o DIR]`: parses the options and calls report_write_html (src/report). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report_cmd.h"

static void report_usage(FILE *f)
{
    fputs("usage: sympath report OUT [-o DIR]\n"
          "  writes a static HTML report of the output directory OUT of run, unit or data\n"
          "  -o, --output DIR        where index.html goes (default: OUT/report)\n",
          f);
}

int cmd_report(int argc, char **argv)
{
    const char *out = NULL, *html = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            report_usage(stdout);
            return 0;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            html = argv[++i];
        } else if (a[0] == '-' || out) {
            fprintf(stderr, "sympath report: unexpected argument '%s'\n", a);
            report_usage(stderr);
            return 2;
        } else {
            out = a;
        }
    }
    if (!out) {
        report_usage(stderr);
        return 2;
    }
    char *err = NULL;
    if (report_write_html(out, html, &err) != 0) {
        fprintf(stderr, "sympath report: %s\n", err ? err : "cannot write the report");
        free(err);
        return 1;
    }
    if (html)
        printf("%s/index.html\n", html);
    else
        printf("%s/report/index.html\n", out);
    return 0;
}
