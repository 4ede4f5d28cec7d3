#!/bin/bash
# test_unit_refill.sh: a bug on the simplest paths must not cost the paths beside it (issue 13: clibs/buffer's
# buffer_trim got no test at all). tb_trim reads before the text when nothing is left after the leading blanks;
# the exploration's first tests all go through that bug (an empty or all-blank buffer) and take the trim loops'
# branch directions there, so the runs with text ("7\t", "\tx") kept no test. The sanitizer check moves the bug's
# test to _bugs.c and drops the others; the directions they took are then sought among the exploration's
# candidate tests. Before: one test, trim_left and trim_right 2/4 gcov each; now the suite trims real text.
. "$SRC/tests/e2e/unit_common.sh"
name=refill
unit_run refill tests/unit_libs/trimbuf/trimbuf.c -- --function tb_trim --budget 15s
[ -f "$out/test_trimbuf_bugs.c" ] || fail "the trim bug is not in test_trimbuf_bugs.c"
grep -q "overflowed" "$out/test_trimbuf_bugs.c" || fail "the bug's report is not the pointer overflow in trim_right"
jq -e '.functions[0].sanitizer.refilled >= 1' "$out/report.json" >/dev/null || fail "no candidate test added"
# a test that trims text which is not blank (a kept character after the trim)
grep -Eq 'assert_string_equal\(b->data, "[^" ]+"\);' "$out/test_trimbuf.c" || fail "no test trims a non-blank text"
build_and_run trimbuf
expect_gcov trim_left 75
expect_gcov trim_right 75
pass
