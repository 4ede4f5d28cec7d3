#!/bin/bash
# test_unit_static.sh: sympath unit on a static helper of a .c file (hexnum.c's digit_value), targeted directly,
# with the file's public parser, in a unit of two files: hexnum.c is #included by the test (so its static
# functions are reachable; an unused static function must not break -Werror) and report.c is linked as usual.
# Then a static helper calling getenv, with --mock getenv: the included file's calls go to the stand-in.
. "$SRC/tests/e2e/unit_common.sh"
unit_run static tests/unit_libs/statics/hexnum.c tests/unit_libs/statics/report.c -- \
    --function digit_value --function parse_hex --budget 30s --max-execs 130
expect_text hexnum '^#include "hexnum.c"$' "the .c included"
expect_text hexnum 'int ret = digit_value\(c\);' "a direct call of the static function"
grep -q 'statics/report\.c' "$out/BUILD.txt" || fail "report.c is not on the build line"
grep -q 'statics/hexnum\.c' "$out/BUILD.txt" && fail "hexnum.c is compiled again besides the test that includes it"
expect_sympath_cov digit_value
build_and_run hexnum
expect_gcov digit_value 100
expect_gcov parse_hex 80
# --all still means the functions with external linkage
"$SYMPATH" unit "$SRC/tests/unit_libs/statics/hexnum.c" --function nope -o "$WORK/unit_static_bad" >"$out.bin/bad.log" 2>&1
grep -q 'there are: parse_hex$' "$out.bin/bad.log" || { cat "$out.bin/bad.log"; fail "the listing of external functions changed"; }
# a static function calling a libc function replaced with --mock: the included file's calls reach the stand-in
unit_run static_mock tests/unit_libs/statics/envlevel.c -- --function level_of --mock getenv --budget 15s
expect_sympath_cov level_of
expect_text envlevel 'will_return\(__wrap_getenv, NULL\);' "a test where getenv finds nothing"
expect_text envlevel 'char getenv_ret\[[0-9]+\] = "full";' "getenv's result solved to \"full\""
jq -e '.functions[0].gcov.branches_taken == .functions[0].gcov.branches_total and .functions[0].gcov.branches_total > 0' \
    "$out/report.json" >/dev/null || fail "gcov figure incomplete: $(jq -c '.functions[0].gcov' "$out/report.json")"
(cd "$out.bin" && cc -Wall -Wextra -Werror -I"$SRC/tests/unit_libs/statics" "$out/test_envlevel.c" -Wl,--wrap=getenv \
    -lcmocka -o t && ./t) >"$out.bin/run.log" 2>&1 || { cat "$out.bin/run.log"; fail "the emitted tests do not build or pass"; }
pass
