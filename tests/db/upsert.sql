-- upsert.sql: a shop's stock levels (tests/db/upsert.c: ON CONFLICT DO UPDATE, INSERT OR REPLACE, a WITH query).
CREATE TABLE stock (
    sku TEXT PRIMARY KEY,
    qty INTEGER NOT NULL CHECK (qty >= 0),
    price REAL NOT NULL DEFAULT 1.0
);
