-- tasks.sql: tasks with a DATE due day and a TIMESTAMP of completion (ISO-8601 text cells in the fixture).
CREATE TABLE tasks (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    due DATE NOT NULL,
    done_at TIMESTAMP
);
