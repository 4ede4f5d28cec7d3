#!/bin/bash
# test_db_sql.sh: `sympath run --db` on the SQL real programs send, understood symbolically: ORDER BY ... LIMIT/OFFSET
# (tests/db/cheapest.c: the cheapest item in stock, the runner-up by price) and LEFT JOIN with a missing match
# (tests/db/customers.c, with NOT EXISTS, IN and scalar subqueries), GROUP BY ... HAVING (tests/db/teams.c, also of an
# expression; over joins: library.c), a transaction rolled back or committed (tests/db/transfer.c), SELECT DISTINCT, UNION and UNION ALL (tests/db/categories.c), computed result
# columns, COALESCE(SUM(...)), AVG and SUM of an expression with HAVING (tests/db/invoice.c), numbers read as text
# (tests/db/callback.c: sqlite3_exec callbacks, sqlite3_get_table), strftime()/julianday() of DATE columns and
# COUNT(DISTINCT) (tests/db/stays.c), julianday() of a parameter, MAX of a date text, DISTINCT of an expression
# (tests/db/loans.c), DISTINCT over joins (tests/db/venues.c), INSERT ... ON CONFLICT DO UPDATE ... RETURNING, REPLACE INTO
# and a WITH query with replace()/instr()/CAST (tests/db/upsert.c), UPDATE/DELETE ... RETURNING (tests/db/returning.c), defaults read from the engine (tests/db/notes.c), a join of four tables, a result column read concretely and
# ORDER BY of an expression with LIMIT (tests/db/orders4.c), an INSERT whose foreign key needs its parent
# (tests/db/moves.c), INSERT ... SELECT over a join and of its groups (tests/db/copies.c, tally.c), GROUP BY over
# inserted rows (tests/db/daily.c), MAX/COUNT/MIN over the groups of a subquery
# in FROM (tests/db/busiest.c), over a UNION ALL inside WITH and a UNION in FROM (tests/db/wants.c); every reachable branch, no
# model mismatch, fixtures that load into the schema, replay agrees; a layout grown when the exploration stalls
# (tests/db/club.c).
set -u
W="$WORK/db_sql"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [db_sql]: $*"; exit 1; }
D="$SRC/tests/db"

# (the programs without a layout to grow stop on exhaustion or after a run count (--max-execs), with 20-60 s as a cap
# (20 s: its 10% is the 2 s minimization share, as before), so that a loaded machine slows them without failing them:
# tally once ran 3 times in its 4 s with two solver time-outs; each count is about 1.5-2 times the runs after which
# every asserted branch was covered (OUT/stats of a run at load 4), not the runs a clock budget happened to give;
# the programs whose layout grows when the exploration stalls (venues, club) stop after a run count too: under
# --max-execs the stall is measured in runs (db_layout.c), not in seconds that a loaded machine stretches)
# run NAME SCHEMA UNREACHABLE LINES...: explore tests/db/NAME.c for at most 2 s ($BUDGET), then check that each line's branch
# went both ways and that every direction but at most UNREACHABLE ones was covered ($MIN: fixtures minimized or not;
# FAULTS=1: with injected faults, which reach the programs' error paths (a failed open, prepare or exec); without, the
# budget goes to the SQL constructs each program is about; EXTRA: more options, such as a stop after N runs)
MIN=""
run() {
    local name=$1 schema=$2 unreachable=$3
    shift 3
    local out="$W/$name"
    local faults=--no-db-faults
    [ -n "${FAULTS:-}" ] && faults=""
    "$SYMPATH" run "$D/$name.c" --db "$D/$schema" -o "$out" --budget "${BUDGET:-2s}" $MIN $faults ${EXTRA:-} --no-progress 2>"$W/$name.err" ||
        { cat "$W/$name.err"; fail "run $name exited with $?"; }
    local r="$out/report.json"
    for line in "$@"; do
        jq -e "[.coverage.sites[] | select(.line == $line) | .covered | all] | all and length >= 1" "$r" >/dev/null ||
            fail "$name: branch at line $line not covered both ways: $(jq -c "[.coverage.sites[] | select(.line == $line)]" "$r")"
    done
    jq -e --argjson u "$unreachable" '.coverage.branches_covered >= .coverage.branches_total - $u' "$r" >/dev/null ||
        fail "$name: coverage $(jq -c '[.coverage.branches_covered, .coverage.branches_total]' "$r")"
    jq -e '.database.query_sites_understood == .database.query_sites and .database.fixtures_rejected == 0 and
           .database.fixture_errors == 0 and ([.database.queries[].model_mismatches] | add) == 0' "$r" >/dev/null ||
        fail "$name: report.json database section: $(jq -c '.database' "$r")"
    # kept fixtures are simplified after the exploration (fewest rows, small values; in its time share)
    if [ -z "$MIN" ]; then
        jq -e '.database.fixtures_minimized >= 1 and .database.minimizations_off_path == 0' "$r" >/dev/null ||
            fail "$name: fixtures not minimized: $(jq -c '.database' "$r")"
    fi
    for f in "$out"/tests/test-*.sql; do
        rm -f "$W/hand.db"
        { sqlite3 "$W/hand.db" <"$D/$schema" && sqlite3 "$W/hand.db" <"$f"; } || fail "$name: $f does not load"
    done
    # --no-db-faults: the replay injects no fault, whatever value db:fault got from a model or diversification
    if [ -n "$faults" ]; then
        grep -qx 'db_faults 0' "$out/build/replay.conf" || fail "$name: replay.conf lacks 'db_faults 0'"
    fi
    [ -n "${NO_REPLAY:-}" ] && return 0 # (replay is the same code for every program: checked on half of them)
    "$SYMPATH" replay "$out" --coverage >"$W/$name.replay" 2>&1 || { cat "$W/$name.replay"; fail "$name: replay failed"; }
    grep -q "all ended as expected" "$W/$name.replay" || { cat "$W/$name.replay"; fail "$name: replay differs"; }
}

