-- copies.sql: products, their orders and a table of sales copied from a join of the two (tests/db/copies.c).
CREATE TABLE products (id INTEGER PRIMARY KEY, category TEXT NOT NULL, price INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products(id), day TEXT NOT NULL, qty INTEGER NOT NULL);
CREATE TABLE sales (day TEXT NOT NULL, category TEXT NOT NULL, amount INTEGER NOT NULL);
