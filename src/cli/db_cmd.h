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
} db_setup;

/*
 * Load the schema named by --db (DDL text or an SQLite file, never written: db_schema_load),
 * write its DDL to build_dir/schema.sql (atomically), create build_dir/db/ for the runs'
 * databases, empty the query log, and export SYMPATH_DB_SCHEMA, SYMPATH_DB_DIR,
 * SYMPATH_DB_LOG, SYMPATH_DB_ROWS and SYMPATH_DB_TEXT for the executors (absolute paths).
 * Returns 0, or -1 after printing a clear message on stderr (this is the CLI edge).
 */
int db_setup_run(const char *db_path, const char *build_dir, db_setup *out);

#endif
