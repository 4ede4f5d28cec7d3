#!/bin/bash
# test_db_date.sh: `sympath run --db` with DATE and TIMESTAMP columns as ISO-8601 text cells (tests/db/tasks.c): a query
# with a bound date (due < ?) and ORDER BY due, branches on the year, month and day parsed back (sscanf, memcmp,
# strncmp), a date inserted through a parameter and found again, a TIMESTAMP compared with a literal; every reachable
# branch, fixtures that load into the schema with valid dates, replay agrees; date('now', '-7 days') is the run's clock.
set -u
W="$WORK/db_date"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [db_date]: $*"; exit 1; }
D="$SRC/tests/db"

out="$W/tasks"
"$SYMPATH" run "$D/tasks.c" --db "$D/tasks.sql" -o "$out" --budget 15s --db-rows 2 --no-db-minimize --no-db-faults --no-progress \
    2>"$W/tasks.err" || { cat "$W/tasks.err"; fail "run tasks exited with $?"; }
r="$out/report.json"
# unreachable: the failing open (--no-db-faults), the COUNT(*) queries without their row (lines 36, 39)
jq -e '.coverage.branches_covered == .coverage.branches_total - 3' "$r" >/dev/null ||
    fail "tasks: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r"), expected all but 3"
# y < 2000; Feb 29; memcmp "2024"; NULL done_at; done later; evening; two rows on Dec 24; done since June
for line in 17 18 19 20 25 26; do
    jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all" "$r" >/dev/null ||
        fail "tasks: branch at line $line not covered both ways"
done
for line in 36 39; do
    jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | any" "$r" >/dev/null ||
        fail "tasks: COUNT(*) branch at line $line not covered both ways"
done
jq -e '.database.constraints_not_modelled == [] and .database.fixtures_rejected == 0 and
       .database.fixture_errors == 0 and .database.statement_errors == 0 and .database.query_sites_understood == 5' \
    "$r" >/dev/null || fail "tasks: report.json database section: $(jq -c 'del(.database.queries) | .database' "$r")"
jq -e '([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
    fail "tasks: model mismatches: $(jq -c .database.queries "$r")"
jq -e '[.database.queries[] | select(.sql | contains("date(")) | .understood] | all and length == 1' "$r" >/dev/null ||
    fail "tasks: date('now', '-7 days') not understood: $(jq -c .database.queries "$r")"
grep -q "could not build" "$W/tasks.err" && fail "tasks: runs could not build their database"
n=0
for f in "$out"/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" < "$D/tasks.sql" && sqlite3 "$W/hand.db" < "$f" || fail "tasks: $f does not load"
    # every date is TEXT and a real calendar day (SQLite's date() gives it back), every timestamp too
    bad=$(sqlite3 "$W/hand.db" "SELECT COUNT(*) FROM tasks WHERE typeof(due) <> 'text' OR date(due) IS NOT due
        OR due < '1000' OR (done_at IS NOT NULL AND (typeof(done_at) <> 'text' OR datetime(done_at) IS NOT done_at))
        OR (substr(due, 6, 2) = '02' AND substr(due, 9, 2) > '29')
        OR (substr(due, 6) = '02-29' AND NOT (CAST(substr(due, 1, 4) AS INT) % 4 = 0 AND
            (CAST(substr(due, 1, 4) AS INT) % 100 <> 0 OR CAST(substr(due, 1, 4) AS INT) % 400 = 0)))")
    [ "$bad" = 0 ] || fail "tasks: $f: an invalid date: $(cat "$f")"
    n=$((n + $(sqlite3 "$W/hand.db" "SELECT COUNT(*) FROM tasks WHERE substr(due, 6) = '02-29'")))
done
[ "$n" -gt 0 ] || fail "tasks: no fixture with a leap day"
"$SYMPATH" replay "$out" --coverage >"$W/tasks.replay" 2>&1 || { cat "$W/tasks.replay"; fail "tasks: replay failed"; }
grep -q "all ended as expected" "$W/tasks.replay" || { cat "$W/tasks.replay"; fail "tasks: replay differs"; }
c=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$r")
grep -q "gcov branch coverage: $c" "$W/tasks.replay" || { cat "$W/tasks.replay"; fail "tasks: gcov disagrees with $c"; }
echo "ok [db_date]: DATE/TIMESTAMP columns as ISO-8601 text: $c (all reachable), fixtures load with valid dates, replay agrees"
