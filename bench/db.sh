#!/bin/sh
# db.sh: database applications (`sympath run --db`): branch coverage with synthesized fixtures against the same
# program explored on an empty database and on a fixed sample database, rows per fixture (mean, max), solver share,
# and the SQL constructs that ran concretely.
# Then the same for the PostgreSQL programs of the e2e tests (tests/programs/pg/pg_*.c) on a server the script starts
# and stops itself (tests/pg/pg_server.sh: initdb + pg_ctl in a temporary directory, Unix socket only); skipped
# when the server binaries are not installed.
# Usage: sh bench/db.sh [BUDGET]   (from the project root, after `make`)
#        ONLY="cheapest pg_sql" sh bench/db.sh 15s   runs only these programs (SQLite names, pg_* for PostgreSQL)
#        DB_ARGS=--no-db-faults sh bench/db.sh 15s    extra options of the fixture runs
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
       invoice:invoice.sql:invoice.db rentals:rentals.sql:rentals.db stays:stays.sql:hotel.db clinic:clinic.sql:clinic.db"
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
SAMPLE_clinic="INSERT INTO patients VALUES (1, 'ann', '1980-02-11', '555-0100'), (2, 'tom', '2015-09-30', NULL);
INSERT INTO doctors VALUES (1, 'dr who', 'general'), (2, 'dr no', 'cardio');
INSERT INTO appointments VALUES (1, 1, 1, '2024-06-05', 'done', 80.0), (2, 2, 1, '2024-06-12', 'booked', 0),
(3, 1, 2, '2023-11-02', 'booked', 0);"
SAMPLE_tasks="INSERT INTO tasks VALUES (1, 'tax', '2024-04-30', NULL), (2, 'trip', '2025-07-01', '2025-06-20 10:00:00');"

cov() { jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$1"; }
wanted() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# line NAME OUT EMPTY SAMPLE: one row of the table from the fixture run's output directory OUT and the report.json
# of the empty and sample database runs
line() {
    r="$2/report.json"
    # rows per fixture: mean and max over the kept tests' .sql files
    rows=$(for f in "$2"/tests/test-*.sql; do grep -c '^INSERT' "$f"; done |
        awk '{ s += $1; if ($1 > m) m = $1; n++ } END { if (n) printf "%.1f/%d", s / n, m; else printf "-" }')
    printf '%-10s %9s %7s %9s %9s %5s %9s %7s %10s  %s\n' "$1" "$(cov "$r")" \
        "$(jq '.coverage.reached_after_seconds*100|round/100' "$r")" \
        "$(cov "$3")" "$(cov "$4")" \
        "$(jq .tests "$r")" "$rows" \
        "$(jq '.time.solver_share*1000|round/10' "$r")" \
        "$(jq -r '"\(.database.query_sites_understood)/\(.database.query_sites)"' "$r")" \
        "$(jq -r '[.database.queries[].unsupported[]] | unique | if length == 0 then "-" else join(", ") end' "$r")"
}

printf '%-10s %9s %7s %9s %9s %5s %9s %7s %10s  %s\n' program fixtures reach_s empty_db sample_db tests rows/fix solver% understood concrete
for entry in $PROGS; do
    name=${entry%%:*}; rest=${entry#*:}; schema=${rest%%:*}; dbfile=${rest#*:}
    wanted "$name" || continue
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
    line "$name" "$out" "$WORK/$name-empty/out/report.json" "$WORK/$name-sample/out/report.json"
done

# --- PostgreSQL: the programs of tests/e2e/test_db_pg.sh and test_db_types_pg.sh, each with its tables in a
# database named shop (which the programs connect to) on a throw-away server
PGS="$ROOT/tests/pg/pg_server.sh"
# program  tables (DDL)  sample rows
PG_PROGS="pg_discount pg_shop pg_write pg_sql pg_tasks pg_prices pg_hr"
PGDDL_pg_discount="CREATE TABLE books(isbn int PRIMARY KEY, title text, publisher text NOT NULL, subject text, inventory int NOT NULL);"
PGSAMPLE_pg_discount="INSERT INTO books VALUES (1, 'SICP', 'mit', 'CS', 50), (2, 'TAOCP', 'aw', 'CS', 300), (3, 'Dune', 'acm', 'SF', 500);"
PGDDL_pg_shop="CREATE TABLE customers(id int PRIMARY KEY, name varchar(8) NOT NULL);
CREATE TABLE orders(oid int PRIMARY KEY, customer int NOT NULL REFERENCES customers(id), qty int NOT NULL, note text);"
PGSAMPLE_pg_shop="INSERT INTO customers VALUES (7, 'bob'), (8, 'ann'); INSERT INTO orders VALUES (1, 7, 99, NULL), (2, 8, 3, 'gift');"
PGDDL_pg_write=$PGDDL_pg_shop
PGSAMPLE_pg_write=$PGSAMPLE_pg_shop
PGDDL_pg_sql="CREATE TABLE items(id int PRIMARY KEY, name text NOT NULL, price int NOT NULL CHECK (price > 0), stock int NOT NULL DEFAULT 0);
CREATE TABLE sales(id int PRIMARY KEY, item int NOT NULL REFERENCES items(id), qty int NOT NULL);"
PGSAMPLE_pg_sql="INSERT INTO items VALUES (1, 'pen', 3, 10), (2, 'lamp', 40, 0), (3, 'desk', 250, 2);
INSERT INTO sales VALUES (1, 1, 5), (2, 1, 20), (3, 3, 1);"
PGDDL_pg_tasks="CREATE TABLE tasks(id int PRIMARY KEY, title text NOT NULL, due date NOT NULL, done_at timestamp);"
PGSAMPLE_pg_tasks="INSERT INTO tasks VALUES (1, 'tax', '2024-04-30', NULL), (2, 'trip', '2025-07-01', '2025-06-20 10:00:00');"
PGDDL_pg_prices="CREATE TABLE items(id int PRIMARY KEY, name text NOT NULL, price numeric(8,2) NOT NULL CHECK (price >= 0),
weight double precision, rating real);"
PGDDL_pg_hr="CREATE TABLE departments(id serial PRIMARY KEY, name text NOT NULL UNIQUE, budget numeric(10,2) NOT NULL
CHECK (budget >= 0));
CREATE TABLE employees(id serial PRIMARY KEY, name text NOT NULL, dept_id int NOT NULL REFERENCES departments(id)
ON DELETE CASCADE, manager_id int REFERENCES employees(id), salary numeric(9,2) NOT NULL CHECK (salary > 0),
hired_at timestamptz NOT NULL DEFAULT now(), active boolean NOT NULL DEFAULT true);
CREATE TABLE projects(dept_id int NOT NULL REFERENCES departments(id) ON DELETE CASCADE, code text NOT NULL
CHECK (length(code) = 4), title text NOT NULL, PRIMARY KEY (dept_id, code));
CREATE TABLE assignments(emp_id int NOT NULL REFERENCES employees(id) ON DELETE CASCADE, dept_id int NOT NULL,
code text NOT NULL, hours int NOT NULL CHECK (hours BETWEEN 1 AND 40), PRIMARY KEY (emp_id, dept_id, code),
FOREIGN KEY (dept_id, code) REFERENCES projects(dept_id, code) ON DELETE CASCADE);"
PGSAMPLE_pg_hr="INSERT INTO departments VALUES (1, 'legal', 90000), (2, 'dev', 500000);
INSERT INTO employees VALUES (1, 'ann', 2, NULL, 9000, '2020-01-01 09:00:00+00', true),
(2, 'bob', 2, 1, 5000, '2024-12-02 09:00:00+00', true), (3, 'cy', 1, NULL, 7000, '2024-03-01 09:00:00+00', false);
INSERT INTO projects VALUES (2, 'CORE', 'core'), (1, 'AUDT', 'audit');
INSERT INTO assignments VALUES (1, 2, 'CORE', 30), (2, 2, 'CORE', 40);"
PGSAMPLE_pg_prices="INSERT INTO items VALUES (1, 'pen', 2.50, 0.02, 4.5), (2, 'lamp', 35.00, 1.5, NULL), (3, 'desk', 250.00, 30, 3);"

