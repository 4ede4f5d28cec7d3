/* run_cmd.c: `sympath run`: options, output directory, build of the executor, exploration, Ctrl-C handling. */
#define _GNU_SOURCE
#include "run_cmd.h"

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
#include "explore/explorer.h"
#include "instrument/instrument.h"
#include "proto/proto.h"
#include "unit/unit.h" /* unitlib: unit_compdb_flags */
#include "util/util.h"
#include "proto/env.h"

static volatile sig_atomic_t interrupted;

/* First Ctrl-C: stop after the runs in flight and write everything; second: default action. */
static void on_sigint(int sig) {
    if (interrupted) {
        util_write_atomic_abandon(); /* no temporary file of the suite or report left behind */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    interrupted = 1;
}

static void run_usage(FILE *f) {
    fputs("usage: sympath run PROG.c [MORE.c ...] [options]\n"
          "  -o, --output DIR        output directory (default: sympath-out)\n"
          "  --budget DURATION       wall-time budget of the exploration (default 60s; 0 = none)\n"
          "  --strategy NAME         cov (default), dfs, bfs, random, generational\n"
          "  --max-tests N           stop after keeping N tests\n"
          "  --max-execs N           stop after N executions\n"
          "  --seed N                seed of the random strategy (default 1)\n"
          "  -j, --jobs N            parallel executors (default 1)\n"
          "  --cflags \"FLAGS\"        extra flags for compiling the program (e.g. \"-DN=4 -Iinc\")\n"
          "  --compile-commands P    take -I/-D/-std/-include from compile_commands.json (P: file or directory)\n"
          "  --timeout DURATION      time limit of one run (default 2s); a run over it is a hang\n"
          "  --mem-limit MIB         address-space limit of one run in MiB (default 2048; 0 = none)\n"
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
          "DURATION: a number with an optional unit ms, s, m, h (\"90s\", \"1.5m\", \"500ms\").\n",
          f);
}

int parse_duration(const char *text, double *seconds) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || v < 0) return -1;
    double mul = 1;
    if (*end == 0 || strcmp(end, "s") == 0) mul = 1;
    else if (strcmp(end, "ms") == 0) mul = 0.001;
    else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0) mul = 60;
    else if (strcmp(end, "h") == 0) mul = 3600;
    else return -1;
    *seconds = v * mul;
    return 0;
}

static int parse_uint(const char *text, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || *end || errno || text[0] == '-') return -1;
    *out = v;
    return 0;
}

/* OUT/build/replay.conf (proto.h): what `sympath replay` needs to rebuild the program natively. */
int write_replay_conf(const char *out, char *const *abs_sources, size_t n, const char *cflags,
                      const sym_posix_opts *posix, uint32_t covered, uint32_t total, const db_setup *db,
                      int replaypq) {
    replay_conf c;
    replay_conf_init(&c);
    int oom = 0;
    for (size_t i = 0; i < n; i++) oom |= replay_conf_add_source(&c, abs_sources[i]);
    c.cflags = strdup(cflags ? cflags : "");
    c.include_dir = strdup(instrument_include_dir());
    c.replaylib = util_strf("%s/replay.c", instrument_lib_dir());
    c.branches_covered = covered;
    c.branches_total = total;
    /* input functions of other names defined by the build (src/instrument/nondet.c) */
    char *nd = util_strf("%s/build/nondet.bc", out);
    c.nondet = nd && access(nd, R_OK) == 0 ? realpath(nd, NULL) : NULL;
    free(nd);
    /* symbolic command line, stdin and files: the options, and the configuration replay.c reads */
    if (posix_enabled(posix)) {
        c.args_on = posix->args_on, c.args_min = posix->args_min, c.args_max = posix->args_max;
        c.arg_len = posix->arg_len;
        c.stdin_on = posix->stdin_on, c.stdin_max = posix->stdin_max;
        for (size_t k = 0; k < posix->nfiles; k++) oom |= replay_conf_add_file(&c, posix->files[k].name, posix->files[k].size);
        char *pc = util_strf("%s/build/posix_conf.c", out);
        c.posixconf = pc ? realpath(pc, NULL) : NULL;
        free(pc);
    }
    if (replaypq) { /* PostgreSQL: each test's recorded results (tests/test-N.results) */
        c.replaypq = util_strf("%s/replay_pq.c", instrument_lib_dir());
        oom |= !c.replaypq;
    }
    if (db && db->schema && !db->pg) {
        c.db_schema = strdup(db->schema_copy);
        c.db_inputs = db->fixture_inputs;
        c.replaydb = util_strf("%s/replay_db.c", instrument_lib_dir());
        oom |= !c.db_schema || !c.replaydb;
    }
    char *path = util_strf("%s/%s", out, REPLAY_CONF_FILE), *err = NULL;
    int rc = -1;
    if (oom || !path || !c.cflags || !c.include_dir || !c.replaylib)
        fprintf(stderr, "sympath: cannot write the replay configuration: out of memory\n");
    else if ((rc = replay_conf_write(path, &c, &err)) != 0)
        fprintf(stderr, "sympath: %s\n", err ? err : "cannot write the replay configuration");
    free(err);
    free(path);
    replay_conf_free(&c);
    return rc;
}

