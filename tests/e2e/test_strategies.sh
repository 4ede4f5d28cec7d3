#!/bin/bash
# test_strategies.sh: every search strategy, and two parallel executors (cov, generational), reach full coverage and the error of magic.c.
set -u
fail() { echo "FAIL [strategies]: $*"; exit 1; }
mkdir -p "$WORK"
for s in cov dfs bfs random generational; do
    for j in 1 2; do
        # two executors with the default strategy and generational search (the others' -j 2 runs added time, not checks)
        [ $j = 2 ] && [ $s != cov ] && [ $s != generational ] && continue
        out="$WORK/strategy-$s-$j"
        rm -rf "$out"
        "$SYMPATH" run "$SRC/tests/programs/magic.c" -o "$out" --strategy $s -j $j --budget 30s --no-progress \
            >"$out.log" 2>&1 || fail "$s -j $j: exit code $?"
        jq -e '.coverage.percent == 100' "$out/report.json" >/dev/null || fail "$s -j $j: coverage $(jq .coverage.percent "$out/report.json")"
        jq -e '[.errors[] | select(.kind == "reach_error")] | length == 1' "$out/report.json" >/dev/null ||
            fail "$s -j $j: reach_error not found"
        jq -e ".strategy == \"$s\" and .executions.parallel_executors == $j" "$out/report.json" >/dev/null ||
            fail "$s -j $j: report does not record the strategy / executors"
        echo "ok [strategies]: $s -j $j: $(jq -c '[.executions.total, .complete]' "$out/report.json")"
    done
done
# a budget-limited run with many paths still ends on time
out="$WORK/strategy-budget"
rm -rf "$out"
start=$(date +%s)
"$SYMPATH" run "$SRC/tests/programs/many_paths.c" -o "$out" --strategy random --budget 2s --no-progress >/dev/null 2>&1 ||
    fail "many_paths: exit code $?"
end=$(date +%s)
[ $((end - start)) -le 15 ] || fail "a 2 s budget took $((end - start)) s"
jq -e '.stop_reason == "budget" and .complete == false' "$out/report.json" >/dev/null || fail "budget stop not reported"
echo "PASS [strategies]"
