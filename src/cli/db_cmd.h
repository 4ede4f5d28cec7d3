/* db_cmd.h: the CLI side of `sympath run --db`: schema checks, the schema copy, the executors' environment. */
#ifndef SYMPATH_DB_CMD_H
#define SYMPATH_DB_CMD_H

#include <limits.h>
#include <stddef.h>
#include "db/db.h"

/* What `run --db` prepared for the exploration and for replay.conf. */
typedef struct db_setup {
    db_schema *schema;          /* NULL when --db was not given */
    db_limits limits;
    char schema_copy[4200];     /* OUT/build/schema.sql: the DDL every run (and replay) starts from */
    char log_path[PATH_MAX + 32];      /* OUT/build/db/queries.log */
    size_t fixture_inputs;      /* inputs the fixture takes in a test vector */
    /* PostgreSQL (--db is a conninfo): fixture mode on the server (db_cmd_pg.c, runtime db_pq.c) */
    int pg;                     /* 1 when --db is a PostgreSQL conninfo */
    const char *scratch;        /* --db-scratch CONNINFO, or NULL: database sympath_scratch on the same server */
    char *scratch_conninfo;     /* the scratch database's conninfo the runs use (malloc'ed) */
    char pg_ddl_path[4200];     /* OUT/build/schema_pg.sql: the tables as PostgreSQL creates them */
    char results_dir[PATH_MAX + 32]; /* OUT/build/db: results-<executor>.txt, each run's SELECT results */
    char prefix[64];            /* sympath_<pid>: the runs' schemas are <prefix>_<fork server pid> */
} db_setup;

/*
 * Load the schema named by --db (DDL text or an SQLite file, never written: db_schema_load),
 * write its DDL to build_dir/schema.sql (atomically), create build_dir/db/ for the runs'
 * databases, empty the query log, and export SYMPATH_DB_SCHEMA, SYMPATH_DB_DIR,
 * SYMPATH_DB_LOG, SYMPATH_DB_ROWS and SYMPATH_DB_TEXT for the executors (absolute paths).
 * Returns 0, or -1 after printing a clear message on stderr (this is the CLI edge).
 */
int db_setup_run(const char *db_path, const char *build_dir, db_setup *out);

/*
 * PostgreSQL (--db a conninfo, data_is_postgres): the user's tables read over a read-only
 * connection (data_pg_connect, db_pg_read_schema); their SQLite-style DDL goes to *ddl
 * (malloc'ed, for db_schema_from_ddl) and the PostgreSQL DDL to d->pg_ddl_path. The scratch
 * database (d->scratch, or sympath_scratch on the user's server, created with CREATE
 * DATABASE ... TEMPLATE template0 LC_COLLATE 'C' when missing) is checked to be reachable,
 * writable and not the user's database; its conninfo goes to d->scratch_conninfo. Exports
 * SYMPATH_DB_PG_SCRATCH, SYMPATH_DB_PG_DDL and SYMPATH_DB_PG_PREFIX (db_pq.h). Returns 0, or
 * -1 after a clear message on stderr (no tables, role may not create the database, ...).
 */
int db_setup_pg(const char *conninfo, const char *build_dir_abs, db_setup *d, char **ddl);

/* After the exploration: drop the runs' schemas (<prefix>_*) from the scratch database.
 * Messages on stderr; never fails the command. */
void db_cleanup_pg(const db_setup *d);

#endif
