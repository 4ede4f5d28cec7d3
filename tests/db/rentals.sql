-- rentals.sql: equipment rentals with DATE and TIMESTAMP columns that queries take apart with date functions.
CREATE TABLE rentals (
    id INTEGER PRIMARY KEY,
    item TEXT NOT NULL,
    start_day DATE NOT NULL,
    end_day DATE,
    created_at TIMESTAMP NOT NULL
);
