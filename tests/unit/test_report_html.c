/* test_report_html.c: index.html from synthetic output directories: plots with one point per stats line, escaping, reasons on source lines, missing files, no report.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "report/report.h"
#include "report_test_util.h"

static char *html_of(const char *dir)
{
    char *err = NULL;
    assert_int_equal(report_write_html(dir, NULL, &err), 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/report/index.html", dir);
    char *text = util_read_file(path, NULL);
    assert_non_null(text);
    return text;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* The points of the polyline after the svg with this id. */
static int points_of(const char *html, const char *id)
{
    char key[128];
    snprintf(key, sizeof key, "<svg id=\"%s\"", id);
    const char *p = strstr(html, key);
    assert_non_null(p);
    p = strstr(p, "points=\"");
    assert_non_null(p);
    p += 8;
    int n = 0;
    for (; *p != '"'; p++)
        if (*p == ',') n++;
    return n;
}

static void test_run_output(void **state)
{
    char *d = scratch_dir();
    put_file(d, "prog.c", "int main(void) {\n  if (x < 5) return 1;\n  return 0; /* <script>&amp; */\n}\n");
    char rep[8192];
    snprintf(rep, sizeof rep,
             "{\"tool\": \"sympath 0.1\", \"program\": [\"p<1>.c\"], \"stop_reason\": \"budget\", \"complete\": false,"
             " \"coverage\": {\"branches_total\": 2, \"branches_covered\": 1, \"sites\": ["
             "  {\"id\": 1, \"file\": \"%s/prog.c\", \"line\": 2, \"function\": \"main\", \"kind\": \"br\", "
             "\"covered\": [true, false]}]},"
             " \"errors\": [{\"kind\": \"abort\", \"location\": \"%s/prog.c:3\", \"function\": \"main\","
             "  \"reproducer\": \"errors/error-001.xml\"}],"
             " \"concretizations_by_function\": {\"qsort\": 3}, \"tree\": {\"directions\": {\"visited\": 5, "
             "\"bounded\": 2}}}",
             d, d);
    put_file(d, "report.json", rep);
    put_file(d, "stats",
             "# "
             "header\n0.5\t1\t0\t2\t1\t0\t0.1\t1\t0\t0\n1.0\t5\t1\t2\t2\t1\t0.2\t3\t0\t0\n2.0\t9\t1\t2\t2\t1\t0."
             "5\t4\t1\t0\n");
    put_file(d, "build/reasons.tsv", "# site\tdir\twhy\tcount\n1\t1\tinfeasible\t2\n1\t*\tconcretization\t1\n");
    put_file(d, "errors/error-001.txt", "abort() called\ninputs: <none>\n");
    char *h = html_of(d);
    assert_int_equal(count(h, "<script"), 0);
    assert_non_null(strstr(h, "&lt;script&gt;&amp;amp;")); /* source text escaped */
    assert_non_null(strstr(h, "p&lt;1&gt;.c"));            /* program name escaped */
    assert_int_equal(points_of(h, "stats-covered"), 3);
    assert_int_equal(points_of(h, "stats-solver"), 3);
    assert_non_null(strstr(h, "UNSAT"));
    assert_non_null(strstr(h, "concretized after this branch"));
    assert_non_null(strstr(h, "qsort"));
    assert_non_null(strstr(h, "bounded"));
    assert_non_null(strstr(h, "abort() called"));
    assert_non_null(strstr(h, "href=\"../errors/error-001.xml\""));
    assert_non_null(strstr(h, "<tr class=\"part\" id=\"L0-2\">"));
    assert_non_null(strstr(h, "<tr class=\"err\" id=\"L0-3\">"));
    free(h);
    rm_dir(d);
}

static void test_missing_files(void **state)
{
    char *d = scratch_dir();
    put_file(
        d, "report.json",
        "{\"tool\": \"sympath 0.1\", \"coverage\": {\"sites\": ["
        "{\"id\": 1, \"file\": \"gone.c\", \"line\": 4, \"kind\": \"switch\", \"covered\": [false, true, false]}]}}");
    char *h = html_of(d);
    assert_non_null(strstr(h, "OUT/stats is missing"));
    assert_non_null(strstr(h, "Source not found"));
    assert_non_null(strstr(h, "switch destination 3: not covered"));
    assert_non_null(strstr(h, "No error found"));
    free(h);
    /* -o elsewhere, absolute links */
    char other[4200], *err = NULL;
    snprintf(other, sizeof other, "%s/elsewhere/deep", d);
    assert_int_equal(report_write_html(d, other, &err), 0);
    rm_dir(d);
}

static void test_no_report(void **state)
{
    char *d = scratch_dir();
    char *err = NULL;
    assert_int_equal(report_write_html(d, NULL, &err), -1);
    assert_non_null(strstr(err, "report.json"));
    free(err);
    rm_dir(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_output),
        cmocka_unit_test(test_missing_files),
        cmocka_unit_test(test_no_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
