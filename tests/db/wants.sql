-- wants.sql: enrolments and a waiting list of courses (tests/db/wants.c: aggregates over a UNION inside WITH or in FROM).
CREATE TABLE enrolled (id INTEGER PRIMARY KEY, student TEXT NOT NULL, course INTEGER NOT NULL, day DATE NOT NULL,
                       seats INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 5));
CREATE TABLE waiting (id INTEGER PRIMARY KEY, student TEXT NOT NULL, course INTEGER NOT NULL, since DATE NOT NULL);
