#!/bin/sh
# data.sh: `sympath data` (queries over an existing database, Li-Csallner) against a full scan of the same table: coverage, paths, queries, tuples fetched, time.
# Usage: sh bench/data.sh [BUDGET]   (from the project root, after `make`; `make bench-data` runs it with 60s)
# Tables come from tests/programs/data/make_db.sh (rare rows at fixed ids, see its header). The database
# file's sha256 is taken before and after both runs: "unchanged" or "CHANGED".
set -u
BUDGET=${1:-60s}
SYMPATH=$(realpath "${SYMPATH:-build/bin/sympath}")
WORK=$(realpath -m "${WORK:-build/bench}")/data
ROOT=$(pwd)
P="$ROOT/tests/programs/data"
# the full scan is one run over every tuple: give it room (its run time is part of the comparison)
FULL_TIMEOUT=${FULL_TIMEOUT:-900s}
rm -rf "$WORK"
mkdir -p "$WORK"

# program:rows:database file the program opens
CASES=${CASES:-"rare:100000:shop.db rare:1000000:shop.db two_cols:100000:pairs.db two_cols:1000000:pairs.db"}

now() { date +%s.%N; }
since() { echo "$1 $(now)" | awk '{ printf "%.1f", $2 - $1 }'; }
cov() { jq -r '"\(.coverage.covered // .coverage.branches_covered)/\(.coverage.total // .coverage.branches_total)"' "$1"; }
field() { jq -r "$2 // \"?\"" "$1"; }

printf '%-9s %8s | %-44s | %-30s | %7s %s\n' "" "" "sympath data" "full scan" "" ""
printf '%-9s %8s | %8s %5s %7s %6s %6s %6s | %8s %5s %8s %6s | %7s %-9s %s\n' program rows \
    coverage paths queries tuples est_s time_s coverage paths tuples time_s "tuples" database "stop (sympath data)"
for c in $CASES; do
    name=${c%%:*}; rest=${c#*:}; rows=${rest%%:*}; dbname=${rest#*:}
    dir="$WORK/$name-$rows"
    mkdir -p "$dir"
    db="$dir/$dbname"
    sh "$P/make_db.sh" "$name" "$rows" "$db" || { echo "$name $rows: make_db.sh failed"; continue; }
    before=$(sha256sum < "$db")
    case $name in  # how rare the rare rows are (printed under the table)
    rare) sqlite3 "$db" "SELECT 'rare $rows: amount < 0: ' || sum(amount < 0) || ', amount > 10000: ' ||
          sum(amount > 10000) || ', fraud: ' || sum(status = 'fraud') || ', NZ and amount > 5000: ' ||
          sum(country = 'NZ' AND amount > 5000) || ' (NZ ' || sum(country = 'NZ') || ', amount > 5000 ' ||
          sum(amount > 5000) || ')' FROM orders" >>"$WORK/rarity.txt" ;;
    two_cols) sqlite3 "$db" "SELECT 'two_cols $rows: a + b > 100: ' || sum(a + b > 100) || ', and a == b: ' ||
          sum(a + b > 100 AND a = b) || ' (a == b alone: ' || sum(a = b) || ')' FROM pairs" >>"$WORK/rarity.txt" ;;
    esac
    t0=$(now)
    "$SYMPATH" data "$P/$name.c" --db "$db" -o "$dir/data" --budget "$BUDGET" --no-progress \
        >"$dir/data.stdout" 2>"$dir/data.log"
    rc_d=$?
    t_d=$(since "$t0")
    t0=$(now)
    "$SYMPATH" data "$P/$name.c" --db "$db" -o "$dir/full" --full-scan --timeout "$FULL_TIMEOUT" --no-progress \
        >"$dir/full.stdout" 2>"$dir/full.log"
    rc_f=$?
    t_f=$(since "$t0")
    if [ "$(sha256sum < "$db")" = "$before" ] && [ -z "$(ls "$db"-* 2>/dev/null)" ]; then same=unchanged; else same=CHANGED; fi
    rd="$dir/data/report.json" rf="$dir/full/report.json"
    if [ $rc_d != 0 ] || [ ! -f "$rd" ] || [ $rc_f != 0 ] || [ ! -f "$rf" ]; then
        printf '%-9s %8s | run failed: data exit %s, full scan exit %s (logs in %s) | %s\n' "$name" "$rows" \
            "$rc_d" "$rc_f" "$dir" "$same"
        continue
    fi
    td=$(field "$rd" .data.tuples_fetched) tf=$(field "$rf" .data.tuples_fetched)
    ratio=$(echo "$td $tf" | awk '{ if ($1 > 0) printf "%.0fx", $2 / $1; else print "-" }')
    # the full scan runs concretely (no path conditions): its report counts no paths
    pf=$(jq -r 'if .data.paths == 0 then "-" else .data.paths end' "$rf")
    printf '%-9s %8s | %8s %5s %7s %6s %6s %6s | %8s %5s %8s %6s | %7s %-9s %s\n' "$name" "$rows" \
        "$(cov "$rd")" "$(field "$rd" .data.paths)" "$(jq '.data.queries | length' "$rd")" "$td" \
        "$(jq '.data.estimate_seconds * 10 | round / 10' "$rd")" "$t_d" \
        "$(cov "$rf")" "$pf" "$tf" "$t_f" "$ratio" "$same" "$(field "$rd" .data.stop_reason)"
