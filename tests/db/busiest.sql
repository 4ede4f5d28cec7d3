-- busiest.sql: shifts of staff by day (tests/db/busiest.c: aggregates over the groups of a subquery in FROM).
CREATE TABLE shifts (id INTEGER PRIMARY KEY, day TEXT NOT NULL, person TEXT NOT NULL, hours INTEGER NOT NULL);
