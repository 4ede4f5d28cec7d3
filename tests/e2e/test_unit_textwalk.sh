#!/bin/bash
# test_unit_textwalk.sh: text helpers of a UTF-8 library (issue 13: string utilities as shipped; sheredom's utf8.h
# showed both). text_nlen stops at a NUL or after n bytes: the bytes past a text pair's length are inputs now, and
# the loop's `i < n` is a branch site of its own (before, the `while (a && b)` condition was one site whose false side
# the NUL already covered, and no test gave a text longer than n: -1 was never returned). text_prev steps back from
# the middle of a text: the string gets room before the pointer (before, every test read before the block the test
# built and the sanitizer check dropped them all: the function was refused). span_eq_nocase takes two views (sv.h's
# String_View) by value: a's bytes used to be as many inputs as a.count, so when the explorer solved a.count ==
# b.count, b.count read what had been a's first byte (inputs are positional), the run diverged and the loop was never
# entered (3/14 branches); a buffer now pads its inputs to --buf-len elements.
. "$SRC/tests/e2e/unit_common.sh"
name=textwalk
unit_run textwalk tests/unit_libs/textwalk/textwalk.c -- --function text_nlen --function text_prev \
    --function span_eq_nocase --budget 15s
expect_text textwalk 'assert_int_equal\(ret, -1\);' "a text longer than its count (text_nlen returns -1)"
expect_text textwalk '^    const char \*s = &s_obj\[4\];' "a pointer into the middle of a text for text_prev"
expect_text textwalk 'assert_int_equal\(width_obj, 2\);' "a two-byte character stepped back over"
expect_no_san_drops
build_and_run textwalk
expect_gcov text_nlen 100
expect_gcov text_prev 100
expect_gcov span_eq_nocase 100
pass
