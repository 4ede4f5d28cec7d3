#!/bin/bash
# test_faults_disk.sh: the output disk fills up (an LD_PRELOAD shim makes writes fail with ENOSPC): sympath stops with one clear message, the suite keeps only whole files, report.json is complete or absent.
name=faults_disk
. "$(dirname "$0")/faults_common.sh"
so=$(faultfs_build)
prog="$SRC/tests/faults/many_tests.c"

# run_full OUT PATTERNS BUDGET [sympath options]: sympath run with writes to PATTERNS failing after BUDGET bytes
run_full() {
    local out=$1 pats=$2 budget=$3
    shift 3
    rm -rf "$out" "$out.mark"
    LD_PRELOAD="$so" FAULTFS_PATHS="$pats" FAULTFS_ENOSPC_AFTER="$budget" FAULTFS_MARK="$out.mark" \
        "$SYMPATH" run "$prog" -o "$out" --budget 20s --no-progress "$@" >"$out.log" 2>&1
    rc=$?
    cat "$out.log"
    [ -e "$out.mark" ] || fail "the shim injected no fault (pattern $pats): the test proves nothing"
}

# 1. tests/ fills up after a few test cases; report.json still fits
out="$WORK/faults_disk1"
run_full "$out" "$out/tests/*" 3000
[ $rc -eq 1 ] || fail "exit code $rc on a full disk, expected 1"
[ "$(grep -c 'disk full' "$out.log")" -eq 1 ] || fail "'disk full' is not reported exactly once"
grep 'disk full' "$out.log" | grep -q "$out/tests/test-[0-9]*\.xml" || fail "the disk-full message does not name the file"
grep -q 'cannot write a test case' "$out.log" && fail "the old per-test message is back"
check_suite "$out" "$out.log"
[ "$ntests" -ge 1 ] || fail "no test kept before the disk filled"
jq -e '.stop_reason == "write-error"' "$out/report.json" >/dev/null || fail "report.json's stop_reason is not write-error"
# coverage counts only what the kept tests show: 1 + (tests - 1) new directions, never all 48
cov=$(jq .coverage.branches_covered "$out/report.json")
[ "$cov" -le $((24 + ntests)) ] || fail "report.json claims $cov directions covered with only $ntests tests on disk"
ok "tests/ full: stopped after $ntests whole tests, one message, report.json agrees (coverage $cov)"

# 2. everything the exploration writes fails once the budget is spent, report.json included
out="$WORK/faults_disk2"
run_full "$out" "$out/tests/*:$out/errors/*:$out/*report.json*" 3000
[ $rc -eq 1 ] || fail "exit code $rc on a full disk, expected 1"
[ ! -e "$out/report.json" ] || fail "a report.json exists although it could not be written"
grep -q 'cannot write report.json: .*No space left on device' "$out.log" || fail "the lost report.json is not reported"
grep -q 'report: none' "$out.log" || fail "the summary still points at a report.json"
check_suite "$out" "$out.log"
ok "suite and report full: $ntests whole tests, no report.json, said so"

# 3. the disk fills during the build: no abort inside LLVM, a message, nothing half-written
out="$WORK/faults_disk3"
run_full "$out" "$out/build/*" 20000
[ $rc -eq 1 ] || fail "exit code $rc when the build's disk is full, expected 1 (134: an abort)"
grep -q 'cannot build the program' "$out.log" && grep -q 'No space left on device' "$out.log" ||
    fail "the build's full disk is not reported"
[ ! -e "$out/tests" ] || fail "a suite was started after a failed build"
check_suite "$out" "$out.log"
ok "build on a full disk: clean failure"

# 4. --db: the disk fills while a test's fixture (.sql) is written: its .xml goes too
out="$WORK/faults_disk_db"
prog="$SRC/tests/db/discount.c"
run_full "$out" "$out/tests/*.sql:$out/tests/.*.sql*" 600 --db "$SRC/tests/db/books.sql" --db-rows 2
prog="$SRC/tests/faults/many_tests.c"
[ $rc -eq 1 ] || fail "exit code $rc on a full disk with --db, expected 1"
grep 'disk full' "$out.log" | grep -q "$out/tests/test-[0-9]*\.sql" || fail "the disk-full message does not name the .sql"
check_suite "$out" "$out.log"
for f in "$out"/tests/test-*.xml; do
    [ -s "${f%.xml}.sql" ] || fail "$f has no fixture"
done
[ "$(ls "$out"/tests/test-*.sql | wc -l)" -eq "$ntests" ] || fail "a fixture without its test"
ok "--db, fixture lost: $ntests tests, each with its .sql"

# 5. optional: a real full file system, where mounting is allowed (root, not in most CI): OUT/tests
# is a tmpfs of 4 pages (metadata.xml and three tests fit), the rest of OUT is on the ordinary disk
out="$WORK/faults_disk4"
rm -rf "$out"
mkdir -p "$out/tests"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=16k sympath-faults "$out/tests" 2>/dev/null; then
    "$SYMPATH" run "$prog" -o "$out" --budget 20s --no-progress >"$out.log" 2>&1
    rc=$?
    cat "$out.log"
    check_suite "$out" "$out.log"
    umount "$out/tests"
    [ $rc -eq 1 ] || fail "exit code $rc on a full tmpfs, expected 1"
    [ "$(grep -c 'disk full' "$out.log")" -eq 1 ] || fail "'disk full' is not reported exactly once"
    jq -e '.stop_reason == "write-error"' "$out/report.json" >/dev/null || fail "report.json's stop_reason is not write-error"
    ok "tests/ on a full tmpfs: exit code 1, $ntests whole tests"
else
    echo "note [$name]: no tmpfs (not root, or mount refused): the real-file-system case is skipped"
fi
echo "PASS [$name]"
