-- visits.sql: dates declared TEXT, as SQLite schemas often do (tests/db/visits.c).
CREATE TABLE visits (
    id INTEGER PRIMARY KEY,
    who TEXT NOT NULL,
    day TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
