#!/bin/bash
# test_unit_reqline.sh: HTTP-parser shapes in `sympath unit` (issue 13). On reqline.c (a table of an unnamed
# struct type; rl_parser set up by rl_parser_init(&p, mode); rl_callbacks, a table of callbacks that
# rl_callbacks_init only zeroes; headers filled into the caller's array, capacity in and count out by
# `size_t *num_headers`; a query split into at most max_params params): the emitted file compiles (the
# unnamed struct is not copied alone), the parser is built by its init call with an enumerator, the
# callbacks are stand-ins (one per field: on_begin and on_end, of one type, told apart) whose text-and-length arguments are asserted as bytes (expect_memory: no read
# past the data), the header array and the params have a capacity of 8 by default (0, 1, 2 as the
# explorer flips), every branch is covered, and no test is dropped or moved to _bugs.c by the sanitizer
# check (ASan+UBSan+LSan).
. "$SRC/tests/e2e/unit_common.sh"
# (a run count, not a clock: rl_parse_headers covers its last direction within 800 runs, 0.7 s alone and more
# than its 3 s share of a 9 s budget at a load of 5; a function whose branches are covered stops there, saturated)
unit_run reqline tests/programs/unit/reqline.c -- --function rl_execute --function rl_parse_headers \
    --function rl_split_query --budget 60s --max-execs 1000
t="$out/test_reqline.c"
# --max-execs: rl_execute (not saturated: one direction no producer reaches) stops after its 1000 runs, not its share
jq -e '.stop_reason == "max-execs" and .executions.total == 1000' "$out/build/runs/rl_execute/report.json" >/dev/null ||
    fail "--max-execs 1000: $(jq -c '[.stop_reason, .executions.total]' "$out/build/runs/rl_execute/report.json")"
"$SYMPATH" unit "$SRC/tests/programs/unit/reqline.c" --function rl_execute --max-execs 0 -o "$WORK/unit_bad" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--max-execs 0 is not refused with exit code 2"
# (a) construction as a developer writes it
expect_text reqline '^    rl_parser_init\(&p_obj, RL_(REQUEST|RESPONSE|BOTH)\);' "a parser made by rl_parser_init with a mode"
expect_text reqline '\.on_token = stub_on_token' "a callback table of stand-ins"
expect_text reqline '\.on_end = stub_on_end' "a stand-in of its own for a callback of a type another field has"
grep -q '^    rl_callbacks_init(' "$t" && fail "the callback table is made by its zeroing init (no callback ever runs)"
expect_text reqline '^    struct rl_header headers_obj\[8\] = \{ *0 *\};' "a header array of capacity 8"
expect_text reqline '^    size_t num_headers_obj = 8;' "the capacity 8 as the in/out count"
expect_text reqline '^    struct rl_param params_obj\[8\] = \{ *0 *\};' "a params array of capacity 8"
# (b) the callbacks' data: bytes with their length, not C strings
expect_text reqline 'expect_memory\(stub_on_token, a1, "[^"]+", sizeof "[^"]+" - 1\);' "a token asserted as bytes"
grep -q 'expect_string(stub_on_token, a1' "$t" && fail "a token with a length is read as a C string"
# (c) coverage, sanitizer
# (rl_execute's `p->state == 2` needs a parser rl_execute itself finished: no producer gives one)
for f in rl_parse_headers rl_split_query; do expect_sympath_cov "$f"; done
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.dropped == 0 and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "the sanitizer check did not run, dropped tests or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
[ -f "$out/test_reqline_bugs.c" ] && fail "tests moved to test_reqline_bugs.c"
build_and_run reqline
expect_gcov rl_parse_headers 90
expect_gcov rl_execute 90
pass
