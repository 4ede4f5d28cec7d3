#!/bin/sh
# db.sh: database applications (`sympath run --db`): branch coverage with synthesized fixtures against the same
# program explored on an empty database and on a fixed sample database, rows per fixture (mean, max), solver share,
# and the SQL constructs that ran concretely.
# Usage: sh bench/db.sh [BUDGET]   (from the project root, after `make`)
# Env: ONLY="shop catalog ..." (a subset of the programs), DB_ARGS (extra options of the fixture run, e.g. --no-db-faults)
set -u
BUDGET=${1:-30s}
SYMPATH=$(realpath "${SYMPATH:-build/bin/sympath}")
WORK=$(realpath -m "${WORK:-build/bench}")/db
ROOT=$(pwd)
D="$ROOT/tests/db"
rm -rf "$WORK"
mkdir -p "$WORK"

# program  schema  database file the program opens
PROGS="discount:books.sql:books.db shop:shop.sql:shop.db report:shop.sql:shop.db order:shop.sql:shop.db insert:shop.sql:shop.db
       login:shop.sql:shop.db update:shop.sql:shop.db catalog:catalog.sql:shop.db checks:checks.sql:app.db
       ledger:ledger.sql:ledger.db cheapest:cheapest.sql:shop.db customers:customers.sql:crm.db teams:teams.sql:league.db
       library:library.sql:library.db categories:categories.sql:shop.db transfer:transfer.sql:bank.db tasks:tasks.sql:tasks.db
       invoice:invoice.sql:invoice.db rentals:rentals.sql:rentals.db stays:stays.sql:hotel.db"
# the fixed sample databases: a few plausible rows
SAMPLE_books="INSERT INTO books VALUES (1, 'SICP', 'mit', 'CS', 50), (2, 'TAOCP', 'aw', 'CS', 300), (3, 'Dune', 'acm', 'SF', 500);"
SAMPLE_shop="INSERT INTO users VALUES (1, 'ann', 'admin', 40), (2, 'bob', 'user', 17);
INSERT INTO orders VALUES (1, 1, 20), (2, 2, 1500), (3, 1, 700);"
SAMPLE_catalog="INSERT INTO products VALUES (1, 'pen', 2.5, 100, NULL), (2, 'lamp', 35.0, 4, 0.1), (3, 'desk', 250.0, 1, NULL);"
SAMPLE_checks="INSERT INTO accounts VALUES (1, 'ann', 'admin', 20), (2, 'bob', 'user', 10);
INSERT INTO items VALUES (1, 'SK1', 0, 1, 5), (2, 'SK2', 150, 10, 40);"
SAMPLE_ledger="INSERT INTO orders VALUES (1, 12.50, 0.50), (2, 250.00, NULL);"
SAMPLE_cheapest="INSERT INTO items VALUES (1, 'pen', 3, 10), (2, 'lamp', 40, 0), (3, 'desk', 250, 2);"
SAMPLE_customers="INSERT INTO customers VALUES (1, 'ann', 1), (2, 'bob', 0);
INSERT INTO orders VALUES (1, 1, 20), (2, 1, 700), (3, 2, 50);"
SAMPLE_teams="INSERT INTO players VALUES (1, 'red', 50), (2, 'red', 70), (3, 'blue', 90), (4, 'red', 5);"
SAMPLE_library="INSERT INTO books VALUES (1, 'Dune', 1965), (2, 'SICP', 1985);
INSERT INTO loans VALUES (1, 1, 14), (2, 1, 45), (3, 2, 7);"
SAMPLE_categories="INSERT INTO products VALUES (1, 'books', 12), (2, 'toys', 30), (3, 'books', 150);"
SAMPLE_transfer="INSERT INTO accounts VALUES (1, 'ann', 500), (2, 'bob', 20);"
SAMPLE_invoice="INSERT INTO lines VALUES (1, 'pen', 2.50, 250, 4), (2, 'lamp', 35.00, 3500, 1);"
SAMPLE_rentals="INSERT INTO rentals VALUES (1, 'kayak', '2024-07-01', '2024-07-20', '2024-03-15 14:00:00'),
(2, 'tent', '2024-06-10', NULL, '2024-12-01 09:00:00');"
SAMPLE_stays="INSERT INTO stays VALUES (1, 'ann', '2024-12-20', '2025-01-02'), (2, 'bob', '2023-05-01', '2023-05-03');"
SAMPLE_tasks="INSERT INTO tasks VALUES (1, 'tax', '2024-04-30', NULL), (2, 'trip', '2025-07-01', '2025-06-20 10:00:00');"

cov() { jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$1"; }

printf '%-10s %9s %7s %9s %9s %5s %9s %7s %10s  %s\n' program fixtures reach_s empty_db sample_db tests rows/fix solver% understood concrete
for entry in $PROGS; do
    name=${entry%%:*}; rest=${entry#*:}; schema=${rest%%:*}; dbfile=${rest#*:}
    [ -n "${ONLY:-}" ] && case " $ONLY " in *" $name "*) ;; *) continue ;; esac
    # 1. synthesized fixtures
    out="$WORK/$name-fixtures"
    if ! "$SYMPATH" run "$D/$name.c" --db "$D/$schema" -o "$out" --budget "$BUDGET" ${DB_ARGS:-} --no-progress >"$out.log" 2>&1; then
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
    # rows per fixture: mean and max over the kept tests' .sql files
    rows=$(for f in "$out"/tests/test-*.sql; do grep -c '^INSERT' "$f"; done |
        awk '{ s += $1; if ($1 > m) m = $1; n++ } END { if (n) printf "%.1f/%d", s / n, m; else printf "-" }')
    printf '%-10s %9s %7s %9s %9s %5s %9s %7s %10s  %s\n' "$name" "$(cov "$r")" \
        "$(jq '.coverage.reached_after_seconds*100|round/100' "$r")" \
        "$(cov "$WORK/$name-empty/out/report.json")" "$(cov "$WORK/$name-sample/out/report.json")" \
        "$(jq .tests "$r")" "$rows" \
        "$(jq '.time.solver_share*1000|round/10' "$r")" \
        "$(jq -r '"\(.database.query_sites_understood)/\(.database.query_sites)"' "$r")" \
        "$(jq -r '[.database.queries[].unsupported[]] | unique | if length == 0 then "-" else join(", ") end' "$r")"
done
echo "(fixtures: sympath run --db SCHEMA; empty_db/sample_db: the same program without --db on a database file"
echo " holding only the schema / a few sample rows; rows/fix: INSERTs per kept test's fixture, mean/max; understood:"
echo " query sites turned into constraints / query sites seen; concrete: the constructs of the others;"
echo " budget $BUDGET each, default strategy, --db-rows 3, fixtures minimized)"
