#!/bin/bash
# test_db_types_pg.sh: column types on PostgreSQL. DATE and TIMESTAMP (tests/programs/pg/pg_tasks.c): ISO-8601 text cells
# that the server takes as dates and prints back the same (DateStyle ISO), a bound date in SQL (due < $1, ORDER BY due), the
# dates parsed in C. numeric(8,2), double precision and real (tests/programs/pg/pg_prices.c): scaled and double cells, a
# decimal BETWEEN in SQL, a CHECK with the catalog's cast, the values read back with atof/strtod/strtof and compared in C,
# AVG and SUM of an expression, SELECT DISTINCT mapped back to rows by value. MAX of a DATE column, SELECT DISTINCT of an
# expression and a GROUP BY result computed from its key (tests/programs/pg/pg_loans.c). ILIKE, IS DISTINCT FROM,
# $1::date and INSERT ... RETURNING, replayed (tests/programs/pg/pg_returning.c). INSERT ... ON CONFLICT DO UPDATE and
# a WITH query with strpos()/position()/replace()/CAST (tests/programs/pg/pg_upsert.c). A layout grown when the
# exploration stalls (tests/programs/pg/pg_club.c). A date parameter compared with a TIMESTAMP column in a DELETE whose
# PQcmdTuples is tested (tests/programs/pg/pg_purge.c). Writes the server refuses (CHECK, UNIQUE) as branches
# (tests/programs/pg/pg_stockout.c). Parameters in an UPDATE's SET, `$1::date - 30` in a DELETE and a COMMIT the
# server turns into a ROLLBACK (tests/programs/pg/pg_debit.c).
# Each: every reachable branch, fixtures that load into PostgreSQL, no model mismatch, replay without the server.
# (pg_tasks, pg_prices, pg_returning, pg_stockout, pg_upsert, pg_debit and pg_club stop after a run count about twice the runs after which every
# asserted branch was covered at load 4, not on a 3-6 s clock they mostly spent after it; the others keep their budgets)
set -u
fail() { echo "FAIL [db_types_pg]: $*"; exit 1; }
W="$WORK/db_types_pg"
rm -rf "$W"
mkdir -p "$W"
. "$SRC/tests/pg/e2e_server.sh" db_types_pg
q() { "$PSQL" "$1" -X -A -t -q -v ON_ERROR_STOP=1 -c "$2"; }
q "$CI" "CREATE DATABASE shop" || fail "cannot create the database"
SHOP="${CI/dbname=postgres/dbname=shop}"
q "$SHOP" "CREATE TABLE tasks(id int PRIMARY KEY, title text NOT NULL, due date NOT NULL, done_at timestamp)" ||
    fail "cannot create the table"

out="$W/out"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_tasks.c" --db "$SHOP" -o "$out" --budget 30s --max-execs 15 --db-rows 2 --no-db-minimize --no-db-faults --no-progress \
    >"$W/run.log" 2>&1 || { cat "$W/run.log"; fail "sympath run exited with $?"; }
r="$out/report.json"
# y < 2000 (27), Feb 29 (28), NULL done_at (29), done later (34); the failed connection (9) and query (17) are not
# reached with --no-db-faults (test_db_pg.sh checks the injected faults)
for line in 27 28 29 34; do
    jq -e --argjson l $line '[.coverage.sites[] | select(.line == $l) | .covered | all] | all and length >= 1' "$r" \
        >/dev/null || { cat "$W/run.log"; fail "line $line: $(jq -c --argjson l $line '.coverage.sites[] | select(.line == $l)' "$r")"; }
done
jq -e '.coverage.branches_covered == .coverage.branches_total - 2 and .database.injected_fault_tests == 0' "$r" >/dev/null ||
    fail "coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r"), expected all but 2"
jq -e '.database.query_sites_understood == .database.query_sites and .database.fixture_errors == 0 and
       ([.database.queries[].model_mismatches] | add == 0)' "$r" >/dev/null || fail "report: $(jq -c '.database' "$r")"
