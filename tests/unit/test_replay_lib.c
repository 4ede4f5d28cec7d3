/* test_replay_lib.c: the replay component: the --wrap list equals the rt/ files' __wrap_ functions, the suite runner on tiny programs, gcovr's JSON, common directories. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "replay/replay.h"
#include "util/util.h"

#ifndef SYMPATH_SOURCE_DIR
#define SYMPATH_SOURCE_DIR "."
#endif

/* Names N of the functions `__wrap_N(` defined in a C file: a line that does not start with
 * a blank and has "__wrap_N(" followed, later, by "{" at its end (a definition, not a call). */
static char **wrap_definitions(const char *text, size_t *n)
{
    char **v = NULL;
    *n = 0;
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        char *line = strndup(l, len);
        const char *w = strstr(line, "__wrap_");
        if (w && line[0] != ' ' && line[0] != '\t' && line[0] != '/' && line[0] != '*') {
            const char *name = w + 7, *e = name;
            while (*e == '_' || (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9')) e++;
            if (*e == '(') {
                v = realloc(v, (*n + 2) * sizeof *v);
                v[(*n)++] = strndup(name, (size_t)(e - name));
                v[*n] = NULL;
            }
        }
        free(line);
        l = nl ? nl + 1 : l + len;
    }
    return v;
}

static void test_wrap_list_matches_library(void **state)
{
    for (int g = 0; g < REPLAY_WRAP_NGROUPS; g++) {
        char *path = util_strf("%s/src/replay/rt/%s", SYMPATH_SOURCE_DIR, replay_wrap_file(g));
        char *text = util_read_file(path, NULL);
        assert_non_null(text);
        size_t n = 0;
        char **defs = wrap_definitions(text, &n);
        const char *const *names = replay_wrap_names(g);
        size_t nn = 0;
        while (names[nn]) nn++;
        /* every listed name is defined, every definition is listed */
        for (size_t i = 0; i < nn; i++) {
            int found = 0;
            for (size_t k = 0; k < n; k++) found |= !strcmp(defs[k], names[i]);
            if (!found) fail_msg("%s lists %s, but %s defines no __wrap_%s", "wrap.c", names[i], path, names[i]);
        }
        for (size_t k = 0; k < n; k++) {
            int found = 0;
            for (size_t i = 0; i < nn; i++) found |= !strcmp(defs[k], names[i]);
            if (!found)
                fail_msg("%s defines __wrap_%s, but the --wrap list (src/replay/wrap.c) lacks it", path, defs[k]);
        }
        assert_int_equal(n, nn);
        util_free_strv(defs);
        free(text);
        free(path);
    }
    char *opt = replay_wrap_option(REPLAY_WRAP_SQLITE);
    assert_non_null(strstr(opt, "-Wl,--wrap=sqlite3_open,--wrap=sqlite3_open_v2,"));
    assert_non_null(strstr(opt, ",--wrap=sqlite3_step,")); /* the fallible calls (injected faults) */
    free(opt);
}

static char dir[64];

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/sympath-replay-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char *cmd = util_strf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    return rc;
}

/* Build a one-file C program into dir/name; returns its path (malloc'ed). */
static char *tiny(const char *name, const char *body)
{
    char *src = util_strf("%s/%s.c", dir, name), *exe = util_strf("%s/%s", dir, name);
    assert_int_equal(util_write_atomic(src, body, strlen(body)), 0);
    char *cmd = util_strf("cc -w -o '%s' '%s'", exe, src);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(src);
    return exe;
}

static void test_run_one_outcomes(void **state)
{
    char buf[64];
    char *log = util_strf("%s/log", dir);
    /* the test case and the extra environment reach the program; its output goes to the log */
    char *echo = tiny("echo", "#include <stdio.h>\n#include <stdlib.h>\n"
                              "int main(void) { printf(\"%s %s\\n\", getenv(\"SYMPATH_TESTCASE\"), getenv(\"EXTRA\"));"
                              " return 3; }\n");
    char *env[] = {"EXTRA=yes", NULL};
    replay_outcome o = replay_run_one(echo, "tc.xml", env, log, dir, 5);
    assert_true(o.started);
    assert_false(o.timed_out);
    assert_string_equal(replay_outcome_text(&o, 5, buf, sizeof buf), "exit code 3");
    char *out = util_read_file(log, NULL);
    assert_string_equal(out, "tc.xml yes\n");
    free(out);
    char *crash = tiny("crash", "#include <signal.h>\nint main(void) { raise(SIGSEGV); return 0; }\n");
    o = replay_run_one(crash, "tc.xml", NULL, log, dir, 5);
    assert_string_equal(replay_outcome_text(&o, 5, buf, sizeof buf), "signal SIGSEGV");
    /* a hang is killed at the limit, with what it started (its process group) */
    char *hang =
        tiny("hang", "#include <unistd.h>\nint main(void) { if (fork() == 0) for (;;) pause(); for (;;) pause(); }\n");
    double t0 = util_now_s();
    o = replay_run_one(hang, "tc.xml", NULL, log, dir, 0.3);
    assert_true(util_now_s() - t0 < 3);
    assert_true(o.timed_out);
    assert_string_equal(replay_outcome_text(&o, 0.3, buf, sizeof buf), "timeout (0.3s)");
    o = replay_run_one("/nonexistent/prog", "tc.xml", NULL, log, dir, 5);
    assert_string_equal(replay_outcome_text(&o, 5, buf, sizeof buf), "exit code 127");
    free(echo);
    free(crash);
    free(hang);
    free(log);
}

