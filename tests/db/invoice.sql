-- invoice.sql: invoice lines with a DECIMAL price, an INTEGER price in cents and a quantity.
CREATE TABLE lines (
    id INTEGER PRIMARY KEY,
    item TEXT NOT NULL,
    price DECIMAL(8,2) NOT NULL CHECK (price >= 0),
    cents INTEGER NOT NULL CHECK (cents >= 0),
    qty INTEGER NOT NULL CHECK (qty BETWEEN 1 AND 100)
);
