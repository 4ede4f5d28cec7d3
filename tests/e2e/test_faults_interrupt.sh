#!/bin/bash
# test_faults_interrupt.sh: Ctrl-C (SIGINT) during the build, during the exploration (-j 2) and while report.json is written (once: it is finished; twice: the process dies and leaves no temporary file).
name=faults_interrupt
. "$(dirname "$0")/faults_common.sh"
so=$(faultfs_build)

# wait_for FILE: up to 30 s until FILE exists
wait_for() {
    for _ in $(seq 1 300); do
        [ -e "$1" ] && return 0
        sleep 0.1
    done
    fail "timed out waiting for $1"
}

# A compiler that takes 10 s before it starts (and ends at once on SIGTERM), so that the build is
# certainly in progress when the Ctrl-C comes.
clang=$(command -v clang-14 || echo clang-14)
slowcc="$WORK/faults_slowcc.sh"
cat >"$slowcc" <<EOF
#!/bin/bash
touch "\$SLOWCC_MARK"
trap 'kill \$s 2>/dev/null; exit 143' TERM INT
sleep 10 & s=\$!
wait \$s
exec "$clang" "\$@"
EOF
chmod +x "$slowcc"

# 1a. SIGINT to sympath alone during the build: it stops the compiler and exits 130 with a message
out="$WORK/faults_int_build"
rm -rf "$out" "$out.mark"
SLOWCC_MARK="$out.mark" SYMPATH_CC="$slowcc" "$SYMPATH" run "$SRC/tests/faults/many_tests.c" -o "$out" --no-progress \
    >"$out.log" 2>&1 &
pid=$!
wait_for "$out.mark"
t0=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
cat "$out.log"
[ $rc -eq 130 ] || fail "exit code $rc after Ctrl-C during the build, expected 130"
[ $ms -lt 5000 ] || fail "sympath took $ms ms to stop: the compiler was not stopped"
grep -q 'interrupted during the build' "$out.log" || fail "no message about the interrupted build"
[ ! -e "$out/tests" ] && [ ! -e "$out/report.json" ] && [ ! -e "$out/build/executor" ] ||
    fail "the interrupted build left a suite, a report or an executor"
check_suite "$out" "$out.log"
ok "Ctrl-C during the build: exit 130 after $ms ms, message, nothing half-built"

# 1b. the same from a terminal: the whole process group gets SIGINT (the compiler too)
out="$WORK/faults_int_build2"
rm -rf "$out" "$out.mark"
SLOWCC_MARK="$out.mark" SYMPATH_CC="$slowcc" setsid "$SYMPATH" run "$SRC/tests/faults/many_tests.c" -o "$out" \
    --no-progress >"$out.log" 2>&1 &
pid=$!
wait_for "$out.mark"
kill -INT -- -$pid   # setsid made sympath the leader of its own group
wait $pid
rc=$?
cat "$out.log"
[ $rc -eq 130 ] || fail "exit code $rc after a group Ctrl-C during the build, expected 130"
grep -q 'interrupted during the build' "$out.log" || fail "no message about the interrupted build"
check_suite "$out" "$out.log"
ok "group Ctrl-C during the build: exit 130, message"

# 2. SIGINT during an exploration with two executors: every test announced is on disk, whole
out="$WORK/faults_int_explore"
rm -rf "$out"
"$SYMPATH" run "$SRC/tests/faults/many_tests.c" -o "$out" -j 2 --budget 60s --no-progress >"$out.log" 2>&1 &
pid=$!
wait_for "$out/tests/test-00001.xml"
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
cat "$out.log"
[ $rc -eq 0 ] || fail "exit code $rc after Ctrl-C during the exploration, expected 0"
jq -e '.stop_reason == "interrupted"' "$out/report.json" >/dev/null || fail "stop_reason is not 'interrupted'"
check_suite "$out" "$out.log"
[ "$ntests" -ge 1 ] || fail "no test kept"
ok "Ctrl-C during the exploration (-j 2): $ntests tests kept, report complete"

# 3. SIGINT while report.json is being written (the shim makes that write take 3 s): it is finished
out="$WORK/faults_int_report"
rm -rf "$out" "$out.mark"
LD_PRELOAD="$so" FAULTFS_PATHS="$out/.report.json.tmp*" FAULTFS_DELAY_MS=3000 FAULTFS_MARK="$out.mark" \
    "$SYMPATH" run "$SRC/tests/faults/many_tests.c" -o "$out" --budget 1s --no-progress >"$out.log" 2>&1 &
pid=$!
wait_for "$out.mark"
kill -INT $pid
wait $pid
rc=$?
cat "$out.log"
[ $rc -eq 0 ] || fail "exit code $rc after Ctrl-C during the report, expected 0"
jq -e '.stop_reason == "budget"' "$out/report.json" >/dev/null || fail "report.json missing or not the finished run's"
grep -q 'Ctrl-C after the exploration had ended' "$out.log" || fail "the late Ctrl-C is not acknowledged"
check_suite "$out" "$out.log"
ok "Ctrl-C during the report: report.json complete, exit 0"

# 4. two SIGINTs while report.json is being written: the process dies, no report.json, no temporary
out="$WORK/faults_int_report2"
rm -rf "$out" "$out.mark"
LD_PRELOAD="$so" FAULTFS_PATHS="$out/.report.json.tmp*" FAULTFS_DELAY_MS=3000 FAULTFS_MARK="$out.mark" \
    "$SYMPATH" run "$SRC/tests/faults/many_tests.c" -o "$out" --budget 1s --no-progress >"$out.log" 2>&1 &
pid=$!
wait_for "$out.mark"
kill -INT $pid
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
cat "$out.log"
[ $rc -eq 130 ] || fail "exit code $rc after a second Ctrl-C, expected 130 (killed by SIGINT)"
[ ! -e "$out/report.json" ] || fail "a report.json exists although its write was cut"
check_suite "$out" "$out.log"
ok "second Ctrl-C during the report: no report.json, no temporary, $ntests whole tests"
echo "PASS [$name]"
