#!/bin/bash
# test_unit_nested.sh: sympath unit on a struct with nested pointers and a string field (box_check) and
# on a `struct box **` parameter (box_take); the emitted tests rebuild the object graphs (aliased
# min/max, NULL fields), build with -Werror, pass, and cover every branch under gcov.
. "$SRC/tests/e2e/unit_common.sh"
unit_run nested tests/programs/unit/nested.c -- --all --budget 30s
expect_sympath_cov box_check
expect_sympath_cov box_take
expect_text nested '\.min = (&[a-z_0-9]+), \.max = \1' "box whose min and max alias"
expect_text nested '"root"' "string input solved to \"root\""
expect_text nested 'struct box \*\*slot = &' "T ** parameter built from a pointer object"
expect_text nested 'assert_null\(slot_obj\);' "assertion that *slot was cleared"
build_and_run nested
expect_gcov box_check 100
expect_gcov box_take 100
pass
