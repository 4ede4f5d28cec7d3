#!/bin/bash
# test_unit_lazy_io.sh: sympath unit's lazy NULL (a pointer is NULL only where the unit checks it before a
# dereference), FILE * parameters as fmemopen streams (open_memstream for one the unit writes to), and callbacks whose calls the tests assert; the
# units together, so the test stays short (issue 13 item 3); a struct's begin/end pair and a loader taking a
# path (no producer) in cfgfile.c; a position parameter and a producer's range end that point into the text
# the lexer reads (tests/unit_libs/position/lexpos.c); a node removed from the list it was pushed into
# (tests/unit_libs/members/intlist.c).
. "$SRC/tests/e2e/unit_common.sh"
unit_run lazy_io tests/unit_libs/lazy/lazy.c tests/unit_libs/stream/inilite.c tests/unit_libs/lazy/cfgfile.c -- --all --budget 30s --max-execs 80

# no_null_test FUNCTION: no test of FUNCTION passes a NULL pointer (it dereferences without a check)
no_null_test() {
    awk -v f="$1" '/^static void test_/ { on = index($0, "test_" f "_") > 0 } on && /\*[a-z_]+ = NULL;/ { bad = 1 }
        END { exit bad }' "$out/test_lazy.c" || fail "a test of $1 passes NULL, which $1 dereferences unchecked"
}
# null_test FUNCTION: some test of FUNCTION passes NULL (it, or a callee it passes the pointer to, checks first)
null_test() {
    awk -v f="$1" '/^static void test_/ { on = index($0, "test_" f "_") > 0 } on && /\*[a-z_]+ = NULL;/ { ok = 1 }
        END { exit !ok }' "$out/test_lazy.c" || fail "no test of $1 passes NULL, though it checks before use"
}
no_null_test sum_pt
no_null_test check_after_use
no_null_test char_at
null_test pt_or_default
null_test via_callee
expect_sympath_cov pt_or_default
expect_sympath_cov char_at
# FILE *: the bytes the run read, as a stream the test opens and closes
expect_text inilite 'FILE \*f_obj = fmemopen\(f_obj_text, [0-9]+, "r"\);' "fmemopen stream"
expect_text inilite 'fclose\(f_obj\);' "fclose of the stream"
# a FILE * the function writes to (fprintf(out, ...)): an open_memstream whose text is asserted, then closed
expect_text inilite 'FILE \*out_obj = open_memstream\(&out_obj_text, &out_obj_len\);' "an output stream"
expect_text inilite 'assert_string_equal\(out_obj_text, ";' "the text a write_pair test wrote without a value"
expect_text inilite 'assert_string_equal\(out_obj_text, "[^;"][^"]*=' "the text a write_pair test wrote with a value"
expect_text inilite 'free\(out_obj_text\);' "the output stream's text freed"
# callbacks: each call's arguments expected, the reader's lines queued
expect_text lazy 'check_expected\(a2\);' "check of the handler's int argument"
expect_text lazy 'expect_string\(stub_handler, a1, "even"\);' "expected key of a handler call"
expect_text lazy 'will_return\(stub_reader, "[^"]*"\);' "a line the reader gives"
expect_text lazy 'will_return\(stub_reader, NULL\);' "the end of the reader's input"
# the end of a range points into its begin's object
expect_text lazy 'char \*end = &s_obj\[[1-9][0-9]*\];' "a range end inside the string"
# a struct's data/end pair is one range; cfg_load, which opens a file by its path, builds no input
expect_text cfgfile '\.end = &c_data\[[0-9]+\]' "a struct's end inside its data"
grep -q 'cfg_load(' <(grep -v '^cfg_t \*cfg_load' "$out/test_cfgfile.c" | grep -v 'ret = cfg_load') &&
    fail "a cfg_find test builds its input with cfg_load"
expect_sympath_cov cfg_find
# strbox_wrap keeps its string, strbox_free frees it: the test allocates it (a producer's argument, and the target's)
expect_text cfgfile 'char \*b_s = calloc\(sizeof\(char \[[0-9]+\]\), 1\);' "the string strbox_wrap takes over, allocated"
expect_sympath_cov strbox_count
# a printer's unterminated buffer and its int length: asserted as those bytes
expect_text lazy 'expect_memory\(stub_print, a0, "-?[0-9]+", sizeof "-?[0-9]+" - 1\);' "the printed digits as bytes"
# sympath verified every file (compiled with -Werror, run, checked under ASan+UBSan+LSan): nothing dropped. cfg_load's
# result owns a block the call allocated (ret->data): freeing ret alone leaked it (LeakSanitizer found it once it did
# not take a dead stack slot for a reference), so the test frees what the result's fields own, then the result
jq -e '[.functions[] | (.dropped | length) + .tests_expecting_failure + .sanitizer.dropped] | add == 0' \
    "$out/report.json" >/dev/null ||
    fail "report.json: tests dropped or crashing: $(jq -c '[.functions[] | {function, dropped, tests_expecting_failure}]' "$out/report.json")"
