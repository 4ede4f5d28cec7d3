#!/bin/bash
# test_db.sh: `sympath run --db` end to end: the ISSTA 2007 Figure 1 example, constraints in fixtures,
# bound parameters from inputs, sqlite3_exec callbacks, replay, an existing database left unchanged, bad schemas.
set -u
W="$WORK/db"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [db]: $*"; exit 1; }
D="$SRC/tests/db"

# --- Figure 1: preferred or not, no rows, rows with and without the 'acm' publisher
out="$W/discount"
schema_sum=$(sha256sum < "$D/books.sql")
"$SYMPATH" run "$D/discount.c" --db "$D/books.sql" -o "$out" --budget 20s --db-rows 2 --no-db-minimize --no-progress \
    2>"$W/discount.err" || { cat "$W/discount.err"; fail "run discount exited with $?"; }
r="$out/report.json"
jq -e '.coverage.percent == 100' "$r" >/dev/null || fail "discount: coverage $(jq .coverage.percent "$r")%, expected 100"
ls "$out"/tests/test-*.sql >/dev/null 2>&1 || fail "discount: no fixture written"
n_xml=$(ls "$out"/tests/test-*.xml | wc -l)
n_sql=$(ls "$out"/tests/test-*.sql | wc -l)
[ "$n_xml" = "$n_sql" ] || fail "discount: $n_xml tests but $n_sql fixtures"
grep -l "empty fixture" "$out"/tests/test-*.sql >/dev/null || fail "discount: no test on an empty database"
grep -h "INSERT INTO" "$out"/tests/test-*.sql | grep -q "'acm'" || fail "discount: no fixture row with publisher 'acm'"
grep -h "INSERT INTO" "$out"/tests/test-*.sql | grep -v "'acm'" | grep -qi "'CS" ||
    fail "discount: no fixture row on CS with another publisher"
# every fixture loads by hand after the schema; its rows satisfy the WHERE clause of preferred customers
for f in "$out"/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" < "$D/books.sql" && sqlite3 "$W/hand.db" < "$f" || fail "discount: $f does not load"
done
jq -e '.database.rows_synthesized > 0 and .database.query_sites_understood == .database.query_sites' "$r" >/dev/null ||
    fail "discount: report.json database section: $(jq -c .database "$r")"
jq -e '[.database.queries[] | select(.sql | test("inventory > 0")) | .fixture_rows_returned] | add > 0' "$r" >/dev/null ||
    fail "discount: the preferred customers' query never returned a synthesized row"
"$SYMPATH" replay "$out" --coverage >"$W/discount.replay" 2>&1 || { cat "$W/discount.replay"; fail "discount: replay failed"; }
grep -q "gcov branch coverage: 6/6" "$W/discount.replay" || { cat "$W/discount.replay"; fail "discount: gcov disagrees"; }
[ "$(sha256sum < "$D/books.sql")" = "$schema_sum" ] || fail "discount: the schema file was modified"
echo "ok [db]: Figure 1 example: 100% coverage, $n_sql fixtures, replay agrees"

# --- constraints, bound parameters from inputs, sqlite3_exec callback, unsupported SQL
out="$W/shop"
"$SYMPATH" run "$D/shop.c" --db "$D/shop.sql" -o "$out" --budget 5s --db-rows 2 --no-db-minimize --no-progress \
    2>"$W/shop.err" || { cat "$W/shop.err"; fail "run shop exited with $?"; }
r="$out/report.json"
# unreachable: a NULL name (NOT NULL); the error branch of sqlite3_exec and count(*) without its row are injected
# faults (19 of 20 directions at 2.5 s; two may be missed under load)
jq -e '.coverage.branches_covered >= .coverage.branches_total - 3' "$r" >/dev/null ||
    fail "shop: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r")"
for line in 28 30 45 49 63; do  # user found; admin or not; big orders; big spender; adults named Z
    jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all" "$r" >/dev/null ||
        fail "shop: branch at line $line not covered both ways"