done
echo "rows reaching the rare paths:"
sed 's/^/  /' "$WORK/rarity.txt" 2>/dev/null
echo "(coverage: branch directions covered/total; paths: distinct paths over the tuples (the full scan runs"
echo " concretely and counts none: -); tuples: tuples the program was given, all queries together; est_s:"
echo " seconds spent on cardinality estimates (counts); time_s: wall time of the whole command, build"
echo " included; tuples ratio: full scan / sympath data; budget $BUDGET for sympath data; database: sha256 of"
echo " the file before and after both runs; stop: why sympath data stopped)"

# ---------------------------------------------------------------------------------------------------
# PostgreSQL: tests/programs/data/pg_orders.c (libpq) on `orders` tables of PG_ROWS rows (default
# 100000) in a throw-away server (tests/pg/pg_server.sh), against --full-scan; the table's md5 before
# and after both runs ("unchanged" or "CHANGED"). Rare rows: 3 big orders (one a gift), 1 refund, 1 NULL note.
PGS="$ROOT/tests/pg/pg_server.sh"
PD=$(mktemp -d /tmp/sympath-bench-pgXXXXXX)
CI=$(sh "$PGS" start "$PD" 2>"$WORK/pg_server.log")
if [ $? -ne 0 ]; then
    echo "PostgreSQL: no server could be started (see $WORK/pg_server.log): skipped"
    rm -rf "$PD"
    exit 0
fi
trap 'sh "$PGS" stop "$PD"; rm -rf "$PD"' EXIT
PSQL="$(sh "$PGS" bin)/psql"
q() { "$PSQL" "$CI" -X -A -t -q -v ON_ERROR_STOP=1 -c "$1"; }
echo
echo "PostgreSQL (sympath data --db <conninfo>, tests/programs/data/pg_orders.c):"
printf '%-9s %8s | %8s %5s %7s %6s %6s %6s | %8s %8s %6s | %7s %-9s %s\n' program rows \
    coverage paths queries tuples est_s time_s coverage tuples time_s "tuples" table "stop (sympath data)"
for rows in ${PG_ROWS:-100000}; do
    q "DROP TABLE IF EXISTS orders; CREATE TABLE orders(id int PRIMARY KEY, qty int NOT NULL, kind text NOT NULL, note text);
       INSERT INTO orders SELECT i,
         CASE WHEN i IN ($rows / 3, $rows / 3 * 2) THEN 5000 WHEN i = $rows - 1 THEN 9000 WHEN i = $rows / 2 + 7 THEN -3
              ELSE 1 + i % 100 END,
         CASE WHEN i = $rows - 1 THEN 'gift' ELSE 'std' END,
         CASE WHEN i = $rows / 4 THEN NULL ELSE 'n' || i END
       FROM generate_series(1, $rows) i; ANALYZE orders;" || { echo "pg $rows: cannot create the table"; continue; }
    sum() { q "SELECT md5(string_agg(t::text, ',' ORDER BY id)) FROM orders t"; }
    before=$(sum)
    dir="$WORK/pg-$rows"
    mkdir -p "$dir"
    t0=$(now)
    "$SYMPATH" data "$P/pg_orders.c" --db "$CI" -o "$dir/data" --budget "$BUDGET" --no-progress >"$dir/data.stdout" 2>"$dir/data.log"
    t_d=$(since "$t0")
    t0=$(now)
    "$SYMPATH" data "$P/pg_orders.c" --db "$CI" -o "$dir/full" --full-scan --timeout "$FULL_TIMEOUT" --no-progress \
        >"$dir/full.stdout" 2>"$dir/full.log"
    t_f=$(since "$t0")
    if [ "$(sum)" = "$before" ]; then same=unchanged; else same=CHANGED; fi
    rd="$dir/data/report.json" rf="$dir/full/report.json"
    if [ ! -f "$rd" ] || [ ! -f "$rf" ]; then
        echo "pg_orders $rows: run failed (logs in $dir) | $same"
        continue
    fi
    td=$(field "$rd" .data.tuples_fetched) tf=$(field "$rf" .data.tuples_fetched)
    ratio=$(echo "$td $tf" | awk '{ if ($1 > 0) printf "%.0fx", $2 / $1; else print "-" }')
    printf '%-9s %8s | %8s %5s %7s %6s %6s %6s | %8s %8s %6s | %7s %-9s %s\n' pg_orders "$rows" \
        "$(cov "$rd")" "$(field "$rd" .data.paths)" "$(jq '.data.queries | length' "$rd")" "$td" \
        "$(jq '.data.estimate_seconds * 10 | round / 10' "$rd")" "$t_d" "$(cov "$rf")" "$tf" "$t_f" "$ratio" "$same" \
        "$(field "$rd" .data.stop_reason)"
done
