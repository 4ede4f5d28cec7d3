/* db_cmd.c: `sympath run --db`: schema checks, the schema copy under OUT/build, the executors' environment. */
#define _GNU_SOURCE
#include "db_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/data.h"
#include "emit/emit.h"

int db_setup_run(const char *db_path, const char *build_dir, db_setup *d)
{
    char *err = NULL;
    char abs[PATH_MAX];
    if (!realpath(build_dir, abs)) {
        fprintf(stderr, "sympath run: %s: %s\n", build_dir, strerror(errno));
        return -1;
    }
    if (data_is_postgres(db_path)) {
        char *ddl = NULL;
        if (db_setup_pg(db_path, abs, d, &ddl))
            return -1;
        int rc = db_schema_from_ddl(ddl, &d->schema, &err);
        free(ddl);
        if (rc) {
            fprintf(stderr, "sympath run: --db %s: the tables read from the server: %s\n", db_path, err ? err : "?");
            free(err);
            return -1;
        }
    } else if (db_schema_load(db_path, &d->schema, &err)) {
        fprintf(stderr, "sympath run: --db %s\n", err ? err : "cannot load the schema");
        free(err);
        return -1;
    }
    snprintf(d->schema_copy, sizeof d->schema_copy, "%s/schema.sql", abs);
    if (write_file_atomic(d->schema_copy, d->schema->ddl, strlen(d->schema->ddl))) {
        fprintf(stderr, "sympath run: cannot write %s: %s\n", d->schema_copy, strerror(errno));
        return -1;
    }
    char dir[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/db", abs);
    if (mkdir(dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "sympath run: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    snprintf(d->log_path, sizeof d->log_path, "%s/queries.log", dir);
    snprintf(d->results_dir, sizeof d->results_dir, "%s", dir);
    int fd = open(d->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "sympath run: cannot create %s: %s\n", d->log_path, strerror(errno));
        return -1;
    }
    close(fd);
    d->fixture_inputs = db_fixture_ninputs(d->schema, &d->limits);
    char num[32];
    setenv("SYMPATH_DB_SCHEMA", d->schema_copy, 1);
    setenv("SYMPATH_DB_DIR", dir, 1);
    setenv("SYMPATH_DB_LOG", d->log_path, 1);
    snprintf(num, sizeof num, "%u", d->limits.rows);
    setenv("SYMPATH_DB_ROWS", num, 1);
    snprintf(num, sizeof num, "%u", d->limits.text);
    setenv("SYMPATH_DB_TEXT", num, 1);
    for (int i = 0; i < d->schema->nignored; i++)
        fprintf(stderr, "sympath: note: %s\n", d->schema->ignored[i]);
    if (d->pg)
        fprintf(stderr, "sympath: PostgreSQL fixture mode: each run gets a fresh schema %s_<executor> in the scratch "
                        "database%s%s\n", d->prefix, d->scratch ? " " : " sympath_scratch", d->scratch ? d->scratch : "");
    fprintf(stderr, "sympath: database schema %s: %d table%s, %u row slots per table, %u bytes per TEXT cell\n",
            db_path, d->schema->ntables, d->schema->ntables == 1 ? "" : "s", d->limits.rows, d->limits.text);
    return 0;
}
