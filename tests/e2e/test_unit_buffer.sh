#!/bin/bash
# test_unit_buffer.sh: sympath unit on a buffer/length pair with a bound check and a magic byte sequence,
# and on an enum switch (only declared values) and a function returning string literals; the emitted tests build with -Werror, pass, and cover
# every branch under gcov, also with enumerators named like <unistd.h> macros (kind_cost's unreachable `return -1` excepted: its switch has no default).
# Reports about the unit's code: the harness's malloc of the buffer is no concretization of the unit's, a crash in
# strchr is located at the unit's call, a wrapper's figures are its callee's.
. "$SRC/tests/e2e/unit_common.sh"
unit_run buffer tests/programs/unit/buffer.c -- --all --budget 24s
expect_sympath_cov parse_header
expect_text buffer "uint8_t buf_obj\[[0-9]+\] = \{ 'S', 'Y', 'M', [0-2]" "test with the magic bytes and a valid version"
expect_text buffer 'size_t len = [0-3];' "test with a short buffer"
expect_text buffer 'enum kind k = KIND_AUDIO;' "enum input spelled by its enumerator"
grep -q 'enum kind k = [0-9-]' "$out/test_buffer.c" && fail "an enum input outside the declared values"
expect_text buffer 'assert_string_equal\(ret, "image"\);' "assertion on a returned string's text"
build_and_run buffer
expect_gcov parse_header 100
expect_gcov kind_cost 80   # 4 of 5: the switch's implicit default needs an undeclared value
expect_gcov check_access 100
expect_gcov classify_gain 100
expect_text buffer "\.gain = 0x1\.4p\+1" "a float field solved exactly (2.5f)"
runs="$out/build/runs"
jq -e '.concretizations_by_function | has("malloc") | not' "$runs/parse_header/report.json" >/dev/null ||
    fail "the harness's malloc counted: $(jq -c .concretizations_by_function "$runs/parse_header/report.json")"
jq -e '[.errors[] | select(.kind == "crash") | .location | test("buffer\\.c:[0-9]+ \\(in strchr, called from key_len\\)$")] | any' \
    "$runs/next_key/report.json" >/dev/null || fail "crash location: $(jq -c '[.errors[].location]' "$runs/next_key/report.json")"
jq -e '.functions[] | select(.function == "parse_line") | .gcov.callees
    | any(.function == "key_len" and .branches_total == 2 and .branches_taken == 2)' "$out/report.json" >/dev/null ||
    fail "parse_line's callees: $(jq -c '.functions[] | select(.function == "parse_line") | .gcov' "$out/report.json")"
jq -e '.functions[] | select(.function == "key_len") | .gcov.callees == []' "$out/report.json" >/dev/null ||
    fail "key_len's own tests reach no other function"
grep -Eq '^  parse_line +0/0 own; with its callees: branches [0-9]+/2 \([0-9]+%\), gcov 2/2,' "$out.bin/sympath.log" || fail "summary of the wrapper"
grep -q '^      callees (gcov): key_len 2/2$' "$out.bin/sympath.log" || fail "summary of the wrapper's callees"
pass
