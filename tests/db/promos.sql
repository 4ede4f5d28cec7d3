-- promos.sql: schema of tests/db/promos.c (subqueries in FROM, a grouped LEFT JOIN read after an INSERT)
CREATE TABLE shops (
  id INTEGER PRIMARY KEY,
  city TEXT NOT NULL
);
CREATE TABLE promos (
  id INTEGER PRIMARY KEY,
  shop_id INTEGER NOT NULL REFERENCES shops(id),
  label TEXT NOT NULL,
  percent INTEGER NOT NULL CHECK (percent BETWEEN 1 AND 90)
);
