-- notes.sql: notes with DEFAULTs sympath does not model (CURRENT_TIMESTAMP, an expression), read back as the engine's values, and their archive (tests/db/notes.c).
CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    body TEXT NOT NULL,
    qty INTEGER NOT NULL CHECK (qty >= 0),
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    day_of_year INTEGER DEFAULT (CAST(strftime('%j', 'now') AS INTEGER))
);
CREATE TABLE archive (
    id INTEGER PRIMARY KEY,
    body TEXT NOT NULL,
    qty INTEGER NOT NULL
);
