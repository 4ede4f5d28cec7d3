#!/bin/bash
# test_unit_hdrimpl.sh: a single-header library in the stb style (issue 13 item 1: any library as shipped), whose
# definitions exist only under `#ifdef CURSOR_IMPLEMENTATION` (rxi's sj.h, the stb headers): sympath unit defines the
# switch itself when the header defines none of the functions asked for (before: "no function 'cursor_line' ...
# there are: cursor_at_end", the one inline helper outside the switch). Its
# reader is returned by value, `cursor cursor_make(data, len)`: a producer for a `cursor *` parameter (before: filled
# field by field, cur and end in another array than data, and cursor_line walked out of bounds), and a step returning
# a struct (`cursor_tok cursor_next(cursor *)`) is a modifier, so cursor_line sees lines passed.
. "$SRC/tests/e2e/unit_common.sh"
name=hdrimpl
unit_run hdrimpl tests/unit_libs/hdrimpl/cursor.h -- --function cursor_line --function cursor_next --function cursor_peek \
    --budget 18s
grep -q 'defines its functions under CURSOR_IMPLEMENTATION' "$out.bin/sympath.log" || fail "the implementation switch was not named"
grep -q -- '-DCURSOR_IMPLEMENTATION' "$out/BUILD.txt" || fail "BUILD.txt does not define CURSOR_IMPLEMENTATION"
expect_text cursor '^    cursor c_obj = cursor_make\(c_data, [0-9]+\);' "a cursor made by cursor_make"
expect_text cursor '^    cursor_next\(\(cursor \*\)c\);' "a cursor_next call before cursor_line"
expect_no_san_drops
# cursor_peek returns a token whose start and len it never sets: the recorder runs each test again with the
# stack and the call's mallocs filled with 0xAA, and what differs is not asserted (before, whatever the stack held
# was, and such a test passed or failed by chance)
peek=$(awk '/^static void test_/ { on = /test_cursor_peek_/ } on' "$out/test_cursor.c")
grep -q 'assert_int_equal(ret.kind, ' <<<"$peek" || fail "cursor_peek's kind is not asserted"
grep -Eq 'ret\.(start|len)' <<<"$peek" && fail "an uninitialised field of cursor_peek's result is asserted"
extra_cflags=(-DCURSOR_IMPLEMENTATION)
build_and_run cursor
expect_gcov cursor_line 100
expect_gcov cursor_next 90
pass
