#!/bin/bash
# test_db_decimal.sh: `sympath run --db` with NUMERIC/DECIMAL(p,s) columns as IEEE doubles (tests/db/ledger.c): a
# WHERE and a CHECK with decimal literals (total >= 9.99, total >= 0.50), program branches on the doubles read back;
# every branch covered, fixtures load into the schema and satisfy its CHECK, replay agrees.
set -u
W="$WORK/db_decimal"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [db_decimal]: $*"; exit 1; }
D="$SRC/tests/db"

out="$W/ledger"
"$SYMPATH" run "$D/ledger.c" --db "$D/ledger.sql" -o "$out" --budget 20s --db-rows 2 --solver-timeout 4s --no-db-minimize --no-progress \
    2>"$W/ledger.err" || { cat "$W/ledger.err"; fail "run ledger exited with $?"; }
r="$out/report.json"
# every direction (the failing open: an injected fault)
jq -e '.coverage.branches_covered == .coverage.branches_total' "$r" >/dev/null ||
    fail "ledger: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r"), expected all"
for line in 13 15 19 24; do # rows; total > 100.00; fee > 2.5; no row over 9.99
    jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all" "$r" >/dev/null ||
        fail "ledger: branch at line $line not covered both ways"
done
jq -e '.database.check_constraints == 1 and .database.check_constraints_modelled == 1 and
       .database.fixtures_rejected == 0 and .database.fixture_errors == 0' "$r" >/dev/null ||
    fail "ledger: report.json database section: $(jq -c 'del(.database.queries) | .database' "$r")"
jq -e '([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
    fail "ledger: model mismatches: $(jq -c .database.queries "$r")"
for f in "$out"/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" < "$D/ledger.sql" && sqlite3 "$W/hand.db" < "$f" || fail "ledger: $f does not load"
    [ "$(sqlite3 "$W/hand.db" "SELECT COUNT(*) FROM orders WHERE typeof(total) NOT IN ('real', 'integer') OR total < 0.5 OR total >= 1e8 OR abs(fee) >= 1e4")" = 0 ] ||
        fail "ledger: $f: a total that is not a number in [0.50, 1e8) or a fee outside DECIMAL(6,2)"
done
"$SYMPATH" replay "$out" --coverage >"$W/ledger.replay" 2>&1 || { cat "$W/ledger.replay"; fail "ledger: replay failed"; }
grep -q "all ended as expected" "$W/ledger.replay" || { cat "$W/ledger.replay"; fail "ledger: replay differs"; }
c=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$r")
grep -q "gcov branch coverage: $c" "$W/ledger.replay" || { cat "$W/ledger.replay"; fail "ledger: gcov disagrees with $c"; }
echo "ok [db_decimal]: DECIMAL/NUMERIC columns as doubles: $c, fixtures load and satisfy the CHECK, replay agrees"
