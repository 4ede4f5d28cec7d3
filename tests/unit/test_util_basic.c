/* test_util_basic.c: the shared helpers: word splitting rule, files, atomic writes, directory listing, processes. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/util.h"

static char tmpdir[64];

static int setup(void **state)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sympath-util-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char *cmd = util_strf("rm -rf '%s'", tmpdir);
    int rc = system(cmd);
    free(cmd);
    return rc == 0 ? 0 : -1;
}

static void test_split_words_rule(void **state)
{
    char **v = NULL, *err = NULL;
    size_t n = 0;
    assert_int_equal(util_split_words("  -DA=1\t'-DB=two words' \"-DC=\\\"q\\\" \\\\\" a\\ b $HOME\n", &v, &n, &err),
                     0);
    assert_int_equal(n, 5);
    assert_string_equal(v[0], "-DA=1");
    assert_string_equal(v[1], "-DB=two words");
    assert_string_equal(v[2], "-DC=\"q\" \\");
    assert_string_equal(v[3], "a b");
    assert_string_equal(v[4], "$HOME");
    assert_null(v[5]);
    /* words append to what is there */
    assert_int_equal(util_split_words("x", &v, &n, &err), 0);
    assert_int_equal(n, 6);
    assert_string_equal(v[5], "x");
    assert_int_equal(util_split_words(NULL, &v, &n, &err), 0);
    assert_int_equal(n, 6);
    util_free_strv(v);
}

