/* test_runtime_pq_data.c: the executor's libpq interception in data mode (data_pq.c) against a server: log lines, wrapped SELECTs, data inputs whose SQL terms give their values, writes refused. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "data/data.h"
#include "runtime/core/rt_internal.h"
#include "pg_test_util.h"

/* the interception's entry points (pq_models.c calls them) */
PGconn *sym_PQconnectdb(const char *conninfo);
PGresult *sym_PQexec(PGconn *conn, const char *query);
PGresult *sym_PQprepare(PGconn *conn, const char *name, const char *query, int nparams, const Oid *types);
PGresult *sym_PQexecPrepared(PGconn *conn, const char *name, int nparams, const char *const *values, const int *lengths,
                             const int *formats, int result_format);
PGresult *sym_PQexecParams(PGconn *conn, const char *command, int nparams, const Oid *types, const char *const *values,
                           const int *lengths, const int *formats, int result_format);
char *sym_PQgetvalue(const PGresult *res, int row, int col);
int sym_PQgetisnull(const PGresult *res, int row, int col);
int sym_PQgetlength(const PGresult *res, int row, int col);
void sym_PQclear(PGresult *res);

static PGconn *admin;
static char plan_path[] = "/tmp/sympath-pq-planXXXXXX", log_path[] = "/tmp/sympath-pq-logXXXXXX";
static const char *const query = "SELECT id, n, s, b FROM t ORDER BY id";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* ids 1..6; n = id * 10 except NULL on 3; s with a multi-byte character, an empty string, a
 * tab and a NULL; b true / false / NULL */
static int setup(void **state)
{
    admin = PQconnectdb(pg_conninfo);
    if (PQstatus(admin) != CONNECTION_OK) return -1;
    pg_exec_ok(admin, "CREATE TABLE t(id int PRIMARY KEY, n int, s text, b boolean)");
    pg_exec_ok(admin, "INSERT INTO t VALUES (1, 10, 'abc', true), (2, 20, 'h\xc3\xa9', false), (3, NULL, '', NULL), "
                      "(4, 40, NULL, true), (5, -50, E'a\\tb\\\\c', false), (6, 60, 'gift', true)");
    int fd = mkstemp(plan_path);
    close(fd);
    fd = mkstemp(log_path);
    close(fd);
    write_file(plan_path, "limit\t0\n");
    setenv("SYMPATH_DATA_DB", pg_conninfo, 1);
    setenv("SYMPATH_DATA_PLAN", plan_path, 1);
    setenv("SYMPATH_DATA_LOG", log_path, 1);
    return 0;
}

static int teardown(void **state)
{
    unlink(plan_path);
    unlink(log_path);
    return 0;
}

/* The value of SQL `term` over row `tuple` of the columns c0..c<ncols-1> of sql, on conn */
static long long term_value(PGconn *conn, const char *sql, int ncols, const char *term, uint64_t tuple)
{
    char *q = NULL, cols[64] = "";
    for (int i = 0; i < ncols; i++) snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%sc%d", i ? "," : "", i);
    assert_true(asprintf(&q,
                         "WITH sympath_q(%s) AS (%s) SELECT %s FROM (SELECT *, row_number() OVER () - 1 "
                         "AS sympath_rn FROM sympath_q) x WHERE sympath_rn = %llu",
                         cols, sql, term, (unsigned long long)tuple) >= 0);
    PGresult *r = PQexec(conn, q);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) fprintf(stderr, "%s: %s", q, PQresultErrorMessage(r));
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_int_equal(PQntuples(r), 1);
    long long v = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    free(q);
    return v;
}

/* Every input of the run so far: its name is data:<site>:<tuple>:<term>, and the term,
 * evaluated by the server (conn) over sql's columns, gives the input's value. Returns the
 * number of inputs checked. */
static unsigned check_terms(PGconn *conn, const char *sql, int ncols)
{
    const trace_header *h = rt_test_header();
    const trace_rec *rec = rt_test_records();
    unsigned checked = 0;
    /* tuple numbers are run-wide (this process's earlier tests count): row = tuple - base */
    uint64_t base = UINT64_MAX;
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t i = 0; i < h->nrecs; i++) {
            if (rec[i].type != REC_INPUT) continue;
            char name[512] = "";
            size_t o = 0;
            for (uint64_t j = i + 1; j < h->nrecs && rec[j].type == REC_NAME && o + 24 < sizeof name; j++, o += 24)
                memcpy(name + o, rec[j].u.name.text, 24);
            name[o] = 0;
            assert_true(!strncmp(name, "data:", 5));
            char *site_end = strchr(name + 5, ':');
            assert_non_null(site_end);
            char *tuple_end = NULL;
            uint64_t tuple = strtoull(site_end + 1, &tuple_end, 10);
            assert_true(*tuple_end == ':');
            if (pass == 0) {
                base = tuple < base ? tuple : base;
                continue;
            }
            long long v = term_value(conn, sql, ncols, tuple_end + 1, tuple - base);
            uint64_t mask = rec[i].u.in.width == 64 ? ~0ull : (1ull << rec[i].u.in.width) - 1;
            if (((uint64_t)v & mask) != rec[i].u.in.value)
                fprintf(stderr, "%s: SQL says %lld, the input is %llu\n", name, v,
                        (unsigned long long)rec[i].u.in.value);
            assert_int_equal((uint64_t)v & mask, rec[i].u.in.value);
            checked++;
        }
    }
    return checked;
}

