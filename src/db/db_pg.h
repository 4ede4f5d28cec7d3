/* db_pg.h: fixture mode on PostgreSQL: the user's tables read from the server's catalog, as SQLite-style and PostgreSQL DDL. */
#ifndef SYMPATH_DB_PG_H
#define SYMPATH_DB_PG_H

#include <stdbool.h>
#include <libpq-fe.h>
#include "db.h"

/*
 * Read the tables of the connection's current schema (current_schema(), ordinary and
 * partitioned tables) from pg_catalog: columns with their types (format_type), NOT NULL,
 * PRIMARY KEY, UNIQUE and FOREIGN KEY constraints. Only SELECTs on the catalog are sent:
 * the caller passes a read-only connection (data_pg_connect) and nothing is written.
 *
 * *sqlite_ddl (for db_schema_from_ddl, which gives the fixture layout and its constraints,
 * Emmi, Majumdar and Sen, ISSTA 2007, section 4): one CREATE TABLE per table, columns in
 * order, each column's declared type naming its affinity and, for the runtime, the
 * PostgreSQL kind (db_pg_kind): int2 "SMALLINT", int4 "INT", int8 "BIGINT" (INTEGER
 * affinity; never "INTEGER", which SQLite would make an alias of its rowid), boolean
 * "BOOLEAN INT" (INTEGER), text/name "TEXT", varchar(n) "VARCHAR(n)", char(n) "CHARACTER(n)"
 * (TEXT), numeric/real/double precision "NUMERIC" (integer values: REAL affinity would make
 * the cells doubles, which the PostgreSQL runtime does not model yet), any other type "TEXT"; NOT NULL on the
 * column; PRIMARY KEY, UNIQUE and FOREIGN KEY as table constraints (a FOREIGN KEY to a
 * table outside the schema is left out).
 * *pg_ddl (run in each run's fresh schema): CREATE TABLE per table with the columns'
 * format_type, NOT NULL, PRIMARY KEY and UNIQUE, then one ALTER TABLE ... ADD FOREIGN KEY
 * ... DEFERRABLE INITIALLY DEFERRED per foreign key (fixture rows go in table by table).
 * CHECK constraints go into *sqlite_ddl only, each as a comment DB_PG_CHECK_MARK "CHECK (...) * /"
 * inside its CREATE TABLE (modelled by db_checks_load); defaults, indexes and triggers are not copied.
 * Both malloc'ed, ";\n"-separated statements. Returns 0, or -1 with *err (malloc'ed): the
 * server's message of a failed catalog query, or "no tables in schema X".
 */
int db_pg_read_schema(PGconn *conn, char **sqlite_ddl, char **pg_ddl, char **err);

/* What a fixture column is in PostgreSQL, from its declared type in *sqlite_ddl above. */
typedef enum db_pg_kind {
    DB_PG_INT8 = 0,  /* BIGINT, and any other integer-affinity type: the 64-bit cell as is */
    DB_PG_INT4,      /* INT: -2^31 .. 2^31-1 */
    DB_PG_INT2,      /* SMALLINT: -32768 .. 32767 */
    DB_PG_BOOL,      /* BOOLEAN INT: 0 or 1 (written 't' / 'f' by the server) */
    DB_PG_REAL,      /* NUMERIC (numeric, real, double precision): integer values, text form concrete */
    DB_PG_TEXT,      /* TEXT */
    DB_PG_VARCHAR,   /* VARCHAR(n): at most n bytes */
    DB_PG_CHAR       /* CHARACTER(n): exactly n bytes (the server pads shorter values) */
} db_pg_kind;

/* The kind of column c and, for VARCHAR(n)/CHARACTER(n), *n (else 0). */
db_pg_kind db_pg_column_kind(const db_column *c, unsigned *n);

/*
 * One INSERT statement for a row in PostgreSQL syntax: every non-NULL value is a quoted
 * literal ('12', 't', 'abc'), which the server converts to the column's type by its input
 * function, so booleans and numeric columns take the fixture's integers. Booleans are
 * written 't' / 'f'. malloc'ed; NULL when out of memory. `returning` appends
 * " RETURNING ctid" (the runtime maps result rows back to slots by it).
 */
char *db_pg_insert_sql(const db_table *t, const db_cell *cells, bool returning);

/*
 * The fixture of a test case as PostgreSQL INSERTs (db_pg_insert_sql), decoded as
 * db_fixture_sql does. malloc'ed; NULL when out of memory.
 */
char *db_pg_fixture_sql(const db_schema *s, const db_limits *l, const uint64_t *vals, size_t n, size_t start);

#endif
