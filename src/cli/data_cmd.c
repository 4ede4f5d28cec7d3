/* data_cmd.c: `sympath data`: options and Ctrl-C, then the data pipeline (src/data, data_run). */
#define _GNU_SOURCE
#include "data_cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/data.h"
#include "run_cmd.h"
#include "interrupt.h"

static void data_usage(FILE *f)
{
    fputs("usage: sympath data PROG.c [MORE.c ...] --db DATABASE [options]\n"
          "Test a program on an existing database without writing to it: each run sees only the tuples\n"
          "of a query chosen to reach new paths at least cost (Li and Csallner, DBTest 2010).\n"
          "  --db DATABASE           an SQLite file (opened read-only) or a PostgreSQL conninfo\n"
          "                          (\"postgresql://user@host/db\", \"host=... dbname=...\"; READ ONLY transactions)\n"
          "  -o, --output DIR        output directory (default: sympath-out)\n"
          "  --budget DURATION       wall-time budget (default 60s; 0 = none)\n"
          "  --first N               tuples of the first run (default 16)\n"
          "  --max-nq N              most tuples one candidate query may fetch (default 64)\n"
          "  --full-scan             instead: one run over every tuple of the program's queries (the comparison)\n"
          "  --cflags \"FLAGS\"        extra flags for compiling the program\n"
          "  --timeout DURATION      time limit of one run, its queries included (default 60s); a run over it\n"
          "                          is a query too slow for this data (reported with its node), not an error\n"
          "  --mem-limit MIB         address-space limit of one run in MiB (default 2048; 0 = none)\n"
          "  --no-progress           accepted for symmetry with run (data prints no progress line)\n",
          f);
}

static int parse_uint(const char *t, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(t, &end, 10);
    if (errno || end == t || *end || t[0] == '-') return -1;
    *out = v;
    return 0;
}

int cmd_data(int argc, char **argv)
{
    const char *out = "sympath-out", *cflags = NULL, *db = NULL;
    data_opts o;
    memset(&o, 0, sizeof o);
    o.budget_seconds = 60;
    o.run_timeout_ms = 60000; /* a run includes its query: on a large table a selective one scans it all */
    o.mem_mb = 2048;
    o.out_kb = 1024;
    o.first_limit = 16;
    o.max_limit = 64;
    const char **sources = calloc((size_t)argc, sizeof *sources);
    size_t nsources = 0;
    if (!sources) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        unsigned long u;
#define NEED()                                                             \
    do {                                                                   \
        if (!v) {                                                          \
            fprintf(stderr, "sympath data: option %s needs a value\n", a); \
            return 2;                                                      \
        }                                                                  \
        i++;                                                               \
    } while (0)
#define BAD()                                                                        \
    do {                                                                             \
        fprintf(stderr, "sympath data: bad value '%s' for %s (see --help)\n", v, a); \
        return 2;                                                                    \
    } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            data_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--db")) {
            NEED();
            db = v;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            NEED();
            out = v;
        } else if (!strcmp(a, "--budget")) {
            NEED();
            if (parse_duration(v, &d)) BAD();
            o.budget_seconds = d;
        } else if (!strcmp(a, "--first")) {
            NEED();
            if (parse_uint(v, &u) || u < 1 || u > 1000000) BAD();
            o.first_limit = (unsigned)u;
        } else if (!strcmp(a, "--max-nq")) {
            NEED();
            if (parse_uint(v, &u) || u < 1 || u > 1000000) BAD();
            o.max_limit = (unsigned)u;
        } else if (!strcmp(a, "--full-scan")) {
            o.full_scan = true;
        } else if (!strcmp(a, "--cflags")) {
            NEED();
            cflags = v;
        } else if (!strcmp(a, "--timeout")) {
            NEED();
            if (parse_duration(v, &d) || d <= 0) BAD();
            o.run_timeout_ms = (unsigned)(d * 1000 + 0.5);
        } else if (!strcmp(a, "--mem-limit")) {
            NEED();
            if (parse_uint(v, &u)) BAD();
            o.mem_mb = (unsigned)u;
        } else if (!strcmp(a, "--no-progress")) {
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sympath data: unknown option '%s' (see --help)\n", a);
            return 2;
        } else {
            sources[nsources++] = a;
        }
#undef NEED
#undef BAD
    }
    if (!nsources || !db) {
        fprintf(stderr, "sympath data: %s\n", !nsources ? "no C source given" : "--db DATABASE is required");
        data_usage(stderr);
        return 2;
    }
    data_run_opts r = {
        out, (const char *const *)sources, nsources, cflags, db, o, &cli_interrupted, cli_arm_interrupt, stderr};
    int rc = data_run(&r);
    free(sources);
    return rc;
}
