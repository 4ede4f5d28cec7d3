/* data_cmd.c: `sympath data`: options, the read-only database check, the build, the Li-Csallner exploration, replay.conf. */
#define _GNU_SOURCE
#include "data_cmd.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/data.h"
#include "db/db.h"
#include "emit/emit.h"
#include "instrument/instrument.h"
#include "run_cmd.h"
#include "util/util.h"
#include "proto/env.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    if (interrupted) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    interrupted = 1;
}

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
    if (errno || end == t || *end || t[0] == '-')
        return -1;
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
    if (!sources)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        unsigned long u;
#define NEED()                                                                 \
    do {                                                                       \
        if (!v) {                                                              \
            fprintf(stderr, "sympath data: option %s needs a value\n", a);     \
            return 2;                                                          \
        }                                                                      \
        i++;                                                                   \
    } while (0)
#define BAD()                                                                           \
    do {                                                                                \
        fprintf(stderr, "sympath data: bad value '%s' for %s (see --help)\n", v, a);     \
        return 2;                                                                       \
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
            if (parse_duration(v, &d))
                BAD();
            o.budget_seconds = d;
        } else if (!strcmp(a, "--first")) {
            NEED();
            if (parse_uint(v, &u) || u < 1 || u > 1000000)
                BAD();
            o.first_limit = (unsigned)u;
        } else if (!strcmp(a, "--max-nq")) {
            NEED();
            if (parse_uint(v, &u) || u < 1 || u > 1000000)
                BAD();
            o.max_limit = (unsigned)u;
        } else if (!strcmp(a, "--full-scan")) {
            o.full_scan = true;
        } else if (!strcmp(a, "--cflags")) {
            NEED();
            cflags = v;
        } else if (!strcmp(a, "--timeout")) {
            NEED();
            if (parse_duration(v, &d) || d <= 0)
                BAD();
            o.run_timeout_ms = (unsigned)(d * 1000 + 0.5);
        } else if (!strcmp(a, "--mem-limit")) {
            NEED();
            if (parse_uint(v, &u))
                BAD();
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
    char **abs_sources = calloc(nsources, sizeof *abs_sources);
    for (size_t i = 0; i < nsources; i++)
        if (!(abs_sources[i] = realpath(sources[i], NULL))) {
            fprintf(stderr, "sympath data: cannot read %s: %s\n", sources[i], strerror(errno));
            return 1;
        }
    char build_dir[PATH_MAX], exe[PATH_MAX + 16], sites[PATH_MAX + 16];
    if (snprintf(build_dir, sizeof build_dir, "%s/build", out) >= (int)sizeof build_dir || util_mkdir_p(build_dir)) {
        fprintf(stderr, "sympath data: cannot create %s/build: %s\n", out, strerror(errno));
        return 1;
    }
    snprintf(exe, sizeof exe, "%s/executor", build_dir);
    snprintf(sites, sizeof sites, "%s/sites.tsv", build_dir);

    /* the database: checked before the build, opened read-only; SQLite also gives the schema
     * the runtime needs for rowid keys and replay needs for its fixtures */
    char *db_abs = NULL;
    db_setup dbs;
    memset(&dbs, 0, sizeof dbs);
    char *err = NULL;
    if (!data_is_postgres(db)) {
        if (!(db_abs = realpath(db, NULL))) {
            fprintf(stderr, "sympath data: --db %s: %s\n", db, strerror(errno));
            return 1;
        }
        if (db_setup_data(db_abs, db, build_dir, &dbs, &err)) {
            fprintf(stderr, "sympath data: %s\n", err ? err : "out of memory");
            free(err);
            return 1;
        }
    }
    data_source *probe = data_source_open(db_abs ? db_abs : db, &err);
    if (!probe) {
        fprintf(stderr, "sympath data: --db %s: %s\n", db, err ? err : "cannot open the database");
        free(err);
        return 1;
    }
    data_source_close(probe);

    build_opts bo = {(const char *const *)abs_sources, nsources, cflags, build_dir, instrument_lib_dir(), instrument_include_dir(),
                     exe, sites, getenv(SYMPATH_ENV_CC) ? getenv(SYMPATH_ENV_CC) : SYMPATH_CLANG, NULL, NULL};
    build_stats bs;
    memset(&bs, 0, sizeof bs);
    fprintf(stderr, "sympath: building %s%s ...\n", sources[0], nsources > 1 ? " (and more)" : "");
    if (build_executor(&bo, &bs, &err) != 0) {
        fprintf(stderr, "sympath data: cannot build the program:\n%s\n", err ? err : "unknown error");
        free(err);
        return 1;
    }
    fprintf(stderr, "sympath: %u functions, %u branch sites instrumented in %.1f s\n", bs.functions, bs.branch_sites,
            bs.seconds);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    o.db = db_abs ? db_abs : db;
    o.out_dir = out;
    o.exe_path = exe;
    o.sites_path = sites;
    o.work_dir = build_dir;
    o.sources = (const char *const *)sources;
    o.nsources = nsources;
    o.build_seconds = bs.seconds;
    o.interrupted = &interrupted;
    data_summary sum;
    if (data_explore(&o, &sum, &err)) {
        fprintf(stderr, "sympath data: %s\n", err ? err : "the exploration failed");
        free(err);
        return 1;
    }
    /* replay: SQLite tests rebuild a database from the schema and their fixture (test-N.sql) */
    dbs.fixture_inputs = 0;
    if (write_replay_conf(out, abs_sources, nsources, cflags, NULL, sum.slots_covered, sum.slots_total,
                          dbs.schema ? &dbs : NULL, data_is_postgres(db)))
        return 1;
    db_setup_free(&dbs);
    build_stats_free(&bs);
    for (size_t i = 0; i < nsources; i++)
        free(abs_sources[i]);
    free(abs_sources);
    free(sources);
    free(db_abs);
    return 0;
}
