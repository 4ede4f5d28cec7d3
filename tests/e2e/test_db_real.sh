#!/bin/bash
# test_db_real.sh: `sympath run --db` with REAL columns as IEEE doubles (tests/db/catalog.c): a query with bound
# doubles (price BETWEEN ? AND ?), program branches on the doubles read back, SQL arithmetic on REAL and INTEGER
# columns, a scalar AVG subquery; every reachable branch, fixtures that load into the schema and satisfy its CHECKs,
# replay agrees.
# (Double products bit-blast slowly in Z3: a longer solver timeout keeps the run robust under load. Full coverage
# comes at about 2 s since the approximation over the reals, solver_real.c; it came at 17-21 s before.)
set -u
W="$WORK/db_real"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [db_real]: $*"; exit 1; }
D="$SRC/tests/db"

out="$W/catalog"
"$SYMPATH" run "$D/catalog.c" --db "$D/catalog.sql" -o "$out" --budget 12s --db-rows 2 --solver-timeout 4s --no-db-minimize --no-db-faults --no-progress \
    2>"$W/catalog.err" || { cat "$W/catalog.err"; fail "run catalog exited with $?"; }
r="$out/report.json"
# unreachable: the failing open (--no-db-faults), two COUNT(*)s without their row
jq -e '.coverage.branches_covered == .coverage.branches_total - 3' "$r" >/dev/null ||
    fail "catalog: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r"), expected all but 3"
for line in 23 27 29 31 40; do  # price > 15.0; price * qty > 100.0; discount > 0.25; (int)price == 7; range
    jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all" "$r" >/dev/null ||
        fail "catalog: branch at line $line not covered both ways"
done
# line 44: COUNT(*) of REAL arithmetic in SQL > 0 both ways (its sqlite3_step always has a row)
jq -e "[.coverage.sites[] | select(.line == 44) | .covered | all] | any" "$r" >/dev/null ||
    fail "catalog: COUNT(*) of the SQL REAL condition not covered both ways"
# line 50: COUNT(*) of prices above 1.5 times the scalar AVG subquery's mean, > 0 both ways
jq -e "[.coverage.sites[] | select(.line == 50) | .covered | all] | any" "$r" >/dev/null ||
    fail "catalog: COUNT(*) against the AVG subquery not covered both ways"

jq -e '.database.check_constraints == 3 and .database.check_constraints_modelled == 3 and
       .database.constraints_not_modelled == [] and .database.fixtures_rejected == 0 and .database.fixture_errors == 0 and
       .database.query_sites_understood == 3' "$r" >/dev/null ||
    fail "catalog: report.json database section: $(jq -c 'del(.database.queries) | .database' "$r")"
jq -e '([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
    fail "catalog: model mismatches: $(jq -c .database.queries "$r")"
grep -q "could not build" "$W/catalog.err" && fail "catalog: runs could not build their database"
for f in "$out"/tests/test-*.sql; do  # SQLite checks price >= 0 and the discount's CHECK on load
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" < "$D/catalog.sql" && sqlite3 "$W/hand.db" < "$f" || fail "catalog: $f does not load"
    [ "$(sqlite3 "$W/hand.db" "SELECT COUNT(*) FROM products WHERE typeof(price) <> 'real' OR price < 0")" = 0 ] ||
        fail "catalog: $f: a price that is not a non-negative REAL"
done
"$SYMPATH" replay "$out" --coverage >"$W/catalog.replay" 2>&1 || { cat "$W/catalog.replay"; fail "catalog: replay failed"; }
grep -q "all ended as expected" "$W/catalog.replay" || { cat "$W/catalog.replay"; fail "catalog: replay differs"; }
c=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$r")
grep -q "gcov branch coverage: $c" "$W/catalog.replay" || { cat "$W/catalog.replay"; fail "catalog: gcov disagrees with $c"; }
echo "ok [db_real]: REAL columns as doubles: $c (all reachable), fixtures load and satisfy the CHECKs, replay agrees"
