/* test_unit_verify.c: the native re-run's reading of CMocka's output (step_verify.c): why a test failed, and which
 * assertion to leave out when its value differs from the record's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "unit/pipeline_int.h"

static const char *LOG = "[==========] Running 2 test(s).\n"
                         "[ RUN      ] test_read_1\n"
                         "[       OK ] test_read_1\n"
                         "[ RUN      ] test_read_2\n"
                         "[  ERROR   ] --- 0xffffffffea037f90 != 0x7baf38e\n"
                         "[   LINE   ] --- /tmp/out/test_sj.c:6: error: Failure!\n"
                         "[  FAILED  ] test_read_2\n";

static const char *TEXT = "static void test_read_2(void **state) {\n"
                          "    (void)state;\n"
                          "    sj_Value ret = sj_read(r);\n"
                          "\n"
                          "    assert_int_equal(ret.type, 4);\n"
                          "    assert_int_equal(ret.depth, 2073391).\n"
                          "}\n";

/* The reason names CMocka's message of that test, not another's. */
static void test_failure_reason(void **state)
{
    (void)state;
    char buf[256];
    assert_string_equal(native_failure(LOG, "test_read_2", buf, sizeof buf),
                        "does not pass natively (not reproducible): 0xffffffffea037f90 != 0x7baf38e");
    assert_string_equal(native_failure(LOG, "test_read_1", buf, sizeof buf),
                        "does not pass natively (not reproducible)");
    assert_string_equal(native_failure(NULL, "test_read_2", buf, sizeof buf),
                        "does not pass natively (not reproducible)");
}

/* The assertion on the line CMocka names is taken, trimmed; at most UNIT_MAX_FLAKY of them; a line that is no
 * assertion (a crash in the call) or a test without a LINE message gives none. */
static void test_flaky_assertion(void **state)
{
    (void)state;
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_read_2";
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT), 1);
    assert_int_equal(t.nflaky, 1);
    assert_string_equal(t.flaky[0], "assert_int_equal(ret.depth, 2073391).");
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT), 1);
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT), 0); /* UNIT_MAX_FLAKY is 2 */
    assert_int_equal(t.nflaky, UNIT_MAX_FLAKY);
    for (size_t i = 0; i < t.nflaky; i++) free(t.flaky[i]);
    free(t.flaky);

    memset(&t, 0, sizeof t);
    t.name = "test_read_1";
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT), 0);
    t.name = "test_read_2";
    const char *call_line = "[ RUN      ] test_read_2\n[   LINE   ] --- /tmp/out/test_sj.c:3: error: Failure!\n";
    assert_int_equal(drop_flaky_assert(&t, call_line, TEXT), 0);
    assert_int_equal(t.nflaky, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failure_reason),
        cmocka_unit_test(test_flaky_assertion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
