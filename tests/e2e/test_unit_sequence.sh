#!/bin/bash
# test_unit_sequence.sh: an object whose state comes from several calls of the unit's API (issue 13 item 2: call
# sequences), in a source that selects POSIX.1-2001 and reads a FILE * (the shape of pdjson's json_open_stream /
# json_next). tok_balanced's branches need three tokens read, or three parentheses open: the harness calls up to
# three modifiers after the producer (one before, so `count >= 3` was never reached). The stream argument of
# tok_open(tok, stream) is not named `tok_stream`, the library's own typedef (the test did not compile), and
# fmemopen is declared although the unit's feature-test macro hides it (the test did not compile either).
. "$SRC/tests/e2e/unit_common.sh"
name=sequence
unit_run sequence tests/unit_libs/tokstream/tokstream.c -- --function tok_balanced --budget 15s
t="$out/test_tokstream.c"
expect_text tokstream '^    tok_open\(&tok_obj, [a-z_0-9]+\);' "an object opened by tok_open on a stream"
grep -Eq '^    tok_stream [a-z_]' "$t" || fail "no local of type tok_stream"
grep -Eq '(FILE \*|char )tok_stream(_text)? ' "$t" && fail "a local is named like the typedef tok_stream"
awk '/^static void test_/ { n = 0 } /^    tok_next\(/ { if (++n == 3) found = 1 } END { exit !found }' "$t" ||
    fail "no test calls tok_next three times before tok_balanced"
build_and_run tokstream
expect_gcov tok_balanced 100
pass