# ORDER BY price LIMIT 1 (affordable, > 100, name) and ORDER BY price DESC LIMIT 1 OFFSET 1 (== 42)
# (the failed sqlite3_open too: an injected fault)
FAULTS=1 BUDGET=20s run cheapest cheapest.sql 0 16 19 23 25 33 34
# some fixture's runner-up by price, as SQLite itself orders it, has a price whose low 32 bits are 42
found=0
for f in "$W"/cheapest/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" <"$D/cheapest.sql" && sqlite3 "$W/hand.db" <"$f" || fail "cheapest: $f does not load"
    [ "$(sqlite3 "$W/hand.db" "SELECT price & 4294967295 FROM items ORDER BY price DESC LIMIT 1 OFFSET 1")" = 42 ] && found=1
done
[ $found = 1 ] || fail "cheapest: no fixture whose runner-up costs 42"
# minimized fixtures (their test says so): small numbers, at most the 2 rows a path needs (the runner-up needs a
# first one)
for f in "$W"/cheapest/tests/test-*.sql; do
    grep -q "fixture minimized" "${f%.sql}.xml" || continue
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" <"$D/cheapest.sql" && sqlite3 "$W/hand.db" <"$f" || fail "cheapest: $f does not load"
    [ "$(sqlite3 "$W/hand.db" "SELECT COUNT(*) <= 2 AND COALESCE(MAX(abs(id) + abs(price) + abs(stock)), 0) <= 3000 FROM items")" = 1 ] ||
        { cat "$f"; fail "cheapest: $f is not minimal"; }
done
# LEFT JOIN: no order (NULL row), VIP without orders, big and small orders, several orders; NOT EXISTS (41),
# IN (SELECT ...) (46), a scalar SUM subquery (52) (unreachable: the failed open, a COUNT(*) without its row)
EXTRA="--max-execs 100" BUDGET=20s run customers customers.sql 2 19 21 23 25 31 33 41 52
jq -e '[.coverage.sites[] | select(.line == 46) | .covered[1]] | any' "$W/customers/report.json" >/dev/null ||
    fail "customers: COUNT(*) of the IN subquery never > 0"
# (the fixtures of the remaining programs are kept as solved: their minimization is what cheapest and customers check)
MIN=--no-db-minimize
# GROUP BY team HAVING COUNT(*) > 2 with SUM/MAX read back, a GROUP BY without HAVING, and GROUP BY of an expression by
# its alias (a CASE level: two top players) with ORDER BY COUNT(*) DESC LIMIT 3
NO_REPLAY=1 EXTRA="--max-execs 90" BUDGET=20s run teams teams.sql 1 18 21 23 25 28 34 36 44 45
# a fixture with a full team: SQLite itself returns the group from it
found=0
for f in "$W"/teams/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" <"$D/teams.sql" && sqlite3 "$W/hand.db" <"$f" || fail "teams: $f does not load"
    [ "$(sqlite3 "$W/hand.db" "SELECT COUNT(*) FROM (SELECT team FROM players GROUP BY team HAVING COUNT(*) > 2)")" -ge 1 ] && found=1
