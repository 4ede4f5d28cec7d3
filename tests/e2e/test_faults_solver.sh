#!/bin/bash
# test_faults_solver.sh: every solver query times out (--solver-timeout 1ms on hard queries), and the solver "dies" (test hook SYMPATH_FAULT=solver_fail): the run ends on its own with a clear summary and a complete report.
name=faults_solver
. "$(dirname "$0")/faults_common.sh"

# 1. 1 ms per query: factoring a 64-bit product cannot be answered in time
out="$WORK/faults_solver1"
rm -rf "$out"
"$SYMPATH" run "$SRC/tests/faults/hard_queries.c" -o "$out" --budget 30s --solver-timeout 1ms --no-progress >"$out.log" 2>&1
rc=$?
cat "$out.log"
[ $rc -eq 0 ] || fail "exit code $rc with a solver that times out, expected 0"
check_suite "$out" "$out.log"
jq -e '.solver.unknown >= 1 and .tree.directions.unknown >= 1 and .complete == false' "$out/report.json" >/dev/null ||
    fail "the time-outs are not in report.json: $(jq -c '{solver: .solver.unknown, tree: .tree.directions.unknown, complete}' "$out/report.json")"
jq -e '.stop_reason == "exhausted"' "$out/report.json" >/dev/null || fail "the exploration did not end by itself"
grep -q 'unknown to the solver' "$out.log" || fail "the summary does not say why the exploration is incomplete"
jq -e '.solver.z3_timeouts >= 1' "$out/report.json" >/dev/null || fail "no Z3 time-out counted: $(jq -c .solver "$out/report.json")"
ok "solver time-outs: ended by itself, $(jq .solver.unknown "$out/report.json") unknown answers reported, $ntests tests"

# 2. the solver fails on every query that reaches Z3
out="$WORK/faults_solver2"
rm -rf "$out"
SYMPATH_FAULT=solver_fail "$SYMPATH" run "$SRC/tests/faults/many_tests.c" -o "$out" --budget 30s --no-progress >"$out.log" 2>&1
rc=$?
cat "$out.log"
[ $rc -eq 0 ] || fail "exit code $rc with a failing solver, expected 0"
check_suite "$out" "$out.log"
# only the first run (no inputs needed) can be made: 24 directions left unknown
jq -e '.tests == 1 and .tree.directions.unknown == 24 and .complete == false and .stop_reason == "exhausted"' \
    "$out/report.json" >/dev/null ||
    fail "unexpected report: $(jq -c '{tests, stop_reason, complete, unknown: .tree.directions.unknown}' "$out/report.json")"
jq -e '.solver.sat == 0 and .solver.unknown >= 24 and .solver.z3_calls == 0' "$out/report.json" >/dev/null || fail "solver statistics: $(jq -c .solver "$out/report.json")"
grep -q '24 unknown to the solver' "$out.log" || fail "the summary does not count the directions the solver could not answer"
ok "failing solver: 1 test, 24 directions unknown, said so"
echo "PASS [$name]"
