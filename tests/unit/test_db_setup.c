/* test_db_setup.c: a run's database setup (src/db/setup.c): the schema copy, the query log, the executors' environment, clear errors. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "db/db.h"
#include "util/util.h"

static char dir[64];

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/sympath-dbsetup-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char *cmd = util_strf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    return rc;
}

static const char DDL[] =
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INT CHECK (hex(name) <> '00'));\n";

static void test_run_setup(void **state)
{
    char *schema = util_strf("%s/schema_in.sql", dir), *build = util_strf("%s/build", dir);
    assert_int_equal(util_write_atomic(schema, DDL, strlen(DDL)), 0);
    assert_int_equal(util_mkdir_p(build), 0);
    db_setup d;
    memset(&d, 0, sizeof d);
    d.limits.rows = 3;
    d.limits.text = 8;
    char *notes = NULL, *err = NULL;
    size_t nlen = 0;
    FILE *nf = open_memstream(&notes, &nlen);
    assert_int_equal(db_setup_run(schema, 0, build, &d, nf, &err), 0);
    fclose(nf);
    assert_null(err);
    assert_non_null(d.schema);
    assert_int_equal(d.schema->ntables, 1);
    assert_true(d.fixture_inputs > 0);
    /* the copy, the log and the environment, by absolute paths */
    char *copy = util_read_file(d.schema_copy, NULL);
    assert_non_null(copy);
    assert_non_null(strstr(copy, "users"));
    free(copy);
    assert_int_equal(access(d.log_path, W_OK), 0);
    assert_string_equal(getenv("SYMPATH_DB_SCHEMA"), d.schema_copy);
    assert_string_equal(getenv("SYMPATH_DB_LOG"), d.log_path);
    assert_string_equal(getenv("SYMPATH_DB_ROWS"), "3");
    assert_string_equal(getenv("SYMPATH_DB_TEXT"), "8");
    assert_true(d.schema_copy[0] == '/');
    /* notes: the CHECK constraint not modelled (a function call), the schema's size */
    assert_non_null(strstr(notes, "sympath: note: "));
    assert_non_null(strstr(notes, "1 table, 3 row slots per table, 8 bytes per TEXT cell"));
    free(notes);
    db_setup_free(&d);
    assert_null(d.schema);
    /* DDL that does not parse: an error naming --db, nothing printed */
    assert_int_equal(util_write_atomic(schema, "CREATE TABLE (", 14), 0);
    memset(&d, 0, sizeof d);
    nf = open_memstream(&notes, &nlen);
    assert_int_equal(db_setup_run(schema, 0, build, &d, nf, &err), -1);
    fclose(nf);
    assert_non_null(err);
    assert_true(strncmp(err, "--db ", 5) == 0);
    assert_string_equal(notes, "");
    free(notes);
    free(err);
    db_setup_free(&d);
    free(schema);
    free(build);
}

static void test_data_setup(void **state)
{
    char *text = util_strf("%s/schema.sql", dir), *dbf = util_strf("%s/app.db", dir);
    char *build = util_strf("%s/build", dir);
    assert_int_equal(util_mkdir_p(build), 0);
    assert_int_equal(util_write_atomic(text, DDL, strlen(DDL)), 0);
    db_setup d;
    memset(&d, 0, sizeof d);
    char *err = NULL;
    /* a schema in SQL is not a database */
    assert_int_equal(db_setup_data(text, "schema.sql", build, &d, &err), -1);
    assert_non_null(strstr(err, "--db schema.sql: not an SQLite database file"));
    free(err);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(dbf, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, DDL, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(db_setup_data(dbf, "app.db", build, &d, &err), 0);
    assert_int_equal(d.schema->ntables, 1);
    assert_string_equal(getenv("SYMPATH_DATA_SCHEMA"), d.schema_copy);
    assert_int_equal(access(d.schema_copy, R_OK), 0);
    db_setup_free(&d);
    free(text);
    free(dbf);
    free(build);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_run_setup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_data_setup, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
