#!/bin/sh
# db.sh: database applications (`sympath run --db`): branch coverage with synthesized fixtures against the same
# program explored on an empty database and on a fixed sample database, rows synthesized, solver share.
# Usage: sh bench/db.sh [BUDGET]   (from the project root, after `make`)
set -u
BUDGET=${1:-30s}
SYMPATH=$(realpath "${SYMPATH:-build/bin/sympath}")
WORK=$(realpath -m "${WORK:-build/bench}")/db
ROOT=$(pwd)
D="$ROOT/tests/db"
rm -rf "$WORK"
mkdir -p "$WORK"

# program  schema  database file the program opens
PROGS="discount:books.sql:books.db shop:shop.sql:shop.db report:shop.sql:shop.db order:shop.sql:shop.db insert:shop.sql:shop.db login:shop.sql:shop.db update:shop.sql:shop.db"
# the fixed sample databases: a few plausible rows
SAMPLE_books="INSERT INTO books VALUES (1, 'SICP', 'mit', 'CS', 50), (2, 'TAOCP', 'aw', 'CS', 300), (3, 'Dune', 'acm', 'SF', 500);"
SAMPLE_shop="INSERT INTO users VALUES (1, 'ann', 'admin', 40), (2, 'bob', 'user', 17);
INSERT INTO orders VALUES (1, 1, 20), (2, 2, 1500), (3, 1, 700);"

cov() { jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$1"; }

printf '%-10s %10s %8s %10s %10s %6s %8s %7s %11s\n' program fixtures reach_s empty_db sample_db tests rows solver% understood
for entry in $PROGS; do
    name=${entry%%:*}; rest=${entry#*:}; schema=${rest%%:*}; dbfile=${rest#*:}
    # 1. synthesized fixtures
    out="$WORK/$name-fixtures"
    if ! "$SYMPATH" run "$D/$name.c" --db "$D/$schema" -o "$out" --budget "$BUDGET" --no-progress >"$out.log" 2>&1; then
        printf '%-10s run failed (see %s.log)\n' "$name" "$out"
        continue
    fi
    # 2. and 3. no --db: the program opens its own file in the working directory, empty or with sample rows
    for kind in empty sample; do
        dir="$WORK/$name-$kind"
        mkdir -p "$dir"
        sqlite3 "$dir/$dbfile" < "$D/$schema"
        if [ "$kind" = sample ]; then
            eval "rows=\$SAMPLE_${schema%.sql}"
            echo "$rows" | sqlite3 "$dir/$dbfile"
        fi
        (cd "$dir" && "$SYMPATH" run "$D/$name.c" -o out --budget "$BUDGET" --no-progress >run.log 2>&1)
    done
    r="$out/report.json"
    printf '%-10s %10s %8s %10s %10s %6s %8s %7s %11s\n' "$name" "$(cov "$r")" \
        "$(jq '.coverage.reached_after_seconds*100|round/100' "$r")" \
        "$(cov "$WORK/$name-empty/out/report.json")" "$(cov "$WORK/$name-sample/out/report.json")" \
        "$(jq .tests "$r")" "$(jq .database.rows_synthesized "$r")" \
        "$(jq '.time.solver_share*1000|round/10' "$r")" \
        "$(jq -r '"\(.database.query_sites_understood)/\(.database.query_sites)"' "$r")"
done
echo "(fixtures: sympath run --db SCHEMA; empty_db/sample_db: the same program without --db on a database file"
echo " holding only the schema / a few sample rows; rows: fixture rows over the kept tests; understood: query sites"
echo " turned into constraints / query sites seen; budget $BUDGET each, default strategy and --db-rows 3)"