done
for f in "$out"/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" < "$D/shop.sql" || fail "shop: schema does not load"
    # NOT NULL, UNIQUE and PRIMARY KEY are checked by SQLite on insert; foreign keys when enabled
    (echo "PRAGMA foreign_keys = ON;"; cat "$f") | sqlite3 "$W/hand.db" || fail "shop: $f violates a constraint"
    [ -z "$(sqlite3 "$W/hand.db" 'PRAGMA foreign_key_check;')" ] || fail "shop: $f violates a foreign key"
done
grep -h "INSERT INTO \"orders\"" "$out"/tests/test-*.sql >/dev/null || fail "shop: no fixture with orders"
jq -e '[.database.queries[] | select(.sql | test("DISTINCT")) | .understood] | all' "$r" >/dev/null ||
    fail "shop: COUNT(DISTINCT) not understood: $(jq -c .database.queries "$r")"
jq -e '[.database.queries[] | select(.sql | test("printf")) | .understood and
        (.unsupported | index("result column read concretely") != null)] | any' "$r" >/dev/null ||
    fail "shop: printf() is not reported as read concretely: $(jq -c .database.queries "$r")"
jq -e '[.database.queries[] | select(.sql | test("age >= 18")) | .understood and .fixture_rows_returned > 0] | any' \
    "$r" >/dev/null || fail "shop: the sqlite3_exec query returned no synthesized row"
jq -e '.database.fixture_errors == 0 and ([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
    fail "shop: fixture errors or model mismatches: $(jq -c .database "$r")"
"$SYMPATH" replay "$out" --coverage >"$W/shop.replay" 2>&1 || { cat "$W/shop.replay"; fail "shop: replay failed"; }
c=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$r")
grep -q "gcov branch coverage: $c" "$W/shop.replay" || { cat "$W/shop.replay"; fail "shop: gcov disagrees with $c"; }
echo "ok [db]: constraints, bound parameters, exec callback: $c, fixtures load with foreign keys on"

# --- a join (users JOIN orders ON ...) with a bound threshold (every branch but the audit table's within 32 runs at
# load 4: it stops after 100; with a clock budget alone the exhausted first layout grew and the second ran 19 s)
out="$W/report"
"$SYMPATH" run "$D/report.c" --db "$D/shop.sql" -o "$out" --budget 20s --max-execs 100 --db-rows 2 --no-db-minimize --no-progress \
    2>"$W/report.err" || { cat "$W/report.err"; fail "run report exited with $?"; }
r="$out/report.json"
jq -e '.coverage.branches_covered == .coverage.branches_total - 1' "$r" >/dev/null ||
    fail "join: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r"), expected all but the audit table's"
jq -e '.database.statement_errors > 0 and (.database.statement_error_messages[0] | test("no such table: audit"))' "$r" \
    >/dev/null || fail "join: the failing statement is not reported: $(jq -c .database "$r")"
jq -e '[.database.queries[] | select(.sql | test("JOIN")) | .understood and .fixture_rows_returned > 0] | any' "$r" \
    >/dev/null || fail "join: not understood or no synthesized rows: $(jq -c .database.queries "$r")"
for f in "$out"/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" < "$D/shop.sql"
    (echo "PRAGMA foreign_keys = ON;"; cat "$f") | sqlite3 "$W/hand.db" || fail "join: $f violates a constraint"
done
"$SYMPATH" replay "$out" --coverage >"$W/report.replay" 2>&1 || { cat "$W/report.replay"; fail "join: replay failed"; }
grep -q "gcov branch coverage: 11/12" "$W/report.replay" || { cat "$W/report.replay"; fail "join: gcov disagrees"; }
echo "ok [db]: join: full coverage, a failing statement reported, replay agrees"

