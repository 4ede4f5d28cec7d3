/* test_proto_results.c: the .results writer and reader agree (round trip, odd bytes escaped), malformed lines are named. */
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

#include "proto/proto.h"
#include "util/util.h"

static void same_str(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

/* A file written piece by piece, as the three writers do: a block with names and odd values,
 * a failed statement, a failed SELECT, an empty block, a write done with its row count. */
static char *written(void)
{
    strbuf b = STRBUF_INIT;
    results_put_header(&b, 1);
    results_put_result(&b, "00112233445566aa", 3);
    const char *names[] = {"id", "we\\ird\tname", ""};
    results_put_names(&b, names, 3);
    const char *r1[] = {"1", "tab\there\nnl\rcr\\bs", NULL};
    results_put_row(&b, r1, NULL, 3);
    const char *r2[] = {"2", "", "\\N"};
    results_put_row(&b, r2, NULL, 3);
    results_put_end(&b);
    results_put_fail(&b, "ERROR:  duplicate\tkey\nvalue", "INSERT INTO t\nVALUES (1)");
    results_put_result(&b, "ffffffffffffffff", 0);
    results_put_error(&b, "ERROR:  relation \"x\" does not exist\n");
    results_put_end(&b);
    results_put_result(&b, "0000000000000000", 1);
    results_put_end(&b);
    results_put_done(&b, "12", "DELETE FROM t\tWHERE k = $1");
    assert_false(b.failed);
    return b.s;
}

static void test_round_trip(void **state)
{
    char *text = written();
    results r;
    char *err = NULL;
    assert_int_equal(results_parse(text, strlen(text), &r, &err), 0);
    assert_null(err);
    assert_int_equal(r.writes_allowed, 1);
    assert_int_equal(r.nitems, 5);
    results_item *a = &r.items[0];
    assert_false(a->is_fail);
    assert_string_equal(a->site, "00112233445566aa");
    assert_int_equal(a->ncols, 3);
    assert_string_equal(a->names[1], "we\\ird\tname");
    assert_string_equal(a->names[2], "");
    assert_int_equal(a->nrows, 2);
    assert_string_equal(a->rows[0][1], "tab\there\nnl\rcr\\bs");
    assert_null(a->rows[0][2]);
    assert_string_equal(a->rows[1][1], "");
    assert_string_equal(a->rows[1][2], "\\N"); /* the text \N, not NULL */
    assert_true(r.items[1].is_fail);
    assert_string_equal(r.items[1].msg, "ERROR:  duplicate key value");
    assert_string_equal(r.items[1].sql, "INSERT INTO t VALUES (1)");
    assert_string_equal(r.items[2].error, "ERROR:  relation \"x\" does not exist ");
    assert_int_equal(r.items[2].nrows, 0);
    assert_null(r.items[3].names);
    assert_null(r.items[3].error);
    assert_false(r.items[3].is_done);
    assert_true(r.items[4].is_done);
    assert_false(r.items[4].is_fail);
    assert_string_equal(r.items[4].tuples, "12");
    assert_string_equal(r.items[4].sql, "DELETE FROM t WHERE k = $1");
    /* format(parse(text)) == text */
    char *again = results_format(&r);
    assert_non_null(again);
    assert_string_equal(again, text);
    results r2;
    assert_int_equal(results_parse(again, strlen(again), &r2, &err), 0);
    assert_int_equal(r2.nitems, r.nitems);
    for (size_t i = 0; i < r.nitems; i++) {
        assert_int_equal(r.items[i].nrows, r2.items[i].nrows);
        same_str(r.items[i].error, r2.items[i].error);
    }
    results_free(&r2);
    results_free(&r);
    free(again);
    free(text);
}

static void test_read_file(void **state)
{
    char path[] = "/tmp/sympath-results-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char *text = written();
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    results r;
    char *err = NULL;
    assert_int_equal(results_read(path, &r, &err), 0);
    assert_int_equal(r.nitems, 5);
    results_free(&r);
    unlink(path);
    assert_int_equal(results_read(path, &r, &err), -1);
    assert_non_null(strstr(err, "cannot read"));
    free(err);
    free(text);
}

static void test_flat(void **state)
{
    char out[8];
    proto_flat(out, sizeof out, "a\tb\nc\rdefgh");
    assert_string_equal(out, "a b c d");
    proto_flat(out, sizeof out, NULL);
    assert_string_equal(out, "");
}

/* text must be refused with an error that contains want. */
static void refused(const char *text, size_t len, const char *want)
{
    results r;
    char *err = NULL;
    assert_int_equal(results_parse(text, len, &r, &err), -1);
    assert_non_null(err);
    if (!strstr(err, want)) fail_msg("'%s' does not contain '%s'", err, want);
    assert_int_equal(r.nitems, 0);
    free(err);
}

static void test_malformed(void **state)
{
    refused("", 0, "empty");
    refused("sympath-results 2\n", 18, "line 1: not a version 1");
    const char *h = "sympath-results 1\n";
    char buf[256];
#define BAD(body, want)                             \
    do {                                            \
        snprintf(buf, sizeof buf, "%s%s", h, body); \
        refused(buf, strlen(buf), want);            \
    } while (0)
    BAD("result\tabc\t1\nend\n", "line 2: result needs a site");
    BAD("result\t0011223344556677\tx\nend\n", "line 2: result needs a site");
    BAD("result\t0011223344556677\t-1\nend\n", "line 2");
    BAD("result\t0011223344556677\t2\nrow\ta\nend\n", "line 3: row has 1 fields, the block has 2 columns");
    BAD("result\t0011223344556677\t1\nrow\ta\\q\nend\n", "line 3: field 1: an unknown escape");
    BAD("result\t0011223344556677\t1\nrow\ta\\\nend\n", "line 3: field 1: an unknown escape");
    BAD("result\t0011223344556677\t1\nrow\ta\n", "line 3: the last block has no 'end'");
    BAD("result\t0011223344556677\t1\nresult\t0011223344556677\t1\n", "line 3: result inside a block");
    BAD("row\ta\n", "line 2: 'row' outside a block");
    BAD("end\n", "line 2: end outside a block");
    BAD("bogus\n", "line 2: unknown record 'bogus'");
    BAD("result\t0011223344556677\t1\nrow\ta\nnames\tx\nend\n", "line 4: names must come first");
    BAD("result\t0011223344556677\t1\nnames\t\\N\nend\n", "line 3: field 1: a name cannot be NULL");
    BAD("fail\tonly a message\n", "line 2: fail needs a message and a statement");
    BAD("done\t3\n", "line 2: done needs a row count");
    BAD("done\t\tUPDATE t SET a = 1\n", "line 2: done needs a row count");
    BAD("done\t-1\tUPDATE t SET a = 1\n", "line 2: done needs a row count");
    BAD("done\t123456789012345678901\tUPDATE t SET a = 1\n", "line 2: done needs a row count");
    BAD("result\t0011223344556677\t0\ndone\t1\tDELETE FROM t\nend\n", "line 3: done inside a block");
    BAD("result\t0011223344556677\t0\nend\nwrites\tallowed\n", "line 4: 'writes<TAB>allowed'");
    static const char nul[] = "sympath-results 1\nresult\t0011223344556677\t1\nrow\ta\0b\nend\n";
    refused(nul, sizeof nul - 1, "line 3: a NUL byte");
}

static void test_writer_refuses_bad_items(void **state)
{
    results r;
    results_init(&r);
    results_item it = {0};
    strcpy(it.site, "not hex!");
    r.items = &it;
    r.nitems = 1;
    assert_null(results_format(&r));
    results_item done = {.is_done = 1, .tuples = "1x", .sql = (char *)"DELETE FROM t"};
    r.items = &done;
    assert_null(results_format(&r));
    strcpy(done.tuples, "0");
    char *ok = results_format(&r);
    assert_non_null(ok);
    assert_string_equal(ok, "sympath-results 1\ndone\t0\tDELETE FROM t\n");
    free(ok);
    /* CRLF line ends are read as LF */
    const char *crlf = "sympath-results 1\r\nresult\t0011223344556677\t1\r\nrow\tv\r\nend\r\n";
    char *err = NULL;
    assert_int_equal(results_parse(crlf, strlen(crlf), &r, &err), 0);
    assert_string_equal(r.items[0].rows[0][0], "v");
    results_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_flat),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_writer_refuses_bad_items),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