int cmd_run(int argc, char **argv) {
    const char *out = "sympath-out";
    const char *cflags = NULL;
    const char *compdb = NULL; /* unitlib: --compile-commands */
    const char *db_path = NULL;
    db_setup db;
    memset(&db, 0, sizeof db);
    db.limits.rows = 3;
    db.limits.text = 8;
    explore_opts o;
    memset(&o, 0, sizeof o);
    o.budget_seconds = 60;
    o.seed = 1;
    o.jobs = 1;
    o.run_timeout_ms = 2000;
    o.mem_mb = 2048;
    o.out_kb = 1024;
    o.solver_timeout_ms = 2000;
    o.loop_bound = 200;
    o.max_depth = 100000;
    o.inputs_limit = 10000;
    o.progress = isatty(2);
    sym_posix_opts posix;
    memset(&posix, 0, sizeof posix);
    const char **sources = calloc(argc, sizeof *sources);
    size_t nsources = 0;
    if (!sources) return 1;
    /* the usage errors below leave by RUN_FAIL: what the options allocated is freed */
#define RUN_FAIL(rc)               \
    do {                           \
        free(sources);             \
        posix_opts_free(&posix);   \
        return (rc);               \
    } while (0)

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        uint64_t u;
#define NEED_VALUE()                                                          \
    do {                                                                      \
        if (!v) {                                                             \
            fprintf(stderr, "sympath run: option %s needs a value\n", a);     \
            RUN_FAIL(2);                                                      \
        }                                                                     \
        i++;                                                                  \
    } while (0)
#define BAD_VALUE()                                                                     \
    do {                                                                                \
        fprintf(stderr, "sympath run: bad value '%s' for %s (see --help)\n", v, a);      \
        RUN_FAIL(2);                                                                    \
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
            out = v;
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
        } else if (!strcmp(a, "--cflags")) {
            NEED_VALUE();
            cflags = v;
        } else if (!strcmp(a, "--compile-commands")) { /* unitlib */
            NEED_VALUE();
            compdb = v;
        } else if (!strcmp(a, "--timeout")) {
            NEED_VALUE();
            if (parse_duration(v, &d) || d <= 0) BAD_VALUE();
            o.run_timeout_ms = (unsigned)(d * 1000 + 0.5);
        } else if (!strcmp(a, "--mem-limit")) {
            NEED_VALUE();
            if (parse_uint(v, &u)) BAD_VALUE();
            o.mem_mb = (unsigned)u;
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
            db_path = v;
        } else if (!strcmp(a, "--db-scratch")) {
            NEED_VALUE();
            db.scratch = v;
        } else if (!strcmp(a, "--db-rows")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u < 1 || u > 64) BAD_VALUE();
            db.limits.rows = (unsigned)u;
        } else if (!strcmp(a, "--db-text")) {
            NEED_VALUE();
            if (parse_uint(v, &u) || u < 1 || u > 64) BAD_VALUE();
            db.limits.text = (unsigned)u;
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
    char **abs_sources = calloc(nsources, sizeof *abs_sources);
    for (size_t i = 0; i < nsources; i++) {
        abs_sources[i] = realpath(sources[i], NULL);
        if (!abs_sources[i]) {
            fprintf(stderr, "sympath run: cannot read %s: %s\n", sources[i], strerror(errno));
            return 1;
        }
    }
    if (compdb) { /* unitlib: the flags of the sources' entries (their union), before --cflags */
        char *err = NULL, *cf = unit_compdb_flags(compdb, (const char *const *)abs_sources, nsources, &err);
        if (!cf) return fprintf(stderr, "sympath run: %s\n", err ? err : "out of memory"), 2;
        cflags = util_strf("%s %s", cf, cflags ? cflags : "");
    }

    char build_dir[PATH_MAX], exe[PATH_MAX + 16], sites[PATH_MAX + 16];
    char *err = NULL;
    if (snprintf(build_dir, sizeof build_dir, "%s/build", out) >= (int)sizeof build_dir) {
        fprintf(stderr, "sympath run: output path too long\n");
        return 2;
    }
    if (util_mkdir_p(build_dir) != 0) {
        fprintf(stderr, "sympath run: cannot create %s: %s\n", build_dir, strerror(errno));
        return 1;
    }
    snprintf(exe, sizeof exe, "%s/executor", build_dir);
    if (db_path && db_setup_run(db_path, data_is_postgres(db_path), build_dir, &db, stderr, &err) != 0) {
        fprintf(stderr, "sympath run: %s\n", err ? err : "out of memory");
        free(err);
        return 1;
    }
    snprintf(sites, sizeof sites, "%s/sites.tsv", build_dir);

    /* Ctrl-C from here on: during the build it stops the compiler and ends the run (below);
     * during the exploration it stops it and the suite and report are still written */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    build_opts bo = {(const char *const *)abs_sources, nsources, cflags, build_dir, instrument_lib_dir(), instrument_include_dir(),
                     exe, sites, getenv(SYMPATH_ENV_CC) ? getenv(SYMPATH_ENV_CC) : SYMPATH_CLANG, &posix, &interrupted};
    /* the start-up reads the symbolic argv/stdin/file bytes first: they do not count against the input limit */
    if (o.inputs_limit) o.inputs_limit += posix_prefix_inputs(&posix);
    build_stats bs;
    memset(&bs, 0, sizeof bs);
    fprintf(stderr, "sympath: building %s%s ...\n", sources[0], nsources > 1 ? " (and more)" : "");
    int rc = 1;
    int built = build_executor(&bo, &bs, &err) == 0;
    if (interrupted) {
        /* no half-built executor or site table for a later look: the next run builds afresh */
        unlink(exe);
        unlink(sites);
        fprintf(stderr, "sympath run: interrupted during the build; nothing was explored, no test written\n");
        free(err);
        rc = 130;
        goto done;
    }
    if (!built) {
        fprintf(stderr, "sympath run: cannot build the program:\n%s\n", err ? err : "unknown error");
        free(err);
        goto done;
    }
    fprintf(stderr, "sympath: %u functions (%u with a concrete-mode clone), %u branch sites instrumented in %.1f s\n",
            bs.functions, bs.concrete_clones, bs.branch_sites, bs.seconds);
    if (bs.nondet_unsupported) {
        fprintf(stderr, "sympath: warning: %u input function(s) return a type that cannot be an input; they return 0:\n",
                bs.nondet_unsupported);
        for (const char *l = bs.nondet_unsupported_list; l && *l;) {
            size_t n = strcspn(l, "\n");
            fprintf(stderr, "  %.*s\n", (int)n, l);
            l += n + (l[n] == '\n');
        }
    }
    if (write_replay_conf(out, abs_sources, nsources, cflags, &posix, 0, 0, &db, db.schema && db.pg) != 0)
        goto done; /* the message is said; PostgreSQL: no scratch schema left behind (below) */

    o.out_dir = out;
    o.exe_path = exe;
    o.sites_path = sites;
    o.work_dir = build_dir;
    o.sources = (const char *const *)sources;
    o.nsources = nsources;
    o.build_seconds = bs.seconds;
    o.build = &bs;
    o.interrupted = &interrupted;
    o.db_schema = db.schema;
    o.db_rows = db.limits.rows;
    o.db_text = db.limits.text;
    o.db_log = db.schema ? db.log_path : NULL;
    o.db_pg = db.pg;
    o.db_results_dir = db.pg ? db.results_dir : NULL;
    explore_summary sum;
    memset(&sum, 0, sizeof sum);
    if (explore_program(&o, &sum, &err) != 0) {
        fprintf(stderr, "sympath run: %s\n", err ? err : "exploration failed");
        free(err);
        goto done;
    }
    rc = write_replay_conf(out, abs_sources, nsources, cflags, &posix, sum.slots_covered, sum.slots_total, &db,
                           db.schema && db.pg) != 0; /* a failure is said there; exit code 1 */
    if (interrupted && strcmp(sum.stop_reason ? sum.stop_reason : "", "interrupted") != 0)
        fprintf(stderr, "sympath: Ctrl-C after the exploration had ended: the suite and report.json were "
                        "completed first\n");
done:
    db_cleanup_pg(&db, stderr);
    db_setup_free(&db);
    for (size_t i = 0; i < nsources; i++) free(abs_sources[i]);
    free(abs_sources);
    build_stats_free(&bs);
    posix_opts_free(&posix);
    free(sources);
    return rc;
}
