#!/bin/bash
# test_unit_producers_raw.sh: --raw-inputs turns the unit's producers off (issue 13 item 2): on plib.c the
# parser is built field by field again and the string as a plain char array, with no hidden header, so
# strrange's tests read before the array and the sanitizer check drops them as harness defects: strrange's
# gcov coverage falls from 22/22 (test_unit_producers.sh, at least 20 asserted there) to at most 5 of 22.
. "$SRC/tests/e2e/unit_common.sh"
name=producers_raw
unit_run producers_raw tests/unit_libs/producers/plib.c -- --function strrange --function parse --budget 1s --raw-inputs
t="$out/test_plib.c"
grep -q 'strnew(\|parser_init(' "$t" && fail "--raw-inputs still calls the producers"
expect_text plib '\.toknext = ' "parser built field by field"
raw=$(jq -r '.functions[] | select(.function == "strrange") | .gcov.branches_taken // 0' "$out/report.json")
[ "${raw:-0}" -le 5 ] || fail "--raw-inputs: strrange gcov taken $raw of 22, expected at most 5 (no valid string)"
jq -e '.functions[] | select(.function == "strrange") | .sanitizer.dropped >= 1' "$out/report.json" >/dev/null ||
    fail "--raw-inputs: no strrange test dropped by the sanitizer check"
echo "strrange gcov taken with --raw-inputs: $raw of 22"
pass
