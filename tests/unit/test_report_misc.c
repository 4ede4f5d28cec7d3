/* test_report_misc.c: reasons.tsv round trip, the JUnit run line's quoting, the status screen's text, HTML escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "report/report.h"
#include "report_test_util.h"

static void test_reasons_round_trip(void **state)
{
    char *d = scratch_dir();
    report_reasons *r = report_reasons_new();
    report_reasons_add(r, 3, 1, "infeasible");
    report_reasons_add(r, 3, 1, "infeasible");
    report_reasons_add(r, 3, 0, "bounded");
    report_reasons_add(r, 7, REPORT_DIR_ANY, "concretization");
    assert_int_equal(report_reasons_write(r, d), 0); /* creates d/build */
    report_reasons_free(r);
    char path[4200];
    snprintf(path, sizeof path, "%s/build/reasons.tsv", d);
    report_reason *rows;
    size_t n;
    assert_int_equal(report_reasons_read(path, &rows, &n), 0);
    assert_int_equal(n, 3);
    assert_true(rows[0].site == 3 && rows[0].dir == 1 && rows[0].count == 2);
    assert_string_equal(rows[0].why, "infeasible");
    assert_true(rows[2].site == 7 && rows[2].dir == REPORT_DIR_ANY);
    free(rows);
    report_reasons_add(NULL, 1, 1, "x"); /* ignored */
    rm_dir(d);
}

static void test_junit_line(void **state)
{
    char *s = report_junit_run("out/test_a", "out/test_a.junit.xml");
    assert_string_equal(
        s, "rm -f out/test_a.junit.xml && CMOCKA_MESSAGE_OUTPUT=xml CMOCKA_XML_FILE=out/test_a.junit.xml out/test_a");
    free(s);
    s = report_junit_run("my dir/t", "it's.xml");
    assert_string_equal(s,
                        "rm -f 'it'\\''s.xml' && CMOCKA_MESSAGE_OUTPUT=xml CMOCKA_XML_FILE='it'\\''s.xml' 'my dir/t'");
    free(s);
}

static void test_status_text(void **state)
{
    report_sample r = {125.0, 5000, 30, 40, 12, 2, 50.0, 900, 3, 4};
    const char *notes[] = {"sympath: found reach_error at demo.c:33"};
    char buf[8192];
    size_t n = report_status_render(&r, "sympath: demo.c", "demo.c:33 in parse", 600, notes, 1, 80, buf, sizeof buf);
    assert_int_equal(n, strlen(buf));
    assert_non_null(strstr(buf, "0h 02m 05s")); /* elapsed */
    assert_non_null(strstr(buf, "0h 10m 00s")); /* budget */
    assert_non_null(strstr(buf, "30/40"));
    assert_non_null(strstr(buf, "75.0%"));
    assert_non_null(strstr(buf, "40.0"));              /* execs/s */
    assert_non_null(strstr(buf, "40.0% of the time")); /* solver share */
    assert_non_null(strstr(buf, "demo.c:33 in parse"));
    assert_non_null(strstr(buf, "found reach_error"));
    assert_null(strchr(buf, '\033')); /* no escapes in the text */
    for (char *l = buf; *l;) {        /* no line wider than the terminal */
        char *nl = strchr(l, '\n');
        assert_non_null(nl);
        assert_true(nl - l <= 80);
        l = nl + 1;
    }
    n = report_status_render(&r, "t", NULL, 0, NULL, 0, 50, buf, sizeof buf);
    for (char *l = buf; *l; l = strchr(l, '\n') + 1) assert_true(strchr(l, '\n') - l <= 50);
    assert_non_null(strstr(buf, "none")); /* no budget */
}

static void test_escape(void **state)
{
    strbuf b = STRBUF_INIT;
    html_escaped(&b, "a<b>&\"'\x01\tz");
    assert_string_equal(b.s, "a&lt;b&gt;&amp;&quot;&#39;?\tz");
    html_escaped(&b, NULL);
    sb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reasons_round_trip),
        cmocka_unit_test(test_junit_line),
        cmocka_unit_test(test_status_text),
        cmocka_unit_test(test_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
