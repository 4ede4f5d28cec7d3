-- renew.sql: members whose renewal moves a DATE and lowers a fee in cents under CHECKs (tests/db/renew.c).
CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    plan TEXT NOT NULL CHECK (plan IN ('basic', 'premium')),
    joined DATE NOT NULL,
    expires DATE NOT NULL,
    fee INTEGER NOT NULL CHECK (fee >= 0 AND fee <= 20000),
    CHECK (expires > joined)
);
