/* run_cmd.c: `sympath run`: options and Ctrl-C, then the run pipeline (src/explore, explore_run). */
#define _GNU_SOURCE
#include "run_cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explore/explorer.h"
#include "instrument/instrument.h"
#include "parallel/parallel.h"
#include "unit/unit.h" /* unitlib: unit_compdb_flags */
#include "util/util.h"
#include "interrupt.h"

/* First Ctrl-C: stop after the runs in flight and write everything; second: default action. */
static void run_usage(FILE *f)
{
    fputs("usage: sympath run PROG.c [MORE.c ...] [options]\n"
          "  -o, --output DIR        output directory (default: sympath-out)\n"
          "  --budget DURATION       wall-time budget of the exploration (default 60s; 0 = none)\n"
          "  --strategy NAME         cov (default), dfs, bfs, random, generational\n"
          "  --max-tests N           stop after keeping N tests\n"
          "  --max-execs N           stop after N executions\n"
          "  --seed N                seed of the random strategy (default 1)\n"
          "  -j, --jobs N            parallel workers, each with its own tree, solver and executor (default 1;\n"
          "                          docs/parallel.md)\n"
          "  --mpi                   one exploration over the processes of an Open MPI job: run as\n"
          "                          mpirun -np N sympath run PROG.c --mpi (N >= 2; rank 0 coordinates and\n"
          "                          writes the suite, ranks 1..N-1 explore; docs/parallel.md)\n"
          "  --cflags \"FLAGS\"        extra flags for compiling the program (e.g. \"-DN=4 -Iinc\")\n"
          "  --compile-commands P    take -I/-D/-std/-include from compile_commands.json (P: file or directory)\n"
          "  --timeout DURATION      time limit of one run (default 2s); a run over it is a hang\n"
          "  --mem-limit MIB         address-space limit of one run in MiB (default 2048; 0 = none)\n"
          "  --max-memory MIB        sympath's own memory (execution tree, solver) at which the exploration\n"
          "                          stops, its tests kept (default: half the RAM, at most 4096; 0 = none)\n"
          "  --output-limit KIB      cap on what one run may print, KiB (default 1024)\n"
          "  --solver-timeout DUR    time limit of one solver query (default 2s)\n"
          "  --loop-bound N          explore a branch site at most N times per path (default 200; 0 = no bound)\n"
          "  --max-depth N           ignore symbolic branches deeper than N (default 100000; 0 = no bound)\n"
          "  --input-limit N         a run ends normally when it asks for more than max(N, 2 x the inputs it\n"
          "                          was given) inputs (default 10000; 0 = no limit)\n"
          "  --no-progress           no live progress line (it is shown only on a terminal anyway)\n"
          "  --sym-args MIN MAX N    main(argc, argv) gets MIN..MAX symbolic arguments of up to N bytes\n"
          "  --sym-stdin N           standard input is up to N symbolic bytes\n"
          "  --sym-file NAME N       the file NAME (fopen/open) is up to N symbolic bytes; repeatable\n"
          "  --db SCHEMA             database application: SCHEMA is SQL DDL or an SQLite file (read only),\n"
          "                          or a PostgreSQL conninfo (its tables read only); each run opens a fresh\n"
          "                          database (PostgreSQL: a fresh schema) with the rows its test case needs\n"
          "  --db-scratch CONNINFO   PostgreSQL: the database the runs' schemas go to (default: database\n"
          "                          sympath_scratch on the --db server, created when missing)\n"
          "  --db-rows N             row slots per table in a fixture (default 3, at most 64)\n"
          "  --db-text N             bytes of a TEXT cell in a fixture (default 8, at most 64)\n"
          "  --no-db-grow            keep --db-rows and --db-text (default: an exploration that found nothing\n"
          "                          new for 40% of its budget, with a branch one side of which no run took,\n"
          "                          starts again once with twice the row slots (up to 12) and text bytes,\n"
          "                          the tests found so far run first)\n"
          "  --no-db-minimize        keep each fixture as the solver first wrote it (default: after the\n"
          "                          exploration, fewest rows and simplest values that keep the test's path)\n"
          "  --no-db-faults          no database call fails on purpose (default: the solver may make one\n"
          "                          open, prepare, bind, step, exec, connect or query per run fail)\n"
          "DURATION: a number with an optional unit ms, s, m, h (\"90s\", \"1.5m\", \"500ms\").\n",
          f);
}