/* Every value read is an input named data:<site>:<tuple>:<term> whose term, evaluated by
 * PostgreSQL on that tuple, is the input's value; bytes carry shadows. */
static void test_values_are_inputs(void **state)
{
    rt_test_setup(NULL, 0, 65536, 64);
    write_file(log_path, "");
    PGconn *c = sym_PQconnectdb("dbname=whatever_the_program_says");
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = sym_PQexec(c, query);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_int_equal(PQntuples(r), 6);
    assert_string_equal(PQfname(r, 1), "n"); /* the program's column names, not c0.. */
    assert_int_equal(PQfnumber(r, "s"), 2);
    for (int row = 0; row < 6; row++)
        for (int col = 0; col < 4; col++) {
            int isnull = sym_PQgetisnull(r, row, col);
            assert_int_equal(isnull, PQgetisnull(r, row, col));
            assert_non_null(__sym_ret);
            assert_int_equal(__sym_ret->value, (uint64_t)isnull);
            int len = sym_PQgetlength(r, row, col);
            assert_non_null(__sym_ret);
            assert_int_equal(__sym_ret->value, (uint64_t)len);
            char *p = sym_PQgetvalue(r, row, col);
            for (int k = 0; k <= len; k++) {
                expr *b = rt_shadow_get((uintptr_t)(p + k));
                assert_non_null(b);
                assert_int_equal(b->value, (uint8_t)p[k]);
            }
        }
    /* the names of the inputs, from the trace: each term recomputes its value */
    unsigned checked = check_terms(admin, query, 4);
    assert_true(checked > 40);
    /* the log: site, names, tuples and values (escaped) */
    char *log = read_file(log_path);
    char site[17];
    data_site_id(query, strlen(query), site);
    char expect[256];
    snprintf(expect, sizeof expect, "s\t%s\t4\tpg\t%s\n", site, query);
    assert_non_null(strstr(log, expect));
    snprintf(expect, sizeof expect, "n\t%s\tid\tn\ts\tb\n", site);
    assert_non_null(strstr(log, expect));
    snprintf(expect, sizeof expect, "t\t%s\t5\tpg:", site);
    assert_non_null(strstr(log, expect));
    assert_non_null(strstr(log, "v\t4\t2\ta\\tb\\\\c\n"));
    assert_non_null(strstr(log, "v\t2\t1\t\\N\n"));
    assert_non_null(strstr(log, "v\t0\t3\tt\n"));
    sym_PQclear(r);
    PQfinish(c);
}

/* Writes fail with the server's read-only error and are logged; statements that would
 * make the connection writable are refused; prepared SELECTs are wrapped with their
 * parameters logged as literals. */
static void test_writes_and_prepared(void **state)
{
    rt_test_setup(NULL, 0, 65536, 64);
    write_file(log_path, "");
    PGconn *c = sym_PQconnectdb("");
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *w = sym_PQexec(c, "UPDATE t SET n = 0");
    assert_int_equal(PQresultStatus(w), PGRES_FATAL_ERROR);
    assert_non_null(strstr(PQerrorMessage(c), "read-only transaction"));
    sym_PQclear(w);
    w = sym_PQexec(c, "SET default_transaction_read_only = off");
    assert_int_equal(PQresultStatus(w), PGRES_FATAL_ERROR);
    assert_non_null(strstr(PQresultErrorMessage(w), "refused by sympath data"));
    sym_PQclear(w);
    w = sym_PQexec(c, "BEGIN READ WRITE");
    assert_int_equal(PQresultStatus(w), PGRES_FATAL_ERROR);
    sym_PQclear(w);
    w = sym_PQexec(c, "BEGIN");
    assert_int_equal(PQresultStatus(w), PGRES_COMMAND_OK);
    sym_PQclear(w);
    w = sym_PQexec(c, "DELETE FROM t");
    assert_int_equal(PQresultStatus(w), PGRES_FATAL_ERROR);
    sym_PQclear(w);
    sym_PQclear(sym_PQexec(c, "ROLLBACK"));

    const Oid types[] = {23};
    PGresult *p = sym_PQprepare(c, "big", "SELECT id FROM t WHERE n > $1", 1, types);
    assert_int_equal(PQresultStatus(p), PGRES_COMMAND_OK);
    sym_PQclear(p);
    /* the unnamed statement is used by the describe: a program's unnamed one still runs */
    p = sym_PQprepare(c, "", "SELECT count(*) FROM t WHERE s = $1", 1, NULL);
    sym_PQclear(p);
    const char *v1[] = {"35"};
    PGresult *r = sym_PQexecPrepared(c, "big", 1, v1, NULL, NULL, 0);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_int_equal(PQntuples(r), 2); /* 40, 60 */
    sym_PQclear(r);
    const char *v2[] = {"gift"};
    r = sym_PQexecPrepared(c, "", 1, v2, NULL, NULL, 0);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    assert_string_equal(PQgetvalue(r, 0, 0), "1");
    sym_PQclear(r);
    r = sym_PQexecParams(c, "SELECT s FROM t WHERE s = $1", 1, NULL, v2, NULL, NULL, 0);
    assert_int_equal(PQntuples(r), 1);
    sym_PQclear(r);
    PQfinish(c);
    char *log = read_file(log_path);
    assert_non_null(strstr(log, "w\tERROR:  cannot execute UPDATE in a read-only transaction\tUPDATE t SET n = 0\n"));
    assert_non_null(strstr(log, "\tSET default_transaction_read_only = off\n"));
    assert_non_null(strstr(log, "\tpg\tSELECT id FROM t WHERE n > $1\t'35'::int4\n"));
    assert_non_null(strstr(log, "\tpg\tSELECT count(*) FROM t WHERE s = $1\t'gift'\n"));
    assert_non_null(strstr(log, "\tpg\tSELECT s FROM t WHERE s = $1\t'gift'\n"));
}

