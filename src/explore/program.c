/* program.c: `sympath run` as a library: sources, OUT/build, database setup, build of the executor, replay.conf, exploration. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "explore/explorer.h"
#include "instrument/instrument.h"
#include "proto/env.h"
#include "proto/proto.h"
#include "util/util.h"

int explore_prepare_out(const char *out, explore_paths *p, char **err)
{
    if (snprintf(p->build_dir, sizeof p->build_dir, "%s/build", out) >= (int)sizeof p->build_dir) {
        *err = strdup("output path too long");
        return -2;
    }
    if (util_mkdir_p(p->build_dir) != 0) {
        *err = util_strf("cannot create %s: %s", p->build_dir, strerror(errno));
        return -1;
    }
    snprintf(p->exe, sizeof p->exe, "%s/executor", p->build_dir);
    snprintf(p->sites, sizeof p->sites, "%s/sites.tsv", p->build_dir);
    return 0;
}

int explore_build_program(const char *cmd, const explore_paths *p, char *const *abs_sources, size_t n,
                          const char *shown, const char *cflags, const sym_posix_opts *posix,
                          volatile sig_atomic_t *interrupted, build_stats *bs, FILE *log)
{
    build_opts bo = {(const char *const *)abs_sources,
                     n,
                     cflags,
                     p->build_dir,
                     instrument_lib_dir(),
                     instrument_include_dir(),
                     p->exe,
                     p->sites,
                     getenv(SYMPATH_ENV_CC) ? getenv(SYMPATH_ENV_CC) : SYMPATH_CLANG,
                     posix,
                     interrupted};
    char *err = NULL;
    memset(bs, 0, sizeof *bs);
    fprintf(log, "sympath: building %s%s ...\n", shown, n > 1 ? " (and more)" : "");
    int built = build_executor(&bo, bs, &err) == 0;
    if (interrupted && *interrupted) {
        /* no half-built executor or site table for a later look: the next run builds afresh */
        unlink(p->exe);
        unlink(p->sites);
        fprintf(log, "%s: interrupted during the build; nothing was explored, no test written\n", cmd);
        free(err);
        return 130;
    }
    if (!built) {
        fprintf(log, "%s: cannot build the program:\n%s\n", cmd, err ? err : "unknown error");
        free(err);
        return 1;
    }
    return 0;
}

/* OUT/build/replay.conf (proto.h): what `sympath replay` needs to rebuild the program natively. */
int explore_write_replay_conf(const char *out, char *const *abs_sources, size_t n, const char *cflags,
                              const sym_posix_opts *posix, uint32_t covered, uint32_t total, const db_setup *db,
                              int replaypq, FILE *log)
{
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
    if (posix && posix_enabled(posix)) {
        c.args_on = posix->args_on, c.args_min = posix->args_min, c.args_max = posix->args_max;
        c.arg_len = posix->arg_len;
        c.stdin_on = posix->stdin_on, c.stdin_max = posix->stdin_max;
        for (size_t k = 0; k < posix->nfiles; k++)
            oom |= replay_conf_add_file(&c, posix->files[k].name, posix->files[k].size);
        char *pc = util_strf("%s/build/posix_conf.c", out);
        c.posixconf = pc ? realpath(pc, NULL) : NULL;
        free(pc);
    }
    if (replaypq) { /* PostgreSQL: each test's recorded results (tests/test-N.results) */
        c.replaypq = util_strf("%s/replay_pq.c", instrument_lib_dir());
        oom |= !c.replaypq;
    }
    if (db && db->schema) { /* the fixture's inputs, which the replay skips (its last: the injected fault) */
        c.db_inputs = db->fixture_inputs;
        c.db_no_faults = db->no_faults; /* --no-db-faults: the replay ignores db:fault */
    }
    if (db && db->schema && !db->pg) {
        c.db_schema = strdup(db->schema_copy);
        c.replaydb = util_strf("%s/replay_db.c", instrument_lib_dir());
        oom |= !c.db_schema || !c.replaydb;
    }
    char *path = util_strf("%s/%s", out, REPLAY_CONF_FILE), *err = NULL;
    int rc = -1;
    if (oom || !path || !c.cflags || !c.include_dir || !c.replaylib)
        fprintf(log, "sympath: cannot write the replay configuration: out of memory\n");
    else if ((rc = replay_conf_write(path, &c, &err)) != 0)
        fprintf(log, "sympath: %s\n", err ? err : "cannot write the replay configuration");
    free(err);
    free(path);
    replay_conf_free(&c);
    return rc;
}