int parse_duration(const char *text, double *seconds)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || v < 0) return -1;
    double mul = 1;
    if (*end == 0 || strcmp(end, "s") == 0)
        mul = 1;
    else if (strcmp(end, "ms") == 0)
        mul = 0.001;
    else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
        mul = 60;
    else if (strcmp(end, "h") == 0)
        mul = 3600;
    else
        return -1;
    *seconds = v * mul;
    return 0;
}

static int parse_uint(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || *end || errno || text[0] == '-') return -1;
    *out = v;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    explore_run_opts r = {.out_dir = "sympath-out", .db_rows = 3, .db_text = 8};
    explore_opts o = {.budget_seconds = 60,
                      .seed = 1,
                      .jobs = 1,
                      .run_timeout_ms = 2000,
                      .mem_mb = 2048,
                      .max_memory_mb = util_default_max_memory_mb(),
                      .out_kb = 1024,
                      .solver_timeout_ms = 2000,
                      .loop_bound = 200,
                      .max_depth = 100000,
                      .inputs_limit = 10000,
                      .progress = isatty(2)};
    sym_posix_opts posix;
    memset(&posix, 0, sizeof posix);
    const char **sources = calloc(argc, sizeof *sources);
    size_t nsources = 0;
    int mpi = 0, jobs_given = 0;
    if (!sources) return 1;
        /* the usage errors below leave by RUN_FAIL: what the options allocated is freed */
#define RUN_FAIL(rc)             \
    do {                         \
        free(sources);           \
        posix_opts_free(&posix); \
        return (rc);             \
    } while (0)

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        uint64_t u;
#define NEED_VALUE()                                                      \
    do {                                                                  \
        if (!v) {                                                         \
            fprintf(stderr, "sympath run: option %s needs a value\n", a); \
            RUN_FAIL(2);                                                  \
        }                                                                 \
        i++;                                                              \
    } while (0)
