#!/bin/bash
# test_unit_va_list.sh: a function taking a va_list (issue 13: no function refused). vscan.c's `num_vscan(s, fmt,
# va_list ap)` was refused before (the harness tried to fill a `struct __va_list_tag`); it is now called through a
# variadic wrapper the harness and the test define, `call_num_vscan(s, fmt, ...)`, with the variadic blocks a variadic
# target gets, and what it stored through them is asserted. The suite compiles with -Werror and passes.
. "$SRC/tests/e2e/unit_common.sh"
name=va_list
unit_run va_list tests/unit_libs/vscan/vscan.c -- --function num_vscan --budget 30s --max-execs 730
t="$out/test_vscan.c"
expect_text vscan '^static int call_num_vscan\(const char \*s, const char \*fmt, \.\.\.\) \{' "the variadic wrapper"
expect_text vscan '^    va_start\(ap, fmt\);' "va_start in the wrapper"
expect_text vscan 'call_num_vscan\(s, fmt, varargs\[0\]' "a call through the wrapper"
expect_text vscan 'assert_memory_equal\(varargs\[0\], ' "an assertion on what the call stored"
expect_no_san_drops
build_and_run vscan
expect_gcov num_vscan 80
# a string the call allocated and stored through a variadic argument (frozen's json_scanf "%Q"): its text is
# asserted and the test frees it (before: LeakSanitizer dropped every test that found a word)
unit_run va_heap tests/unit_libs/vscan/vscan.c -- --function word_scan --budget 30s --max-execs 660
expect_text vscan '^        assert_string_equal\(\(const char \*\)p, "[A-Za-z]+"\);' "the allocated word asserted"
expect_text vscan '^        free\(p\);' "the allocated word freed"
expect_no_san_drops
build_and_run vscan
expect_gcov word_scan 85
pass
