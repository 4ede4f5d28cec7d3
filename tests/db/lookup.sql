-- lookup.sql: parcels and their scans (tests/db/lookup.c).
CREATE TABLE parcels (
    id INTEGER PRIMARY KEY,
    tracking TEXT NOT NULL UNIQUE,
    weight INTEGER NOT NULL CHECK (weight > 0 AND weight <= 70),
    service TEXT NOT NULL CHECK (service IN ('standard', 'express')),
    dest TEXT NOT NULL,
    shipped DATE NOT NULL,
    delivered DATE
);
CREATE TABLE scans (
    id INTEGER PRIMARY KEY,
    parcel_id INTEGER NOT NULL REFERENCES parcels(id),
    place TEXT NOT NULL
);
