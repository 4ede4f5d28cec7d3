/* suite.c: `sympath replay`'s run of a suite: each test case under a time limit in its own process group, one report line each. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "replay/replay.h"
#include "util/util.h"
#include "proto/env.h"

replay_outcome replay_run_one(const char *prog, const char *testcase, char *const *env_add, const char *log,
                              const char *cwd, double timeout_s)
{
    replay_outcome o = {0, 0, 0};
    size_t n = 0;
    while (env_add && env_add[n]) n++;
    char **env = calloc(n + 2, sizeof *env);
    char *tc = util_strf(SYMPATH_ENV_TESTCASE "=%s", testcase);
    if (!env || !tc) {
        free(env);
        free(tc);
        return o;
    }
    env[0] = tc;
    for (size_t i = 0; i < n; i++) env[i + 1] = env_add[i];
    char *argv[] = {(char *)prog, NULL};
    util_proc p = {.argv = argv, .env_add = env, .out_path = log, .cwd = cwd, .timeout_s = timeout_s, .new_group = 1};
    int rc = util_run(&p, &o.status);
    o.started = rc >= 0;
    o.timed_out = rc == 1;
    free(tc);
    free(env);
    return o;
}

const char *replay_outcome_text(const replay_outcome *o, double timeout_s, char *buf, size_t cap)
{
    if (!o->started)
        snprintf(buf, cap, "could not start");
    else if (o->timed_out)
        snprintf(buf, cap, "timeout (%gs)", timeout_s);
    else if (WIFSIGNALED(o->status)) {
        const char *name = util_signal_name(WTERMSIG(o->status));
        /* util_signal_name says "signal N" itself for a signal without a name */
        snprintf(buf, cap, strncmp(name, "SIG", 3) ? "%s" : "signal %s", name);
    } else
        snprintf(buf, cap, "exit code %d", WEXITSTATUS(o->status));
    return buf;
}

/* Remove dir's entries matching pattern. */
static void remove_matching(const char *dir, const char *pattern)
{
    char **l = util_list_dir(dir, pattern, NULL);
    for (size_t i = 0; l && l[i]; i++) unlink(l[i]);
    util_free_strv(l);
}

/* 1 when the file's first 4 KiB contain needle (test cases are small). */
static int file_mentions(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, needle) != NULL;
}

/* The first line of a text file (malloc'ed, no line break), or NULL. */
static char *first_line(const char *path)
{
    char *t = util_read_file(path, NULL);
    if (t) t[strcspn(t, "\r\n")] = '\0';
    return t;
}

/* One group of test cases: tests/test-*.xml (expected to end normally) or errors/error-*.xml. */
typedef struct group {
    const char *dir, *pattern;
    int expect_abnormal;
} group;