# --- ORDER BY: the program depends on the order of the rows; the order it saw is kept on later paths
# (divergences: none beyond the runs whose inputs came from optimistic solving after a solver
# time-out, which satisfy the negated branch alone and may well diverge: seen under load)
out="$W/order"
"$SYMPATH" run "$D/order.c" --db "$D/shop.sql" -o "$out" --budget 20s --max-execs 180 --no-db-minimize --no-progress 2>"$W/order.err" ||
    { cat "$W/order.err"; fail "run order exited with $?"; }
r="$out/report.json"
# (sqlite3_get_table failing: an injected fault; the aggregate query has no row when its SUM overflows,
# which SQLite reports as an error: an overflow check the solver flips)
jq -e '.coverage.branches_covered == .coverage.branches_total and .divergences <= .optimistic_solving.sat and
       ([.database.queries[].model_mismatches] | add) == 0' "$r" \
    >/dev/null || fail "order: $(jq -c '[.coverage, .divergences, .database.queries]' "$r")"
for line in 24 29 33 34; do  # SUM overflow; the aggregates' values; get_table fails; sqlite3_get_table's strings
    jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all" "$r" >/dev/null ||
        fail "order: the branch at line $line was not covered both ways: $(jq -c .coverage.sites "$r")"
done
echo "ok [db]: ORDER BY, COUNT/MAX/SUM and sqlite3_get_table: full coverage, no divergence"

# --- a text parameter from the program's input (its length too) matched against synthesized rows
out="$W/login"
"$SYMPATH" run "$D/login.c" --db "$D/shop.sql" -o "$out" --budget 10s --db-rows 1 --no-db-minimize --no-progress 2>"$W/login.err" ||
    { cat "$W/login.err"; fail "run login exited with $?"; }
jq -e '.coverage.percent == 100 and .divergences <= .optimistic_solving.sat' "$out/report.json" >/dev/null ||
    fail "login: $(jq -c '[.coverage.percent, .divergences]' "$out/report.json")"
"$SYMPATH" replay "$out" >"$W/login.replay" 2>&1 || { cat "$W/login.replay"; fail "login: replay failed"; }
grep -q "is an administrator" "$out"/replay/tests-*.log || fail "login: no replayed test logs in an administrator"
echo "ok [db]: text parameter from input: 100% coverage, replay logs in an administrator"

# --- rows the program inserts (two in one INSERT ... VALUES; copies by INSERT ... SELECT) and reads back keep their
# expressions
out="$W/insert"
"$SYMPATH" run "$D/insert.c" --db "$D/shop.sql" -o "$out" --budget 10s --db-rows 1 --no-db-minimize --no-progress 2>"$W/insert.err" ||
    { cat "$W/insert.err"; fail "run insert exited with $?"; }
r="$out/report.json"
# (24: the value of the two-row INSERT ... VALUES; 35: a value copied by INSERT ... SELECT)
jq -e '[.coverage.sites[] | select(.line == 24 or .line == 35) | .covered | all] | all and length == 2' "$r" >/dev/null ||
    fail "insert: the read-back values' branches were not covered both ways: $(jq -c .coverage.sites "$r")"
jq -e '[.database.queries[] | .understood] | all' "$r" >/dev/null || fail "insert: $(jq -c .database.queries "$r")"
"$SYMPATH" replay "$out" >"$W/insert.replay" 2>&1 || { cat "$W/insert.replay"; fail "insert: replay failed"; }
grep -q "magic amount" "$out"/replay/tests-*.log || fail "insert: no replayed test reads back the magic amount"
grep -q "a copied age of 99" "$out"/replay/tests-*.log || fail "insert: no replayed test reads back a copied age"
echo "ok [db]: inserted rows (VALUES of two rows, INSERT ... SELECT) read back symbolically"

