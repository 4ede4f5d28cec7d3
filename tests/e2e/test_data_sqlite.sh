#!/bin/bash
# test_data_sqlite.sh: `sympath data` end to end on SQLite: rare paths by selective queries (same coverage as a full scan, 10x fewer tuples), two columns, an exhausted table, a refused write, the file unchanged, replay.
set -u
W="$WORK/data_sqlite"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [data]: $*"; exit 1; }
P="$SRC/tests/programs/data"
cov() { jq -r '"\(.coverage.covered // .coverage.branches_covered)/\(.coverage.total // .coverage.branches_total)"' "$1"; }
both_ways() {  # report line...: the branch sites at those lines were covered both ways
    local r=$1 line; shift
    for line in "$@"; do
        jq -e "[.coverage.sites[] | select(.line == $line)] | length > 0 and ([.[].covered | all] | all)" "$r" \
            >/dev/null || return 1
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
[ "$c" = "$cf" ] || fail "rare: sympath data covers $c branch directions, the full scan $cf"
both_ways "$f" 25 27 31 33 34 || fail "rare: the full scan misses a branch direction of the loop: $(jq -c .coverage.sites "$f")"
both_ways "$r" 25 27 31 33 34 || fail "rare: a branch direction of the loop is not covered: $(jq -c .coverage.sites "$r")"
tf=$(jq .data.tuples_fetched "$f") td=$(jq .data.tuples_fetched "$r")
[ "$tf" = 20000 ] && [ "$(jq .data.table_rows "$f")" = 20000 ] ||
    fail "rare: the full scan fetched $tf tuples of a table of $(jq .data.table_rows "$f") rows, expected 20000 of 20000"
[ "$(jq .data.table_rows "$r")" = 20000 ] || fail "rare: table_rows $(jq .data.table_rows "$r"), expected 20000"
[ "$td" -gt 0 ] && [ $((td * 10)) -le "$tf" ] || fail "rare: $td tuples fetched, not 10x fewer than the full scan's $tf"
jq -e '(.data.queries | length) > 1 and .data.paths > 1' "$r" >/dev/null ||
    fail "rare: queries/paths: $(jq -c '[(.data.queries | length), .data.paths]' "$r")"
"$SYMPATH" replay "$out" --coverage >"$W/rare.replay" 2>&1 || { cat "$W/rare.replay"; fail "rare: replay failed"; }
grep -q "gcov branch coverage: $c" "$W/rare.replay" || { cat "$W/rare.replay"; fail "rare: gcov disagrees with $c"; }
unchanged "$W/shop.db" "$sum" || fail "rare: the database file was modified by the replay"
echo "ok [data]: rare.c: $c like the full scan, $td tuples against $tf, $(jq '.data.queries | length' "$r") queries, replay agrees"

# --- two_cols.c: a path on a + b > 100 and a == b together
sh "$P/make_db.sh" two_cols 20000 "$W/pairs.db" || fail "make_db.sh two_cols failed"
psum=$(sha256sum < "$W/pairs.db")
out="$W/two_cols"
"$SYMPATH" data "$P/two_cols.c" --db "$W/pairs.db" -o "$out" --budget 20s --no-progress >"$W/two_cols.stdout" \
    2>"$W/two_cols.err" || { cat "$W/two_cols.err"; fail "sympath data two_cols.c exited with $?"; }
r="$out/report.json"
both_ways "$r" 23 24 28 || fail "two_cols: a branch direction is not covered: $(jq -c .coverage.sites "$r")"
td=$(jq .data.tuples_fetched "$r")
[ $((td * 10)) -le 20000 ] || fail "two_cols: $td tuples fetched, not 10x fewer than the table's 20000"
unchanged "$W/pairs.db" "$psum" || fail "two_cols: the database file was modified"
echo "ok [data]: two_cols.c: $(cov "$r") with $td tuples of 20000"

# --- exhaust.c: no tuple has a reading above 1000; the report says the data cannot reach it
sh "$P/make_db.sh" exhaust 50 "$W/sensors.db" || fail "make_db.sh exhaust failed"
esum=$(sha256sum < "$W/sensors.db")
out="$W/exhaust"
"$SYMPATH" data "$P/exhaust.c" --db "$W/sensors.db" -o "$out" --budget 20s --no-progress >"$W/exhaust.stdout" \
    2>"$W/exhaust.err" || { cat "$W/exhaust.err"; fail "sympath data exhaust.c exited with $?"; }
r="$out/report.json"
both_ways "$r" 23 29 || fail "exhaust: a reachable branch direction is not covered: $(jq -c .coverage.sites "$r")"
jq -e '[.coverage.sites[] | select(.line == 25) | .covered | any] | any' "$r" >/dev/null ||
    fail "exhaust: reading > 1000 not even covered false"
if jq -e '[.coverage.sites[] | select(.line == 25) | .covered | all] | any' "$r" >/dev/null; then
    fail "exhaust: reading > 1000 reported covered, no tuple has it"
fi
jq -e '[.data.complement_left[] | select((tostring | test("1000")) and (.why | test("no tuple|data|exhaust"; "i")))]
       | length > 0' "$r" >/dev/null ||
    fail "exhaust: the complement node reading > 1000 is not reported as unreachable by the data: $(jq -c .data.complement_left "$r")"
unchanged "$W/sensors.db" "$esum" || fail "exhaust: the database file was modified"
echo "ok [data]: exhaust.c: the unreachable node is reported ($(jq -r '.data.complement_left[0].why' "$r")), stop: $(jq -r .data.stop_reason "$r")"

# --- writer.c: an INSERT into the user's database is refused, the file unchanged
out="$W/writer"
"$SYMPATH" data "$P/writer.c" --db "$W/shop.db" -o "$out" --budget 10s --no-progress >"$W/writer.stdout" \
    2>"$W/writer.err" || { cat "$W/writer.err"; fail "sympath data writer.c exited with $?"; }
unchanged "$W/shop.db" "$sum" || fail "writer: the database file was modified"
[ "$(sqlite3 "$W/shop.db" 'SELECT count(*) FROM orders')" = 20000 ] || fail "writer: a row was added"
if ! grep -qiE "read-?only|refused" "$W/writer.err" &&
   ! jq -e 'tostring | test("read-?only|refused"; "i")' "$out/report.json" >/dev/null; then
    cat "$W/writer.err"; fail "writer: neither stderr nor report.json says the INSERT was refused"
fi
echo "ok [data]: writer.c: the INSERT was refused, the database unchanged"
