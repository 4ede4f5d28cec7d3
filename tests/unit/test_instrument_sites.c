/* test_instrument_sites.c: site table round trip, slot -> site mapping, malformed tables rejected with a line number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "instrument/instrument.h"
#include "instrument/instrument_int.h"

static char tmp_path[64];

static int setup(void **state)
{
    strcpy(tmp_path, "/tmp/sympath-sites-XXXXXX");
    int fd = mkstemp(tmp_path);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

static int teardown(void **state)
{
    unlink(tmp_path);
    return 0;
}

static void write_text(const char *text)
{
    FILE *f = fopen(tmp_path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void **state)
{
    site_table t = {0};
    uint32_t id, slot;
    assert_int_equal(sites_add_site(&t, 2, 1, 10, 5, "prog.c", "main", "br", &id, &slot), 0);
    assert_int_equal(id, 1);
    assert_int_equal(slot, 0);
    assert_int_equal(sites_add_site(&t, 3, 1, 12, 3, "dir with space/prog.c", "f", "switch", &id, &slot), 0);
    assert_int_equal(id, 2);
    assert_int_equal(slot, 2);
    assert_int_equal(sites_add_site(&t, 2, 0, 0, 0, NULL, "__sym_model_strlen", "br", &id, &slot), 0);
    assert_int_equal(slot, 5);
    assert_int_equal(sites_add_loc(&t, 20, 7, "prog.c", "main", "reach_error", &id), 0);
    assert_int_equal(id, 1);
    assert_int_equal(sites_count_unsupported(&t, "va_arg", 2), 0);
    assert_int_equal(sites_count_unsupported(&t, "inline asm", 1), 0);
    assert_int_equal(sites_count_unsupported(&t, "va_arg", 1), 0);
    char *err = NULL;
    assert_int_equal(site_table_write(tmp_path, &t, &err), 0);
    site_table_free(&t);

    site_table r;
    assert_int_equal(site_table_load(tmp_path, &r, &err), 0);
    assert_int_equal(r.nslots, 7);
    assert_int_equal(r.nsites, 3);
    assert_int_equal(r.sites[1].id, 2);
    assert_int_equal(r.sites[1].slot_base, 2);
    assert_int_equal(r.sites[1].ndirs, 3);
    assert_int_equal(r.sites[1].line, 12);
    assert_int_equal(r.sites[1].col, 3);
    assert_int_equal(r.sites[1].user, 1);
    assert_string_equal(r.sites[1].file, "dir with space/prog.c");
    assert_string_equal(r.sites[1].function, "f");
    assert_string_equal(r.sites[1].kind, "switch");
    assert_int_equal(r.sites[2].user, 0);
    assert_string_equal(r.sites[2].file, "?"); /* unknown location */
    assert_int_equal(r.nlocs, 1);
    assert_string_equal(r.locs[0].what, "reach_error");
    assert_int_equal(r.locs[0].line, 20);
    assert_int_equal(r.locs[0].col, 7);
    assert_int_equal(r.nunsupported, 2);
    assert_string_equal(r.unsupported_kind[0], "va_arg");
    assert_int_equal(r.unsupported_count[0], 3);
    assert_string_equal(r.unsupported_kind[1], "inline asm");
    const uint32_t want[7] = {1, 1, 2, 2, 2, 3, 3};
    for (int i = 0; i < 7; i++) assert_int_equal(r.slot_site[i], want[i]);
    site_table_free(&r);
}

static void test_empty_table(void **state)
{
    site_table t = {0};
    char *err = NULL;
    assert_int_equal(site_table_write(tmp_path, &t, &err), 0);
    site_table r;
    assert_int_equal(site_table_load(tmp_path, &r, &err), 0);
    assert_int_equal(r.nslots, 0);
    assert_int_equal(r.nsites, 0);
    site_table_free(&r);
}

/* Malformed input: the error names the file and the offending line. */
static void expect_error(const char *text, const char *line_tag, const char *words)
{
    write_text(text);
    site_table r;
    char *err = NULL;
    assert_int_equal(site_table_load(tmp_path, &r, &err), -1);
    assert_non_null(err);
    assert_non_null(strstr(err, tmp_path));
    if (line_tag) assert_non_null(strstr(err, line_tag));
    if (words && !strstr(err, words)) fail_msg("error '%s' does not mention '%s'", err, words);
    free(err);
}

