#!/bin/bash
# test_db_pg_seed.sh: the first run of a PostgreSQL program whose table has a char(2) column (tests/programs/pg/pg_codes.c).
# Its all-zero inputs hold no row, whose cells need not fit the column's types: the run connects, its SELECT's result
# is recorded, and the test it leaves replays without the server as it ran. Before, the char(2) length assumption held
# for absent rows too, so the first run ended at the connect on a false assumption, was kept (its argc branch was new)
# with no recorded result, and its replay went on past the connect and crashed (SIGSEGV: atoi of PQgetvalue of an
# empty result; parcels' test 1 of issue 14's eighth and ninth rounds).
set -u
fail() { echo "FAIL [db_pg_seed]: $*"; exit 1; }
W="$WORK/db_pg_seed"
rm -rf "$W"
mkdir -p "$W"
. "$SRC/tests/pg/e2e_server.sh" db_pg_seed
q() { "$PSQL" "$1" -X -A -t -q -v ON_ERROR_STOP=1 -c "$2"; }
q "$CI" "CREATE DATABASE shop" || fail "cannot create the database"
SHOP="${CI/dbname=postgres/dbname=shop}"
q "$SHOP" "CREATE TABLE countries(code char(2) PRIMARY KEY, name text NOT NULL)" || fail "cannot create the table"
out="$W/out"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_codes.c" --db "$SHOP" -o "$out" --budget 30s --max-execs 6 --no-db-faults \
    --no-db-minimize --no-progress >"$W/run.log" 2>&1 || { cat "$W/run.log"; fail "sympath run exited with $?"; }
r="$out/report.json"
# the first run (test 1) reached the count: its SELECT's result is recorded
grep -q "^result" "$out/tests/test-00001.results" || fail "test 1 has no recorded result: $(cat "$out/tests/test-00001.results")"
# known and unknown code (17), both ways
jq -e '[.coverage.sites[] | select(.line == 17) | .covered | all] | all and length >= 1' "$r" >/dev/null ||
    fail "line 17: $(jq -c '[.coverage.sites[] | select(.line == 17)]' "$r")"
sh "$PGS" stop "$D"
"$SYMPATH" replay "$out" >"$W/replay.log" 2>&1 || { cat "$W/replay.log"; fail "replay failed"; }
grep -q "all ended as expected" "$W/replay.log" || { cat "$W/replay.log"; fail "a test did not replay as it ran"; }
echo "ok [db_pg_seed]: the first run connects and its test replays without the server as it ran"
