/* test_unit_verify.c: the native re-run's reading of CMocka's output (step_verify.c): why a test failed, and which
 * assertion to leave out when its value differs from the record's; the recorder's painted second run (step_record.c). */
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
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT, "test_sj.c"), 1);
    assert_int_equal(t.nflaky, 1);
    assert_string_equal(t.flaky[0], "assert_int_equal(ret.depth, 2073391).");
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT, "test_sj.c"), 1);
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT, "test_sj.c"), 0); /* UNIT_MAX_FLAKY is 2 */
    assert_int_equal(t.nflaky, UNIT_MAX_FLAKY);
    for (size_t i = 0; i < t.nflaky; i++) free(t.flaky[i]);
    free(t.flaky);

    memset(&t, 0, sizeof t);
    t.name = "test_read_1";
    assert_int_equal(drop_flaky_assert(&t, LOG, TEXT, "test_sj.c"), 0);
    t.name = "test_read_2";
    const char *call_line = "[ RUN      ] test_read_2\n[   LINE   ] --- /tmp/out/test_sj.c:3: error: Failure!\n";
    assert_int_equal(drop_flaky_assert(&t, call_line, TEXT, "test_sj.c"), 0);
    /* a line of another file (the unit's own source with the same line number) is not the test's */
    const char *unit_line = "[ RUN      ] test_read_2\n[   LINE   ] --- /src/sj.c:6: error: Failure!\n";
    assert_int_equal(drop_flaky_assert(&t, unit_line, TEXT, "test_sj.c"), 0);
    const char *other_test = "[ RUN      ] test_read_2\n[   LINE   ] --- /o/xtest_sj.c:6: error: Failure!\n";
    assert_int_equal(drop_flaky_assert(&t, other_test, TEXT, "test_sj.c"), 0);
    assert_int_equal(t.nflaky, 0);
}

/* A value that differs when fresh memory is painted goes, with every line of its key and the post line of a
 * pointer whose walk went; what is the same stays, before-call lines always. */
static void test_record_stable(void **state)
{
    (void)state;
    const char *text = "obj 6 r 1 ret tok\npre 1 - i 3\ncall\npost 1 - i 3\npost 6 .kind i 0\npost 6 .start p -1\n"
                       "walk 6 .start - b - 24 \\x85\\xc0\npost 6 .len u 24\nret i 7\ndone\n";
    const char *painted = "obj 6 r 1 ret tok\npre 1 - i 3\ncall\npost 1 - i 3\npost 6 .kind i 0\npost 6 .start p -1\n"
                          "post 6 .len u 12297829382473034410\nret i 7\ndone\n";
    size_t dropped = 0;
    char *s = unit_record_stable(text, painted, &dropped);
    assert_string_equal(s, "obj 6 r 1 ret tok\npre 1 - i 3\ncall\npost 1 - i 3\npost 6 .kind i 0\nret i 7\ndone\n");
    assert_int_equal(dropped, 3);
    free(s);
    s = unit_record_stable(text, NULL, &dropped);
    assert_string_equal(s, text);
    assert_int_equal(dropped, 0);
    free(s);
}

/* A buffer struct's bytes that differ past what the call wrote keep the bytes both records agree on (csv_parse's
 * entry_buf of 128 bytes holding a 3-byte field: the rest is the allocator's); none agreeing drops the line. */
static void test_record_stable_bytes(void **state)
{
    (void)state;
    const char *text =
        "call\nwalk 3 .entry_buf - b - 6 a\\\"\\x01\"\"2\\x00\\x00\nwalk 4 .d - b - 2 \\x00\\x00\ndone\n";
    const char *painted =
        "call\nwalk 3 .entry_buf - b - 6 a\\\"\\x01\"\"2\\xaa\\xaa\nwalk 4 .d - b - 2 \\xaa\\xaa\ndone\n";
    size_t dropped = 0;
    char *s = unit_record_stable(text, painted, &dropped);
    assert_string_equal(s, "call\nwalk 3 .entry_buf - b - 4 a\\\"\\x01\"\"2\ndone\n");
    assert_int_equal(dropped, 1);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failure_reason),
        cmocka_unit_test(test_flaky_assertion),
        cmocka_unit_test(test_record_stable),
        cmocka_unit_test(test_record_stable_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
