-- shop.sql: users and their orders, with NOT NULL, UNIQUE and FOREIGN KEY constraints.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    age INTEGER
);
CREATE TABLE orders (
    oid INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    amount INTEGER NOT NULL
);