expect_text cfgfile 'free\(\(void \*\)ret->data\);' "the loaded text the result owns, freed before the result"
# report_gcov FUNCTION MIN: sympath's own gcov figure for FUNCTION is at least MIN percent
report_gcov() {
    jq -e --arg f "$1" --argjson m "$2" '.functions[] | select(.function == $f) | .gcov |
        .branches_total > 0 and 100 * .branches_taken >= $m * .branches_total' "$out/report.json" >/dev/null ||
        fail "report.json: gcov of $1 below $2%: $(jq -c --arg f "$1" '.functions[] | select(.function == $f) | .gcov' "$out/report.json")"
}
report_gcov count_comments 80
report_gcov report_pairs 60
# the loader's suite run whole under ASan+LSan leaks nothing (the sanitizer check runs each test alone; with LSan's
# defaults a dead stack slot kept cfg_load's ret->data "reachable" there, and the whole suite leaked it)
(cd "$out.bin" && clang-14 -g -fsanitize=address,undefined -I"$SRC/tests/unit_libs/lazy" "$out/test_cfgfile.c" \
    "$SRC/tests/unit_libs/lazy/cfgfile.c" -lcmocka -o san_cfgfile && ASAN_OPTIONS=detect_leaks=1 ./san_cfgfile) \
    >"$out.bin/san_cfgfile.log" 2>&1 || { tail -20 "$out.bin/san_cfgfile.log"; fail "test_cfgfile.c fails or leaks run whole under ASan+LSan"; }
# the stream test built again here, independently (fmemopen and tmpfile need nothing but libc)
build_and_run inilite
expect_gcov count_keys 80
# fgets passed as a function pointer reads the symbolic stream too (instrument/model_addr.c)
expect_gcov first_line_opens 75 # 25 when fgets through the pointer reads the real, empty, file
# lex_location(lx, where, ...): where points into the text lex_init(lx, text, text_end) was given, and text_end
# too (a producer's range end): both separate objects before, `where < lx->text` compared unrelated pointers
# (gcov 5/8, mutation 8/20)
unit_run position tests/unit_libs/position/lexpos.c -- --function lex_location --budget 10s
expect_text lexpos '^    const char \*where = &lx_text\[[1-9][0-9]*\];' "a position inside the lexer's text"
expect_text lexpos '^    lex_init\(&lx_obj, lx_text, &lx_text\[[1-9][0-9]*\]\);' "the producer's range end inside the text"
expect_no_drops
build_and_run lexpos
expect_gcov lex_location 100
# intlist_remove(l, n) (--no-minimize: every way of building n shows): n is pushed into the call's own l (`node *n =
# intlist_push(l, 61);`), so the removal finds it; the node the call freed is neither asserted on nor released again (main: n pushed into a list of its
# own, never found; its one test dropped as a leak, no test at all)
unit_run members tests/unit_libs/members/intlist.c -- --function intlist_remove --budget 10s --no-minimize
expect_text intlist '^    node \*n = intlist_push\(l, -?[0-9]+\);' "the node pushed into the call's own list"
awk '/int ret = intlist_remove\(l, n\);/ { on = 1 } on && /assert_int_equal\(ret, 1\);/ { ok = 1 } /^}/ { on = 0 }
    END { exit !ok }' "$out/test_intlist.c" || fail "no test removes a node of the list"
awk '/^static void test_/ { body = "" } { body = body "\n" $0 } /^}/ && body ~ /assert_int_equal\(ret, 1\);/ &&
    body ~ /([^_a-z]n->|free\(\(void \*\)n\))/ { bad = 1 } END { exit bad }' "$out/test_intlist.c" ||
    fail "a test that removed its node reads or frees it after the call"
# the push of a value is a construction step (`intlist_push(l, 55);`: a list whose node is another), called before
# a construction that takes the list (`node *n = intlist_at(l, 0);`, as the harness ran them: after it, intlist_at
# gave NULL natively), and a node made for a list of its own is released with that list: nothing dropped but runs
# whose producer gave NULL (intlist_at past the end)
awk '/^    intlist_push\(l, -?[0-9]+\);$/ { push = NR } /^    node \*n = intlist_at\(l, [0-9]+\);$/ && push == NR - 1 { ok = 1 }
    END { exit !ok }' "$out/test_intlist.c" || fail "no test pushes into the list before taking its node with intlist_at"
jq -e '[.functions[] | .sanitizer.dropped, ([.dropped[] | select(test("end before the call") | not)] | length)] | add == 0' \
    "$out/report.json" >/dev/null || fail "tests dropped: $(jq -c '[.functions[] | {dropped, sanitizer}]' "$out/report.json")"
build_and_run intlist
expect_gcov intlist_remove 100
pass