/* The build's figures, and the input functions whose type cannot be an input. */
static void report_build(const build_stats *bs, FILE *log)
{
    fprintf(log, "sympath: %u functions (%u with a concrete-mode clone), %u branch sites instrumented in %.1f s\n",
            bs->functions, bs->concrete_clones, bs->branch_sites, bs->seconds);
    if (bs->nondet_unsupported) {
        fprintf(log, "sympath: warning: %u input function(s) return a type that cannot be an input; they return 0:\n",
                bs->nondet_unsupported);
        for (const char *l = bs->nondet_unsupported_list; l && *l;) {
            size_t n = strcspn(l, "\n");
            fprintf(log, "  %.*s\n", (int)n, l);
            l += n + (l[n] == '\n');
        }
    }
}

/* Everything explore_run owns; run_end frees it (and drops PostgreSQL scratch schemas) on every exit path. */
typedef struct run_state {
    char **abs_sources;
    size_t nsources;
    char *cflags_all; /* --compile-commands flags + cflags, or NULL */
    db_setup db;
    build_stats bs;
} run_state;

static int run_end(run_state *s, int rc, FILE *log)
{
    db_cleanup_pg(&s->db, log); /* PostgreSQL: no scratch schema left behind */
    db_setup_free(&s->db);
    build_stats_free(&s->bs);
    for (size_t i = 0; i < s->nsources; i++) free(s->abs_sources[i]);
    free(s->abs_sources);
    free(s->cflags_all);
    return rc;
}

/* The layouts one exploration may go through (db_layout.c: each starts the tree anew), and how far
 * row slots grow (the events of a join grow with the product of its tables' slots). */
#define DB_ROUNDS_MAX 2
#define DB_GROW_ROWS_MAX 12

/* The next layout: twice the row slots (at most DB_GROW_ROWS_MAX, and no more than keeps each of the
 * program's joins that the runtime enumerates now enumerable: db_schema.join_rows), twice the text
 * bytes (at most DB_TEXT_MAX). */
static db_limits grown_limits(const db_schema *s, const db_limits *l)
{
    db_limits n = *l;
    unsigned rows = l->rows * 2 > DB_GROW_ROWS_MAX ? DB_GROW_ROWS_MAX : l->rows * 2;
    for (int i = 0; i < s->njoin_rows; i++)
        if (s->join_rows[i] >= l->rows && s->join_rows[i] < rows) rows = s->join_rows[i];
    n.rows = rows > l->rows ? rows : l->rows;
    n.text = l->text * 2 > DB_TEXT_MAX ? DB_TEXT_MAX : l->text * 2;
    return n;
}

