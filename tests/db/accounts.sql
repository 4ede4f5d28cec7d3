-- accounts.sql: accounts looked up by an e-mail address the program binds (tests/db/accounts.c).
CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, plan TEXT NOT NULL, credits INTEGER NOT NULL);