grep -q "'[0-9]\{4\}-02-29'" "$out"/tests/test-*.sql || fail "no fixture with a leap day"
q "$CI" "CREATE DATABASE loadcheck" || fail "cannot create loadcheck"
LC="${CI/dbname=postgres/dbname=loadcheck}"
"$PSQL" "$LC" -X -q -v ON_ERROR_STOP=1 -f "$out/build/schema_pg.sql" >/dev/null || fail "schema_pg.sql does not load"
for f in "$out"/tests/test-*.sql; do
    "$PSQL" "$LC" -X -q -v ON_ERROR_STOP=1 -c "BEGIN" -f "$f" -c "ROLLBACK" >/dev/null || fail "$f does not load"
done
c=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$r")

# numeric(8,2), double precision, real
q "$SHOP" "CREATE TABLE items(id int PRIMARY KEY, name text NOT NULL, price numeric(8,2) NOT NULL CHECK (price >= 0),
                              weight double precision, rating real)" || fail "cannot create items"
po="$W/prices"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_prices.c" --db "$SHOP" -o "$po" --budget 30s --max-execs 70 --db-rows 2 --no-db-minimize --no-progress \
    >"$W/prices.log" 2>&1 || { cat "$W/prices.log"; fail "sympath run (pg_prices) exited with $?"; }
pr="$po/report.json"
# almost 20 (23), the poster's 12.34 (24), heavy (27), well rated (30), AVG (36), SUM of an expression (37), a COUNT with
# the dearest item's id as parameter (52); the failed connection (9) and query (15) and an aggregate without its one
# row (35) are infeasible
for line in 23 24 27 30 36 37 52; do
    jq -e --argjson l $line '[.coverage.sites[] | select(.line == $l) | .covered | all] | all and length >= 1' "$pr" \
        >/dev/null || { cat "$W/prices.log"; fail "pg_prices line $line: $(jq -c --argjson l $line '.coverage.sites[] | select(.line == $l)' "$pr")"; }
done
jq -e '.database.query_sites_understood == .database.query_sites and .database.fixture_errors == 0 and
       .database.check_constraints_modelled == .database.check_constraints and
       ([.database.queries[].model_mismatches] | add == 0)' "$pr" >/dev/null || fail "pg_prices report: $(jq -c '.database' "$pr")"
grep -q "'12.34'" "$po"/tests/test-*.sql || fail "no fixture with the price 12.34"
grep -h "INSERT" "$po"/tests/test-*.sql | grep -v "'[0-9]*\.[0-9][0-9]'" && fail "a price without exactly two decimals"
q "$CI" "CREATE DATABASE loadprices" || fail "cannot create loadprices"
LP="${CI/dbname=postgres/dbname=loadprices}"
"$PSQL" "$LP" -X -q -v ON_ERROR_STOP=1 -f "$po/build/schema_pg.sql" >/dev/null || fail "pg_prices: schema_pg.sql does not load"
k2=0 # SELECT DISTINCT mapped back by value: some fixture gives two names > 5, the second starting with k
for f in "$po"/tests/test-*.sql; do
    got=$("$PSQL" "$LP" -X -A -t -q -v ON_ERROR_STOP=1 -c "BEGIN" -f "$f" \
        -c "SELECT count(*) FROM (SELECT DISTINCT name FROM items WHERE price > 5 ORDER BY name OFFSET 1 LIMIT 1) d
            WHERE name LIKE 'k%'" -c "ROLLBACK") || fail "$f does not load"
    [ "$got" = 1 ] && k2=1
done
[ $k2 = 1 ] || fail "pg_prices: no fixture whose second DISTINCT name starts with k"
jq -e '[.database.queries[] | select(.sql | test("DISTINCT")) | .understood and .fixture_rows_returned > 0] | any' \
    "$pr" >/dev/null || fail "pg_prices: DISTINCT not mapped back to fixture rows: $(jq -c .database.queries "$pr")"

# a CHECK sympath does not model (md5()): the server rejects the rows breaking it (the runs' schemas carry the user's
# CHECKs), each rejection ends its run on "this row differs in role" and the lost direction is solved again; no
# fixture holds the forbidden role, every fixture loads into the user's table, and the rest is covered
q "$SHOP" "CREATE TABLE accounts(id int PRIMARY KEY, role text NOT NULL CHECK (role IN ('user', 'admin', 'auditor')),
           CONSTRAINT role_not_auditor CHECK (md5(role) <> md5('auditor')))" || fail "cannot create accounts"
