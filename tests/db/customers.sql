CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    vip INTEGER NOT NULL DEFAULT 0 CHECK (vip IN (0, 1))
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    cust INTEGER NOT NULL REFERENCES customers(id),
    total INTEGER NOT NULL CHECK (total >= 0)
);
