#!/bin/bash
# test_unit_errors.sh: sympath unit on bad input: an unknown function name (usage error listing the
# functions that exist), a source that needs an include path not given (clang's diagnostic, exit 1,
# nothing written), then the same source with -I (tests written); a unit whose macro breaks the harness of
# one function: that function is reported, the other one still tested; a test slow natively is dropped.
. "$SRC/tests/e2e/unit_common.sh"
name=unit_errors
out="$WORK/unit_errors"
rm -rf "$out"
mkdir -p "$WORK"
"$SYMPATH" unit "$SRC/tests/programs/unit/ptrs.c" --function nope -o "$out" >"$WORK/unit_errors.log" 2>&1
rc=$?
cat "$WORK/unit_errors.log"
[ $rc -eq 2 ] || fail "unknown function: exit $rc, expected 2"
grep -q "no function 'nope'" "$WORK/unit_errors.log" || fail "no message naming the unknown function"
grep -q "copy_value list_count" "$WORK/unit_errors.log" || fail "the functions that exist are not listed"
[ -e "$out" ] && fail "output written for a usage error"
"$SYMPATH" unit "$SRC/tests/programs/unit/needs_inc.c" --all -o "$out" >"$WORK/unit_errors.log" 2>&1
rc=$?
cat "$WORK/unit_errors.log"
[ $rc -eq 1 ] || fail "missing include: exit $rc, expected 1"
grep -q "unit_inc_header.h' file not found" "$WORK/unit_errors.log" || fail "clang's diagnostic is not shown"
[ -e "$out" ] && fail "output written although the unit could not be parsed"
"$SYMPATH" unit "$SRC/tests/programs/unit/needs_inc.c" --all -I "$SRC/tests/programs/unit/inc" -o "$out" --budget 5s \
    --no-progress >"$WORK/unit_errors.log" 2>&1 || { cat "$WORK/unit_errors.log"; fail "with -I: sympath unit failed"; }
[ -f "$out/test_needs_inc.c" ] || fail "with -I: no test file"
grep -q 'small_t x = 101;\|small_t x = [1-9][0-9][0-9]' "$out/test_needs_inc.c" || fail "no test above LIMIT"
grep -q -- "-I.*tests/programs/unit/inc" "$out/BUILD.txt" || fail "the build line lacks the include path"
"$SYMPATH" unit "$SRC/tests/programs/unit/macro_clash.c" --all -o "$out" --budget 5s --no-progress \
    >"$WORK/unit_errors.log" 2>&1 || { cat "$WORK/unit_errors.log"; fail "macro clash: sympath unit failed"; }
grep -q "item_value: cannot build its harness" "$WORK/unit_errors.log" || fail "the function without a harness is not reported"
grep -q "static void test_twice_1" "$out/test_macro_clash.c" || fail "twice was not tested"
jq -e '.not_tested[0].function == "item_value"' "$out/report.json" >/dev/null || fail "report.json lacks the untested function"
# a test that is slow natively (over 2 s; 0.2 s with the slow_test hook: nap's 0.4 s sleep) is dropped, said why;
# the quick one is kept
SYMPATH_FAULT=slow_test "$SYMPATH" unit "$SRC/tests/programs/unit/nap.c" --all -o "$out" --budget 10s --no-mutants \
    --no-progress >"$WORK/unit_errors.log" 2>&1 || { cat "$WORK/unit_errors.log"; fail "nap: sympath unit failed"; }
jq -e '[.functions[0].dropped[] | select(test("slow: 0\\.[4-9] s natively"))] | length >= 1' "$out/report.json" >/dev/null ||
    fail "the slow test was not dropped: $(jq -c '.functions[0].dropped' "$out/report.json")"
grep -q 'assert_int_equal(ret, 0);' "$out/test_nap.c" || fail "the quick test of nap is not kept"
grep -q 'assert_int_equal(ret, 1);' "$out/test_nap.c" && fail "the slow test of nap is kept"
pass