ro="$W/roles"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_roles.c" --db "$SHOP" -o "$ro" --budget 3s --db-rows 2 --no-db-faults --no-progress \
    >"$W/roles.log" 2>&1 || { cat "$W/roles.log"; fail "sympath run (pg_roles) exited with $?"; }
rr="$ro/report.json"
jq -e '.database.fixtures_rejected > 0 and .database.fixture_errors == 0 and .executions.assumption_retries > 0 and
       ([.coverage.sites[] | select(.line == 18) | .covered | all] | all and length == 1)' "$rr" >/dev/null ||
    fail "pg_roles: $(jq -c '[.coverage.branches_covered, .coverage.branches_total, .executions, (.database | del(.queries))]' "$rr")"
grep -l "'auditor'" "$ro"/tests/test-*.sql && fail "pg_roles: a fixture with the role the CHECK forbids"
for f in "$ro"/tests/test-*.sql; do
    "$PSQL" "$SHOP" -X -q -v ON_ERROR_STOP=1 -c "BEGIN" -c "DELETE FROM accounts" -f "$f" -c "ROLLBACK" >/dev/null ||
        fail "pg_roles: $f does not load into the user's table"
done
# MAX of a DATE column in a scalar subquery (17: two members due last), SELECT DISTINCT of an expression (25: two
# initials, 26: one 'X'), a GROUP BY result computed from its key (33: two gold members): all understood
q "$SHOP" "CREATE TABLE members(id int PRIMARY KEY, name text NOT NULL, tier text NOT NULL CHECK (tier IN ('basic', 'gold')));
           CREATE TABLE loans(id int PRIMARY KEY, member_id int NOT NULL REFERENCES members(id), title text NOT NULL,
                              due date NOT NULL)" || fail "cannot create members and loans"
lo="$W/loans"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_loans.c" --db "$SHOP" -o "$lo" --budget 6s --db-rows 2 --no-db-faults --no-db-minimize \
    --no-progress >"$W/loans.log" 2>&1 || { cat "$W/loans.log"; fail "sympath run (pg_loans) exited with $?"; }
lr="$lo/report.json"
for line in 17 25 26 33; do
    jq -e --argjson l $line '[.coverage.sites[] | select(.line == $l) | .covered | all] | all and length >= 1' "$lr" \
        >/dev/null || { cat "$W/loans.log"; fail "pg_loans line $line: $(jq -c --argjson l $line '[.coverage.sites[] | select(.line == $l)]' "$lr")"; }
done
jq -e '.database.query_sites_understood == .database.query_sites and .database.fixture_errors == 0 and
       ([.database.queries[].model_mismatches] | add == 0)' "$lr" >/dev/null || fail "pg_loans: $(jq -c '.database' "$lr")"
# ILIKE (18), IS DISTINCT FROM a parameter cast to date (23), an INSERT ... RETURNING read back (27) and the inserted
# row seen by a later query beside the fixture's (31), a COUNT(*) FILTER over CURRENT_DATE - INTERVAL (36); replayed
# without the server below (RETURNING's rows recorded)
rt="$W/returning"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_returning.c" --db "$SHOP" -o "$rt" --budget 30s --max-execs 30 --db-rows 2 --no-db-faults \
    --no-db-minimize --no-progress >"$W/returning.log" 2>&1 || { cat "$W/returning.log"; fail "sympath run (pg_returning) exited with $?"; }
