-- scale_db.sql: schema of bench/programs/scale_db.c (customers, products, orders of a small shop).
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    tier TEXT NOT NULL CHECK (tier IN ('gold', 'silver', 'basic')),
    country TEXT NOT NULL,
    credit INTEGER NOT NULL CHECK (credit >= 0 AND credit <= 1000000)
);
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    price INTEGER NOT NULL CHECK (price > 0 AND price <= 100000),
    stock INTEGER NOT NULL CHECK (stock >= 0),
    category TEXT NOT NULL
);
CREATE TABLE orders (
    oid INTEGER PRIMARY KEY,
    cust INTEGER NOT NULL REFERENCES customers(id),
    product INTEGER NOT NULL REFERENCES products(id),
    qty INTEGER NOT NULL CHECK (qty > 0 AND qty <= 1000),
    status TEXT NOT NULL
);
