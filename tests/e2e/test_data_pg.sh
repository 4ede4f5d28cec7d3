#!/bin/bash
# test_data_pg.sh: `sympath data` on PostgreSQL end to end: a server the test starts, a skewed table, the
# rare rows found with fewer tuples than a full scan, the data unchanged, replay without the server.
set -u
fail() { echo "FAIL [data_pg]: $*"; exit 1; }
W="$WORK/data_pg"
rm -rf "$W"
mkdir -p "$W"
. "$SRC/tests/pg/e2e_server.sh" data_pg
q() { "$PSQL" "$CI" -X -A -t -q -v ON_ERROR_STOP=1 -c "$1"; }

# 20000 orders: qty 1..100 except three big ones (one a gift) and one refund; one NULL note
q "CREATE TABLE orders(id int PRIMARY KEY, qty int NOT NULL, kind text NOT NULL, note text);
   INSERT INTO orders SELECT i,
     CASE WHEN i IN (7777, 15555) THEN 5000 WHEN i = 19999 THEN 9000 WHEN i = 12345 THEN -3 ELSE 1 + i % 100 END,
     CASE WHEN i = 19999 THEN 'gift' ELSE 'std' END,
     CASE WHEN i = 4242 THEN NULL ELSE 'n' || i END
   FROM generate_series(1, 20000) i;
   ANALYZE orders;" || fail "cannot create the table"
sum() { q "SELECT md5(string_agg(t::text, ',' ORDER BY id)) FROM orders t"; }
before=$(sum)

P="$SRC/tests/programs/data/pg_orders.c"
out="$W/out"
"$SYMPATH" data "$P" --db "$CI" -o "$out" --budget 120s --no-progress >"$W/data.log" 2>&1 ||
    { cat "$W/data.log"; fail "sympath data exited with $?"; }
"$SYMPATH" data "$P" --db "$CI" -o "$W/full" --full-scan --no-progress >"$W/full.log" 2>&1 ||
    { cat "$W/full.log"; fail "sympath data --full-scan exited with $?"; }
r="$out/report.json"
cov=$(jq .coverage.branches_covered "$r")
full=$(jq .coverage.branches_covered "$W/full/report.json")
[ "$cov" -ge "$full" ] || { cat "$W/data.log"; fail "coverage $cov directions, the full scan covers $full"; }
[ "$cov" -ge 13 ] || fail "coverage $cov directions, expected 13 (big order, gift, refund, NULL note, write refused)"
jq -e '.data.dialect == "postgresql" and .data.table_rows == 20000' "$r" >/dev/null || fail "report: $(jq -c '.data | del(.queries, .complement_left)' "$r")"
fetched=$(jq .data.tuples_fetched "$r")
[ "$fetched" -lt 20000 ] || fail "$fetched tuples fetched: not fewer than the table's 20000 rows"
grep -q "cannot execute UPDATE in a read-only transaction" "$W/data.log" || { cat "$W/data.log"; fail "the refused write is not reported"; }
[ "$(sum)" = "$before" ] || fail "the table changed"
[ "$(q 'SELECT count(*) FROM orders WHERE qty = 0')" = "0" ] || fail "the program's UPDATE went through"
ls "$out"/tests/test-*.results >/dev/null 2>&1 || fail "no recorded results"
for f in "$out"/tests/test-*.results; do
    [ "$(head -n 1 "$f")" = "sympath-results 1" ] || fail "$f: not a results file"
done
grep -q "^names	id	qty	kind	note$" "$out"/tests/test-*.results || fail "results without the columns' names"
grep -h "^row" "$out"/tests/test-*.results | grep -q "	9000	gift	" || fail "no test ran on the gift order"

# replay without the server: the recorded results, the refused write refused again
sh "$PGS" stop "$D"
"$SYMPATH" replay "$out" --coverage >"$W/replay.log" 2>&1 || { cat "$W/replay.log"; fail "replay failed"; }
grep -q "gcov branch coverage: $cov/" "$W/replay.log" || { cat "$W/replay.log"; fail "replay coverage differs from sympath's $cov"; }
grep -q "write refused" "$out"/replay/tests-*.log || fail "the write succeeded in the replay"
grep -h "^rows" "$out"/replay/tests-*.log | grep -q "gifts 1" || fail "no replayed test saw the gift order"
echo "ok [data_pg]: $cov/$(jq .coverage.branches_total "$r") directions (full scan $full), $fetched of 20000 tuples fetched, table unchanged, replay agrees"
