/* test_report_sarif.c: errors.sarif from synthetic output directories of run (errors array), data (reproducers only) and unit (per-function runs); a missing report.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "report/report.h"
#include "report_test_util.h"

static jv *sarif_of(const char *dir)
{
    char *err = NULL;
    assert_int_equal(report_write_sarif(dir, &err), 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/errors.sarif", dir);
    jv *v = jv_read_file(path, &err);
    assert_non_null(v);
    assert_string_equal(jv_str(jv_get(v, "version"), NULL), "2.1.0");
    assert_non_null(strstr(jv_str(jv_get(v, "$schema"), ""), "sarif-2.1.0"));
    return v;
}

static const jv *run0(const jv *v) { return &jv_get(v, "runs")->items[0]; }

static void test_run_output(void **state)
{
    char *d = scratch_dir();
    put_file(
        d, "report.json",
        "{\"tool\": \"sympath 0.1\", \"errors\": ["
        "{\"kind\": \"crash\", \"class\": \"other-termination\", \"location\": \"src/a b.c:12 (last branch executed)\","
        " \"function\": \"f\", \"reproducer\": \"errors/error-001.xml\", \"found_after_seconds\": 0.5},"
        "{\"kind\": \"reach_error\", \"class\": \"property-violation\", \"location\": \"x.c:7\", \"function\": "
        "\"main\","
        " \"reproducer\": \"errors/error-002.xml\"},"
        "{\"kind\": \"crash\", \"location\": \"unknown location\", \"function\": \"?\", \"reproducer\": null},"
        "{\"kind\": \"timeout\", \"confirmed\": false, \"location\": \"x.c:9\", \"reproducer\": "
        "\"errors/error-003.xml\"}]}");
    put_file(d, "errors/error-002.txt",
             "reach_error: the error function was called (property violation)\nwhere: x.c:7\n");
    put_file(d, "errors/error-002.sql", "INSERT INTO t VALUES (1);\n");
    jv *v = sarif_of(d);
    const jv *rules = jv_get(jv_get(jv_get(run0(v), "tool"), "driver"), "rules");
    assert_int_equal(jv_len(rules), 3); /* crash, reach_error, timeout: one rule per kind */
    assert_string_equal(jv_str(jv_get(&rules->items[0], "id"), NULL), "crash");
    assert_non_null(jv_str(jv_get(jv_get(&rules->items[1], "shortDescription"), "text"), NULL));
    const jv *res = jv_get(run0(v), "results");
    assert_int_equal(jv_len(res), 4);
    /* "(last branch executed)" dropped, the space escaped in the URI */
    const jv *loc = jv_get(&jv_get(&res->items[0], "locations")->items[0], "physicalLocation");
    assert_string_equal(jv_str(jv_get(jv_get(loc, "artifactLocation"), "uri"), NULL), "src/a%20b.c");
    assert_int_equal(jv_num(jv_get(jv_get(loc, "region"), "startLine"), 0), 12);
    /* the second: message from the .txt, reproducer and fixture as related locations */
    const jv *r1 = &res->items[1];
    assert_string_equal(jv_str(jv_get(r1, "ruleId"), NULL), "reach_error");
    assert_int_equal(jv_num(jv_get(r1, "ruleIndex"), -1), 1);
    assert_string_equal(jv_str(jv_get(r1, "level"), NULL), "error");
    assert_non_null(strstr(jv_str(jv_get(jv_get(r1, "message"), "text"), ""), "the error function was called"));
    const jv *rel = jv_get(r1, "relatedLocations");
    assert_int_equal(jv_len(rel), 2);
    assert_string_equal(
        jv_str(jv_get(jv_get(jv_get(&rel->items[1], "physicalLocation"), "artifactLocation"), "uri"), NULL),
        "errors/error-002.sql");
    /* no location known: no locations entry, still a result */
    assert_int_equal(jv_len(jv_get(&res->items[2], "locations")), 0);
    /* an unconfirmed time-out is a note */
    assert_string_equal(jv_str(jv_get(&res->items[3], "level"), NULL), "note");
    const char *base = jv_str(jv_get(jv_get(jv_get(run0(v), "originalUriBaseIds"), "OUTDIR"), "uri"), "");
    assert_true(strncmp(base, "file:///", 8) == 0 && base[strlen(base) - 1] == '/');
    jv_free(v);
    rm_dir(d);
}

static void test_data_output(void **state)
{
    char *d = scratch_dir();
    put_file(d, "report.json", "{\"tool\": \"sympath data\", \"errors\": 1, \"tests\": 3}");
    put_file(d, "errors/error-001.xml", "<testcase/>");
    put_file(d, "errors/error-001.txt", "abort");
    put_file(d, "build/replay.conf", "sympath-replay 1\nsource /abs/app.c\n");
    jv *v = sarif_of(d);
    const jv *res = jv_get(run0(v), "results");
    assert_int_equal(jv_len(res), 1);
    assert_string_equal(jv_str(jv_get(&res->items[0], "ruleId"), NULL), "abort");
    const jv *al =
        jv_get(jv_get(&jv_get(&res->items[0], "locations")->items[0], "physicalLocation"), "artifactLocation");
    assert_string_equal(jv_str(jv_get(al, "uri"), NULL), "file:///abs/app.c");
    jv_free(v);
    rm_dir(d);
}

static void test_unit_output(void **state)
{
    char *d = scratch_dir();
    put_file(d, "report.json", "{\"tool\": \"sympath 0.1 unit\", \"functions\": []}");
    put_file(
        d, "build/runs/g/report.json",
        "{\"errors\": [{\"kind\": \"assertion\", \"location\": \"u.c:8\", \"reproducer\": \"errors/error-001.xml\"}]}");
    put_file(d, "build/runs/h/report.json", "{\"errors\": []}");
    jv *v = sarif_of(d);
    const jv *res = jv_get(run0(v), "results");
    assert_int_equal(jv_len(res), 1);
    const jv *props = jv_get(&res->items[0], "properties");
    assert_string_equal(jv_str(jv_get(props, "unit_function"), NULL), "g");
    assert_string_equal(jv_str(jv_get(props, "reproducer"), NULL), "build/runs/g/errors/error-001.xml");
    jv_free(v);
    rm_dir(d);
}

static void test_no_report(void **state)
{
    char *d = scratch_dir();
    char *err = NULL;
    assert_int_equal(report_write_sarif(d, &err), -1);
    assert_non_null(err);
    free(err);
    put_file(d, "report.json", "{\"errors\": ["); /* cut short */
    err = NULL;
    assert_int_equal(report_write_sarif(d, &err), -1);
    free(err);
    rm_dir(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_output),
        cmocka_unit_test(test_data_output),
        cmocka_unit_test(test_unit_output),
        cmocka_unit_test(test_no_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
