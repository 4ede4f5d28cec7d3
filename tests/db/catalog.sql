-- catalog.sql: products with REAL prices (IEEE doubles in the fixture), a CHECK on the price, a REAL discount.
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    price REAL NOT NULL CHECK (price >= 0),
    qty INTEGER NOT NULL CHECK (qty BETWEEN 0 AND 1000),
    discount REAL CHECK (discount IS NULL OR (discount > 0.0 AND discount < 0.5))
);
