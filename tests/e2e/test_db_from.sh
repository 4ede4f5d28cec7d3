#!/bin/bash
# test_db_from.sh: `sympath run --db` on subqueries in FROM (tests/db/promos.c: one table's columns under a WHERE,
# alone and joined to a table) understood symbolically, and a grouped LEFT JOIN whose aggregate is read after the
# program inserted rows (its query then runs concretely: the read must not crash the run), an EXISTS over the rows
# inserted (enumerated after the fixture's); UNION and UNION ALL whose
# arms join two tables (tests/db/unions.c); every reachable branch, no model mismatch, no error found, fixtures load
# into the schema, replay agrees.
set -u
W="$WORK/db_from"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [db_from]: $*"; exit 1; }
D="$SRC/tests/db"

# run NAME UNREACHABLE LINES...: explore tests/db/NAME.c on promos.sql for 6 s without injected faults; every
# direction but at most UNREACHABLE covered, each line's branch both ways, no fixture rejected, no model mismatch, no error
# found, every fixture loads into the schema, the replay agrees
run() {
    local name=$1 unreachable=$2
    shift 2
    local out="$W/$name" r="$W/$name/report.json"
    "$SYMPATH" run "$D/$name.c" --db "$D/promos.sql" -o "$out" --budget 6s --no-db-faults --no-db-minimize \
        --no-progress 2>"$W/$name.err" || { cat "$W/$name.err"; fail "run $name exited with $?"; }
    jq -e --argjson u "$unreachable" '.coverage.branches_covered >= .coverage.branches_total - $u' "$r" >/dev/null ||
        fail "$name: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total, [.coverage.sites[] | select(.covered | all | not) | .line]]' "$r")"
    for line in "$@"; do
        jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all and length >= 1" "$r" >/dev/null ||
            fail "$name: branch at line $line not covered both ways"
    done
    jq -e '.database.fixtures_rejected == 0 and .database.fixture_errors == 0 and
           ([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
        fail "$name: report.json database section: $(jq -c '.database' "$r")"
    [ -z "$(ls "$out/errors" 2>/dev/null | grep xml)" ] || { cat "$out"/errors/*.txt; fail "$name: an error was reported"; }
    for f in "$out"/tests/test-*.sql; do
        rm -f "$W/hand.db"
        { sqlite3 "$W/hand.db" <"$D/promos.sql" && sqlite3 "$W/hand.db" <"$f"; } || fail "$name: $f does not load"
    done
    "$SYMPATH" replay "$out" --coverage >"$W/$name.replay" 2>&1 || { cat "$W/$name.replay"; fail "$name: replay failed"; }
    grep -q "all ended as expected" "$W/$name.replay" || { cat "$W/$name.replay"; fail "$name: replay differs"; }
}

# the 75% promo, two big ones (16, 19); a promo in the city, the spring one (31, 33); a shop over 100% (45); two shops
# with a promo at 60%, counted by an EXISTS over the rows the program inserted (55); the failed open, the four failed
# prepares and a COUNT(*) without its row are not reached (nor, in 6 s, at most one such shop once the rows the
# program adds are understood: 55's other side)
run promos 7 16 19 31 33 45
# both FROM subqueries and the EXISTS over inserted rows understood; the grouped query over inserted rows is the one
# site run concretely
jq -e '[.database.queries[] | select(.sql | test("FROM \\(SELECT|JOIN \\(SELECT|EXISTS")) | .understood] | length == 3 and all' \
    "$W/promos/report.json" >/dev/null ||
    fail "promos: subqueries not understood: $(jq -c '[.database.queries[] | {sql, unsupported}]' "$W/promos/report.json")"
jq -e '[.coverage.sites[] | select(.line == 55) | .covered[1]] | any' "$W/promos/report.json" >/dev/null ||
    fail "promos: never two shops at 60%"
# UNION of two joins ordered by city, with a literal column naming the arm (17: Oslo, 18: the seasonal arm, 21: two
# rows), UNION ALL of a join and a table (33: two rows); the failed open and prepares are not reached
run unions 3 17 18 21 33
jq -e '.database.query_sites_understood == .database.query_sites' "$W/unions/report.json" >/dev/null ||
    fail "unions: not understood: $(jq -c '[.database.queries[] | {sql, unsupported}]' "$W/unions/report.json")"
echo "ok [db_from]: subqueries in FROM and UNION arms with joins understood, a grouped read after an INSERT, every reachable branch, fixtures load, replay agrees"
