-- upsert.sql: a shop's stock levels and moves (tests/db/upsert.c: ON CONFLICT DO UPDATE, INSERT OR REPLACE, a WITH query; tests/db/moves.c: a foreign key).
CREATE TABLE stock (
    sku TEXT PRIMARY KEY,
    qty INTEGER NOT NULL CHECK (qty >= 0),
    price REAL NOT NULL DEFAULT 1.0
);
CREATE TABLE moves (
    id INTEGER PRIMARY KEY,
    sku TEXT NOT NULL REFERENCES stock(sku),
    n INTEGER NOT NULL
);