rr2="$rt/report.json"
for line in 18 23 31 36; do
    jq -e --argjson l $line '[.coverage.sites[] | select(.line == $l) | .covered | all] | all and length >= 1' "$rr2" \
        >/dev/null || { cat "$W/returning.log"; fail "pg_returning line $line: $(jq -c --argjson l $line '[.coverage.sites[] | select(.line == $l)]' "$rr2")"; }
done
jq -e '.database.query_sites_understood == .database.query_sites and ([.database.queries[].model_mismatches] | add == 0)' \
    "$rr2" >/dev/null || fail "pg_returning: $(jq -c '.database' "$rr2")"
# an upsert (tests/programs/pg/pg_upsert.c): ON CONFLICT (sku) DO UPDATE ... WHERE read back: restocked (22) or left
# as it was (20: the WHERE false); a WITH query with strpos(), position(), replace() and numeric to integer (28-31); an
# INSERT whose foreign key has its parent row or not (36); an upsert's RETURNING read (44: SK2 restocked or not); an
# INSERT without the serial id, which the runs' table gives past the fixture's ids (48: it succeeds; the row tracked
# with the id the server gave, read back by its ctid); an UPDATE ... RETURNING that returns a row or not (53: its hit
# events); the failed connection (10), write (14), queries (17, twice; 26; 52), the RETURNING without its row (44,
# twice; its failed status is reached in some runs: a fixture's qty makes the restock overflow, PostgreSQL's "integer
# out of range", hence at least all but 9) and the failed note (48) are not reached. (Line 53 came after 12 to 77
# runs: the 8 s clock it had failed at load 2.5 on main too, 2 of 4 runs of 43-55 executions)
q "$SHOP" "CREATE TABLE stock(sku text PRIMARY KEY, qty int NOT NULL CHECK (qty >= 0), price numeric(8,2) NOT NULL)" ||
    fail "cannot create stock"
q "$SHOP" "CREATE TABLE moves(id int PRIMARY KEY, sku text NOT NULL REFERENCES stock(sku), n int NOT NULL)" ||
    fail "cannot create moves"
q "$SHOP" "CREATE TABLE notes(id serial PRIMARY KEY, sku text NOT NULL, body text NOT NULL DEFAULT 'none')" ||
    fail "cannot create notes"
up="$W/upsert"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_upsert.c" --db "$SHOP" -o "$up" --budget 40s --max-execs 120 --db-rows 2 --no-db-faults \
    --no-db-minimize --no-progress >"$W/upsert.log" 2>&1 || { cat "$W/upsert.log"; fail "sympath run (pg_upsert) exited with $?"; }
ur="$up/report.json"
for line in 19 21 28 29 30 31 36 53; do
    jq -e --argjson l $line '[.coverage.sites[] | select(.line == $l) | .covered | all] | all and length >= 1' "$ur" \
        >/dev/null || { cat "$W/upsert.log"; fail "pg_upsert line $line: $(jq -c --argjson l $line '[.coverage.sites[] | select(.line == $l)]' "$ur")"; }
done
jq -e '.coverage.branches_covered >= .coverage.branches_total - 9 and
       .database.query_sites_understood == .database.query_sites and
       .database.fixture_errors == 0 and .database.fixtures_rejected == 0 and
       ([.database.queries[].model_mismatches] | add == 0) and
       ([.coverage.sites[] | select(.line == 44)][2].covered | all) and
       ([.coverage.sites[] | select(.line == 48)][0].covered[0])' "$ur" >/dev/null ||
    fail "pg_upsert: $(jq -c '[.coverage, .database]' "$ur")"
q "$CI" "CREATE DATABASE upcheck" || fail "cannot create upcheck"
UC="${CI/dbname=postgres/dbname=upcheck}"
"$PSQL" "$UC" -X -q -v ON_ERROR_STOP=1 -f "$up/build/schema_pg.sql" >/dev/null || fail "pg_upsert: schema_pg.sql does not load"
for f in "$up"/tests/test-*.sql; do
    "$PSQL" "$UC" -X -q -v ON_ERROR_STOP=1 -c "BEGIN" -f "$f" -c "ROLLBACK" >/dev/null || fail "pg_upsert: $f does not load"
