/* test_report_stats.c: the OUT/stats format: format/parse round trip, header and malformed lines, a file cut mid-line, the progress writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

static void test_round_trip(void **state)
{
    report_sample r = {12.5, 1234567890123ull, 17, 40, 9, 2, 3.25, 456, 7, 3};
    char line[256];
    size_t n = report_stats_format(&r, line, sizeof line);
    assert_true(n > 0);
    assert_int_equal(line[n - 1], '\n');
    assert_string_equal(line, "12.500\t1234567890123\t17\t40\t9\t2\t3.250\t456\t7\t3\n");
    report_sample back;
    assert_int_equal(report_stats_parse(line, &back), 0);
    assert_true(back.elapsed == 12.5 && back.solver_seconds == 3.25);
    assert_true(back.execs == r.execs && back.covered == 17 && back.total == 40 && back.tests == 9);
    assert_true(back.errors == 2 && back.queries == 456 && back.timeouts == 7 && back.divergences == 3);
    /* too small a buffer: nothing, never half a line */
    assert_int_equal(report_stats_format(&r, line, 10), 0);
    assert_string_equal(line, "");
}

static void test_rejects(void **state)
{
    report_sample r;
    char head[256];
    snprintf(head, sizeof head, "%s\n", report_stats_header);
    assert_int_equal(report_stats_parse(head, &r), -1);
    assert_int_equal(report_stats_parse("", &r), -1);
    assert_int_equal(report_stats_parse("1.0\tx\t2\t3\n", &r), -1);
    assert_int_equal(report_stats_parse("1.0\t5\t9\t3\n", &r), -1); /* covered > total */
    assert_int_equal(report_stats_parse("1.0\t5\n", &r), -1);       /* too short */
    assert_int_equal(report_stats_parse("1.0\t5\t2\t3", &r), 0);    /* trailing columns default to 0 */
    assert_true(r.execs == 5 && r.covered == 2 && r.total == 3 && r.tests == 0 && r.queries == 0);
}

static void test_read_file_cut(void **state)
{
    char path[] = "/tmp/sympath_stats_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "# elapsed_s\texecs\n0.100\t1\t1\t4\t1\t0\t0.000\t0\t0\t0\nbad line\n"
                       "1.100\t10\t3\t4\t2\t1\t0.500\t9\t1\t0\n2.1"; /* the last line is being written */
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    report_sample *rows;
    size_t n;
    assert_int_equal(report_stats_read(path, &rows, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(rows[1].execs, 10);
    assert_int_equal(rows[1].errors, 1);
    free(rows);
    unlink(path);
    assert_int_equal(report_stats_read("/nonexistent/stats", &rows, &n), -1);
    assert_null(rows);
}

/* The writer: a header, at most one line per second, always the final one. */
static void test_progress_writer(void **state)
{
    char dir[] = "/tmp/sympath_prog_XXXXXX";
    assert_non_null(mkdtemp(dir));
    report_progress *p = report_progress_open(dir, REPORT_DISPLAY_OFF, "t", 0);
    assert_non_null(p);
    report_sample r = {0.1, 1, 0, 2, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 100; i++) {
        r.execs = (uint64_t)i + 1;
        report_progress_update(p, &r, NULL, 0);
    }
    r.elapsed = 0.2;
    report_progress_update(p, &r, NULL, 1);
    assert_int_equal(report_progress_stats_failed(p), 0);
    report_progress_close(p);
    char path[256];
    snprintf(path, sizeof path, "%s/stats", dir);
    report_sample *rows;
    size_t n;
    assert_int_equal(report_stats_read(path, &rows, &n), 0);
    assert_int_equal(n, 2); /* the first sample and the final one */
    assert_int_equal(rows[0].execs, 1);
    assert_int_equal(rows[1].execs, 100);
    free(rows);
    unlink(path);
    rmdir(dir);
    /* a directory that does not exist: the run goes on, the failure is known */
    p = report_progress_open("/nonexistent/dir", REPORT_DISPLAY_OFF, NULL, 0);
    assert_non_null(p);
    assert_int_equal(report_progress_stats_failed(p), 1);
    report_progress_update(p, &r, NULL, 1);
    report_progress_close(p);
    report_progress_close(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_read_file_cut),
        cmocka_unit_test(test_progress_writer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
