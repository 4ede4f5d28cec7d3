#!/bin/bash
# test_unit_wrapper.sh: a wrapper's coverage is its callees' (issue 13: "a wrapper reports its callees"). On arena.c
# list_parse only calls list_parse_ex(NULL, text, strlen(text)) and list_free calls list_free_ex: no branch of their
# own, so 0/0 said nothing. The summary prints "0/0 own; with its callees: branches C/T, gcov G/T" and report.json
# gives coverage.with_callees and gcov.with_callees (own + the unit's functions the tests reached), which must show
# the callees' work; the tests pass natively with warnings as errors.
. "$SRC/tests/e2e/unit_common.sh"
unit_run wrapper tests/programs/unit/arena.c -- --function list_parse --function list_free --budget 40s --max-execs 1200
grep -Eq '^  list_parse +0/0 own; with its callees: branches [0-9]+/[0-9]+ \([0-9]+%\), gcov [0-9]+/[0-9]+' \
    "$out.bin/sympath.log" || fail "no 'list_parse 0/0 own; with its callees' line in the summary"
r="$out/report.json"
for f in list_parse list_free; do
    jq -e --arg f "$f" '.functions[] | select(.function == $f) | .coverage.branches_total == 0 and .gcov.branches_total == 0' \
        "$r" >/dev/null || fail "$f: branches of its own in report.json"
done
# list_parse reaches list_parse_ex (36 directions), list_free_ex, get and put: at least 60% of them
jq -e '.functions[] | select(.function == "list_parse") | .coverage.with_callees as $c | .gcov.with_callees as $g
    | $c.functions >= 2 and $c.branches_total >= 36 and $c.branches_covered * 10 >= $c.branches_total * 6
    and $g.branches_total >= 36 and $g.branches_taken * 10 >= $g.branches_total * 6' "$r" >/dev/null ||
    fail "list_parse with its callees: $(jq -c '.functions[] | select(.function == "list_parse") | [.coverage, .gcov.with_callees]' "$r")"
jq -e '.functions[] | select(.function == "list_free") | .gcov.with_callees.branches_taken > 0
    and ([.gcov.callees[].function] | index("list_free_ex"))' "$r" >/dev/null ||
    fail "list_free: list_free_ex not among its callees: $(jq -c '.functions[] | select(.function == "list_free") | .gcov' "$r")"
build_and_run arena
expect_gcov list_parse_ex 60
pass
