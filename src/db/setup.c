/* setup.c: a run's database setup: the schema checked and copied under OUT/build, the query log, the executors' environment. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "util/util.h"
#include "proto/env.h"

/* Write the schema's DDL to abs/schema.sql (d->schema_copy). 0 or -1 with *err. */
static int copy_schema(const char *abs, db_setup *d, char **err)
{
    snprintf(d->schema_copy, sizeof d->schema_copy, "%s/schema.sql", abs);
    if (util_write_atomic(d->schema_copy, d->schema->ddl, strlen(d->schema->ddl))) {
        *err = util_strf("cannot write %s: %s", d->schema_copy, strerror(errno));
        return -1;
    }
    return 0;
}

int db_setup_program_sql(db_setup *d, const char *sqls, FILE *notes, char **err)
{
    *err = NULL;
    if (!sqls || !d->schema) return 0;
    char *marks = db_text_needs_from_program(d->schema, sqls);
    if (!marks) {
        *err = util_strf("out of memory");
        return -1;
    }
    if (!*marks) {
        free(marks);
        return 0;
    }
    char *ddl = util_strf("%s\n%s", d->schema->ddl, marks);
    for (const char *m = marks; (m = strstr(m, DB_TEXT_NEED_MARK)); m++) { /* TABLE\tCOLUMN\tN */
        const char *a = m + strlen(DB_TEXT_NEED_MARK), *b = strchr(a, '\t'), *c = b ? strchr(b + 1, '\t') : NULL;
        if (b && c && atoi(c + 1) > (int)d->limits.text) /* a shorter need leaves the cells as they are */
            fprintf(notes,
                    "sympath: TEXT cells of %.*s.%.*s hold %d bytes (the program's SQL compares it with longer texts, "
                    "or with a parameter the program may bind to a longer constant)\n",
                    (int)(b - a), a, (int)(c - b - 1), b + 1, atoi(c + 1) < DB_TEXT_MAX ? atoi(c + 1) : DB_TEXT_MAX);
    }
    for (const char *m = marks; (m = strstr(m, DB_DATE_NEED_MARK)); m++) { /* TABLE\tCOLUMN\tKIND */
        const char *a = m + strlen(DB_DATE_NEED_MARK), *b = strchr(a, '\t'), *c = b ? strchr(b + 1, '\t') : NULL;
        if (b && c)
            fprintf(notes, "sympath: TEXT column %.*s.%.*s holds %s (the program's SQL passes it to date functions)\n",
                    (int)(b - a), a, (int)(c - b - 1), b + 1,
                    atoi(c + 1) == DB_DATE_DATETIME ? "'YYYY-MM-DD HH:MM:SS' datetimes" : "'YYYY-MM-DD' dates");
    }
    free(marks);
    if (!ddl) {
        *err = util_strf("out of memory");
        return -1;
    }
    free(d->schema->ddl);
    d->schema->ddl = ddl;
    d->fixture_inputs = db_fixture_ninputs(d->schema, &d->limits); /* the replay skips this many */
    char dir[sizeof d->schema_copy];
    memcpy(dir, d->schema_copy, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    return copy_schema(dir, d, err);
}

int db_setup_run(const char *db_path, int pg, const char *build_dir, db_setup *d, FILE *notes, char **err)
{
    *err = NULL;
    char abs[PATH_MAX];
    if (!realpath(build_dir, abs)) {
        *err = util_strf("%s: %s", build_dir, strerror(errno));
        return -1;
    }
    char *why = NULL;
    if (pg) {
        char *ddl = NULL;
        if (db_setup_pg(db_path, abs, d, &ddl, notes, err)) return -1;
        int rc = db_schema_from_ddl(ddl, &d->schema, &why);
        free(ddl);
        if (rc) {
            *err = util_strf("--db %s: the tables read from the server: %s", db_path, why ? why : "?");
            free(why);
            return -1;
        }
    } else if (db_schema_load(db_path, &d->schema, &why)) {
        *err = util_strf("--db %s", why ? why : "cannot load the schema");
        free(why);
        return -1;
    }
    if (copy_schema(abs, d, err)) return -1;
    char *dir = util_strf("%s/db", abs);
    if (!dir || util_mkdir_p(dir)) {
        *err = util_strf("cannot create %s/db: %s", abs, strerror(errno));
        free(dir);
        return -1;
    }
    snprintf(d->log_path, sizeof d->log_path, "%s/queries.log", dir);
    snprintf(d->results_dir, sizeof d->results_dir, "%s", dir);
    int fd = open(d->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        *err = util_strf("cannot create %s: %s", d->log_path, strerror(errno));
        free(dir);
        return -1;
    }
    close(fd);
    d->fixture_inputs = db_fixture_ninputs(d->schema, &d->limits);
    char num[32];
    setenv(SYMPATH_ENV_DB_SCHEMA, d->schema_copy, 1);
    setenv(SYMPATH_ENV_DB_DIR, dir, 1);
    setenv(SYMPATH_ENV_DB_LOG, d->log_path, 1);
    snprintf(num, sizeof num, "%u", d->limits.rows);
    setenv(SYMPATH_ENV_DB_ROWS, num, 1);
    snprintf(num, sizeof num, "%u", d->limits.text);
    setenv(SYMPATH_ENV_DB_TEXT, num, 1);
    setenv(SYMPATH_ENV_DB_FAULTS, d->no_faults ? "0" : "1", 1);
    free(dir);
    for (int i = 0; i < d->schema->nignored; i++) fprintf(notes, "sympath: note: %s\n", d->schema->ignored[i]);
    if (d->pg)
        fprintf(notes,
                "sympath: PostgreSQL fixture mode: each run gets a fresh schema %s_<executor> in the scratch "
                "database%s%s\n",
                d->prefix, d->scratch ? " " : " sympath_scratch", d->scratch ? d->scratch : "");
    fprintf(notes, "sympath: database schema %s: %d table%s, %u row slots per table, %u bytes per TEXT cell\n", db_path,
            d->schema->ntables, d->schema->ntables == 1 ? "" : "s", d->limits.rows, d->limits.text);
    return 0;
}

int db_setup_data(const char *db_abs, const char *db_name, const char *build_dir, db_setup *d, char **err)
{
    *err = NULL;
    char head[16] = {0};
    FILE *hf = fopen(db_abs, "rb");
    size_t got = hf ? fread(head, 1, sizeof head, hf) : 0;
    if (hf) fclose(hf);
    if (got != sizeof head || memcmp(head, "SQLite format 3", 16)) {
        *err = util_strf("--db %s: not an SQLite database file (a schema in SQL is for `sympath run --db`)", db_name);
        return -1;
    }
    char *why = NULL;
    if (db_schema_load(db_abs, &d->schema, &why)) {
        *err = util_strf("--db %s: %s", db_name, why ? why : "cannot read the schema");
        free(why);
        return -1;
    }
    char abs[PATH_MAX];
    if (!realpath(build_dir, abs)) {
        *err = util_strf("%s: %s", build_dir, strerror(errno));
        return -1;
    }
    if (copy_schema(abs, d, err)) return -1;
    setenv(SYMPATH_ENV_DATA_SCHEMA, d->schema_copy, 1);
    return 0;
}

void db_setup_free(db_setup *d)
{
    db_schema_free(d->schema);
    d->schema = NULL;
    free(d->scratch_conninfo);
    d->scratch_conninfo = NULL;
}

int db_setup_grow(db_setup *d, const db_limits *to, char **err)
{
    *err = NULL;
    d->limits = *to;
    d->fixture_inputs = db_fixture_ninputs(d->schema, &d->limits);
    char num[32];
    snprintf(num, sizeof num, "%u", d->limits.rows);
    setenv(SYMPATH_ENV_DB_ROWS, num, 1);
    snprintf(num, sizeof num, "%u", d->limits.text);
    setenv(SYMPATH_ENV_DB_TEXT, num, 1);
    int fd = open(d->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        *err = util_strf("cannot empty %s: %s", d->log_path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}
