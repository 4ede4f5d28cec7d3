/* test_explore_program.c: explore_run (the `sympath run` pipeline) on small cases: unreadable source, uncreatable output, compile error, a short exploration. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "explore/explorer.h"

#ifndef SYMPATH_LIB_DIR
#define SYMPATH_LIB_DIR "build/lib"
#endif

static char dir[64];
static char *log_text;
static size_t log_len;

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/sympath-program-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(log_text);
    log_text = NULL;
    return system(cmd) == 0 ? 0 : -1;
}

/* Write `text` to DIR/name; returns the path (static buffer). */
static const char *write_file(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* explore_run on one source with max_execs 3, no progress line; the log is in log_text. */
static int run(const char *source, const char *out)
{
    const char *sources[] = {source};
    explore_run_opts r;
    memset(&r, 0, sizeof r);
    r.out_dir = out;
    r.sources = sources;
    r.nsources = 1;
    r.db_rows = 3;
    r.db_text = 8;
    r.explore.budget_seconds = 60;
    r.explore.max_execs = 3;
    r.explore.seed = 1;
    r.explore.jobs = 1;
    r.explore.run_timeout_ms = 2000;
    r.explore.mem_mb = 2048;
    r.explore.out_kb = 1024;
    r.explore.solver_timeout_ms = 2000;
    r.explore.loop_bound = 200;
    r.explore.max_depth = 100000;
    r.explore.inputs_limit = 10000;
    free(log_text);
    log_text = NULL;
    r.log = open_memstream(&log_text, &log_len);
    assert_non_null(r.log);
    int rc = explore_run(&r);
    fclose(r.log);
    return rc;
}

static void missing_source_is_1(void **state)
{
    (void)state;
    char src[128], out[128];
    snprintf(src, sizeof src, "%s/nothere.c", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    assert_int_equal(run(src, out), 1);
    assert_non_null(strstr(log_text, "sympath run: cannot read "));
    assert_non_null(strstr(log_text, "nothere.c: No such file or directory"));
}

static void uncreatable_output_is_1(void **state)
{
    (void)state;
    char src[128], out[128];
    snprintf(src, sizeof src, "%s", write_file("p.c", "int main(void) { return 0; }\n"));
    write_file("plain", "a file, not a directory\n");
    snprintf(out, sizeof out, "%s/plain/out", dir);
    assert_int_equal(run(src, out), 1);
    assert_non_null(strstr(log_text, "sympath run: cannot create "));
    assert_non_null(strstr(log_text, "/plain/out/build: Not a directory"));
}

static void compile_error_is_1_with_diagnostics(void **state)
{
    (void)state;
    char src[128], out[128];
    snprintf(src, sizeof src, "%s", write_file("bad.c", "int main(void) { return undeclared_thing; }\n"));
    snprintf(out, sizeof out, "%s/out", dir);
    assert_int_equal(run(src, out), 1);
    assert_non_null(strstr(log_text, "sympath: building "));
    assert_non_null(strstr(log_text, "sympath run: cannot build the program:"));
    assert_non_null(strstr(log_text, "undeclared_thing")); /* the compiler's own diagnostic */
}

static void tiny_program_runs_and_writes_replay_conf(void **state)
{
    (void)state;
    if (access(SYMPATH_LIB_DIR "/libsympath-rt.a", R_OK) != 0) {
        print_message("skipped: the runtime is not built\n");
        return;
    }
    char src[128], out[128], conf[160];
    snprintf(src, sizeof src, "%s",
             write_file("tiny.c",
                        "extern int __VERIFIER_nondet_int(void);\n"
                        "int main(void) { int x = __VERIFIER_nondet_int(); if (x == 7) return 1; return 0; }\n"));
    snprintf(out, sizeof out, "%s/out", dir);
    assert_int_equal(run(src, out), 0);
    assert_non_null(strstr(log_text, "branch sites instrumented"));
    snprintf(conf, sizeof conf, "%s/build/replay.conf", out);
    char *text = NULL;
    size_t n = 0;
    FILE *f = fopen(conf, "r");
    assert_non_null(f);
    assert_int_equal(getdelim(&text, &n, 0, f) > 0, 1);
    fclose(f);
    assert_non_null(strstr(text, "/tiny.c")); /* the source, by its absolute path */
    free(text);
    snprintf(conf, sizeof conf, "%s/report.json", out);
    assert_int_equal(access(conf, R_OK), 0);
}

/* The location read back from an error reproducer's description, as errors.c writes it. */
static void error_where_is_read_back(void **state)
{
    (void)state;
    char *w = explore_error_where("crash: SIGSEGV (signal 11)\nwhere: /src/buffer.c:56 (in strchr, called from "
                                  "key_len) in key_len\nclass: other termination\n");
    assert_string_equal(w, "/src/buffer.c:56 (in strchr, called from key_len)");
    free(w);
    w = explore_error_where("abort() called\nwhere: a.c:3 in main");
    assert_string_equal(w, "a.c:3");
    free(w);
    assert_null(explore_error_where("no location\n"));
    assert_null(explore_error_where(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_where_is_read_back),
        cmocka_unit_test_setup_teardown(missing_source_is_1, setup, teardown),
        cmocka_unit_test_setup_teardown(uncreatable_output_is_1, setup, teardown),
        cmocka_unit_test_setup_teardown(compile_error_is_1_with_diagnostics, setup, teardown),
        cmocka_unit_test_setup_teardown(tiny_program_runs_and_writes_replay_conf, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