int explore_run(const explore_run_opts *r)
{
    FILE *log = r->log ? r->log : stderr;
    const char *out = r->out_dir, *cflags = r->cflags;
    size_t nsources = r->nsources;
    run_state s;
    memset(&s, 0, sizeof s);
    s.db.limits.rows = r->db_rows;
    s.db.limits.text = r->db_text;
    s.db.scratch = r->db_scratch;
    s.db.no_faults = r->no_db_faults;
    if (!(s.abs_sources = calloc(nsources ? nsources : 1, sizeof *s.abs_sources))) return 1;
    s.nsources = nsources;
    for (size_t i = 0; i < nsources; i++) {
        s.abs_sources[i] = realpath(r->sources[i], NULL);
        if (!s.abs_sources[i]) {
            fprintf(log, "sympath run: cannot read %s: %s\n", r->sources[i], strerror(errno));
            return run_end(&s, 1, log);
        }
    }
    char *err = NULL;
    if (r->compile_commands &&
        r->compdb_flags) { /* unitlib: the flags of the sources' entries (their union), before --cflags */
        char *cf = r->compdb_flags(r->compile_commands, (const char *const *)s.abs_sources, nsources, &err);
        if (!cf) {
            fprintf(log, "sympath run: %s\n", err ? err : "out of memory");
            free(err);
            return run_end(&s, 2, log);
        }
        cflags = s.cflags_all = util_strf("%s %s", cf, cflags ? cflags : "");
        free(cf);
    }

    explore_paths p;
    int prc = explore_prepare_out(out, &p, &err);
    if (prc != 0) {
        fprintf(log, "sympath run: %s\n", err ? err : "out of memory");
        free(err);
        return run_end(&s, prc == -2 ? 2 : 1, log);
    }
    if (r->db && db_setup_run(r->db, data_is_postgres(r->db), p.build_dir, &s.db, log, &err) != 0) {
        fprintf(log, "sympath run: %s\n", err ? err : "out of memory");
        free(err);
        return run_end(&s, 1, log);
    }

    /* Ctrl-C from here on: during the build it stops the compiler and ends the run (below);
     * during the exploration it stops it and the suite and report are still written */
    if (r->db && r->explore.link) {
        fprintf(log, "sympath run: --mpi does not take --db yet (use -j N on one machine)\n");
        return run_end(&s, 2, log);
    }
    if (r->before_build) r->before_build();
    explore_opts o = r->explore;
    /* the start-up reads the symbolic argv/stdin/file bytes first: they do not count against the input limit */
    if (o.inputs_limit && r->posix) o.inputs_limit += posix_prefix_inputs(r->posix);
    int brc = explore_build_program("sympath run", &p, s.abs_sources, nsources, r->sources[0], cflags, r->posix,
                                    r->interrupted, &s.bs, log);
    if (brc != 0) return run_end(&s, brc, log);
    report_build(&s.bs, log);
    if (s.db.schema && db_setup_program_sql(&s.db, s.bs.sql_strings, log, &err) != 0) {
        fprintf(log, "sympath run: %s\n", err ? err : "out of memory");
        free(err);
        return run_end(&s, 1, log);
    }
    if (explore_write_replay_conf(out, s.abs_sources, nsources, cflags, r->posix, 0, 0, &s.db, s.db.schema && s.db.pg,
                                  log) != 0)
        return run_end(&s, 1, log); /* the message is said */
    if (r->after_build && r->after_build(r->after_build_ctx, &p) != 0) return run_end(&s, 1, log);

    o.out_dir = out;
    o.exe_path = p.exe;
    o.sites_path = p.sites;
    o.work_dir = p.build_dir;
    o.sources = r->sources;
    o.nsources = nsources;
    o.build_seconds = s.bs.seconds;
    o.build = &s.bs;
    o.interrupted = r->interrupted;
    o.db_schema = s.db.schema;
    o.db_rows = s.db.limits.rows;
    o.db_text = s.db.limits.text;
    o.db_log = s.db.schema ? s.db.log_path : NULL;
    o.db_pg = s.db.pg;
    o.db_results_dir = s.db.pg ? s.db.results_dir : NULL;
    explore_summary sum;
    memset(&sum, 0, sizeof sum);
    explore_db_round rounds[DB_ROUNDS_MAX];
    explore_seed *seeds = NULL;
    size_t nrounds = 0;
    for (;;) {
        db_limits next = s.db.schema ? grown_limits(s.db.schema, &s.db.limits) : s.db.limits;
        o.db_grow = s.db.schema && !r->no_db_grow && (o.budget_seconds > 0 || o.max_execs) &&
                    nrounds + 1 < DB_ROUNDS_MAX && (next.rows > s.db.limits.rows || next.text > s.db.limits.text);
        o.db_rounds = rounds;
        o.ndb_rounds = nrounds;
        double t_round = util_now_s();
        int erc = explore_program(&o, &sum, &err);
        explore_seeds_free(seeds, o.nseeds);
        seeds = NULL;
        o.seeds = NULL;
        o.nseeds = 0;
        if (erc != 0) {
            fprintf(log, "sympath run: %s\n", err ? err : "exploration failed");
            free(err);
            return run_end(&s, 1, log);
        }
        if (strcmp(sum.stop_reason ? sum.stop_reason : "", "db-layout") != 0) break;
        /* stalled with a branch the layout may not hold: more row slots, longer texts, and the
         * tests found so far run first, laid out anew (db_layout.c) */
        db_limits from = s.db.limits, to = grown_limits(s.db.schema, &from);
        rounds[nrounds++] =
            (explore_db_round){from.rows, from.text, sum.seconds, sum.slots_covered, sum.tests, sum.execs};
        seeds = explore_seeds_relayout(sum.seeds, sum.nseeds, s.db.schema, &from, &to);
        size_t nseeds = sum.nseeds;
        explore_seeds_free(sum.seeds, sum.nseeds);
        sum.seeds = NULL;
        if (!seeds || db_setup_grow(&s.db, &to, &err) != 0) {
            fprintf(log, "sympath run: %s\n", err ? err : "out of memory");
            free(err);
            explore_seeds_free(seeds, nseeds);
            return run_end(&s, 1, log);
        }
        fprintf(log,
                "sympath: no new branch for a while with %u row slots and %u-byte texts, and a branch with one "
                "side never taken: exploring again with %u row slots and %u-byte texts (%zu tests found so far "
                "run first)\n",
                from.rows, from.text, to.rows, to.text, nseeds);
        o.seeds = seeds;
        o.nseeds = nseeds;
        o.db_rows = to.rows;
        o.db_text = to.text;
        if (o.budget_seconds > 0) {
            o.budget_seconds -= util_now_s() - t_round;
            if (o.budget_seconds < 1) o.budget_seconds = 1;
        }
        if (o.max_execs) /* the runs of the rounds before count against --max-execs */
            o.max_execs = o.max_execs > sum.execs + 10 ? o.max_execs - sum.execs : 10;
    }
    int conf_rc =
        explore_write_replay_conf(out, s.abs_sources, nsources, cflags, r->posix, sum.slots_covered, sum.slots_total,
                                  &s.db, s.db.schema && s.db.pg, log); /* said there; exit 1 */
    if (r->interrupted && *r->interrupted && strcmp(sum.stop_reason ? sum.stop_reason : "", "interrupted") != 0)
        fprintf(log, "sympath: Ctrl-C after the exploration had ended: the suite and report.json were "
                     "completed first\n");
    return run_end(&s, conf_rc != 0, log);
}

int explore_run_worker(const explore_run_opts *r, const char *exe, const char *sites, const char *work_dir)
{
    FILE *log = r->log ? r->log : stderr;
    if (!r->explore.link || r->explore.link->self < 1) {
        fprintf(log, "sympath run: a worker needs a link to its coordinator\n");
        return 1;
    }
    if (util_mkdir_p(work_dir) != 0) {
        fprintf(log, "sympath run: cannot create %s: %s\n", work_dir, strerror(errno));
        return 1;
    }
    explore_opts o = r->explore;
    if (o.inputs_limit && r->posix) o.inputs_limit += posix_prefix_inputs(r->posix);
    o.out_dir = r->out_dir;
    o.exe_path = exe;
    o.sites_path = sites;
    o.work_dir = work_dir;
    o.sources = r->sources;
    o.nsources = r->nsources;
    o.interrupted = r->interrupted;
    o.progress = 0;
    o.jobs = 1;
    char *err = NULL;
    if (explore_program(&o, NULL, &err) != 0) {
        fprintf(log, "sympath run: worker %d: %s\n", o.link->self, err ? err : "exploration failed");
        free(err);
        return 1;
    }
    return 0;
}