pg_wanted=0
for name in $PG_PROGS; do wanted "$name" && pg_wanted=1; done
if [ $pg_wanted = 1 ]; then
    PGD=$(mktemp -d /tmp/sympath-bench-pgXXXXXX)
    trap 'sh "$PGS" stop "$PGD"; rm -rf "$PGD"' EXIT
    if CI=$(sh "$PGS" start "$PGD"); then
        PSQL="$(sh "$PGS" bin)/psql"
        SHOP=$(echo "$CI" | sed 's/dbname=postgres/dbname=shop/')
        # fresh_shop DDL [ROWS]: the database shop holding just these tables (and rows)
        fresh_shop() {
            PGOPTIONS="-c client_min_messages=warning" "$PSQL" "$CI" -X -q -c "DROP DATABASE IF EXISTS shop" \
                -c "CREATE DATABASE shop" >/dev/null &&
                "$PSQL" "$SHOP" -X -q -v ON_ERROR_STOP=1 -c "$1" >/dev/null &&
                { [ -z "${2:-}" ] || "$PSQL" "$SHOP" -X -q -v ON_ERROR_STOP=1 -c "$2" >/dev/null; }
        }
        for name in $PG_PROGS; do
            wanted "$name" || continue
            eval "ddl=\$PGDDL_$name; sample=\$PGSAMPLE_$name"
            out="$WORK/$name-fixtures"
            fresh_shop "$ddl" || { printf '%-10s cannot create its tables\n' "$name"; continue; }
            if ! "$SYMPATH" run "$ROOT/tests/programs/pg/$name.c" --db "$SHOP" -o "$out" --budget "$BUDGET" \
                ${DB_ARGS:-} --no-progress >"$out.log" 2>&1; then
                printf '%-10s run failed (see %s.log)\n' "$name" "$out"
                continue
            fi
            # without --db the program connects to shop on this server (libpq's PGHOST, PGPORT, PGUSER)
            for kind in empty sample; do
                dir="$WORK/$name-$kind"
                mkdir -p "$dir"
                if [ "$kind" = sample ]; then fresh_shop "$ddl" "$sample"; else fresh_shop "$ddl"; fi
                (cd "$dir" && PGHOST="$PGD" PGPORT=5432 PGUSER=postgres \
                    "$SYMPATH" run "$ROOT/tests/programs/pg/$name.c" -o out --budget "$BUDGET" --no-progress >run.log 2>&1)
            done
            line "$name" "$out" "$WORK/$name-empty/out/report.json" "$WORK/$name-sample/out/report.json"
        done
    else
        echo "(PostgreSQL programs skipped: no server could be started; scripts/install-deps.sh installs one)"
    fi
fi
echo "(fixtures: sympath run --db SCHEMA; empty_db/sample_db: the same program without --db on a database file"
echo " holding only the schema / a few sample rows; rows/fix: INSERTs per kept test's fixture, mean/max; understood:"
echo " query sites turned into constraints / query sites seen; concrete: the constructs of the others;"
echo " budget $BUDGET each, default strategy, --db-rows 3, fixtures minimized; pg_*: the same on PostgreSQL, the"
echo " fixture runs in a scratch database of the script's server)"
