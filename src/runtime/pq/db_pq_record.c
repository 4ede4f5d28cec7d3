/* db_pq_record.c: PostgreSQL fixture mode's record of the run for the replay (SYMPATH_DB_RESULTS: every SELECT's result or error, every failed statement). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include "../../db/db.h"
#include "../dbcommon/data_rt.h"
#include "db_pq_int.h"
#include "../../proto/env.h"

static int results_fd = -1;

/* Append text to the results file (opened, truncated, at the run's first connect). */
static void rec(const char *s, size_t n)
{
    if (results_fd >= 0)
        rt_sys_write(results_fd, s, n);
}


void db_pq_record_open(void)
{
    const char *rp = getenv(SYMPATH_ENV_DB_RESULTS);
    if (rp && *rp && (results_fd = open(rp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0)
        rec("sympath-results 1\nwrites\tallowed\n", strlen("sympath-results 1\nwrites\tallowed\n"));
}

/* A field with \ tab newline CR escaped (NULL: \N), preceded by a tab, into a memstream. */
static void put_field(FILE *m, const char *p, int len)
{
    fputc('\t', m);
    if (!p) {
        fputs("\\N", m);
        return;
    }
    for (int k = 0; k < len; k++) {
        char c = p[k];
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r')
            fprintf(m, "\\%c", c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
        else
            fputc(c, m);
    }
}

/* The result of a SELECT (visible columns only), or its error. */
void db_pq_record_result(const char *sql, const PGresult *r, int ncols, const PGconn *conn)
{
    if (results_fd < 0)
        return;
    char site[17];
    data_site_id(sql, strlen(sql), site);
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m)
        return;
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK) {
        char msg[1024], flat[1024];
        data_pg_message(conn, r, msg, sizeof msg);
        db_log_flat(flat, sizeof flat, msg);
        fprintf(m, "result\t%s\t0\nerror\t%s\nend\n", site, flat);
    } else {
        fprintf(m, "result\t%s\t%d\nnames", site, ncols);
        for (int c = 0; c < ncols; c++) {
            const char *nm = PQfname(r, c);
            put_field(m, nm, (int)strlen(nm));
        }
        fputc('\n', m);
        for (int row = 0; row < PQntuples(r); row++) {
            fputs("row", m);
            for (int c = 0; c < ncols; c++)
                put_field(m, PQgetisnull(r, row, c) ? NULL : PQgetvalue(r, row, c), PQgetlength(r, row, c));
            fputc('\n', m);
        }
        fputs("end\n", m);
    }
    fclose(m);
    rec(buf, n);
    free(buf);
}

/* A statement that failed, in the query log ("s" line). */
void db_pq_log_error(const char *sql, const PGresult *r, const PGconn *conn)
{
    char msg[1024], fm[1024], fs[1024];
    data_pg_message(conn, r, msg, sizeof msg);
    db_log_flat(fm, sizeof fm, msg);
    db_log_flat(fs, sizeof fs, sql);
    db_rt_log_line("s\t%s\t%s", fm, fs);
}

/* A statement other than a SELECT that failed: logged, and recorded for the replay. */
void db_pq_record_failure(const char *sql, const PGresult *r, const PGconn *conn)
{
    char msg[1024], fm[1024], fs[4096], line[5200];
    data_pg_message(conn, r, msg, sizeof msg);
    db_log_flat(fm, sizeof fm, msg);
    db_log_flat(fs, sizeof fs, sql);
    int n = snprintf(line, sizeof line, "fail\t%s\t%s\n", fm, fs);
    if (n > 0)
        rec(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    db_pq_log_error(sql, r, conn);
}
