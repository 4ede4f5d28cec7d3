#!/bin/bash
# test_unit_evaluator.sh: an expression evaluator as shipped (calc.c, the pattern of zserge/expr): calc_eval
# takes what calc_create(s, len, vars) makes, calc_create returns NULL for a malformed text and its digit
# loop reads the byte after the text, the destructor takes two arguments, calc_destroy(c, vars), and
# calc_eval never checks for NULL. Main of 2026-11-27 kept 1 test of 20 (18 dropped by the sanitizer check: a
# NULL from a failed calc_create dereferenced, reads past `char c_s[1] = { '7' }`, leaks of what calc_create
# built, the one-argument calc_destroy_operands taken as the destructor). Now: a failed construction ends
# the run (no test), the text is a string literal with its NUL and its length (at least), the variable list starts
# zeroed, and calc_destroy(c, &c_vars) releases the expression and its variables: every test is kept,
# passes, and passes under ASan+UBSan+LSan.
. "$SRC/tests/e2e/unit_common.sh"
unit_run evaluator tests/programs/unit/calc.c -- --function calc_eval --budget 15s --buf-len 6
t="$out/test_calc.c"
n=$(jq -r '.functions[] | select(.function == "calc_eval") | .tests_emitted' "$out/report.json")
[ "${n:-0}" -ge 5 ] || fail "calc_eval: ${n:-?} tests emitted (want 5 or more)"
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.dropped == 0 and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "the sanitizer check did not run, dropped tests or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
# the construction as a developer writes it: the text with its NUL and its length (or more text past the length,
# which the digit loop reads: `calc_create("22", 1, ...)`), the list zeroed
expect_text calc 'struct calc_vars c_vars = \{ \.head = NULL \};' "variable list starting zeroed"
awk '/char c_s\[[0-9]+\] = "/ { split($0, a, /[][]/); size = a[2] }
    /calc_create\(c_s, [0-9]+,/ { split($0, b, /c_s, /); split(b[2], c, ","); if (c[1] + 1 > size) bad++; if (c[1] + 1 == size) exact++; n++ }
    END { exit !(n > 0 && bad == 0 && exact > 0) }' "$t" || fail "a text is not declared with its NUL and its length (char c_s[len + 1] = \"...\")"
# released by the two-argument destructor, with the list calc_create filled
expect_text calc 'calc_destroy\(\(struct calc \*\)c, &c_vars\);' "calc_destroy(c, &c_vars)"
grep -Eq '^    calc_destroy_operands\(' "$t" && fail "the partial destructor calc_destroy_operands releases the input"
# no NULL handed to calc_eval, which never checks: no test expects a crash
grep -Eq '_crashes|struct calc \*c = NULL' "$t" && fail "a test passes NULL to calc_eval or expects it to crash"
jq -e '[.functions[] | .dropped[]? | select(test("input assumption failed"))] | length > 0' "$out/report.json" >/dev/null ||
    fail "no failed construction was reported as dropped (inputs ending before the call)"
build_and_run calc
expect_gcov calc_eval 80
pass
