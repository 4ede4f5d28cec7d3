#!/bin/bash
# test_faults_solver.sh: every solver query times out (--solver-timeout 1ms on hard queries), and the solver "dies" (test hook SYMPATH_FAULT=solver_fail): the run ends on its own with a clear summary and a complete report; sympath's own memory passes --max-memory: the exploration stops, its tests kept (run and unit).
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

# 3. sympath's own memory (execution tree, solver) over --max-memory (1 MiB: at once, after the first run):
# the exploration stops as on its budget, said so, with its tests complete and replayable
out="$WORK/faults_solver3"
rm -rf "$out"
"$SYMPATH" run "$SRC/tests/faults/hard_queries.c" -o "$out" --budget 30s --max-memory 1 --no-progress >"$out.log" 2>&1
rc=$?
cat "$out.log"
[ $rc -eq 0 ] || fail "exit code $rc with --max-memory 1, expected 0"
check_suite "$out" "$out.log"
jq -e '.stop_reason == "memory" and .tests >= 1 and .max_memory_mib == 1 and .memory_peak_mib >= 1' "$out/report.json" \
    >/dev/null || fail "not stopped on its memory: $(jq -c '{stop_reason, tests, max_memory_mib, memory_peak_mib}' "$out/report.json")"
grep -q 'passes --max-memory 1: exploration stopped' "$out.log" || fail "the stop on memory is not said"
"$SYMPATH" replay "$out" >"$out.replay" 2>&1 && grep -q "all ended as expected" "$out.replay" ||
    { cat "$out.replay"; fail "the tests kept at the memory stop do not replay"; }
# the default bound is there (half the RAM, at most 4096 MiB)
out="$WORK/faults_solver4"
rm -rf "$out"
"$SYMPATH" run "$SRC/tests/faults/hard_queries.c" -o "$out" --max-execs 3 --no-progress >"$out.log" 2>&1 ||
    fail "run with the default --max-memory failed"
jq -e '.max_memory_mib >= 256 and .max_memory_mib <= 4096 and .stop_reason != "memory"' "$out/report.json" >/dev/null ||
    fail "default bound: $(jq -c '{stop_reason, max_memory_mib}' "$out/report.json")"
# sympath unit: each function's exploration, the suite still emitted and its tests passing
out="$WORK/faults_solver5"
rm -rf "$out"
"$SYMPATH" unit "$SRC/tests/programs/unit/frames.c" --function frame_check --max-memory 1 --budget 10s --no-mutants \
    -o "$out" --no-progress >"$out.log" 2>&1 || { cat "$out.log"; fail "sympath unit --max-memory 1 failed"; }
jq -e '.stop_reason == "memory"' "$out/build/runs/frame_check/report.json" >/dev/null ||
    fail "unit: not stopped on its memory: $(jq -c .stop_reason "$out/build/runs/frame_check/report.json")"
grep -q '^static void test_frame_check_' "$out/test_frames.c" || fail "unit: no test of frame_check emitted"
ok "--max-memory: stopped after $(jq .executions.total "$WORK/faults_solver3/report.json") runs, tests kept and replayed; unit too"
echo "PASS [$name]"
