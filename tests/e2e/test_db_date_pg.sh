#!/bin/bash
# test_db_date_pg.sh: DATE and TIMESTAMP columns on PostgreSQL (tests/programs/pg/pg_tasks.c): ISO-8601 text cells that the
# server takes as dates and prints back the same (DateStyle ISO), a bound date in SQL (due < $1, ORDER BY due), the dates
# parsed in C; every reachable branch, fixtures that load into PostgreSQL, no model mismatch, replay without the server.
set -u
fail() { echo "FAIL [db_date_pg]: $*"; exit 1; }
W="$WORK/db_date_pg"
rm -rf "$W"
mkdir -p "$W"
. "$SRC/tests/pg/e2e_server.sh" db_date_pg
q() { "$PSQL" "$1" -X -A -t -q -v ON_ERROR_STOP=1 -c "$2"; }
q "$CI" "CREATE DATABASE shop" || fail "cannot create the database"
SHOP="${CI/dbname=postgres/dbname=shop}"
q "$SHOP" "CREATE TABLE tasks(id int PRIMARY KEY, title text NOT NULL, due date NOT NULL, done_at timestamp)" ||
    fail "cannot create the table"

out="$W/out"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_tasks.c" --db "$SHOP" -o "$out" --budget 8s --db-rows 2 --no-db-minimize --no-progress \
    >"$W/run.log" 2>&1 || { cat "$W/run.log"; fail "sympath run exited with $?"; }
r="$out/report.json"
# y < 2000 (27), Feb 29 (28), NULL done_at (29), done later (34); the failed connection (9) and query (17) are infeasible
for line in 27 28 29 34; do
    jq -e --argjson l $line '[.coverage.sites[] | select(.line == $l) | .covered | all] | all and length >= 1' "$r" \
        >/dev/null || { cat "$W/run.log"; fail "line $line: $(jq -c --argjson l $line '.coverage.sites[] | select(.line == $l)' "$r")"; }
done
jq -e '.coverage.branches_covered == .coverage.branches_total - 2' "$r" >/dev/null ||
    fail "coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r"), expected all but 2"
jq -e '.database.query_sites_understood == .database.query_sites and .database.fixture_errors == 0 and
       ([.database.queries[].model_mismatches] | add == 0)' "$r" >/dev/null || fail "report: $(jq -c '.database' "$r")"
grep -q "'[0-9]\{4\}-02-29'" "$out"/tests/test-*.sql || fail "no fixture with a leap day"
q "$CI" "CREATE DATABASE loadcheck" || fail "cannot create loadcheck"
LC="${CI/dbname=postgres/dbname=loadcheck}"
"$PSQL" "$LC" -X -q -v ON_ERROR_STOP=1 -f "$out/build/schema_pg.sql" >/dev/null || fail "schema_pg.sql does not load"
for f in "$out"/tests/test-*.sql; do
    "$PSQL" "$LC" -X -q -v ON_ERROR_STOP=1 -c "BEGIN" -f "$f" -c "ROLLBACK" >/dev/null || fail "$f does not load"
done
sh "$PGS" stop "$D"
"$SYMPATH" replay "$out" --coverage >"$W/replay.log" 2>&1 || { cat "$W/replay.log"; fail "replay failed"; }
c=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$r")
grep -q "gcov branch coverage: $c" "$W/replay.log" || { cat "$W/replay.log"; fail "replay coverage differs from $c"; }
echo "ok [db_date_pg]: DATE/TIMESTAMP on PostgreSQL: $c (all reachable), fixtures load, replay agrees"
