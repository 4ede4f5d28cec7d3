#!/bin/bash
# test_interrupt.sh: Ctrl-C (SIGINT) during an exploration keeps every test found so far and still writes report.json.
set -u
out="$WORK/interrupt"
rm -rf "$out"
mkdir -p "$WORK"
fail() { echo "FAIL [interrupt]: $*"; exit 1; }
"$SYMPATH" run "$SRC/tests/programs/many_paths.c" -o "$out" --budget 120s --no-progress >"$WORK/interrupt.log" 2>&1 &
pid=$!
# wait until the exploration has written some tests, then interrupt it
for _ in $(seq 1 100); do
    ls "$out"/tests/test-*.xml >/dev/null 2>&1 && break
    sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
cat "$WORK/interrupt.log"
[ $rc -eq 0 ] || fail "exit code $rc after Ctrl-C"
jq -e '.stop_reason == "interrupted"' "$out/report.json" >/dev/null || fail "report.json missing or stop_reason not 'interrupted'"
n=$(ls "$out"/tests/test-*.xml | wc -l)
[ "$n" -ge 1 ] || fail "no tests kept"
[ "$(jq .tests "$out/report.json")" -eq "$n" ] || fail "report says $(jq .tests "$out/report.json") tests, $n files on disk"
for f in "$out"/tests/test-*.xml; do
    tail -n 1 "$f" | grep -q '</testcase>' || fail "$f is incomplete"
done
ls -a "$out/tests" | grep -q tmp && fail "temporary files left"
echo "PASS [interrupt]: $n tests kept, report written"