/* A whole suite: replay.conf, two tests, one error reproducer, built and run by replay_suite. */
static void test_suite_end_to_end(void **state)
{
    char *src = util_strf("%s/prog.c", dir);
    const char *prog = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
                       "int main(void) { const char *t = getenv(\"SYMPATH_TESTCASE\");\n"
                       "  if (strstr(t, \"error-\")) abort(); return strstr(t, \"test-2\") ? 1 : 0; }\n";
    assert_int_equal(util_write_atomic(src, prog, strlen(prog)), 0);
    char *sub[] = {util_strf("%s/build", dir), util_strf("%s/tests", dir), util_strf("%s/errors", dir)};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(util_mkdir_p(sub[i]), 0);
        free(sub[i]);
    }
    const char *tests[] = {"tests/test-1.xml", "tests/test-2.xml", "errors/error-1.xml"};
    for (int i = 0; i < 3; i++) {
        char *p = util_strf("%s/%s", dir, tests[i]);
        assert_int_equal(util_write_atomic(p, "<testcase/>\n", 12), 0);
        free(p);
    }
    char *txt = util_strf("%s/errors/error-1.txt", dir);
    assert_int_equal(util_write_atomic(txt, "abort\n", 6), 0);
    free(txt);
    /* replay.c itself is not needed for this program: an empty library file stands in */
    char *lib = util_strf("%s/lib.c", dir);
    assert_int_equal(util_write_atomic(lib, "int sympath_test_lib;\n", 22), 0);
    replay_conf c;
    replay_conf_init(&c);
    replay_conf_add_source(&c, src);
    c.replaylib = lib;
    c.cflags = strdup("-DUNUSED='a b'");
    char *conf = util_strf("%s/%s", dir, REPLAY_CONF_FILE), *err = NULL;
    /* no suite there yet: the error says what to do */
    replay_opts none = {dir, 0, 5, stdout};
    replay_summary s0;
    assert_int_equal(replay_suite(&none, &s0, &err), -1);
    assert_non_null(strstr(err, "cannot read "));
    assert_non_null(strstr(err, "(run `sympath run -o DIR` first)"));
    free(err);
    err = NULL;
    assert_int_equal(replay_conf_write(conf, &c, &err), 0);
    char *report_text = NULL;
    size_t report_len = 0;
    FILE *report = open_memstream(&report_text, &report_len);
    replay_opts o = {dir, 0, 5, report};
    replay_summary s;
    assert_int_equal(replay_suite(&o, &s, &err), 0);
    fclose(report);
    assert_int_equal(s.ran, 3);
    assert_int_equal(s.unexpected, 0);
    assert_non_null(strstr(report_text, "tests/test-1.xml       exit code 0\n"));
    assert_non_null(strstr(report_text, "tests/test-2.xml       exit code 1\n"));
    assert_non_null(strstr(report_text, "errors/error-1.xml     signal SIGABRT     abort\n"));
    assert_non_null(strstr(report_text, "replayed 3 test cases: all ended as expected\n"));
    free(report_text);
    /* a configuration that is not one: a clear error, nothing run */
    assert_int_equal(util_write_atomic(conf, "garbage\n", 8), 0);
    report = open_memstream(&report_text, &report_len);
    o.report = report;
    assert_int_equal(replay_suite(&o, &s, &err), -1);
    fclose(report);
    assert_non_null(strstr(err, "replay.conf: line 1: not a version 1"));
    free(err);
    free(report_text);
    replay_conf_free(&c);
    free(conf);
    free(src);
}

static void test_json_and_dirs(void **state)
{
    const char *j =
        "{\"files\": [{\"branch_covered\": 1}], \"branch_covered\": 7, \"name\": \"x\\\"y\", \"line_total\": 2.5}";
    double v = 0;
    assert_int_equal(replay_json_top_number(j, "branch_covered", &v), 0);
    assert_true(v == 7);
    assert_int_equal(replay_json_top_number(j, "line_total", &v), 0);
    assert_true(v == 2.5);
    assert_int_equal(replay_json_top_number(j, "branch_total", &v), -1);
    char *a[] = {"/src/p/a.c", "/src/p/q/b.c", "/src/p/c.c"};
    char *d = replay_common_dir(a, 3);
    assert_string_equal(d, "/src/p");
    free(d);
    char *b[] = {"/x/a.c", "/y/b.c"};
    d = replay_common_dir(b, 2);
    assert_string_equal(d, "/");
    free(d);
    char *c[] = {"/src/pq/a.c", "/src/p/b.c"};
    d = replay_common_dir(c, 2);
    assert_string_equal(d, "/src");
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_list_matches_library),
        cmocka_unit_test_setup_teardown(test_run_one_outcomes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_suite_end_to_end, setup, teardown),
        cmocka_unit_test(test_json_and_dirs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
