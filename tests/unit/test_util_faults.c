/* test_util_faults.c: the helpers the fault handling rests on: atomic writes leave only whole files, util_run's stop flag, the SYMPATH_FAULT hook. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/util.h"

static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sympath-faults-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = util_strf("rm -rf '%s'", tmpdir);
    int rc = system(cmd);
    free(cmd);
    return rc == 0 ? 0 : -1;
}

/* Entries of tmpdir other than . and .. (hidden ones included). */
static size_t entries(void)
{
    size_t n = 0;
    char **v = util_list_dir(tmpdir, "*", &n);
    util_free_strv(v);
    size_t hidden = 0;
    v = util_list_dir(tmpdir, ".?*", &hidden);
    for (size_t i = 0; v && v[i]; i++)
        if (strcmp(strrchr(v[i], '/'), "/..") == 0) hidden--;
    util_free_strv(v);
    return n + hidden;
}

/* A replaced file is the old or the new content, and no temporary is ever left. */
static void test_atomic_leaves_whole_files(void **state)
{
    (void)state;
    char *f = util_strf("%s/report.json", tmpdir);
    assert_int_equal(util_write_atomic(f, "{\"old\": 1}\n", 11), 0);
    assert_int_equal(util_write_atomic(f, "{\"new\": 2}\n", 11), 0);
    size_t len = 0;
    char *t = util_read_file(f, &len);
    assert_non_null(t);
    assert_string_equal(t, "{\"new\": 2}\n");
    free(t);
    assert_int_equal(entries(), 1);
    util_write_atomic_abandon(); /* nothing in progress: nothing removed */
    assert_int_equal(entries(), 1);
    /* a target that cannot be renamed over (a directory): the old state stays, no temporary */
    char *d = util_strf("%s/dir", tmpdir);
    assert_int_equal(util_mkdir_p(d), 0);
    assert_int_equal(util_write_atomic(d, "x", 1), -1);
    assert_int_equal(entries(), 2);
    free(d);
    free(f);
}

static volatile sig_atomic_t stop_now;
static void on_alarm(int sig)
{
    (void)sig;
    stop_now = 1;
}

/* The stop flag ends a long child soon after it is set (Ctrl-C during the build). */
static void test_run_stop_flag(void **state)
{
    (void)state;
    char *argv[] = {"sleep", "5", NULL};
    util_proc p = {.argv = argv, .stop = &stop_now};
    int status = 0;
    stop_now = 1; /* already set: the child is terminated at once */
    assert_int_equal(util_run(&p, &status), 2);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);

    stop_now = 0; /* set by a signal while the child runs */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {0, 100000}};
    setitimer(ITIMER_REAL, &it, NULL);
    double t0 = util_now_s();
    assert_int_equal(util_run(&p, &status), 2);
    assert_true(util_now_s() - t0 < 2.0);

    stop_now = 0; /* never set: an ordinary run */
    char *quick[] = {"true", NULL};
    p.argv = quick;
    assert_int_equal(util_run(&p, &status), 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_fault_hook(void **state)
{
    (void)state;
    unsetenv("SYMPATH_FAULT");
    assert_int_equal(util_fault("solver_fail"), 0);
    setenv("SYMPATH_FAULT", "other,solver_fail,x", 1);
    assert_int_equal(util_fault("solver_fail"), 1);
    assert_int_equal(util_fault("x"), 1);
    assert_int_equal(util_fault("solver"), 0); /* whole names only */
    assert_int_equal(util_fault("fail"), 0);
    assert_int_equal(util_fault(""), 0);
    setenv("SYMPATH_FAULT", "", 1);
    assert_int_equal(util_fault("solver_fail"), 0);
    unsetenv("SYMPATH_FAULT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomic_leaves_whole_files),
        cmocka_unit_test(test_run_stop_flag),
        cmocka_unit_test(test_fault_hook),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
