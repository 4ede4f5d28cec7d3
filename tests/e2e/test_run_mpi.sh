#!/bin/bash
# test_run_mpi.sh: `mpirun -np 3 sympath run --mpi` finds what -j 1 finds on an exhaustible program, its suite replays, and Ctrl-C keeps the tests.
set -u
fail() { echo "FAIL [run_mpi]: $*"; exit 1; }
. "$(dirname "$0")/mpi_common.sh"
dir="$WORK/run_mpi"
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1

# 1. a 256-path tree is exhausted in a few seconds: the same paths, coverage and errors, complete, with -j 1 and --mpi
prog="$SRC/tests/programs/parallel/tree256.c"
"$SYMPATH" run "$prog" -o "$dir/one" --budget 0 --no-progress >"$dir/one.log" 2>&1 || { cat "$dir/one.log"; fail "-j 1 run failed"; }
timeout 120 "${MPIRUN[@]}" -np 3 "$SYMPATH" run "$prog" --mpi -o "$dir/mpi" --budget 0 --no-progress >"$dir/mpi.log" 2>&1
rc=$?
cat "$dir/mpi.log"
[ $rc -eq 124 ] && fail "mpirun did not end within 120 s"
[ $rc -eq 0 ] || fail "mpirun exited with $rc"
summary() {
    jq -c '{stop_reason, complete, covered: .coverage.branches_covered, total: .coverage.branches_total, paths,
            sites: [.coverage.sites[] | {id, covered}] | sort_by(.id),
            errors: [.errors[] | .kind + "@" + .location] | sort}' "$1/report.json"
}
a=$(summary "$dir/one") || fail "no report.json from -j 1"
b=$(summary "$dir/mpi") || fail "no report.json from --mpi"
[ "$a" = "$b" ] || fail "--mpi differs from -j 1: $b vs $a"
echo "ok [run_mpi]: --mpi finds what -j 1 finds: $b"
jq -e '.parallel.workers == 2 and .parallel.lost == 0 and .parallel.jobs_moved >= 1' "$dir/mpi/report.json" >/dev/null ||
    fail "--mpi: parallel figures: $(jq -c '.parallel | del(.per_worker)' "$dir/mpi/report.json")"
# only rank 0 writes the suite; each worker got the executor in its own directory
n=$(ls "$dir"/mpi/tests/test-*.xml | wc -l)
[ "$n" -ge 1 ] && [ "$(jq .tests "$dir/mpi/report.json")" -eq "$n" ] || fail "report says $(jq .tests "$dir/mpi/report.json") tests, $n files"
for r in 1 2; do [ -x "$dir/mpi/build/rank-$r/executor" ] || fail "rank $r has no executor"; done
ls "$dir"/mpi/build/rank-*/tests >/dev/null 2>&1 && fail "a worker wrote a suite"

# 2. the suite replays natively and gcov agrees with sympath's coverage
"$SYMPATH" replay "$dir/mpi" --coverage >"$dir/replay.log" 2>&1 || { cat "$dir/replay.log"; fail "replay failed"; }
line=$(grep 'gcov branch coverage' "$dir/replay.log")
gcov=$(echo "$line" | sed -n 's|.*coverage: *\([0-9]*/[0-9]*\).*|\1|p')
sym="$(jq .coverage.branches_covered "$dir/mpi/report.json")/$(jq .coverage.branches_total "$dir/mpi/report.json")"
[ "$gcov" = "$sym" ] || fail "replay: gcov says $gcov, sympath said $sym"
echo "ok [run_mpi]: replay agrees ($gcov)"

# 3. a failed build stops the workers too, with rank 0's exit code
timeout 60 "${MPIRUN[@]}" -np 3 "$SYMPATH" run "$SRC/tests/programs/syntax_error.c" --mpi -o "$dir/bad" --no-progress >"$dir/bad.log" 2>&1
rc=$?
[ $rc -eq 124 ] && fail "a failed build left the workers waiting"
[ $rc -eq 1 ] || { cat "$dir/bad.log"; fail "failed build: mpirun exited with $rc, expected 1"; }
echo "ok [run_mpi]: a failed build ends every rank (exit 1)"

# 4. Ctrl-C: mpirun sends SIGTERM to the ranks; rank 0 keeps the tests and writes report.json. (timeout
# --foreground: without it timeout passes the SIGINT to its whole process group as well, so mpirun gets it twice,
# which makes it kill the job at once: report.json was missing about one run in three under load.)
timeout --foreground 120 "${MPIRUN[@]}" "${MPIRUN_INTERRUPT[@]}" -np 3 "$SYMPATH" run "$SRC/tests/programs/many_paths.c" --mpi \
    -o "$dir/int" --budget 100s --no-progress >"$dir/int.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
    ls "$dir"/int/tests/test-*.xml >/dev/null 2>&1 && break
    sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
cat "$dir/int.log"
[ $rc -eq 124 ] && fail "the interrupted job did not end"
jq -e '.stop_reason == "interrupted"' "$dir/int/report.json" >/dev/null || fail "report.json missing or stop_reason not 'interrupted'"
n=$(ls "$dir"/int/tests/test-*.xml | wc -l)
[ "$n" -ge 1 ] && [ "$(jq .tests "$dir/int/report.json")" -eq "$n" ] || fail "after Ctrl-C: report says $(jq .tests "$dir/int/report.json") tests, $n files"
for f in "$dir"/int/tests/test-*.xml; do tail -n 1 "$f" | grep -q '</testcase>' || fail "$f is incomplete"; done
echo "PASS [run_mpi]: $n tests kept after Ctrl-C (mpirun exit $rc)"