# --- UPDATE and DELETE by the program change the rows' expressions; later queries see their effect
out="$W/update"
"$SYMPATH" run "$D/update.c" --db "$D/shop.sql" -o "$out" --budget 2s --no-db-minimize --no-progress 2>"$W/update.err" ||
    { cat "$W/update.err"; fail "run update exited with $?"; }
r="$out/report.json"
# (SELECT count(*) without its row: its step failing, an injected fault)
jq -e '.coverage.branches_covered == .coverage.branches_total and .divergences <= .optimistic_solving.sat and
       ([.database.queries[] | .understood] | all)' "$r" >/dev/null ||
    fail "update: $(jq -c '[.coverage, .divergences, .database.queries]' "$r")"
"$SYMPATH" replay "$out" >"$W/update.replay" 2>&1 || { cat "$W/update.replay"; fail "update: replay failed"; }
grep -q "reached 1000 with the bonus" "$out"/replay/tests-*.log || fail "update: no replayed test sees the updated amount"
echo "ok [db]: UPDATE/DELETE modelled: full coverage, replay agrees"

# --- one helper prepares every statement and returns -1 on error (tests/db/helper.c): each caller's `if (n < 0)` is
# reached by a fault of its own prepare (a fault node located by the branch before it), within 20 runs (before: the
# helper's one test of the result code, covered by the first fault, and 15/16 directions in 20 runs)
out="$W/helper"
"$SYMPATH" run "$D/helper.c" --db "$D/stockout.sql" -o "$out" --budget 10s --max-execs 20 --no-db-minimize --no-progress \
    2>"$W/helper.err" || { cat "$W/helper.err"; fail "run helper exited with $?"; }
jq -e '.coverage.branches_covered == .coverage.branches_total' "$out/report.json" >/dev/null ||
    fail "helper: $(jq -c '[.coverage.sites[] | select(.covered | all | not) | .line]' "$out/report.json")"
echo "ok [db]: a prepare helper's callers each see its failure"

# --- an existing database file: its schema is used, its bytes never change
rm -f "$W/shop.db"
sqlite3 "$W/shop.db" < "$D/shop.sql"
sqlite3 "$W/shop.db" "INSERT INTO users VALUES (1, 'ann', 'admin', 40);"
before=$(sha256sum < "$W/shop.db")
"$SYMPATH" run "$D/shop.c" --db "$W/shop.db" -o "$W/shop2" --budget 3s --db-rows 1 --no-db-minimize --no-progress 2>"$W/shop2.err" ||
    { cat "$W/shop2.err"; fail "run with an existing database exited with $?"; }
"$SYMPATH" replay "$W/shop2" >/dev/null 2>&1 || fail "replay with an existing database failed"
[ "$(sha256sum < "$W/shop.db")" = "$before" ] || fail "the user's database file was modified"
[ -z "$(ls "$W"/shop.db-* 2>/dev/null)" ] || fail "journal files were left beside the user's database"
echo "ok [db]: the existing database is unchanged byte for byte"

# --- bad input: a schema that does not parse, a missing database
printf 'CREATE TABLE a (x INT);\nCREATE TABLE b (y INT,, z);\n' > "$W/bad.sql"
"$SYMPATH" run "$D/shop.c" --db "$W/bad.sql" -o "$W/bad" --budget 1s --no-db-minimize --no-progress 2>"$W/bad.err"
rc=$?
[ $rc = 1 ] || fail "bad schema: exit code $rc, expected 1"
grep -q "line 2" "$W/bad.err" && grep -q "syntax error" "$W/bad.err" || { cat "$W/bad.err"; fail "bad schema: no line/message"; }
"$SYMPATH" run "$D/shop.c" --db "$W/nosuch.db" -o "$W/bad2" --budget 1s --no-db-minimize --no-progress 2>"$W/bad2.err"
[ $? = 1 ] && grep -q "nosuch.db" "$W/bad2.err" || { cat "$W/bad2.err"; fail "missing database not reported"; }
echo "ok [db]: bad schema and missing database reported"
