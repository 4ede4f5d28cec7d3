#!/bin/bash
# test_faults_executor.sh: the executor's fork server is SIGKILLed mid-trace (by the program under test and from outside) and a run SIGKILLs itself: the exploration goes on with a fresh server, nothing is lost.
name=faults_executor
. "$(dirname "$0")/faults_common.sh"

# 1. the program kills its own fork server on one input, and itself on another
out="$WORK/faults_exec1"
rm -rf "$out"
"$SYMPATH" run "$SRC/tests/faults/kill_server.c" -o "$out" --budget 30s --no-progress >"$out.log" 2>&1
rc=$?
cat "$out.log"
[ $rc -eq 0 ] || fail "exit code $rc after the fork server was killed, expected 0"
grep -q 'fork server was killed by signal 9' "$out.log" || fail "the death of the fork server is not reported"
check_suite "$out" "$out.log"
jq -e '.executions.executor_restarts >= 1' "$out/report.json" >/dev/null || fail "no executor restart counted"
jq -e '[.errors[] | select(.kind == "crash" and .signal == 9)] | length == 1' "$out/report.json" >/dev/null ||
    fail "the run killed by SIGKILL is not one crash error: $(jq -c .errors "$out/report.json")"
jq -e '.coverage.branches_covered == .coverage.branches_total' "$out/report.json" >/dev/null ||
    fail "the exploration did not go on after the server died: $(jq -c .coverage "$out/report.json" | head -c 200)"
ok "server killed by the program: restarted, SIGKILL reported as a crash, full coverage, $ntests tests"

# 2. the fork server is killed from outside, twice, while the exploration runs
out="$WORK/faults_exec2"
rm -rf "$out"
"$SYMPATH" run "$SRC/tests/programs/many_paths.c" -o "$out" --budget 6s --no-progress >"$out.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do   # until the exploration runs (the first test is written)
    ls "$out"/tests/test-*.xml >/dev/null 2>&1 && break
    sleep 0.1
done
killed=0
for round in 1 2; do
    sleep 1
    # the server is the direct child of sympath running OUT/build/executor (its runs are grandchildren)
    for c in $(pgrep -P $pid); do
        if tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null | grep -q "$out/build/executor"; then
            kill -KILL "$c" && killed=$((killed + 1))
        fi
    done
done
wait $pid
rc=$?
cat "$out.log"
[ $killed -ge 2 ] || fail "found the fork server only $killed times to kill it"
[ $rc -eq 0 ] || fail "exit code $rc after the fork server was killed from outside, expected 0"
check_suite "$out" "$out.log"
jq -e '.executions.executor_restarts >= 2' "$out/report.json" >/dev/null ||
    fail "$(jq .executions.executor_restarts "$out/report.json") executor restarts counted for 2 kills"
jq -e '.stop_reason == "budget"' "$out/report.json" >/dev/null || fail "the exploration did not run to its budget"
ok "server killed twice from outside: $(jq .executions.executor_restarts "$out/report.json") restarts, ran to the budget, $ntests tests"
echo "PASS [$name]"
