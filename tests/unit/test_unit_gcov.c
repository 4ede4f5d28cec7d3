/* test_unit_gcov.c: the pieces of `sympath unit`'s per-function gcov figures: a test file's test names, which tests are a function's, the functions a listing says its tests reached. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "unit/pipeline_int.h"

/* A test file as unit_emit_tests writes it: tests of parse and of parse_line, whose names share
 * the prefix test_parse_; parse_line's test builds its input with the unit's make_line. */
static const char *TESTS = "static void test_parse_1(void **state) {\n"
                           "    (void)state;\n"
                           "    int ret = parse(\"a=b\");\n"
                           "}\n\n"
                           "static void test_parse_line_1(void **state) {\n"
                           "    (void)state;\n"
                           "    char *line = make_line(3);\n"
                           "    int ret = parse_line(line);\n"
                           "}\n\n"
                           "int main(int argc, char **argv) {\n    const struct CMUnitTest tests[] = {\n"
                           "        cmocka_unit_test(test_parse_1),\n"
                           "        cmocka_unit_test(test_parse_line_1),\n"
                           "    };\n    if (argc > 1) cmocka_set_test_filter(argv[1]);\n"
                           "    return cmocka_run_group_tests(tests, NULL, NULL);\n}\n";

/* gcov -b's listing of the unit after parse_line's test: parse_line calls key_len and
 * make_line ran for the test's input; parse never ran. */
static const char *LISTING = "        -:    0:Source:lib.c\n"
                             "function key_len called 1 returned 100% blocks executed 80%\n"
                             "        1:    3:int key_len(const char *s) {\n"
                             "branch  0 taken 0% (fallthrough)\n"
                             "branch  1 taken 100%\n"
                             "        -:    3:char *pad(int n); /* a prototype is no call of scan's */\n"
                             "function make_line called 1 returned 100% blocks executed 100%\n"
                             "        1:    9:char *make_line(int n) {\n"
                             "branch  0 taken 100%\n"
                             "branch  1 taken 0%\n"
                             "function parse called 0 returned 0% blocks executed 0%\n"
                             "    #####:   12:int parse(const char *s) {\n"
                             "branch  0 never executed\n"
                             "branch  1 never executed\n"
                             "function parse_line called 1 returned 100% blocks executed 100%\n"
                             "        1:   15:int parse_line(char *s) { return key_len(s); }\n";

static void test_names_and_owners(void **state)
{
    (void)state;
    char **names = NULL;
    size_t n = 0;
    unit_test_names(TESTS, &names, &n);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "test_parse_1");
    assert_string_equal(names[1], "test_parse_line_1");
    /* test_parse_line_1 is parse_line's, not parse's: the prefix test_parse_ is no proof */
    assert_true(unit_test_of(names[0], "parse"));
    assert_false(unit_test_of(names[1], "parse"));
    assert_true(unit_test_of(names[1], "parse_line"));
    assert_false(unit_test_of(names[0], "parse_line"));
    util_free_strv(names);
}

static void test_calls_of_a_listing(void **state)
{
    (void)state;
    assert_int_equal(unit_gcov_calls(LISTING, "key_len"), 1);
    assert_int_equal(unit_gcov_calls(LISTING, "parse"), 0);
    assert_int_equal(unit_gcov_calls(LISTING, "missing"), -1);
    assert_int_equal(unit_gcov_calls(LISTING, "parse_lin"), -1);
}

/* The wrapper parse_line reached key_len (1 of 2 branch outcomes); make_line ran because the test
 * called it itself (a producer), parse not at all: neither is listed. */
static void test_reached_functions(void **state)
{
    (void)state;
    char *own[] = {"test_parse_line_1", NULL};
    strbuf out = STRBUF_INIT;
    unit_gcov_reached(LISTING, "parse_line", NULL, TESTS, own, 1, &out);
    assert_non_null(out.s);
    assert_string_equal(out.s, "key_len\t1\t2\n");
    sb_free(&out);
    /* parse's own test calls no producer: from the same listing, key_len, make_line and
     * parse_line ran (the listing is not parse's tests', but the rule is the listing's) */
    char *own2[] = {"test_parse_1", NULL};
    unit_gcov_reached(LISTING, "parse", NULL, TESTS, own2, 1, &out);
    assert_string_equal(out.s, "key_len\t1\t2\nmake_line\t1\t2\nparse_line\t0\t0\n");
    sb_free(&out);
}

/* Two files' listings: parse_line calls key_len, which hands scan to a reader as a function
 * pointer; make_line (a producer) calls pad, which no function of parse_line's reaches;
 * key_lens (a longer name), a comment's "key" and pad's prototype after scan are no reference. */
static const char *LIB = "        -:    0:Source:lib.c\n"
                         "function key_len called 1 returned 100% blocks executed 80%\n"
                         "        1:    3:int key_len(const char *s) { return read_with(scan, s); }\n"
                         "function parse_line called 1 returned 100% blocks executed 100%\n"
                         "        1:   15:int parse_line(char *s) { return key_len(s) + key_lens; }\n";
static const char *UTIL = "        -:    0:Source:util.c\n"
                          "function scan called 2 returned 100% blocks executed 100%\n"
                          "        2:    1:int scan(const char *s) { return *s; } /* the key */\n"
                          "        -:    3:char *pad(int n); /* a prototype is no call of scan's */\n"
                          "function make_line called 1 returned 100% blocks executed 100%\n"
                          "        1:    4:char *make_line(int n) { return pad(n); }\n"
                          "function pad called 1 returned 100% blocks executed 100%\n"
                          "        1:    5:char *pad(int n) { return 0; }\n";

static void test_references(void **state)
{
    (void)state;
    const char *const listings[] = {LIB, UTIL};
    char *refs = unit_gcov_refs(listings, 2, "parse_line");
    assert_string_equal(refs, "\nkey_len\nscan\n");
    free(refs);
    refs = unit_gcov_refs(listings, 2, "make_line");
    assert_string_equal(refs, "\npad\n");
    /* what make_line's tests ran of its callees: pad, not parse_line's functions */
    strbuf out = STRBUF_INIT;
    char *own[] = {"test_make_line_1", NULL};
    unit_gcov_reached(UTIL, "make_line", refs, TESTS, own, 1, &out);
    assert_string_equal(out.s, "pad\t0\t0\n");
    sb_free(&out);
    free(refs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_owners),
        cmocka_unit_test(test_calls_of_a_listing),
        cmocka_unit_test(test_reached_functions),
        cmocka_unit_test(test_references),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
