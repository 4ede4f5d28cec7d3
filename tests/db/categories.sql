CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    category TEXT NOT NULL CHECK (length(category) BETWEEN 1 AND 5),
    price INTEGER NOT NULL CHECK (price > 0)
);
