#!/bin/bash
# test_db_renew.sh: `sympath run --db` on an UPDATE moving a DATE by 30 days (date(expires, '+30 days')) under
# CHECK (expires > joined), then the row read back (tests/db/renew.c): the UPDATE refused or not, changing a row or not,
# the fee and the new date (compared in SQL) read back, each both ways within 30 runs. Before the day number of a
# date + n followed it into the row (db_val.day), every query from the UPDATE on held the civil-date conversion's
# divisions and timed out: one test, 6 of 16 branch directions.
test=db_renew
. "$SRC/tests/e2e/db_lines.sh"

# the UPDATE refused (17), it changed member 1 or not (19), the row read back: its fee (26) and its new date (27)
# (one row slot: the queries hold one row's date arithmetic, not three)
EXTRA="--db-rows 1" run renew 30 17 19 26 27
echo "ok [db_renew]: the renewal UPDATE refused or not, changing a row or not, its row read back, every line both ways"