done
[ $found = 1 ] || fail "teams: no fixture with a team of more than 2 players"
# GROUP BY over a LEFT JOIN (COUNT of the optional side: 0 for a book never lent) and over a join with HAVING
NO_REPLAY=1 EXTRA="--max-execs 45" BUDGET=20s run library library.sql 1 16 18 20 22 30
# SELECT DISTINCT category ... ORDER BY category: rows mapped back to their groups by value; a UNION of two price
# ranges' categories counted (34: two distinct ones), a UNION ALL's rows counted (43: two)
EXTRA="--max-execs 100" BUDGET=20s NO_REPLAY=1 run categories categories.sql 1 15 17 21 23 25 34 43
# a withdrawal in a transaction (BEGIN IMMEDIATE, UPDATE, ROLLBACK or COMMIT), the balance read back after it
NO_REPLAY=1 BUDGET=20s run transfer transfer.sql 1 32 39 46 48 50
# computed result columns and aggregates of expressions: cents * 2 + qty per line (13), COALESCE(SUM(qty), 0) (18), AVG of a
# DECIMAL (20), SUM(cents * 3) per item with HAVING (27) (unreachable: the failed open, the aggregate without its row)
EXTRA="--max-execs 70" BUDGET=20s NO_REPLAY=1 run invoice invoice.sql 2 13 18 20 27
# numbers read as text (tests/db/callback.c): strtol and sscanf in a sqlite3_exec callback, atof of a DECIMAL and atoi of an
# id bound back as a parameter from sqlite3_get_table, a NULL rate tested by its pointer; the failed open, exec, get_table
# and prepare (injected faults: checked by the exact count, 0 uncovered)
FAULTS=1 NO_REPLAY=1 EXTRA="--max-execs 220" BUDGET=20s run callback callback.sql 0 11 14 24 30 35
# SQLite's date functions of DATE columns: strftime('%Y') in WHERE, strftime('%m') and a julianday() difference read back
# (> 7 nights), COUNT(DISTINCT guest) below COUNT(*) (unreachable: the failed open, the aggregate without its row)
NO_REPLAY=1 EXTRA="--max-execs 22" BUDGET=30s run stays stays.sql 2 20 22
# julianday() of a bound date minus a DATE cell read back (> 30 days late), MAX of a DATE kept as text in a scalar
# subquery (two members due last), SELECT DISTINCT upper(substr(title, 1, 1)) (two initials, one 'X'), a GROUP BY
# result computed from its key (upper(tier)) (unreachable: the failed open, a NULL text of a NOT NULL column)
# SELECT DISTINCT over an inner join (18: two cities, 19: Oslo) and over a LEFT JOIN (26: two venues without events)
# (unreachable: the failed open)
# (the two venues without events come from the grown layout: with 3 slots the search stays with the strcmp of the
# first query's rows once Oslo is found; 60 runs covered them, the first layout stalls after 40% of the count)
NO_REPLAY=1 EXTRA="--max-execs 80" BUDGET=60s run venues venues.sql 1 18 19 24 26
# dates in TEXT columns (tests/db/visits.c): strftime()/julianday() of them understood (17: May or not; 25: an evening
# visit) (unreachable: the failed open, a NULL strftime of a valid date, the failed step of a COUNT)
NO_REPLAY=1 EXTRA="--max-execs 10" BUDGET=30s run visits visits.sql 3 17 25
grep -q "TEXT column visits.at holds 'YYYY-MM-DD HH:MM:SS' datetimes" "$W/visits.err" || { cat "$W/visits.err"; fail "visits: no note on the datetime column"; }
# an e-mail address bound from a constant of 17 bytes (tests/db/accounts.c): the column's cells hold it, the account is
# found (14), pro or not (15), rich or not (16) (unreachable: the failed open)
NO_REPLAY=1 EXTRA="--max-execs 30" BUDGET=20s run accounts accounts.sql 1 14 15 16
grep -q "TEXT cells of accounts.email hold 17 bytes" "$W/accounts.err" || { cat "$W/accounts.err"; fail "accounts: no note on the e-mail cells"; }
# ... and the top borrower by COUNT(*) DESC under LIMIT 1 (54: two loans, 55: a member id > 100)
EXTRA="--max-execs 25" BUDGET=60s run loans loans.sql 2 18 32 42 43 47 54 55
# some fixture has two borrowers, the top one (as SQLite orders the groups) with two loans
found=0
for f in "$W"/loans/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" <"$D/loans.sql" && sqlite3 "$W/hand.db" <"$f" || fail "loans: $f does not load"
    [ "$(sqlite3 "$W/hand.db" "SELECT (SELECT COUNT(*) FROM loans GROUP BY member_id ORDER BY COUNT(*) DESC, member_id LIMIT 1) = 2
        AND (SELECT COUNT(DISTINCT member_id) FROM loans) = 2")" = 1 ] && found=1
