/* pg_test_util.h: a PostgreSQL server for one unit test process (tests/pg/pg_server.sh), stopped at exit whatever happens. */
#ifndef SYMPATH_PG_TEST_UTIL_H
#define SYMPATH_PG_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <libpq-fe.h>

/* The server lives in pg_dir; pg_conninfo reaches it (superuser "postgres", writable). */
static char pg_dir[] = "/tmp/sympath-pgXXXXXX";
static char pg_conninfo[512];
static int pg_started;
static pid_t pg_owner; /* the process that started it (forked children must not stop it) */

static const char *pg_script(void) { return SYMPATH_SOURCE_DIR "/tests/pg/pg_server.sh"; }

/* Stop the server and remove its directory; safe to call twice and from atexit. */
static void pg_stop(void)
{
    if (!pg_started || getpid() != pg_owner) return;
    pg_started = 0;
    char *cmd = NULL;
    if (asprintf(&cmd, "sh '%s' stop '%s'; rm -rf '%s'", pg_script(), pg_dir, pg_dir) >= 0 && system(cmd) != 0)
        fprintf(stderr, "could not stop the server in %s\n", pg_dir);
    free(cmd);
}

/* Start the server: 0; 77 when the server binaries are missing (the test is skipped);
 * 1 on failure (message on stderr). Registers pg_stop with atexit. */
static int pg_start(void)
{
    if (!mkdtemp(pg_dir)) return 1;
    char *cmd = NULL;
    if (asprintf(&cmd, "sh '%s' start '%s'", pg_script(), pg_dir) < 0) return 1;
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p) return 1;
    pg_started = 1;
    pg_owner = getpid();
    atexit(pg_stop); /* stopped even when a test fails or crashes the process */
    if (!fgets(pg_conninfo, sizeof pg_conninfo, p)) pg_conninfo[0] = 0;
    int st = pclose(p);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
        fprintf(stderr, "skipped: PostgreSQL server binaries not installed (scripts/install-deps.sh)\n");
        return 77;
    }
    if (st != 0 || !pg_conninfo[0]) {
        fprintf(stderr, "could not start a PostgreSQL server in %s\n", pg_dir);
        return 1;
    }
    pg_conninfo[strcspn(pg_conninfo, "\n")] = 0;
    return 0;
}

/* Run sql on c; a failure is a test failure (after printing the server's message). */
static void pg_exec_ok(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType s = PQresultStatus(r);
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) fprintf(stderr, "%s: %s", sql, PQresultErrorMessage(r));
    assert_true(s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK);
    PQclear(r);
}

#endif