static void test_split_words_long_and_errors(void **state)
{
    char **v = NULL, *err = NULL;
    size_t n = 0;
    char big[10000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    assert_int_equal(util_split_words(big, &v, &n, &err), 0); /* no truncation at any length */
    assert_int_equal(strlen(v[0]), sizeof big - 1);
    assert_int_equal(util_split_words("ok 'open", &v, &n, &err), -1);
    assert_non_null(strstr(err, "unterminated"));
    assert_int_equal(n, 2); /* the word before the error stays */
    assert_string_equal(v[1], "ok");
    free(err);
    util_free_strv(v);
}

static void test_parse_uint(void **state)
{
    uint64_t v = 7;
    assert_int_equal(util_parse_uint("0", 10, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(util_parse_uint("18446744073709551615", UINT64_MAX, &v), 0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(util_parse_uint("10", 10, &v), 0);
    assert_int_equal(v, 10);
    v = 7;
    const char *bad[] = {"", "11", "-1", "+1", " 1", "1 ", "1x", "0x1", "18446744073709551616"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(util_parse_uint(bad[i], i == 8 ? UINT64_MAX : 10, &v), -1);
    assert_int_equal(util_parse_uint(NULL, 10, &v), -1);
    assert_int_equal(v, 7);
}

static void test_files(void **state)
{
    char *p = util_strf("%s/a/b/c", tmpdir);
    assert_int_equal(util_mkdir_p(p), 0);
    assert_int_equal(util_mkdir_p(p), 0); /* exists: fine */
    char *f = util_strf("%s/file.txt", p);
    assert_int_equal(util_write_atomic(f, "hello\0world", 11), 0);
    size_t len = 0;
    char *text = util_read_file(f, &len);
    assert_non_null(text);
    assert_int_equal(len, 11);
    assert_memory_equal(text, "hello\0world", 12); /* NUL after the last byte */
    free(text);
    assert_int_equal(util_write_atomic(f, "", 0), 0);
    text = util_read_file(f, &len);
    assert_int_equal(len, 0);
    assert_string_equal(text, "");
    free(text);
    errno = 0;
    assert_null(util_read_file("/nonexistent/x", NULL));
    assert_int_equal(errno, ENOENT);
    assert_int_equal(util_mkdir_p(f), -1); /* a file is in the way */
    assert_int_equal(errno, ENOTDIR);
    char *bad = util_strf("%s/missing-dir/x", tmpdir);
    assert_int_equal(util_write_atomic(bad, "x", 1), -1); /* no temporary left anywhere */
    free(bad);
    size_t cnt = 9;
    char **list = util_list_dir(p, "*", &cnt);
    assert_int_equal(cnt, 1); /* the temporary of the successful writes is gone */
    assert_string_equal(list[0], f);
    util_free_strv(list);
    free(f);
    free(p);
}

static void test_list_dir_sorted(void **state)
{
    const char *names[] = {"test-3.xml", "test-1.xml", ".test-0.xml", "other.txt", "test-2.xml"};
    for (size_t i = 0; i < 5; i++) {
        char *f = util_strf("%s/%s", tmpdir, names[i]);
        assert_int_equal(util_write_atomic(f, "x", 1), 0);
        free(f);
    }
    size_t n = 0;
    char **v = util_list_dir(tmpdir, "test-*.xml", &n);
    assert_int_equal(n, 3);
    char *want = util_strf("%s/test-1.xml", tmpdir);
    assert_string_equal(v[0], want);
    free(want);
    assert_null(v[3]);
    util_free_strv(v);
    v = util_list_dir("/nonexistent", "*", &n);
    assert_non_null(v);
    assert_int_equal(n, 0);
    util_free_strv(v);
}

static void test_run(void **state)
{
    char *log = util_strf("%s/log", tmpdir);
    char *env[] = {"SYMPATH_UTIL_TEST=42", NULL};
    char *argv[] = {"sh", "-c", "echo out $SYMPATH_UTIL_TEST; echo err >&2; pwd; exit 3", NULL};
    util_proc p = {.argv = argv, .env_add = env, .out_path = log, .cwd = "/"};
    int st = 0;
    assert_int_equal(util_run(&p, &st), 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 3);
    char *text = util_read_file(log, NULL);
    assert_string_equal(text, "out 42\nerr\n/\n");
    free(text);

    char *sleeper[] = {"sh", "-c", "sleep 5 & sleep 5", NULL};
    util_proc q = {.argv = sleeper, .timeout_s = 0.2, .new_group = 1};
    double t0 = util_now_s();
    assert_int_equal(util_run(&q, &st), 1);
    assert_true(util_now_s() - t0 < 3);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);

    char *missing[] = {"/nonexistent/program", NULL};
    util_proc r = {.argv = missing, .out_path = log};
    assert_int_equal(util_run(&r, &st), 0);
    assert_int_equal(WEXITSTATUS(st), 127);
    text = util_read_file(log, NULL);
    assert_non_null(strstr(text, "cannot execute /nonexistent/program"));
    free(text);

    /* env_add replaces a variable the parent has (putenv's meaning), stdin is /dev/null, a process group */
    setenv("SYMPATH_UTIL_TEST", "parent", 1);
    char *env2[] = {"SYMPATH_UTIL_TEST=child", NULL};
    char *show[] = {"sh", "-c",
                    "echo $SYMPATH_UTIL_TEST; cat; set -- $(cat /proc/$$/stat); test $5 -eq $$ && echo leader", NULL};
    util_proc s = {.argv = show, .env_add = env2, .out_path = log, .new_group = 1};
    assert_int_equal(util_run(&s, &st), 0);
    text = util_read_file(log, NULL);
    assert_string_equal(text, "child\nleader\n");
    free(text);
    unsetenv("SYMPATH_UTIL_TEST");

    /* a directory that cannot be entered: 126 and the reason, nothing run */
    util_proc d = {.argv = argv, .out_path = log, .cwd = "/nonexistent/dir"};
    assert_int_equal(util_run(&d, &st), 0);
    assert_int_equal(WEXITSTATUS(st), 126);
    text = util_read_file(log, NULL);
    assert_non_null(strstr(text, "cannot enter the directory /nonexistent/dir"));
    free(text);
    free(log);
}

static void test_signal_name_and_clock(void **state)
{
    assert_string_equal(util_signal_name(SIGSEGV), "SIGSEGV");
    assert_string_equal(util_signal_name(SIGABRT), "SIGABRT");
    assert_string_equal(util_signal_name(200), "signal 200");
    double a = util_now_s();
    util_sleep_s(0.01);
    assert_true(util_now_s() - a >= 0.009);
    assert_true(util_now_ns() > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_words_rule),
        cmocka_unit_test(test_split_words_long_and_errors),
        cmocka_unit_test(test_parse_uint),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_list_dir_sorted),
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_signal_name_and_clock),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
