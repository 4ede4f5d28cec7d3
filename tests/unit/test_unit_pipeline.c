/* test_unit_pipeline.c: unit_run's early decisions (options -> targets), without an exploration: unknown functions, unreadable files. */
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

#include "unit/unit.h"
#include "util/util.h"

static char dir[64];

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/sympath-unitpipe-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char *cmd = util_strf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    return rc;
}

/* Options as `sympath unit` defaults them, for the one file src. */
static unit_run_opts defaults(const char *const *src, const char *out, FILE *log)
{
    unit_run_opts o;
    memset(&o, 0, sizeof o);
    o.out_dir = out;
    o.sources = src;
    o.nsources = 1;
    o.cflags = "";
    o.budget_s = 60;
    o.timeout_s = 1;
    o.harness.depth = 3;
    o.harness.str_len = 16;
    o.harness.buf_len = 32;
    o.log = log;
    return o;
}

static void test_unknown_function_is_a_usage_error(void **state)
{
    char *src = util_strf("%s/u.c", dir), *out = util_strf("%s/out", dir);
    const char *text =
        "int f(int x) { return x > 0; }\nstatic int s(void) { return 1; }\nint g2(void) { return s(); }\n";
    assert_int_equal(util_write_atomic(src, text, strlen(text)), 0);
    const char *srcs[] = {src};
    const char *fns[] = {"nosuch"};
    char *log = NULL;
    size_t len = 0;
    FILE *lf = open_memstream(&log, &len);
    unit_run_opts o = defaults(srcs, out, lf);
    o.functions = fns;
    o.nfunctions = 1;
    assert_int_equal(unit_run(&o), 2);
    fclose(lf);
    /* the message lists what can be tested: external functions only */
    assert_non_null(strstr(log, "no function 'nosuch' with external linkage"));
    assert_non_null(strstr(log, "there are: f g2\n"));
    free(log);
    free(src);
    free(out);
}

static void test_unreadable_source(void **state)
{
    char *out = util_strf("%s/out", dir);
    const char *srcs[] = {"/nonexistent/u.c"};
    char *log = NULL;
    size_t len = 0;
    FILE *lf = open_memstream(&log, &len);
    unit_run_opts o = defaults(srcs, out, lf);
    o.all = 1;
    assert_int_equal(unit_run(&o), 1);
    fclose(lf);
    assert_non_null(strstr(log, "sympath unit: cannot read /nonexistent/u.c"));
    free(log);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_unknown_function_is_a_usage_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_source, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