static void test_malformed(void **state)
{
    expect_error("bogus\t1\n", ":1:", "header");
    expect_error("", NULL, "empty");
    expect_error("sympath-sites\t1\nslots\t2\nsite\t1\t0\t2\t1\t3\tx\tf.c\tmain\tbr\n", ":3:", "site");
    expect_error("sympath-sites\t1\nslots\t2\nsite\t2\t0\t2\t1\t3\t1\tf.c\tmain\tbr\n", ":3:", "ids");
    expect_error("sympath-sites\t1\nslots\t2\nsite\t1\t0\t2\t1\t3\t1\tf.c\tmain\n", ":3:", "site");
    expect_error("sympath-sites\t1\nslots\t2\nloc\t1\t3\tf.c\tmain\treach_error\n", ":3:", "loc");
    expect_error("sympath-sites\t1\nslots\t2\nwhat\t1\n", ":3:", "unknown");
    expect_error("sympath-sites\t1\nslots\t-2\n", ":2:", "slots");
    expect_error("sympath-sites\t1\nsite\t1\t0\t2\t1\t3\t1\tf.c\tmain\tbr\n", NULL, "slots");
    /* slots beyond the table, overlapping, or not covered by any site */
    expect_error("sympath-sites\t1\nslots\t1\nsite\t1\t0\t2\t1\t3\t1\tf.c\tmain\tbr\n", NULL, "beyond");
    expect_error("sympath-sites\t1\nslots\t3\nsite\t1\t0\t2\t1\t3\t1\tf.c\tmain\tbr\n"
                 "site\t2\t1\t2\t1\t4\t1\tf.c\tmain\tbr\n",
                 NULL, "already");
    expect_error("sympath-sites\t1\nslots\t3\nsite\t1\t0\t2\t1\t3\t1\tf.c\tmain\tbr\n", NULL, "no site");
    expect_error("sympath-sites\t1\nslots\t0\nunsupported\tx\tva_arg\n", ":3:", "unsupported");
}

/* External callees: ids dense from 1, one per name, kept across a write and a load. */
static void test_callees_round_trip(void **state)
{
    site_table t = {0};
    uint32_t id;
    assert_int_equal(sites_add_callee(&t, "qsort", &id), 0);
    assert_int_equal(id, 1);
    assert_int_equal(sites_add_callee(&t, "strtod", &id), 0);
    assert_int_equal(id, 2);
    assert_int_equal(sites_add_callee(&t, "qsort", &id), 0);
    assert_int_equal(id, 1);
    char *err = NULL;
    assert_int_equal(site_table_write(tmp_path, &t, &err), 0);
    site_table_free(&t);
    site_table r;
    assert_int_equal(site_table_load(tmp_path, &r, &err), 0);
    assert_int_equal(r.ncallees, 2);
    assert_string_equal(r.callees[0], "qsort");
    assert_string_equal(r.callees[1], "strtod");
    site_table_free(&r);

    /* ids out of order and duplicate names are refused */
    FILE *f = fopen(tmp_path, "w");
    fputs("sympath-sites\t1\nslots\t0\ncallee\t2\tqsort\n", f);
    fclose(f);
    assert_int_equal(site_table_load(tmp_path, &r, &err), -1);
    assert_non_null(strstr(err, "callee"));
    free(err);
    f = fopen(tmp_path, "w");
    fputs("sympath-sites\t1\nslots\t0\ncallee\t1\tqsort\ncallee\t2\tqsort\n", f);
    fclose(f);
    assert_int_equal(site_table_load(tmp_path, &r, &err), -1);
    assert_non_null(strstr(err, "duplicate"));
    free(err);
}

/* Calls redirected to models: everywhere, except a model calling its own real name. */
static void test_model_redirect_rule(void **state)
{
    assert_true(model_redirect_ok("main", "strlen"));
    assert_true(model_redirect_ok(NULL, "strlen"));
    assert_true(model_redirect_ok("__sym_model_sscanf", "fgetc"));
    assert_true(model_redirect_ok("__sym_model_strcat", "strlen"));
    assert_false(model_redirect_ok("__sym_model_snprintf", "snprintf"));
    assert_false(model_redirect_ok("__sym_model_snprintf.sym_concrete", "snprintf"));
    assert_true(model_redirect_ok("__sym_model_snprintf", "vsnprintf"));
    assert_true(model_redirect_ok("__sym_model_vsnprintf", "snprintf"));
    assert_false(model_redirect_ok("main", "__sym_model_strlen"));
}

static void test_missing_file(void **state)
{
    site_table r;
    char *err = NULL;
    assert_int_equal(site_table_load("/nonexistent/sites", &r, &err), -1);
    assert_non_null(strstr(err, "/nonexistent/sites"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test_setup_teardown(test_callees_round_trip, setup, teardown),
        cmocka_unit_test(test_model_redirect_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
