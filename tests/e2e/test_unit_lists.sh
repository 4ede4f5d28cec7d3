#!/bin/bash
# test_unit_lists.sh: a `T **` parameter the unit walks as an array, with no length beside it, is a NULL-terminated
# list (argv's shape; harness_null_list in src/unit/harness_int.h): 1 to 3 elements and a NULL, the count a choice
# the explorer flips; a `struct S *` so walked is a table ended by a zeroed entry. On wordlist.c: words_join hands
# its list to cursor_init, which keeps it in a member that cursor_next walks (c->words[c->at]); words_count steps
# argv forward; words_has_dup indexes two positions; parser_find's parser is made by parser_init (a producer whose
# `const char *const *usage` was refused as an out-parameter) over a table of options that parser_find walks
# through a local taken from the member (`o = p->opts; o++`). Before, each list was one element and no end: every
# test read past it and was dropped by the sanitizer check (cwalk's cwk_path_join_multiple: no test kept -> 12
# tests, gcov 91/120 with its callees; argparse's argparse_parse gcov 1/25 -> 13/25). parser_need exits on an
# unknown option with memory the caller's parser holds: that test was dropped as a leak (LSan without the stacks).
# parser_scan(p, argc, argv) reads argv[argc], NULL as for main: argc counted p before (an array of argc parsers)
# and argv had no slot past argc (a false bug in _bugs.c; argparse's argparse_parse writes there).
. "$SRC/tests/e2e/unit_common.sh"
name=lists
unit_run lists tests/unit_libs/lists/wordlist.c -- --function words_join --function words_count --function words_has_dup \
    --function parser_find --function parser_usage_lines --function parser_need --function parser_scan --budget 30s --max-execs 600
t="$out/test_wordlist.c"
expect_text wordlist '^    const char \*words_obj\[3\] = \{ words_[0-9]+, words_[0-9]+, NULL \};' "a list of two words and its NULL"
expect_text wordlist '^    char \*argv_obj\[2\] = \{ argv_[0-9]+, NULL \};' "argv of one word and its NULL"
awk '/static void test_words_has_dup/,/^}/' "$t" | grep -q 'assert_int_equal(ret, 1);' ||
    fail "no test of words_has_dup finds a word twice"
expect_text wordlist '^    parser_init\(&p_obj, p_opts, p_usage, -?[0-9]+\);' "the parser made by parser_init"
expect_text wordlist '^    const char \*p_usage\[[23]\] = \{ (p_usage_[0-9]+, )+NULL \};' "usage lines ended by NULL"
# parser_need's exit with p->error still held by the caller's parser: LSan looks with the frames live
expect_text wordlist '^static void test_parser_need_[0-9]+_exits\(' "a test of parser_need's exit (not dropped as a leak)"
[ -f "$out/test_wordlist_bugs.c" ] && fail "false bugs in test_wordlist_bugs.c"
expect_no_san_drops
build_and_run wordlist
expect_gcov words_join 100
expect_gcov words_count 100
expect_gcov words_has_dup 100
expect_gcov parser_find 80
expect_gcov parser_usage_lines 100
expect_gcov parser_scan 80
pass
