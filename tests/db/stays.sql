-- stays.sql: hotel stays, two DATE columns (arrival and departure) that queries take apart with date functions.
CREATE TABLE stays (
    id INTEGER PRIMARY KEY,
    guest TEXT NOT NULL,
    arrival DATE NOT NULL,
    departure DATE
);
