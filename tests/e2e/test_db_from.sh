#!/bin/bash
# test_db_from.sh: `sympath run --db` on subqueries in FROM (tests/db/promos.c: one table's columns under a WHERE,
# alone and joined to a table) understood symbolically, and a grouped LEFT JOIN whose aggregate is read after the
# program inserted rows (its query then runs concretely: the read must not crash the run); UNION and UNION ALL whose
# arms join two tables (tests/db/unions.c); every reachable branch, no model mismatch, no error found, fixtures load
# into the schema, replay agrees.
set -u
W="$WORK/db_from"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [db_from]: $*"; exit 1; }
D="$SRC/tests/db"

out="$W/promos"
"$SYMPATH" run "$D/promos.c" --db "$D/promos.sql" -o "$out" --budget 6s --no-db-faults --no-db-minimize --no-progress \
    2>"$W/promos.err" || { cat "$W/promos.err"; fail "run promos exited with $?"; }
r="$out/report.json"
# unreachable without injected faults: the failed open and the three failed prepares
jq -e '.coverage.branches_covered == .coverage.branches_total - 4' "$r" >/dev/null ||
    fail "promos: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total, [.coverage.sites[] | select(.covered | all | not) | .line]]' "$r")"
for line in 16 19 31 33 45; do # the 75% promo, two big ones; a promo in the city, the spring one; a shop over 100%
    jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all and length >= 1" "$r" >/dev/null ||
        fail "promos: branch at line $line not covered both ways"
done
# both FROM subqueries understood; the grouped query over inserted rows is the one site run concretely
jq -e '[.database.queries[] | select(.sql | test("FROM \\(SELECT|JOIN \\(SELECT")) | .understood] | length == 2 and all' "$r" >/dev/null ||
    fail "promos: FROM subqueries not understood: $(jq -c '[.database.queries[] | {sql, unsupported}]' "$r")"
jq -e '.database.fixtures_rejected == 0 and .database.fixture_errors == 0 and
       ([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
    fail "promos: report.json database section: $(jq -c '.database' "$r")"
[ -z "$(ls "$out/errors" 2>/dev/null | grep xml)" ] || { cat "$out"/errors/*.txt; fail "promos: an error was reported"; }
for f in "$out"/tests/test-*.sql; do
    rm -f "$W/hand.db"
    { sqlite3 "$W/hand.db" <"$D/promos.sql" && sqlite3 "$W/hand.db" <"$f"; } || fail "promos: $f does not load"
done
"$SYMPATH" replay "$out" --coverage >"$W/promos.replay" 2>&1 || { cat "$W/promos.replay"; fail "promos: replay failed"; }
grep -q "all ended as expected" "$W/promos.replay" || { cat "$W/promos.replay"; fail "promos: replay differs"; }

# UNION of two joins ordered by city, with a literal column naming the arm (17: Oslo, 18: the seasonal arm, 21: two
# rows), UNION ALL of a join and a table (33: two rows); the
# failed open and prepares are not reached without injected faults
out="$W/unions"
"$SYMPATH" run "$D/unions.c" --db "$D/promos.sql" -o "$out" --budget 6s --no-db-faults --no-db-minimize --no-progress \
    2>"$W/unions.err" || { cat "$W/unions.err"; fail "run unions exited with $?"; }
r="$out/report.json"
jq -e '.coverage.branches_covered == .coverage.branches_total - 3' "$r" >/dev/null ||
    fail "unions: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total, [.coverage.sites[] | select(.covered | all | not) | .line]]' "$r")"
jq -e '.database.query_sites_understood == .database.query_sites and .database.fixtures_rejected == 0 and
       ([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
    fail "unions: report.json database section: $(jq -c '.database' "$r")"
for f in "$out"/tests/test-*.sql; do
    rm -f "$W/hand.db"
    { sqlite3 "$W/hand.db" <"$D/promos.sql" && sqlite3 "$W/hand.db" <"$f"; } || fail "unions: $f does not load"
done
"$SYMPATH" replay "$out" --coverage >"$W/unions.replay" 2>&1 || { cat "$W/unions.replay"; fail "unions: replay failed"; }
grep -q "all ended as expected" "$W/unions.replay" || { cat "$W/unions.replay"; fail "unions: replay differs"; }
echo "ok [db_from]: subqueries in FROM and UNION arms with joins understood, a grouped read after an INSERT, every reachable branch, fixtures load, replay agrees"
