-- clinic.sql: patients, doctors and appointments: CHECK with IN, DEFAULTs, DATE columns, REAL fees (tests/db/clinic.c, bench/db.sh).
CREATE TABLE patients (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    birth_date DATE NOT NULL,
    phone TEXT
);
CREATE TABLE doctors (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    specialty TEXT NOT NULL CHECK (specialty IN ('general', 'cardio', 'derma'))
);
CREATE TABLE appointments (
    id INTEGER PRIMARY KEY,
    patient_id INTEGER NOT NULL REFERENCES patients(id),
    doctor_id INTEGER NOT NULL REFERENCES doctors(id),
    day DATE NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'done', 'cancelled')),
    fee REAL NOT NULL DEFAULT 0 CHECK (fee >= 0)
);
