#!/bin/bash
# test_unit_asserts.sh: the emitted tests assert what the function computed: on toklist.c, the token list
# tok_split returns is compared field by field (enumerator names, the text as a C string literal, the
# list's next walked) and released with the unit's tok_list_free; the struct tok_stats_of fills is compared
# whole (its char array as a string); tok_print's standard output is captured around the call and its text
# asserted; every test asserts something; the suite builds with -Werror, passes natively and under
# ASan+UBSan+LSan; and three mutants of the library (a length off by one, a wrong kind, a count line printed
# for 3 tokens, not 2) each
# make an emitted test fail; tok_split's suite is minimised to fewer tests with the same coverage. The expression tree: a producer taking a buffer with its count, leaves
# allocated shorter than their struct, the destructor chosen by its name.
. "$SRC/tests/e2e/unit_common.sh"
name=asserts
lib=tests/unit_libs/asserts
# (at most 400 runs per function within a 30 s budget: each reaches its coverage in fewer and stops, saturated;
# a 2 s budget left en_eval 0.7 s, too little at a load of 3-5)
unit_run asserts $lib/toklist.c -- --function tok_split --function tok_list_free --function tok_stats_of \
    --function en_eval --function tok_print --str-len 4 --budget 30s --max-execs 400
t="$out/test_toklist.c"
expect_text toklist 'assert_int_equal\(ret->kind, TK_(WORD|NUM|PUNCT)\);' "field assertion with an enumerator name"
expect_text toklist 'assert_int_equal\(ret->len, [0-9]+\);' "field assertion on the returned token"
expect_text toklist 'assert_string_equal\(ret->text, "' "string assertion on the token's text"
expect_text toklist 'assert_non_null\(ret->text\);' "NULL check before the string assertion"
expect_text toklist 'assert_string_equal\(ret->next->text, "' "the list's second token"
expect_text toklist 'assert_null\(ret->next->next\);' "the end of the list"
expect_text toklist '^    tok_list_free\(ret\);' "release of the list with the unit's destructor"
expect_text toklist 'assert_int_equal\(st_obj\.last, TK_(WORD|NUM|PUNCT)\);' "the filled struct's enum field by name"
expect_text toklist 'assert_string_equal\(st_obj\.first, "' "the filled struct's char array as a string"
expect_text toklist 'assert_int_equal\(st_obj\.(words|nums|puncts), 0\);' "an unchanged field of the filled struct"
expect_text toklist 'char s_obj\[[0-9]+\] = "' "the input text as a string literal"
# what tok_print wrote to stdout, captured around the call and asserted as text
expect_text toklist '^    stdout_capture_begin\(\);' "stdout captured before the call"
expect_text toklist '^    char \*stdout_text = stdout_capture_end\(\);' "the captured text after the call"
expect_text toklist 'assert_string_equal\(stdout_text, "(word|num|punct) [0-9]+ [^"]*\\n[^"]*"\);' "the printed tokens asserted"
expect_text toklist 'assert_string_equal\(stdout_text, "[^"]*\\n2 tokens\\n"\);' "a printed list of two tokens"
grep -Eq "\{ *'|\{ *[0-9]+, *'" "$t" && fail "text written as a byte array: $(grep -E "\{ *'" "$t" | head -1)"
# every test asserts something, or says why not
awk '/^static void test_/ { if (name != "" && !ok) print name; name = $3; ok = 0 }
     /assert_|nothing observable to assert/ { ok = 1 }
     END { if (name != "" && !ok) print name }' "$t" >"$out.bin/no_assert.txt"
[ -s "$out.bin/no_assert.txt" ] && fail "tests without an assertion: $(tr '\n' ' ' <"$out.bin/no_assert.txt")"
build_and_run toklist
(cd "$out.bin" && clang-14 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -I"$SRC/$lib" "$t" "$SRC/$lib/toklist.c" -lcmocka -o t_san && ASAN_OPTIONS=detect_leaks=1 ./t_san) \
    >"$out.bin/san.log" 2>&1 || { cat "$out.bin/san.log"; fail "the suite fails under the sanitizers"; }
grep -q 'PASSED' "$out.bin/san.log" || fail "no PASSED line under the sanitizers"
# mutants of the library: the emitted tests kill each
mutant() {
    local tag=$1 expr=$2
    mkdir -p "$out.bin/$tag"
    sed "$expr" "$SRC/$lib/toklist.c" >"$out.bin/$tag/toklist.c"
    cmp -s "$SRC/$lib/toklist.c" "$out.bin/$tag/toklist.c" && fail "mutant $tag: sed changed nothing"
    cp "$SRC/$lib/toklist.h" "$out.bin/$tag/"
    (cd "$out.bin/$tag" && cc -w -I. "$t" toklist.c -lcmocka -o t_mut) >"$out.bin/$tag/cc.log" 2>&1 ||
        { cat "$out.bin/$tag/cc.log"; fail "mutant $tag does not build"; }
    (cd "$out.bin/$tag" && ./t_mut) >"$out.bin/$tag/run.log" 2>&1 && fail "mutant $tag survives the emitted tests"
    grep -q 'FAILED' "$out.bin/$tag/run.log" || { cat "$out.bin/$tag/run.log"; fail "mutant $tag: no failed test"; }
    echo "mutant $tag killed: $(grep -o '^\[  FAILED  \] test_[a-z_0-9]*' "$out.bin/$tag/run.log" | sort -u | wc -l) tests fail"
}
mutant len_plus_one 's/(size_t)(eq - s)/(size_t)(eq - s) + 1/'
mutant kind_swap 's/? TK_NUM :/? TK_WORD :/'
mutant print_count 's/if (n > 1) printf/if (n > 2) printf/'
jq -e '.functions[] | select(.function == "tok_print") | .mutation.killed * 2 > .mutation.mutants_built' "$out/report.json" \
    >/dev/null || fail "tok_print: most mutants survive: $(jq -c '.functions[] | select(.function == "tok_print") | .mutation' "$out/report.json")"
# the suite is minimised (minimize.c): tok_split keeps fewer tests than its exploration kept, and its
# gcov figure is still every direction the exploration covered (9/10 with all 9 tests, --no-minimize)
jq -e '.functions[] | select(.function == "tok_split") | .minimize.tests_after < .minimize.tests_before and
       .tests_emitted == .minimize.tests_after and .gcov.branches_taken == .coverage.branches_covered' \
    "$out/report.json" >/dev/null || fail "tok_split's suite is not minimised with its coverage: $(jq -c '.functions[] |
    select(.function == "tok_split") | {minimize, gcov: .gcov.branches_taken, coverage}' "$out/report.json")"

# the expression tree (tinyexpr's pattern): en_eval's tree is made by the unit's compiler, whose variables
# are a buffer with a count (a producer with a buffer/length pair); a leaf is allocated without its kids[1]
# and is never read past its end (walk or assertion: the sanitizer build above passed); the tree is released
# with en_free, not en_free_kids
expect_text toklist 'const en_node \*n = en_compile\(' "en_eval's tree built by en_compile"
expect_text toklist 'en_compile\([^;]*, n_vars, [1-9]\);' "the variables passed with their count"
expect_text toklist 'assert_int_equal\(n->kids\[0\]->op, ' "the negation's operand asserted"
expect_text toklist '^    en_free\(\(en_node \*\)n\);' "the produced tree released with en_free"
grep -q 'en_free_kids(' "$t" && fail "released with en_free_kids: $(grep -m1 'en_free_kids(' "$t")"
jq -e '[.functions[].dropped[]? | select(test("sanitizer"))] | length == 0' "$out/report.json" >/dev/null ||
    fail "tests dropped by the sanitizer check: $(jq -c '[.functions[].dropped[]?]' "$out/report.json")"
pass
