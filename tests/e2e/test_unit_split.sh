#!/bin/bash
# test_unit_split.sh: a function returning an array is asserted element by element: on split.c,
# split's `char **` result with its `int *count` out-parameter (the count asserted, each string compared,
# released with the unit's split_free(ret, *count)) and lines' NULL-terminated one (each string, the NULL
# terminator, released with lines_free), word_lengths' `size_t *` with its `size_t *n` (each size); nothing dropped by the sanitizer check (no leak); the suite builds
# with -Werror, passes natively and under ASan+UBSan+LSan, and mutants of the splitting each make it fail.
. "$SRC/tests/e2e/unit_common.sh"
name=split
lib=tests/programs/unit
unit_run split $lib/split.c -- --function split --function lines --function word_lengths --str-len 4 --budget 30s --max-execs 80
t="$out/test_split.c"
expect_text split 'assert_int_equal\(count_obj, [1-9]\);' "assertion on the count the call wrote"
expect_text split 'assert_string_equal\(ret\[0\], "' "the first string of the returned array"
expect_text split 'assert_non_null\(ret\[0\]\);' "NULL check before the string assertion"
expect_text split '^    split_free\(ret, \*count\);' "release with the unit's (array, count) destructor"
expect_text split 'assert_null\(ret\[[1-9]\]\);' "the NULL terminator of lines' array"
expect_text split '^    lines_free\(ret\);' "release of lines' array with lines_free"
expect_text split 'assert_int_equal\(ret\[0\], [1-9]\);' "an element of word_lengths' array of sizes"
expect_text split 'assert_int_equal\(n_obj, [1-9]\);' "word_lengths' count"
awk '/^static void test_(split|lines)_/ { on = 1 } /^static void test_word_lengths_/ { on = 0 }
     on && /free\(\(void \*\)ret\)/ { print; exit 1 }' "$t" >/dev/null || fail "a string array released with free alone"
jq -e '[.functions[].dropped[]? | select(test("sanitizer"))] | length == 0' "$out/report.json" >/dev/null ||
    fail "tests dropped by the sanitizer check: $(jq -c '[.functions[].dropped[]?]' "$out/report.json")"
build_and_run split
(cd "$out.bin" && clang-14 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -I"$SRC/$lib" "$t" "$SRC/$lib/split.c" -lcmocka -o t_san && ASAN_OPTIONS=detect_leaks=1 ./t_san) \
    >"$out.bin/san.log" 2>&1 || { cat "$out.bin/san.log"; fail "the suite fails under the sanitizers"; }
grep -q 'PASSED' "$out.bin/san.log" || fail "no PASSED line under the sanitizers"
# mutants of the splitting: the emitted tests kill each
mutant() {
    local tag=$1 expr=$2
    mkdir -p "$out.bin/$tag"
    sed "$expr" "$SRC/$lib/split.c" >"$out.bin/$tag/split.c"
    cmp -s "$SRC/$lib/split.c" "$out.bin/$tag/split.c" && fail "mutant $tag: sed changed nothing"
    (cd "$out.bin/$tag" && cc -w "$t" split.c -lcmocka -o t_mut) >"$out.bin/$tag/cc.log" 2>&1 ||
        { cat "$out.bin/$tag/cc.log"; fail "mutant $tag does not build"; }
    (cd "$out.bin/$tag" && ./t_mut) >"$out.bin/$tag/run.log" 2>&1 && fail "mutant $tag survives the emitted tests"
    grep -q 'FAILED' "$out.bin/$tag/run.log" || { cat "$out.bin/$tag/run.log"; fail "mutant $tag: no failed test"; }
    echo "mutant $tag killed: $(grep -o '^\[  FAILED  \] test_[a-z_0-9]*' "$out.bin/$tag/run.log" | sort -u | wc -l) tests fail"
}
mutant separator "s/c == ' '/c == '_'/"
mutant short_word 's/copy(b, (size_t)(s - b)))/copy(b, (size_t)(s - b) - 1))/'
mutant no_terminator 's/v\[n\] = NULL;/v[n] = v[0];/'
pass