#define BAD_VALUE()                                                                 \
    do {                                                                            \
        fprintf(stderr, "sympath run: bad value '%s' for %s (see --help)\n", v, a); \
        RUN_FAIL(2);                                                                \
    } while (0)
        char *perr = NULL;
        int pr = posix_parse_option(&posix, argc, argv, &i, &perr);
        if (pr < 0) {
            fprintf(stderr, "sympath run: %s\n", perr ? perr : "out of memory");
            free(perr);
            RUN_FAIL(2);
        }
        if (pr > 0) {
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            run_usage(stdout);
            RUN_FAIL(0);
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            NEED_VALUE();
            r.out_dir = v;
        } else if (!strcmp(a, "--budget")) {
            NEED_VALUE();
            if (parse_duration(v, &d)) BAD_VALUE();
            o.budget_seconds = d;
        } else if (!strcmp(a, "--strategy")) {
            NEED_VALUE();
            int ok = 0;
            for (int k = 0; strategy_names[k]; k++) ok |= !strcmp(strategy_names[k], v);
            if (!ok) BAD_VALUE();
            o.strategy = v;
        } else if (!strcmp(a, "--max-tests")) {
            NEED_VALUE();
            if (parse_uint(v, &u)) BAD_VALUE();
            o.max_tests = u;
        } else if (!strcmp(a, "--max-execs")) {
            NEED_VALUE();
            if (parse_uint(v, &u)) BAD_VALUE();
            o.max_execs = u;
        } else if (!strcmp(a, "--seed")) {
            NEED_VALUE();
            if (parse_uint(v, &u)) BAD_VALUE();
            o.seed = u;
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u < 1 || u > 64) BAD_VALUE();
            o.jobs = (unsigned)u;
            jobs_given = 1;
        } else if (!strcmp(a, "--mpi")) {
            mpi = 1;
        } else if (!strcmp(a, "--cflags")) {
            NEED_VALUE();
            r.cflags = v;
        } else if (!strcmp(a, "--compile-commands")) { /* unitlib */
            NEED_VALUE();
            r.compile_commands = v;
        } else if (!strcmp(a, "--timeout")) {
            NEED_VALUE();
            if (parse_duration(v, &d) || d <= 0) BAD_VALUE();
            o.run_timeout_ms = (unsigned)(d * 1000 + 0.5);
        } else if (!strcmp(a, "--mem-limit")) {
            NEED_VALUE();
            if (parse_uint(v, &u)) BAD_VALUE();
            o.mem_mb = (unsigned)u;
        } else if (!strcmp(a, "--max-memory")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u > 1u << 24) BAD_VALUE();
            o.max_memory_mb = (unsigned)u;
        } else if (!strcmp(a, "--output-limit")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u == 0) BAD_VALUE();
            o.out_kb = (unsigned)u;
        } else if (!strcmp(a, "--solver-timeout")) {
            NEED_VALUE();
            if (parse_duration(v, &d)) BAD_VALUE();
            o.solver_timeout_ms = (unsigned)(d * 1000 + 0.5);
        } else if (!strcmp(a, "--loop-bound")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u > UINT32_MAX) BAD_VALUE();
            o.loop_bound = (uint32_t)u;
        } else if (!strcmp(a, "--max-depth")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u > UINT32_MAX) BAD_VALUE();
            o.max_depth = (uint32_t)u;
        } else if (!strcmp(a, "--input-limit")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u > (1u << 20)) BAD_VALUE();
            o.inputs_limit = (uint32_t)u;
        } else if (!strcmp(a, "--db")) {
            NEED_VALUE();
            r.db = v;
        } else if (!strcmp(a, "--db-scratch")) {
            NEED_VALUE();
            r.db_scratch = v;
        } else if (!strcmp(a, "--db-rows")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u < 1 || u > 64) BAD_VALUE();
            r.db_rows = (unsigned)u;
        } else if (!strcmp(a, "--db-text")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u < 1 || u > 64) BAD_VALUE();
            r.db_text = (unsigned)u;
        } else if (!strcmp(a, "--no-db-minimize")) {
            o.no_db_minimize = 1;
        } else if (!strcmp(a, "--no-db-faults")) {
            r.no_db_faults = 1;
        } else if (!strcmp(a, "--no-db-grow")) {
            r.no_db_grow = 1;
        } else if (!strcmp(a, "--no-progress")) {
            o.progress = 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sympath run: unknown option '%s' (see --help)\n", a);
            RUN_FAIL(2);
        } else {
            sources[nsources++] = a;
        }
#undef NEED_VALUE
#undef BAD_VALUE
    }
    if (nsources == 0) {
        fprintf(stderr, "sympath run: no C source given\n");
        run_usage(stderr);
        RUN_FAIL(2);
    }
    if (mpi && jobs_given) {
        fprintf(stderr, "sympath run: -j cannot be used with --mpi: --mpi takes its workers from mpirun -np\n");
        RUN_FAIL(2);
    }
    if (mpi && r.db) {
        fprintf(stderr, "sympath run: --db cannot be used with --mpi yet (the database setup runs on rank 0 only)\n");
        RUN_FAIL(2);
    }
    r.sources = (const char *const *)sources;
    r.nsources = nsources;
    r.posix = &posix;
    r.compdb_flags = unit_compdb_flags; /* unitlib */
    r.explore = o;
    r.interrupted = &cli_interrupted;
    r.before_build = cli_arm_interrupt;
    r.log = stderr;
    int rc = mpi ? parallel_mpi_run(&r) : explore_run(&r);
    posix_opts_free(&posix);
    free(sources);
    return rc;
}
