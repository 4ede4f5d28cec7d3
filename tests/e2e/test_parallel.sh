#!/bin/bash
# test_parallel.sh: -j N (issue 15) explores exactly the paths -j 1 explores on an exhaustible tree, never one twice,
# finds the same error, writes one suite that replays to the same coverage; Ctrl-C during -j 2 keeps the tests.
set -u
w="$WORK/parallel"
rm -rf "$w"
mkdir -p "$w"
fail() { echo "FAIL [parallel]: $*"; exit 1; }
prog="$SRC/tests/programs/parallel/tree256.c"
ref=""
for j in 1 2 4 8; do
    out="$w/j$j"
    "$SYMPATH" run "$prog" -j $j -o "$out" --budget 60s --no-progress >"$out.log" 2>&1 || { cat "$out.log"; fail "-j $j: exit $?"; }
    r="$out/report.json"
    jq -e '.stop_reason == "exhausted" and .complete' "$r" >/dev/null || { cat "$out.log"; fail "-j $j did not exhaust the tree"; }
    got=$(jq -c '[.paths.distinct, .paths.fingerprint, .coverage.branches_covered, .property_violations]' "$r")
    [ "$(jq .paths.duplicates "$r")" = 0 ] && [ "$(jq .paths.duplicates_aimed "$r")" = 0 ] ||
        fail "-j $j ran $(jq .paths.duplicates "$r") paths twice"
    [ "$(jq .paths.distinct "$r")" = 256 ] || fail "-j $j ran $(jq .paths.distinct "$r") distinct paths, not 256"
    if [ $j = 1 ]; then ref=$got; else [ "$got" = "$ref" ] || fail "-j $j: $got, -j 1: $ref"; fi
    if [ $j -gt 1 ]; then
        jq -e ".parallel.workers == $j and .parallel.lost == 0 and (.parallel.per_worker | length) == $j" "$r" >/dev/null ||
            fail "-j $j: parallel figures wrong: $(jq -c .parallel "$r")"
        [ "$(jq .parallel.jobs_moved "$r")" -ge 1 ] || fail "-j $j: no job moved between workers"
        # the work was shared: every worker ran something with 2 and 4; with 8 on 2 cores the 256 paths can be
        # done before the last workers have started (seen in a clean-clone make check at load 4): at least half
        need=$j
        [ $j -gt 4 ] && need=$((j / 2))
        [ "$(jq '[.parallel.per_worker[] | select(.execs > 0)] | length' "$r")" -ge $need ] ||
            fail "-j $j: fewer than $need workers ran something: $(jq -c .parallel.per_worker "$r")"
    fi
    n=$(ls "$out"/tests/test-*.xml | wc -l)
    [ "$(jq .tests "$r")" = "$n" ] || fail "-j $j: report says $(jq .tests "$r") tests, $n on disk"
    ls "$out"/errors/error-*.xml >/dev/null 2>&1 || fail "-j $j: no reproducer of reach_error"
done
# the suite of -j 4 replays natively to the coverage sympath reported
"$SYMPATH" replay "$w/j4" --coverage >"$w/replay.log" 2>&1 || { cat "$w/replay.log"; fail "replay of -j 4 failed"; }
line=$(grep "gcov branch coverage" "$w/replay.log")
g=$(echo "$line" | sed -E 's/.*coverage: *([0-9]+\/[0-9]+).*/\1/')
s=$(echo "$line" | sed -E 's/.*sympath reported: *([0-9]+\/[0-9]+).*/\1/')
[ -n "$g" ] && [ "$g" = "$s" ] || { cat "$w/replay.log"; fail "replay coverage $g, sympath reported $s"; }
grep -q "all ended as expected" "$w/replay.log" || { cat "$w/replay.log"; fail "a test did not end as recorded"; }

# Ctrl-C during -j 2 keeps what was found and writes the report
out="$w/int"
"$SYMPATH" run "$SRC/tests/programs/many_paths.c" -j 2 -o "$out" --budget 120s --no-progress >"$out.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    ls "$out"/tests/test-*.xml >/dev/null 2>&1 && break
    sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ] || { cat "$out.log"; fail "exit code $rc after Ctrl-C"; }
jq -e '.stop_reason == "interrupted"' "$out/report.json" >/dev/null || fail "no report or stop_reason not interrupted"
n=$(ls "$out"/tests/test-*.xml | wc -l)
[ "$n" -ge 1 ] && [ "$(jq .tests "$out/report.json")" = "$n" ] || fail "tests kept: $n, report: $(jq .tests "$out/report.json")"
sleep 0.5
pgrep -f "$out/build/executor" >/dev/null && fail "executors left running after Ctrl-C"
echo "PASS [parallel]: -j 1/2/4/8 ran the same 256 paths ($ref), none twice; replay agrees; Ctrl-C kept $n tests"
