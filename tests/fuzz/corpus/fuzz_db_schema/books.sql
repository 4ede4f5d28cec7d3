-- books.sql: the schema of the ISSTA 2007 Figure 1 example (Emmi, Majumdar, Sen).
CREATE TABLE books (
    isbn INTEGER PRIMARY KEY,
    title TEXT,
    publisher TEXT NOT NULL,
    subject TEXT,
    inventory INTEGER NOT NULL
);