done
[ $found = 1 ] || fail "loans: no fixture whose top borrower has two loans beside another borrower"
# an upsert (tests/db/upsert.c): ON CONFLICT(sku) DO UPDATE ... RETURNING qty reads the row written: restocked (22: an
# SK1 row in the fixture) or new (23); REPLACE INTO read back (26: another row at 7); a WITH query with replace(),
# instr() and CAST(price * 10 AS INTEGER) (34-38) (unreachable: the failed open and prepares, a RETURNING step without
# its row, the COUNT(*) without its row)
BUDGET=6s run upsert upsert.sql 6 22 23 34 36 37 38
jq -e '[.coverage.sites[] | select(.line == 26) | .covered[0]] | any' "$W/upsert/report.json" >/dev/null ||
    fail "upsert: the replaced row never beside another at 7"
grep -q "'SK1'" "$W"/upsert/tests/test-*.sql || fail "upsert: no fixture holding SK1 (restocked)"
# UPDATE ... RETURNING (tests/db/returning.c): a row hit or not (17), its new qty read back (18: sold out); DELETE ...
# RETURNING's rows counted (30: two), with the failed open and prepares (injected faults)
FAULTS=1 BUDGET=3s run returning upsert.sql 0 17 18 28 30
# a row inserted without its DEFAULT CURRENT_TIMESTAMP and expression columns (tests/db/notes.c) stays tracked, those
# cells the engine's values: its qty read back is the program's input (43: 42); an INSERT ... SELECT of expressions and
# a parameter is tracked (understood) and read back (22)
NO_REPLAY=1 FAULTS=1 EXTRA="--max-execs 350" BUDGET=30s run notes notes.sql 0 22 33 35 37 43
# a join of four tables grouped per customer with group_concat() read concretely (19: over 100) and ORDER BY a computed
# column's alias with LIMIT (27: the dearest product over 50) (tests/db/orders4.c)
NO_REPLAY=1 FAULTS=1 EXTRA="--max-execs 25" BUDGET=30s run orders4 orders4.sql 0 19 23 27
# an INSERT whose foreign key (PRAGMA foreign_keys = ON) has its parent row or not (tests/db/moves.c, 10) (unreachable:
# the failed open)
NO_REPLAY=1 BUDGET=3s run moves upsert.sql 1 10
# (copies, tally, daily: Z3 takes 1-3 s per query on these joins; the default 2 s limit timed out 5 of tally's 12
# runs' queries at a load of 5 and left line 16 half covered, so 10 s)
# INSERT ... SELECT over a join of two tables (tests/db/copies.c): how many rows it copied (16: none, 18: more than one)
# and the copies read back (22); the failed open, INSERT and prepare are not reached
EXTRA="--max-execs 12 --solver-timeout 10s" BUDGET=60s run copies copies.sql 5 16 18 22
# INSERT ... SELECT of a GROUP BY over that join (tests/db/tally.c): how many groups it copied (16, 18) and a group's
# SUM read back (23)
NO_REPLAY=1 EXTRA="--max-execs 12 --solver-timeout 10s" BUDGET=60s run tally copies.sql 3 16 18 23
# GROUP BY over a table holding rows the program copied into it and the fixture's rows (tests/db/daily.c): a group of
# more than two rows (18), a SUM over 100 (20)
EXTRA="--max-execs 32 --solver-timeout 10s" BUDGET=60s run daily copies.sql 3 16 18 20
# aggregates over the groups of a subquery in FROM (tests/db/busiest.c): MAX of a COUNT and COUNT(*) of the groups (16:
# a day with three shifts, 18: three days), MIN of a SUM, the subquery without an alias (24: also a group's SUM that
# overflows, SQLite's "integer overflow" error of the step, modelled); the failed open and prepares, and an aggregate
# without its row, are not reached; all come in 3 row slots by the 30th run (before the group SUM's overflow was
# modelled the error came from a divergence only, and a run count that let the layout grow to 6 slots spent its
# budget on their time-outs)
EXTRA="--max-execs 30" BUDGET=20s run busiest busiest.sql 4 14 16 18 24
# that overflow is a modelled path, not a divergence: some fixture makes SQLite fail the MIN(h) step
jq -e '.divergences == 0' "$W/busiest/report.json" >/dev/null || fail "busiest: divergences $(jq -c .divergences "$W/busiest/report.json")"
found=0
for f in "$W"/busiest/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" <"$D/busiest.sql" && sqlite3 "$W/hand.db" <"$f" || fail "busiest: $f does not load"
    sqlite3 "$W/hand.db" "SELECT MIN(h) FROM (SELECT day, SUM(hours) h FROM shifts WHERE person <> 'boss' GROUP BY day)" \
        2>&1 | grep -q "integer overflow" && found=1
