#!/bin/sh
# make_db.sh: builds the SQLite database of a data-mode program (rare, two_cols, exhaust) with the sqlite3 CLI, deterministically.
# Usage: sh tests/programs/data/make_db.sh NAME ROWS OUT.db
#   rare      orders(id, amount, status, country): ROWS rows (a multiple of 20, at least 2000); rare rows
#             at fixed ids away from the start: 5 refunds (amount < 0), 20 orders above 10000, 10 'fraud',
#             4 from NZ above 5000 (NZ rows are 2% and amounts above 5000 about 40%, but never together
#             elsewhere)
#   two_cols  pairs(id, a, b): ROWS rows (a multiple of 20, at least 2000); a + b > 100 on 14 rows, 4 of
#             them with a == b; a == b alone on 4% of the rows
#   exhaust   sensors(id, reading, unit): ROWS rows (e.g. 50); readings -18, -8 and 0..899, never above 1000
# Plain recursive CTEs (no generate_series), so Debian's sqlite3 3.40 builds them. An existing OUT is replaced.
set -eu
[ $# = 3 ] || { echo "usage: make_db.sh NAME ROWS OUT.db" >&2; exit 2; }
name=$1 rows=$2 out=$3
case $rows in ''|*[!0-9]*) echo "make_db.sh: ROWS must be a number" >&2; exit 2 ;; esac
rm -f "$out" "$out-journal" "$out-wal" "$out-shm"
case $name in
rare|two_cols)
    if [ "$rows" -lt 2000 ] || [ $((rows % 20)) != 0 ]; then
        echo "make_db.sh: $name needs ROWS >= 2000 and a multiple of 20" >&2; exit 2
    fi ;;
esac
case $name in
rare)
    # residues modulo ROWS/20 of the four rare kinds differ (-3, -7, -11, -29): no row is two of them
    sqlite3 "$out" <<SQL
CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL, status TEXT NOT NULL, country TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO orders (id, amount, status, country)
SELECT i,
  CASE WHEN i % ($rows / 5) = $rows / 5 - 3 THEN -20 - i % 500
       WHEN i % ($rows / 20) = $rows / 20 - 7 THEN 20000 + i % 1000
       WHEN i % ($rows / 4) = $rows / 4 - 29 THEN 7500
       WHEN i % 50 = 0 THEN (i * 31) % 5000 + 1
       ELSE (i * 7919) % 9000 + 1 END,
  CASE WHEN i % ($rows / 10) = $rows / 10 - 11 THEN 'fraud'
       ELSE (CASE i % 4 WHEN 0 THEN 'paid' WHEN 1 THEN 'shipped' WHEN 2 THEN 'pending' ELSE 'cancelled' END) END,
  CASE WHEN i % ($rows / 4) = $rows / 4 - 29 THEN 'NZ'
       WHEN i % 50 = 0 THEN 'NZ'
       ELSE (CASE i % 7 WHEN 0 THEN 'US' WHEN 1 THEN 'DE' WHEN 2 THEN 'FR' WHEN 3 THEN 'NL' WHEN 4 THEN 'JP'
                        WHEN 5 THEN 'AU' ELSE 'GB' END) END
FROM n;
SQL
    ;;
two_cols)
    sqlite3 "$out" <<SQL
CREATE TABLE pairs (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b INTEGER NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO pairs (id, a, b)
SELECT i,
  CASE WHEN i % ($rows / 4) = $rows / 4 - 31 THEN 77
       WHEN i % ($rows / 10) = $rows / 10 - 13 THEN 60
       ELSE i % 50 END,
  CASE WHEN i % ($rows / 4) = $rows / 4 - 31 THEN 77
       WHEN i % ($rows / 10) = $rows / 10 - 13 THEN 70 + i % 5
       ELSE (i * 7) % 50 END
FROM n;
SQL
    ;;
exhaust)
    sqlite3 "$out" <<SQL
CREATE TABLE sensors (id INTEGER PRIMARY KEY, reading INTEGER NOT NULL, unit TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO sensors (id, reading, unit)
SELECT i,
  CASE WHEN i % 10 = 3 THEN -5 - i % 20 ELSE (i * 37) % 900 END,
  CASE i % 5 WHEN 1 THEN 'K' WHEN 2 THEN 'F' ELSE 'C' END
FROM n;
SQL
    ;;
*)
    echo "make_db.sh: unknown NAME '$name' (rare, two_cols, exhaust)" >&2; exit 2 ;;
esac
