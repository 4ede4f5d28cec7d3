# db_lines.sh: sourced by the e2e tests of one tests/db program each (test_db_renew.sh, test_db_lookup.sh): its `run`
# explores the program within a run count and checks the branches named by line. The caller sets `test` (db_renew)
# before sourcing; the work directory W, the programs' directory D and fail are set here.
set -u
W="$WORK/$test"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [$test]: $*"; exit 1; }
D="$SRC/tests/db"

# run NAME RUNS LINES...: explore tests/db/NAME.c (schema NAME.sql) for at most RUNS runs (EXTRA: more options), then
# check that each line's branch went both ways, that the model agreed with SQLite and that every fixture loads
run() {
    local prog=$1 runs=$2
    shift 2
    local out="$W/$prog" r="$W/$prog/report.json"
    "$SYMPATH" run "$D/$prog.c" --db "$D/$prog.sql" -o "$out" --max-execs "$runs" --budget 60s --no-db-faults \
        --no-db-minimize ${EXTRA:-} --no-progress 2>"$W/$prog.err" || { cat "$W/$prog.err"; fail "run $prog exited with $?"; }
    for line in "$@"; do
        jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all and length >= 1" "$r" >/dev/null ||
            fail "$prog: branch at line $line not covered both ways: $(jq -c "[.coverage.sites[] | select(.line == $line)]" "$r")"
    done
    jq -e '.database.fixtures_rejected == 0 and .database.fixture_errors == 0 and
           ([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
        fail "$prog: report.json database section: $(jq -c 'del(.database.queries) | .database' "$r")"
    for f in "$out"/tests/test-*.sql; do
        rm -f "$W/hand.db"
        { sqlite3 "$W/hand.db" <"$D/$prog.sql" && sqlite3 "$W/hand.db" <"$f"; } || fail "$prog: $f does not load"
    done
}