done
[ $found = 1 ] || fail "busiest: no fixture whose group SUM overflows"
# aggregates over a UNION ALL inside WITH (16: COUNT(*) > 2, 18: MIN of a date, 19: SUM of a column and a literal;
# 32: coalesce(SUM(n), 0) below 0) and over a UNION in FROM (26: two people) (tests/db/wants.c) (unreachable: the failed
# open and prepares, the aggregates without their row); it ends after 28 runs (all were covered by the 19th), not on
# the clock
NO_REPLAY=1 EXTRA="--max-execs 28" BUDGET=60s run wants wants.sql 7 16 18 19 26 32
# more red members than row slots and a name longer than a TEXT cell, both seen only in C (tests/db/club.c): the
# exploration stalls with 3 slots of 8 bytes, starts again with a larger layout and its tests run first (20: no
# member or some, 22: a team of 5, 26: a 13-byte name) (unreachable: the failed open and prepare)
EXTRA="--max-execs 80" BUDGET=60s run club club.sql 2 20 22 26
jq -e '.database.layouts_before | length >= 1 and .[0].row_slots_per_table == 3' "$W/club/report.json" >/dev/null ||
    fail "club: no earlier layout in report.json: $(jq -c '.database' "$W/club/report.json")"
grep -q "exploring again with 6 row slots and 16-byte texts" "$W/club.err" || { cat "$W/club.err"; fail "club: growth not said"; }
found=0
for f in "$W"/club/tests/test-*.sql; do
    rm -f "$W/hand.db"
    sqlite3 "$W/hand.db" <"$D/club.sql" && sqlite3 "$W/hand.db" <"$f" || fail "club: $f does not load"
    [ "$(sqlite3 "$W/hand.db" "SELECT COUNT(*) > 4 FROM members WHERE team = 'red'")" = 1 ] && found=1
done
[ $found = 1 ] || fail "club: no fixture with five red members"
# the same with the layout kept: both branches stay one-sided
"$SYMPATH" run "$D/club.c" --db "$D/club.sql" -o "$W/club_fixed" --budget 20s --max-execs 80 --no-db-grow --no-db-faults --no-progress \
    2>"$W/club_fixed.err" || { cat "$W/club_fixed.err"; fail "club --no-db-grow exited with $?"; }
jq -e '.coverage.branches_covered == .coverage.branches_total - 4 and (.database.layouts_before | length) == 0' \
    "$W/club_fixed/report.json" >/dev/null || fail "club --no-db-grow: $(jq -c '.coverage.branches_covered' "$W/club_fixed/report.json")"
echo "ok [db_sql]: ORDER BY + LIMIT/OFFSET, LEFT JOIN, subqueries, GROUP BY/HAVING, DISTINCT, UNION, transactions, computed columns, aggregates of expressions, date functions, COUNT(DISTINCT), MAX of texts, DISTINCT of expressions, upserts and WITH understood, every reachable branch, fixtures load, replay agrees"