/* A run (a child process, as under the fork server) reads the plan: the site's WHERE and
 * LIMIT apply, other SELECTs get the default LIMIT. */
static void test_plan(void **state)
{
    char site[17], plan[256];
    data_site_id(query, strlen(query), site);
    snprintf(plan, sizeof plan, "limit\t1\nsite\t%s\t2\t0\tc1 > 15 AND c3\n", site);
    write_file(plan_path, plan);
    write_file(log_path, "");
    pid_t pid = fork();
    if (pid == 0) {
        rt_test_setup(NULL, 0, 65536, 64);
        PGconn *c = sym_PQconnectdb("");
        PGresult *r = sym_PQexec(c, query);              /* n > 15 and b: ids 4, 6; LIMIT 2 */
        PGresult *o = sym_PQexec(c, "SELECT id FROM t"); /* default LIMIT 1 */
        int code = PQntuples(r) == 2 && !strcmp(PQgetvalue(r, 0, 0), "4") && !strcmp(PQgetvalue(r, 1, 0), "6") &&
                   PQntuples(o) == 1;
        _exit(code ? 0 : 1);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    write_file(plan_path, "limit\t0\n");
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *log = read_file(log_path);
    char expect[128];
    snprintf(expect, sizeof expect, "t\t%s\t1\tpg:", site);
    assert_non_null(strstr(log, expect)); /* tuples 0, 1 of the site; tuple 2 is the other query's */
    assert_non_null(strstr(log, "v\t2\t0\t1\n"));
    /* the same query asked again continues: OFFSET 1 skips id 4 */
    snprintf(plan, sizeof plan, "limit\t0\nsite\t%s\t2\t1\tc1 > 15 AND c3\n", site);
    write_file(plan_path, plan);
    pid = fork();
    if (pid == 0) {
        rt_test_setup(NULL, 0, 65536, 64);
        PGresult *r = sym_PQexec(sym_PQconnectdb(""), query);
        _exit(PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 0), "6") ? 0 : 1);
    }
    assert_int_equal(waitpid(pid, &st, 0), pid);
    write_file(plan_path, "limit\t0\n");
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* A LATIN1 database: libpq returns UTF-8 (the connection's client encoding), and the byte
 * terms count the UTF-8 bytes, not the database's. */
static void test_latin1_database(void **state)
{
    pg_exec_ok(admin, "CREATE DATABASE l1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
    char ci[600];
    snprintf(ci, sizeof ci, "%s dbname=l1 client_encoding=UTF8", pg_conninfo);
    PGconn *l = PQconnectdb(ci);
    assert_int_equal(PQstatus(l), CONNECTION_OK);
    pg_exec_ok(l, "CREATE TABLE u(s text); INSERT INTO u VALUES ('h\xc3\xa9')");
    setenv("SYMPATH_DATA_DB", ci, 1);
    rt_test_setup(NULL, 0, 65536, 64);
    PGconn *c = sym_PQconnectdb("");
    PGresult *r = sym_PQexec(c, "SELECT s FROM u");
    assert_int_equal(PQntuples(r), 1);
    char *p = sym_PQgetvalue(r, 0, 0);
    assert_int_equal(sym_PQgetlength(r, 0, 0), 3);
    assert_int_equal((uint8_t)p[2], 0xa9);
    assert_int_equal(check_terms(l, "SELECT s FROM u", 1), 5); /* bytes 0..3 and the length */
    sym_PQclear(r);
    PQfinish(c);
    PQfinish(l);
    setenv("SYMPATH_DATA_DB", pg_conninfo, 1);
}

int main(void)
{
    int rc = pg_start();
    if (rc) return rc;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_are_inputs),
        cmocka_unit_test(test_writes_and_prepared),
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_latin1_database),
    };
    rc = cmocka_run_group_tests(tests, setup, teardown);
    PQfinish(admin);
    pg_stop();
    return rc;
}
