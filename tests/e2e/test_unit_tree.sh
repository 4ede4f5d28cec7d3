#!/bin/bash
# test_unit_tree.sh: a returned tree of tagged unions is asserted field by field (issue 13 item 5, parson's
# JSON_Value). On treeval.c a tv_value has an int tag (`typedef int tv_kind`, the enumerators in `enum tv_kind`)
# and a union {number, text (an anonymous struct), list, table}; a table has `char **names` and `tv_value **values` with a `count`. The
# walk follows the member the tag selects and the counted arrays, 5 hops deep, so the tests assert the names, the
# numbers, the texts and the counts of the tree (main stopped at the union: `assert_int_equal(ret->type, 4)` only);
# no assertion on a member the tag does not select; the tests pass natively and under ASan+UBSan+LSan.
. "$SRC/tests/e2e/unit_common.sh"
unit_run tree tests/programs/unit/treeval.c -- --function tv_entry --budget 24s
t="$out/test_treeval.c"
expect_text treeval '^    assert_string_equal\(ret->u\.table->names\[0\], "[^"]*"\);' "a table's name asserted"
expect_text treeval '^    assert_true\(ret->u\.table->values\[0\]->u\.number == ' "a number in the table asserted"
expect_text treeval '^    assert_int_equal\(ret->u\.table->values\[1\]->u\.list->count, 2\);' "a nested list's count asserted"
expect_text treeval '^    assert_string_equal\(ret->u\.table->values\[1\]->u\.list->items\[1\]->u\.text\.chars, "' \
    "a text four hops deep asserted (an anonymous struct member: its fields in place)"
expect_text treeval '^    assert_int_equal\(ret->u\.table->values\[1\]->u\.list->items\[1\]->u\.text\.length, [0-9]+\);' \
    "the length beside it"
grep -Eq 'values\[0\]->u\.(text|list|table)' "$t" && fail "a union member the tag does not select asserted"
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.dropped == 0 and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "the sanitizer check did not run, dropped tests or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
build_and_run treeval
# a parser's result (lenient, as parson's json_parse_string): the same walk on what it returns
unit_run tree_parse tests/programs/unit/treeval.c -- --function tv_parse --budget 30s --no-minimize
t="$out/test_treeval.c"
expect_text treeval '^    assert_int_equal\(ret->type, [0-9]+\);' "the tag of the parsed value"
grep -Eq '^    assert_(true|string_equal|int_equal)\(ret->u\.(number|text\.chars|text\.length|list->count)' "$t" ||
    fail "no member of a parsed value asserted"
build_and_run treeval
pass