done
# more red members than row slots and a 13-byte name, both seen only in C (tests/programs/pg/pg_club.c): the layout
# grows once the exploration stalls (20: a team of 5, 24: a long name); the failed connection (9) and query (11) are
# not reached (a stall in runs under --max-execs, db_layout.c: an 8 s clock gave 103 runs at 12/s, too few to stall)
q "$CI" "CREATE DATABASE club" || fail "cannot create the database club"
CLUB="${CI/dbname=postgres/dbname=club}"
q "$CLUB" "CREATE TABLE members(id int PRIMARY KEY, name text NOT NULL, team text)" || fail "cannot create members"
cl="$W/club"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_club.c" --db "$CLUB" -o "$cl" --budget 90s --max-execs 100 --no-db-faults --no-progress \
    >"$W/club.log" 2>&1 || { cat "$W/club.log"; fail "sympath run (pg_club) exited with $?"; }
jq -e '.coverage.branches_covered == .coverage.branches_total - 2 and (.database.layouts_before | length) == 1' \
    "$cl/report.json" >/dev/null || { cat "$W/club.log"; fail "pg_club: $(jq -c '[.coverage.branches_covered, .database.layouts_before]' "$cl/report.json")"; }
q "$CI" "CREATE DATABASE clubcheck" || fail "cannot create clubcheck"
CC="${CI/dbname=postgres/dbname=clubcheck}"
"$PSQL" "$CC" -X -q -v ON_ERROR_STOP=1 -f "$cl/build/schema_pg.sql" >/dev/null || fail "pg_club: schema_pg.sql does not load"
found=0
for f in "$cl"/tests/test-*.sql; do
    n=$("$PSQL" "$CC" -X -A -t -q -v ON_ERROR_STOP=1 -c "BEGIN" -f "$f" \
        -c "SELECT COUNT(*) FROM members WHERE team = 'red'" -c "ROLLBACK") || fail "pg_club: $f does not load"
    [ "$n" -gt 4 ] && found=1
done
[ $found = 1 ] || fail "pg_club: no fixture with five red members"
# a date parameter compared with a TIMESTAMP column (PostgreSQL reads it at midnight) in a DELETE whose PQcmdTuples the
# program tests (22: none purged, 24: two or more) and in a SELECT (28: a ticket opened on that day or later); the failed
# connection (10) and DELETE (17) are not reached, nor the failed SELECT (28's first condition)
q "$SHOP" "CREATE TABLE tickets(id int PRIMARY KEY, status text NOT NULL, opened timestamp NOT NULL)" ||
    fail "cannot create tickets"
pu="$W/purge"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_purge.c" --db "$SHOP" -o "$pu" --budget 5s --no-db-faults --no-db-minimize \
    --no-progress >"$W/purge.log" 2>&1 || { cat "$W/purge.log"; fail "sympath run (pg_purge) exited with $?"; }
for line in 22 24; do
    jq -e --argjson l $line '[.coverage.sites[] | select(.line == $l) | .covered | all] | all and length >= 1' \
        "$pu/report.json" >/dev/null || fail "pg_purge line $line: $(jq -c --argjson l $line '[.coverage.sites[] | select(.line == $l)]' "$pu/report.json")"
done
jq -e '.coverage.branches_covered == .coverage.branches_total - 3 and .database.query_sites_understood == .database.query_sites
       and ([.database.queries[].model_mismatches] | add == 0)' "$pu/report.json" >/dev/null ||
    { cat "$W/purge.log"; fail "pg_purge: $(jq -c '[.coverage.branches_covered, .coverage.branches_total, .database.queries]' "$pu/report.json")"; }
# writes the server refuses (tests/programs/pg/pg_stockout.c): an UPDATE ... RETURNING in a transaction that would break
# CHECK (qty >= 0) (17: fewer than 3 pens), and an INSERT of a name already there (29: UNIQUE; base: never refused), both
# ways; the failed connection (9) is not reached
q "$SHOP" "CREATE TABLE shelf(id serial PRIMARY KEY, name text NOT NULL UNIQUE, qty int NOT NULL CHECK (qty >= 0))" ||
    fail "cannot create shelf"
