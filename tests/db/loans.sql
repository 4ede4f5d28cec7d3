-- loans.sql: members, books and loans with DATE columns as text (tests/db/loans.c).
CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    tier TEXT NOT NULL DEFAULT 'basic' CHECK (tier IN ('basic', 'gold'))
);
CREATE TABLE loans (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id),
    title TEXT NOT NULL,
    due_date DATE NOT NULL,
    returned INTEGER NOT NULL DEFAULT 0 CHECK (returned IN (0, 1))
);
