-- callback.sql: users and their orders, each order with a DECIMAL rate (or NULL).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    age INTEGER NOT NULL
);
CREATE TABLE orders (
    oid INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    amount INTEGER NOT NULL,
    rate DECIMAL(4,2)
);
