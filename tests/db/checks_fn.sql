-- checks_fn.sql: checks.sql's tables with roles user, admin and auditor, and a CHECK calling hex() (not modelled: the role is
-- never 'auditor'), for tests/e2e/test_db_check.sh.
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 6),
    role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin', 'auditor'))
                                      CHECK (hex(role) <> '61756469746F72'),
    quota INTEGER DEFAULT 10 CHECK (quota IS NULL OR quota * 2 <= 100)
);
CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    sku TEXT CHECK (sku LIKE 'SK%' AND NOT (sku LIKE '%x%')),
    inventory INTEGER NOT NULL CHECK (inventory >= 0),
    lo INTEGER NOT NULL,
    hi INTEGER NOT NULL,
    CONSTRAINT range_ok CHECK (lo <= hi AND hi - lo < 1000)
);
