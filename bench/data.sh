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
echo " seconds spent on cardinality estimates (bounded counts); time_s: wall time of the whole command, build"
echo " included; tuples ratio: full scan / sympath data; budget $BUDGET for sympath data; database: sha256 of"
echo " the file before and after both runs; stop: why sympath data stopped)"

# ---------------------------------------------------------------------------------------------------
# PostgreSQL: NOT IMPLEMENTED HERE. The PostgreSQL part of this benchmark (the same tables loaded into
# a server started for the benchmark, `sympath data --db postgresql://...` against --full-scan, table
# checksums before and after) is written by another helper and goes in this place.
# ---------------------------------------------------------------------------------------------------
