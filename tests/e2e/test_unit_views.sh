#!/bin/bash
# test_unit_views.sh: an input reached only through an accessor of another object (issue 13 item 2, nested
# producers). On viewed.c a `table` has no constructor: val_table(const val *) gives the table of a value,
# a view into it. The table's producer's own argument is built by the value's producers (`const val *t_v_arg =
# val_new_table(); const table *t = val_table(t_v_arg);`), not field by field (a count of 73 in a 4-slot
# table, reported as a bug of the user's code), the value is released with val_free and the table is not,
# and the tests pass natively and under ASan+UBSan+LSan (sympath's sanitizer check: none dropped, no bug);
# producers that would need an argument built field by field are left out when others need none.
. "$SRC/tests/e2e/unit_common.sh"
unit_run views tests/programs/unit/viewed.c -- --function table_get_num --budget 40s --max-execs 2100
t="$out/test_viewed.c"
expect_text viewed '^    const val \*[a-z_]+ = val_new_(table|num)\([^)]*\);' "the accessor's argument made by its own producer"
expect_text viewed '^    const table \*t = val_table\([a-z_]+\);' "the table made by the accessor of that value"
expect_text viewed '^    val_free\(\(val \*\)[a-z_]+\);' "the value released"
grep -Eq '\.tab\.count = ' "$t" && fail "a value built field by field"
# a NULL table (table_get_num checks it): its construction is dropped, its value's too (a leak otherwise)
grep -Eq '^    const table \*t = NULL;' "$t" || fail "no test passes a NULL table"
grep -Eq 'val_free\(\(val \*\)t\)|free\(\(void \*\)t\)' "$t" && fail "the view into a value released as an object of its own"
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.dropped == 0 and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "the sanitizer check did not run, dropped tests or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
build_and_run viewed
expect_gcov table_get_num 80
# a producer that would need an argument built field by field (table_owner(const table *): a table has no
# producer without one) is left out while others need none: val_number's values come from val_new_*
unit_run views_val tests/programs/unit/viewed.c -- --function val_number --budget 15s
grep -q '= table_owner(' "$out/test_viewed.c" && fail "a val made by table_owner of a table built field by field"
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.dropped == 0 and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "val_number: the sanitizer check dropped tests or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
build_and_run viewed
expect_gcov val_number 80
pass
