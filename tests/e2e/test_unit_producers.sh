#!/bin/bash
# test_unit_producers.sh: inputs built by the unit's own producers (issue 13 item 2). On plib.c (a string
# type with a hidden header, strnew/strfree; a parser with parser_init): the emitted tests build the string
# with strnew and the parser with parser_init, release the strings with strfree (strcat_'s result, not its
# consumed input), reach every branch of strrange (field by field, with --raw-inputs: none), no
# test is dropped by the sanitizer check (ASan+UBSan+LSan, no leak), and the suite passes natively; a pattern
# reader taking `pat_item *` gets its input from `pat_t pat_compile(...)` (a typedef of a pointer to the same
# struct), not field by field (types no compile gives, read past a table).
# (--raw-inputs is checked on the generated harness by tests/unit/test_unit_producers.c.)
. "$SRC/tests/e2e/unit_common.sh"
name=producers
lib="$SRC/tests/unit_libs/producers"
unit_run producers tests/unit_libs/producers/plib.c -- --function strrange --function parse --function strcat_ --function pat_weight --budget 30s --max-execs 100
t="$out/test_plib.c"
# (a) the construction calls, as a developer writes them
expect_text plib 'str s = strnew\(' "a string built by strnew"
expect_text plib '^    parser_init\(&p_obj\);' "a parser initialised by parser_init"
grep -q '\.toknext = ' "$t" && fail "a parser is still built field by field"
grep -q 'char s_obj\[' "$t" && fail "a str is still built as a plain char array"
expect_text plib 'pat_item \*items = pat_compile\(' "a pattern built by pat_compile"
grep -q 'items_obj' "$t" && fail "a pattern is still built field by field"
# (b) releases: strrange's input, strcat_'s result (the input was consumed: never released)
awk '/^static void test_strrange_/,/^}/' "$t" | grep -q '^    strfree(s);' || fail "strrange's tests do not release s"
awk '/^static void test_strcat__/,/^}/' "$t" | grep -q '^    strfree(ret);' || fail "strcat_'s tests do not release the result"
awk '/^static void test_strcat__/,/^}/' "$t" | grep -q 'strfree(s);' && fail "strcat_'s tests release the consumed input"
# (c) coverage, sanitizer drops and crashes
taken=$(jq -r '.functions[] | select(.function == "strrange") | .gcov.branches_taken' "$out/report.json")
[ "${taken:-0}" -ge 20 ] || fail "strrange: gcov taken ${taken:-?} < 20 of 22"
expect_no_san_drops
grep -q '^static void test_parse_[0-9]*_crashes' "$t" && fail "a parse test expects a crash (invalid parser state)"
# sympath's own sanitizer check ran every test alone under ASan+UBSan+LSan (no report: none dropped, no bug)
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "the sanitizer check did not run, or found bugs (clang-14's runtime, libclang-rt-14-dev, missing?)"
build_and_run plib
expect_gcov strrange 90
expect_gcov pat_weight 87   # 7 of 8: `i < 9` never ends the loop (a compiled table holds at most 8 items and its end)
echo "strrange gcov taken: $taken of 22 (field by field, with --raw-inputs: 0 of 22 on 2026-11-26)"
pass