so="$W/stockout"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_stockout.c" --db "$SHOP" -o "$so" --budget 30s --max-execs 12 --no-db-faults --no-db-minimize \
    --no-progress >"$W/stockout.log" 2>&1 || { cat "$W/stockout.log"; fail "sympath run (pg_stockout) exited with $?"; }
jq -e '.coverage.branches_covered == .coverage.branches_total - 1 and ([.database.queries[].model_mismatches] | add == 0)' \
    "$so/report.json" >/dev/null ||
    fail "pg_stockout: $(jq -c '[.coverage.branches_covered, .coverage.branches_total, [.coverage.sites[] | select(.covered | all | not) | .line]]' "$so/report.json")"
# parameters in an UPDATE's SET and a parameter cast to a date minus days (tests/programs/pg/pg_debit.c): both writes
# modelled (base: "write run concretely", the DELETE's PQcmdTuples never other than "0", line 30); a COMMIT after a
# failed INSERT, which the server rolls back: the balance read back without the bonus (39, "poor": base never, the
# model kept the bonus; reached after 52-62 runs); the failed connection (12) and the failed SELECTs and DELETE (25,
# 30, 39) are not reached with --no-db-faults
q "$SHOP" "CREATE TABLE wallets(id int PRIMARY KEY, balance numeric(12,2) NOT NULL CHECK (balance >= 0));
           CREATE TABLE entries(id int PRIMARY KEY, day date NOT NULL)" || fail "cannot create wallets"
dt="$W/debit"
"$SYMPATH" run "$SRC/tests/programs/pg/pg_debit.c" --db "$SHOP" -o "$dt" --budget 60s --max-execs 100 --no-db-faults \
    --no-db-minimize --no-progress >"$W/debit.log" 2>&1 || { cat "$W/debit.log"; fail "sympath run (pg_debit) exited with $?"; }
jq -e '.coverage.branches_covered == .coverage.branches_total - 4 and .database.query_sites_understood == .database.query_sites
       and ([.database.queries[].model_mismatches] | add == 0)' "$dt/report.json" >/dev/null ||
    fail "pg_debit: $(jq -c '[.coverage.branches_covered, .coverage.branches_total, [.coverage.sites[] | select(.covered | all | not) | .line], [.database.queries[] | select(.understood | not) | .sql]]' "$dt/report.json")"
sh "$PGS" stop "$D"
"$SYMPATH" replay "$rt" --coverage >"$W/rreplay.log" 2>&1 || { cat "$W/rreplay.log"; fail "pg_returning replay failed"; }
rc2=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$rr2")
grep -q "gcov branch coverage: $rc2" "$W/rreplay.log" && grep -q "all ended as expected" "$W/rreplay.log" ||
    { cat "$W/rreplay.log"; fail "pg_returning replay differs from $rc2"; }
"$SYMPATH" replay "$out" --coverage >"$W/replay.log" 2>&1 || { cat "$W/replay.log"; fail "replay failed"; }
grep -q "gcov branch coverage: $c" "$W/replay.log" || { cat "$W/replay.log"; fail "replay coverage differs from $c"; }
"$SYMPATH" replay "$po" --coverage >"$W/preplay.log" 2>&1 || { cat "$W/preplay.log"; fail "pg_prices replay failed"; }
pc=$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$pr")
grep -q "gcov branch coverage: $pc" "$W/preplay.log" || { cat "$W/preplay.log"; fail "pg_prices replay coverage differs from $pc"; }
echo "ok [db_types_pg]: DATE/TIMESTAMP on PostgreSQL: $c, numeric/double/real: $pc (all reachable), fixtures load, replay agrees, an unmodelled CHECK holds in every fixture, MAX of a date, DISTINCT of an expression, ILIKE, IS DISTINCT FROM, RETURNING replayed, upsert and WITH"
