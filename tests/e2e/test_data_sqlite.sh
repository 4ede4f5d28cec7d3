#!/bin/bash
# test_data_sqlite.sh: `sympath data` end to end on SQLite: rare paths by selective queries (same coverage as a full scan, 10x fewer tuples), two columns, an exhausted table, a refused write, the file unchanged, replay.
set -u
W="$WORK/data_sqlite"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [data]: $*"; exit 1; }
P="$SRC/tests/programs/data"
cov() { jq -r '"\(.coverage.covered // .coverage.branches_covered)/\(.coverage.total // .coverage.branches_total)"' "$1"; }
# the branches gcov counts at each line of a replay (native build, every test of the suite): "LINE TAKEN" lines
gcov_branches() {  # OUT SOURCE_BASENAME
    local t
    t=$(mktemp -d "$W/gcov.XXXXXX")
    cp "$1"/replay/*.gcda "$1"/replay/*.gcno "$t"/ 2>/dev/null || return 1
    (cd "$t" && gcov -b -c -o . ./*.gcno >/dev/null 2>&1)
    awk '/^ *[-#=*0-9]+: *[0-9]+:/ { split($0, f, ":"); line = f[2] + 0 }
         /^branch/ { print line, ($3 == "never" ? 0 : $4) }' "$t/$2.gcov"
}
both_ways() {  # OUT SOURCE_BASENAME LINE...: gcov saw each branch at those lines go both ways in the replay
    local out=$1 src=$2 line b; shift 2
    b=$(gcov_branches "$out" "$src") || return 1
    for line in "$@"; do
        echo "$b" | awk -v l="$line" '$1 == l { n++; if ($2 == 0) z++ } END { exit !(n > 0 && z == 0) }' || return 1
    done
}
unchanged() {  # db sha: the file's bytes are those of before, and no journal was left beside it
    [ "$(sha256sum < "$1")" = "$2" ] && [ -z "$(ls "$1"-* 2>/dev/null)" ]
}

# --- rare.c on a 20000-row table: every branch direction a full scan covers, with 10x fewer tuples
sh "$P/make_db.sh" rare 20000 "$W/shop.db" || fail "make_db.sh rare failed"
sum=$(sha256sum < "$W/shop.db")
out="$W/rare"
"$SYMPATH" data "$P/rare.c" --db "$W/shop.db" -o "$out" --budget 30s --no-progress >"$W/rare.stdout" 2>"$W/rare.err" ||
    { cat "$W/rare.err"; fail "sympath data rare.c exited with $?"; }
grep -q '^sympath data:.*branch directions' "$W/rare.err" || { cat "$W/rare.err"; fail "rare: no summary line"; }
unchanged "$W/shop.db" "$sum" || fail "rare: the database file was modified by sympath data"
"$SYMPATH" data "$P/rare.c" --db "$W/shop.db" -o "$W/rare-full" --full-scan --timeout 60s --no-progress \
    >"$W/rare-full.stdout" 2>"$W/rare-full.err" || { cat "$W/rare-full.err"; fail "full scan of rare.c exited with $?"; }
unchanged "$W/shop.db" "$sum" || fail "rare: the database file was modified by the full scan"
r="$out/report.json" f="$W/rare-full/report.json"
c=$(cov "$r") cf=$(cov "$f")
# 14/16: all but the failures of sqlite3_open_v2 and sqlite3_prepare_v2
[ "$cf" = 14/16 ] || fail "rare: the full scan covers $cf branch directions, expected 14/16"
[ "$c" = "$cf" ] || fail "rare: sympath data covers $c branch directions, the full scan $cf"
tf=$(jq .data.tuples_fetched "$f") td=$(jq .data.tuples_fetched "$r")
[ "$tf" = 20000 ] && [ "$(jq .data.table_rows "$f")" = 20000 ] ||
    fail "rare: the full scan fetched $tf tuples of a table of $(jq .data.table_rows "$f") rows, expected 20000 of 20000"
[ "$(jq .data.table_rows "$r")" = 20000 ] || fail "rare: table_rows $(jq .data.table_rows "$r"), expected 20000"
[ "$td" -gt 0 ] && [ $((td * 10)) -le "$tf" ] || fail "rare: $td tuples fetched, not 10x fewer than the full scan's $tf"
jq -e '(.data.queries | length) > 1 and .data.paths > 1 and (.data.queries[0] | has("where") or has("sql"))' "$r" \
    >/dev/null || fail "rare: queries/paths: $(jq -c '[(.data.queries | length), .data.paths]' "$r")"
"$SYMPATH" replay "$out" --coverage >"$W/rare.replay" 2>&1 || { cat "$W/rare.replay"; fail "rare: replay failed"; }
grep -q "gcov branch coverage: $c" "$W/rare.replay" || { cat "$W/rare.replay"; fail "rare: gcov disagrees with $c"; }
# the replay (natively, on fixtures of the tuples each test ran on) takes every rare branch both ways
both_ways "$out" rare.c 25 27 31 33 34 || fail "rare: gcov: a branch of the loop not taken both ways by the replay"
unchanged "$W/shop.db" "$sum" || fail "rare: the database file was modified by the replay"
echo "ok [data]: rare.c: $c like the full scan, $td tuples against $tf, $(jq '.data.queries | length' "$r") queries, replay agrees"

# --- two_cols.c: a path on a + b > 100 and a == b together (a bound parameter in the program's SELECT)
sh "$P/make_db.sh" two_cols 20000 "$W/pairs.db" || fail "make_db.sh two_cols failed"
psum=$(sha256sum < "$W/pairs.db")
out="$W/two_cols"
"$SYMPATH" data "$P/two_cols.c" --db "$W/pairs.db" -o "$out" --budget 20s --no-progress >"$W/two_cols.stdout" \
    2>"$W/two_cols.err" || { cat "$W/two_cols.err"; fail "sympath data two_cols.c exited with $?"; }
r="$out/report.json"
c=$(cov "$r")
[ "$c" = 10/12 ] || fail "two_cols: $c branch directions, expected 10/12 (all but the open and prepare failures)"
td=$(jq .data.tuples_fetched "$r")
[ $((td * 10)) -le 20000 ] || fail "two_cols: $td tuples fetched, not 10x fewer than the table's 20000"
"$SYMPATH" replay "$out" --coverage >"$W/two_cols.replay" 2>&1 || { cat "$W/two_cols.replay"; fail "two_cols: replay failed"; }
grep -q "gcov branch coverage: $c" "$W/two_cols.replay" || { cat "$W/two_cols.replay"; fail "two_cols: gcov disagrees with $c"; }
both_ways "$out" two_cols.c 23 24 28 || fail "two_cols: gcov: a branch not taken both ways by the replay"
unchanged "$W/pairs.db" "$psum" || fail "two_cols: the database file was modified"
echo "ok [data]: two_cols.c: $c with $td tuples of 20000, replay agrees"

# --- lookup.c: the limit a big table's rows are compared with comes from a small configuration table
# (the condition reads two tuples: the configuration's value is concrete in the candidate queries)
cp "$W/pairs.db" "$W/lookup.db"
sqlite3 "$W/lookup.db" "CREATE TABLE config(name TEXT, value INTEGER); INSERT INTO config VALUES ('mode', 1), ('limit', 100), ('z', 3);"
lsum=$(sha256sum < "$W/lookup.db")
out="$W/lookup"
"$SYMPATH" data "$P/lookup.c" --db "$W/lookup.db" -o "$out" --budget 20s --no-progress >"$W/lookup.stdout" \
    2>"$W/lookup.err" || { cat "$W/lookup.err"; fail "sympath data lookup.c exited with $?"; }
"$SYMPATH" data "$P/lookup.c" --db "$W/lookup.db" -o "$W/lookup-full" --full-scan --no-progress >/dev/null \
    2>"$W/lookup-full.err" || { cat "$W/lookup-full.err"; fail "full scan of lookup.c exited with $?"; }
c=$(cov "$out/report.json")
cf=$(cov "$W/lookup-full/report.json")
[ "$c" = "$cf" ] || { cat "$W/lookup.err"; fail "lookup: $c branch directions, the full scan covers $cf"; }
jq -e '.coverage.branches_covered == .coverage.branches_total - 4' "$out/report.json" >/dev/null ||
    fail "lookup: $c (expected all but the failures of the open and the two prepares, and the missing limit)"
td=$(jq .data.tuples_fetched "$out/report.json")
[ $((td * 10)) -le 20000 ] || fail "lookup: $td tuples fetched, not 10x fewer than the table's 20000"
"$SYMPATH" replay "$out" --coverage >"$W/lookup.replay" 2>&1 || { cat "$W/lookup.replay"; fail "lookup: replay failed"; }
grep -q "gcov branch coverage: $c" "$W/lookup.replay" || { cat "$W/lookup.replay"; fail "lookup: gcov disagrees with $c"; }
both_ways "$out" lookup.c 34 36 || fail "lookup: gcov: a + b > limit or a == b not taken both ways by the replay"
unchanged "$W/lookup.db" "$lsum" || fail "lookup: the database file was modified"
echo "ok [data]: lookup.c: $c (a full scan: $cf) with $td tuples, a limit from the configuration table"

# --- exhaust.c: no tuple has a reading above 1000; the report says the data cannot reach it
sh "$P/make_db.sh" exhaust 50 "$W/sensors.db" || fail "make_db.sh exhaust failed"
esum=$(sha256sum < "$W/sensors.db")
out="$W/exhaust"
"$SYMPATH" data "$P/exhaust.c" --db "$W/sensors.db" -o "$out" --budget 20s --no-progress >"$W/exhaust.stdout" \
    2>"$W/exhaust.err" || { cat "$W/exhaust.err"; fail "sympath data exhaust.c exited with $?"; }
r="$out/report.json"
c=$(cov "$r")
# all but the open and prepare failures and reading > 1000
[ "$c" = 9/12 ] || fail "exhaust: $c branch directions, expected 9/12"
jq -e '[.data.complement_left[] | select((.branch | test("exhaust\\.c:25$")) and .direction == true and
        (.why | test("no tuple"; "i")))] | length > 0' "$r" >/dev/null ||
    fail "exhaust: the complement node reading > 1000 is not reported as unreachable by the data: $(jq -c .data.complement_left "$r")"
"$SYMPATH" replay "$out" --coverage >"$W/exhaust.replay" 2>&1 || { cat "$W/exhaust.replay"; fail "exhaust: replay failed"; }
grep -q "gcov branch coverage: $c" "$W/exhaust.replay" || { cat "$W/exhaust.replay"; fail "exhaust: gcov disagrees with $c"; }
both_ways "$out" exhaust.c 23 29 || fail "exhaust: gcov: a reachable branch not taken both ways by the replay"
unchanged "$W/sensors.db" "$esum" || fail "exhaust: the database file was modified"
echo "ok [data]: exhaust.c: $c, reading > 1000 reported: $(jq -r '[.data.complement_left[] | select(.branch | test("exhaust\\.c:25$"))][0].why' "$r"); stop: $(jq -r .data.stop_reason "$r")"

# --- by_unit.c: an aggregate query (GROUP BY through sqlite3_get_table): no row keys, so the fixtures hold
# the small table whole and the replay computes the same groups
sh "$P/make_db.sh" exhaust 50 "$W/units.db" || fail "make_db.sh exhaust (units) failed"
usum=$(sha256sum < "$W/units.db")
out="$W/by_unit"
"$SYMPATH" data "$P/by_unit.c" --db "$W/units.db" -o "$out" --budget 20s --no-progress >/dev/null 2>"$W/by_unit.err" ||
    { cat "$W/by_unit.err"; fail "sympath data by_unit.c exited with $?"; }
c=$(cov "$out/report.json")
jq -e '.data.tests_without_rows == 0' "$out/report.json" >/dev/null || fail "by_unit: a test without its rows"
[ "$(grep -c '^INSERT INTO "sensors"' "$out/tests/test-00001.sql")" = 50 ] || fail "by_unit: the fixture does not hold the 50 rows"
"$SYMPATH" replay "$out" --coverage >"$W/by_unit.replay" 2>&1 || { cat "$W/by_unit.replay"; fail "by_unit: replay failed"; }
grep -q "gcov branch coverage: $c" "$W/by_unit.replay" || { cat "$W/by_unit.replay"; fail "by_unit: gcov disagrees with $c"; }
unchanged "$W/units.db" "$usum" || fail "by_unit: the database file was modified"
echo "ok [data]: by_unit.c: $c on an aggregate query, fixtures of the whole table, replay agrees"

# --- writer.c: an INSERT into the user's database is refused, the file unchanged
out="$W/writer"
"$SYMPATH" data "$P/writer.c" --db "$W/shop.db" -o "$out" --budget 10s --no-progress >"$W/writer.stdout" \
    2>"$W/writer.err" || { cat "$W/writer.err"; fail "sympath data writer.c exited with $?"; }
unchanged "$W/shop.db" "$sum" || fail "writer: the database file was modified"
[ "$(sqlite3 "$W/shop.db" 'SELECT count(*) FROM orders')" = 20000 ] || fail "writer: a row was added"
jq -e '[.data.statements_refused_or_failed[] | tostring | test("INSERT") and test("read-?only"; "i")] | any' \
    "$out/report.json" >/dev/null ||
    fail "writer: the refused INSERT is not in report.json: $(jq -c .data.statements_refused_or_failed "$out/report.json")"
grep -qiE "read-?only|refused" "$W/writer.err" || { cat "$W/writer.err"; fail "writer: stderr does not say the INSERT was refused"; }
echo "ok [data]: writer.c: the INSERT was refused, the database unchanged"