/* Run one test case of group g (tc: "OUT/<dir>/<name>.xml") and print its line. */
static int run_case(const replay_opts *o, const replay_conf *conf, const group *g, const char *tc, const char *rdir,
                    const char *prog, replay_summary *s)
{
    const char *name = strrchr(tc, '/') + 1;
    int stem = (int)(strlen(tc) - 4); /* without ".xml" */
    int nstem = (int)(strlen(name) - 4);
    char *log = util_strf("%s/%s-%.*s.log", rdir, g->dir, nstem, name);
    char *env[8] = {NULL};
    size_t ne = 0;
    if (conf->db_schema) { /* the test's database: schema + its fixture (test-NNNNN.sql) */
        env[ne++] = util_strf(SYMPATH_ENV_REPLAY_DB_SCHEMA "=%s", conf->db_schema);
        env[ne++] = util_strf(SYMPATH_ENV_REPLAY_DB_FIXTURE "=%.*s.sql", stem, tc);
        env[ne++] = util_strf(SYMPATH_ENV_REPLAY_DB_FILE "=%s/test.db", rdir);
    }
    if (conf->db_inputs) /* the fixture's inputs, skipped at the first open or connect (the last: db:fault) */
        env[ne++] = util_strf(SYMPATH_ENV_REPLAY_DB_INPUTS "=%llu", (unsigned long long)conf->db_inputs);
    if (conf->db_no_faults) /* --no-db-faults: db:fault is ignored (replay_db.c, replay_pq.c) */
        env[ne++] = strdup(SYMPATH_ENV_DB_FAULTS "=0");
    if (conf->replaypq) /* the test's recorded results (test-NNNNN.results) */
        env[ne++] = util_strf(SYMPATH_ENV_REPLAY_RESULTS "=%.*s.results", stem, tc);
    char *line = NULL, *label = util_strf("%s/%s", g->dir, name);
    int oom = !log || !label;
    for (size_t i = 0; i < ne; i++) oom |= !env[i];
    if (oom) {
        for (size_t i = 0; i < ne; i++) free(env[i]);
        free(log);
        free(label);
        return -1;
    }
    replay_outcome r = replay_run_one(prog, tc, env, log, rdir, o->timeout_s);
    char what[64];
    replay_outcome_text(&r, o->timeout_s, what, sizeof what);
    /* tests/: any exit status is a normal end, unless the test case says it covers an
     * error (coversError="true": its run ended in an error); errors/: must not end normally */
    int expect_abnormal = g->expect_abnormal || file_mentions(tc, "coversError=\"true\"");
    int as_expected = expect_abnormal ? r.started && (r.timed_out || !WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0)
                                      : r.started && !r.timed_out && WIFEXITED(r.status);
    if (g->expect_abnormal) {
        char *txt = util_strf("%.*s.txt", stem, tc);
        line = txt ? first_line(txt) : NULL;
        free(txt);
    }
    /* A time-out or an out-of-memory of the instrumented executor need not happen
     * natively (the native build is faster and needs no expressions): such a
     * reproducer ending normally is reported, not counted as a failure. */
    int resource = line && (strncmp(line, "timeout", 7) == 0 || strncmp(line, "out of memory", 13) == 0);
    const char *note = as_expected ? "" : "   <- unexpected";
    if (!as_expected && resource) {
        as_expected = 1;
        note = "   (ended natively: the limit was hit only by the instrumented build)";
    }
    s->unexpected += !as_expected;
    s->ran++;
    if (line || !as_expected || *note)
        fprintf(o->report, "%-22s %-18s %s%s\n", label, what, line ? line : "", note);
    else
        fprintf(o->report, "%-22s %s\n", label, what);
    fflush(o->report);
    for (size_t i = 0; i < ne; i++) free(env[i]);
    free(line);
    free(label);
    free(log);
    return 0;
}

int replay_suite(const replay_opts *o, replay_summary *s, char **err)
{
    *err = NULL;
    memset(s, 0, sizeof *s);
    const char *out = o->out_dir;
    char *conf_path = util_strf("%s/%s", out, REPLAY_CONF_FILE);
    char *rdir = util_strf("%s/replay", out);
    char *prog = util_strf("%s/prog", rdir);
    replay_conf conf;
    replay_conf_init(&conf);
    int rc = -1;
    if (!conf_path || !rdir || !prog) {
        *err = util_strf("out of memory");
        goto done;
    }
    if (replay_conf_read(conf_path, &conf, err)) {
        if (access(conf_path, F_OK) != 0) { /* the usual cause: no suite there yet */
            char *e = util_strf("%s (run `sympath run -o DIR` first)", *err);
            free(*err);
            *err = e;
        }
        goto done;
    }
    if (util_mkdir_p(rdir)) {
        *err = util_strf("cannot create %s: %s", rdir, strerror(errno));
        goto done;
    }
    /* counters of an earlier replay would add up with this one's */
    remove_matching(rdir, "*.gcda");
    remove_matching(rdir, "*.log");
    if (replay_build(&conf, rdir, prog, o->coverage, err)) goto done;

    static const group groups[] = {
        {"tests", "test-*.xml", 0},
        {"errors", "error-*.xml", 1},
    };
    for (size_t g = 0; g < 2; g++) {
        char *dir = util_strf("%s/%s", out, groups[g].dir);
        char **cases = dir ? util_list_dir(dir, groups[g].pattern, NULL) : NULL;
        int oom = !cases;
        for (size_t i = 0; cases && cases[i] && !oom; i++)
            oom = run_case(o, &conf, &groups[g], cases[i], rdir, prog, s) != 0;
        util_free_strv(cases);
        free(dir);
        if (oom) {
            *err = util_strf("out of memory");
            goto done;
        }
    }
    if (s->ran == 0)
        fprintf(o->report, "no test cases in %s/tests or %s/errors\n", out, out);
    else if (s->unexpected == 0)
        fprintf(o->report, "replayed %zu test case%s: all ended as expected\n", s->ran, s->ran == 1 ? "" : "s");
    else
        fprintf(o->report, "replayed %zu test case%s: %zu did not end as expected (logs in %s)\n", s->ran,
                s->ran == 1 ? "" : "s", s->unexpected, rdir);
    rc = o->coverage ? replay_coverage(&conf, rdir, o->report, err) : 0;
done:
    replay_conf_free(&conf);
    free(conf_path);
    free(rdir);
    free(prog);
    return rc;
}
