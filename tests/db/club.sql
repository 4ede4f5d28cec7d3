-- club.sql: members of teams (tests/db/club.c: more red members than row slots, a name longer than a TEXT cell).
CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL, team TEXT);
