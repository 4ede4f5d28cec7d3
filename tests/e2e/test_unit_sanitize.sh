#!/bin/bash
# test_unit_sanitize.sh: every test sympath unit keeps is checked under ASan+UBSan+LSan (clang-14). On bufkit.c:
# buf_dup's off-by-one write into the copy it allocates and unit_cost's signed overflow land in
# test_bufkit_bugs.c with the sanitizers' report, not in the suite; the tests of str_len/str_count (a string
# with a hidden length header, built by the test as a plain array) are dropped as harness defects with the
# reason; buf_dup's result is freed by the tests; the suite builds with -Wall -Wextra -Werror and passes
# natively and under the sanitizers, with no leak; buf_sum's diversified bytes kill a `+=` -> `-=` mutant. Then a coverage
# build that cannot write its data: gcov unknown.
. "$SRC/tests/e2e/unit_common.sh"
name=sanitize
mkdir -p "$WORK" && printf 'int main(void) { return 0; }\n' >"$WORK/san_probe.c"
clang-14 -fsanitize=address,undefined "$WORK/san_probe.c" -o "$WORK/san_probe" 2>/dev/null ||
    { echo "SKIP: clang-14's sanitizer runtime is missing (libclang-rt-14-dev)"; exit 77; }
# --raw-inputs: str_count's str is built as a plain char array, as before producers (with them, str_new
# builds it: tests/e2e/test_unit_producers.sh), so the classifier of a hidden header's fault is tested
unit_run sanitize tests/unit_libs/sanitize/bufkit.c -- --all --budget 40s --max-execs 470 --raw-inputs
bugs="$out/test_bufkit_bugs.c"
[ -f "$bugs" ] || fail "no test_bufkit_bugs.c"
# (a) the bugs: each with its report, none in the regression suite
grep -q 'ERROR: AddressSanitizer: heap-buffer-overflow' "$bugs" || fail "_bugs.c lacks the ASan report"
grep -q '#0 in buf_dup .*bufkit.c:37' "$bugs" || fail "_bugs.c lacks the frame in buf_dup"
# (the bytes after '#' are diversified: a string literal when one is 0, else an initialiser list)
grep -Eq "char buf_obj\[[0-9]*\] = (\"#|\{ '#')" "$bugs" || fail "_bugs.c lacks the input reaching the off-by-one"
grep -q 'The call: .*buf_dup(buf, len);' "$bugs" || fail "_bugs.c lacks the call"
grep -q 'signed integer overflow' "$bugs" || fail "_bugs.c lacks unit_cost's overflow"
# one reproducer per function and fault location (unit_cost's overflow was reached by two tests)
dup=$(grep -o 'SUMMARY: .*' "$bugs" | sort | uniq -d)
[ -z "$dup" ] || fail "two tests in _bugs.c for one fault: $dup"
jq -e '.functions[] | select(.function == "unit_cost") | .dropped | any(test("^test_unit_cost_[0-9]+: the same bug as test_unit_cost_"))' \
    "$out/report.json" >/dev/null || fail "no second test of unit_cost's overflow is named as the same bug"
for t in $(grep -o 'static void test_[a-z_0-9]*' "$bugs" | cut -d' ' -f3); do
    grep -q "$t" "$out/test_bufkit.c" && fail "$t is in _bugs.c and in the suite"
done
jq -e '.functions[] | select(.function == "buf_dup") | .sanitizer.bugs >= 1' "$out/report.json" >/dev/null ||
    fail "report.json counts no bug for buf_dup"
jq -e '.files[0].bugs_file | endswith("test_bufkit_bugs.c")' "$out/report.json" >/dev/null || fail "report.json: no bugs_file"
# (b) the hidden header: dropped as a harness defect, with the reason
jq -e '.functions[] | select(.function == "str_count") | .sanitizer.dropped >= 1 and
       (.dropped | any(test("sanitizer: .*(underflow|before the start) on input s \\(built by the test, not by the unit\\)")))' \
    "$out/report.json" >/dev/null || fail "str_count's tests are not dropped as harness defects: $(jq -c '.functions[] | select(.function == "str_count") | .dropped' "$out/report.json")"
