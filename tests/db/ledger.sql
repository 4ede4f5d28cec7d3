-- ledger.sql: orders with DECIMAL(10,2) totals (doubles in the fixture) and a CHECK with a decimal literal.
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    total DECIMAL(10,2) NOT NULL CHECK (total >= 0.50),
    fee NUMERIC(6,2)
);