grep -q '= str_count(' "$out/test_bufkit.c" && fail "a str_count test is in the suite"
grep -q 'sanitizers: [0-9]* dropped, [0-9]* in _bugs.c' "$out.bin/sympath.log" || fail "the summary lacks the sanitizer counts"
# (c) the suite: -Werror and natively, then under ASan+UBSan+LSan
expect_text bufkit 'free\(\(void \*\)ret\);' "release of buf_dup's result"
# kv_split's out-parameter holds the copies it allocated: released after the assertions, the test kept
expect_text bufkit 'free\(\(void \*\)out_obj\.value\);' "release of kv_split's copies"
# digits_scan is variadic: its tests pass zeroed blocks, nothing lands in _bugs.c for it; a global no call
# changes is not set by the tests, one a call changes is
expect_text bufkit 'digits_scan\(s, fmt, varargs\[0\], varargs\[1\], varargs\[2\], varargs\[3\], varargs\[4\], varargs\[5\], NULL\)' "variadic call"
grep -q 'test_digits_scan' "$bugs" && fail "digits_scan has tests in _bugs.c"
expect_text bufkit 'assert_memory_equal\(varargs\[0\], \(\(const unsigned char\[1\]\)\{0x0[0-9]\}\), 1\);' "the digit stored through a variadic argument"
jq -e '.functions[] | select(.function == "digits_scan") | .coverage.branches_covered >= 8' "$out/report.json" >/dev/null ||
    fail "digits_scan: $(jq -c '.functions[] | select(.function == "digits_scan") | .coverage' "$out/report.json")"
grep -q 'kit_name =' "$out/test_bufkit.c" && fail "the tests set kit_name, which no call changes"
expect_text bufkit 'scan_calls = 0;' "reset of scan_calls"
jq -e '.functions[] | select(.function == "kv_split") | .dropped | length == 0' "$out/report.json" >/dev/null ||
    fail "kv_split's tests are dropped: $(jq -c '.functions[] | select(.function == "kv_split") | .dropped' "$out/report.json")"
build_and_run bufkit
# buf_sum's bytes are diversified (diversify.c): the sum of 'q' kills `s += buf[i]` -> `s -= buf[i]`, which the
# solver's first model (every byte 0, a sum of 0 either way) let survive
mkdir -p "$out.bin/mut_sum"
sed 's/s += buf\[i\]/s -= buf[i]/' "$SRC/tests/unit_libs/sanitize/bufkit.c" >"$out.bin/mut_sum/bufkit.c"
cmp -s "$SRC/tests/unit_libs/sanitize/bufkit.c" "$out.bin/mut_sum/bufkit.c" && fail "mutant mut_sum: sed changed nothing"
(cd "$out.bin/mut_sum" && cc -w -I"$SRC/tests/unit_libs/sanitize" "$out/test_bufkit.c" bufkit.c -lcmocka -o t_mut) \
    >"$out.bin/mut_sum/cc.log" 2>&1 || { cat "$out.bin/mut_sum/cc.log"; fail "mutant mut_sum does not build"; }
(cd "$out.bin/mut_sum" && ./t_mut 'test_buf_sum_*') >"$out.bin/mut_sum/run.log" 2>&1 && fail "buf_sum's mutant survives the emitted tests"
(cd "$out.bin" && clang-14 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -I"$SRC/tests/unit_libs/sanitize" "$out/test_bufkit.c" "$SRC/tests/unit_libs/sanitize/bufkit.c" -lcmocka -o t_san &&
    ASAN_OPTIONS=detect_leaks=1 ./t_san) >"$out.bin/san.log" 2>&1 || { cat "$out.bin/san.log"; fail "the suite fails under the sanitizers"; }
grep -q 'PASSED' "$out.bin/san.log" || fail "no PASSED line under the sanitizers"
# the _bugs.c file: compiles with -Werror and passes natively (the observed values), fails under the sanitizers
(cd "$out.bin" && cc -Wall -Wextra -Werror -I"$SRC/tests/unit_libs/sanitize" "$bugs" "$SRC/tests/unit_libs/sanitize/bufkit.c" \
    -lcmocka -o t_bugs && ./t_bugs) >"$out.bin/bugs.log" 2>&1 || { cat "$out.bin/bugs.log"; fail "_bugs.c does not build or pass natively"; }
(cd "$out.bin" && clang-14 -g -w -fsanitize=address,undefined -fno-sanitize-recover=undefined -I"$SRC/tests/unit_libs/sanitize" \
    "$bugs" "$SRC/tests/unit_libs/sanitize/bufkit.c" -lcmocka -o t_bugs_san && ./t_bugs_san) >"$out.bin/bugs_san.log" 2>&1 &&
    fail "_bugs.c passes under the sanitizers"
# a coverage build that writes no data (an exit handler ends the process first): unknown, said, not 0/N
unit_run sanitize_gcov tests/unit_libs/sanitize/quit.c -- --all --budget 10s
grep -q 'warning: gcov figures of quit.c unknown: .*wrote no coverage data' "$out.bin/sympath.log" || fail "no warning about the missing coverage data"
grep -q 'arm .*gcov unknown' "$out.bin/sympath.log" || fail "the summary does not say unknown"
jq -e '.functions[0].gcov.unknown | test("no coverage data")' "$out/report.json" >/dev/null || fail "report.json: gcov not unknown: $(jq -c '.functions[0].gcov' "$out/report.json")"
pass
