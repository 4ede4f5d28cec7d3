/* db_pq_record.c: PostgreSQL fixture mode's record of the run for the replay (SYMPATH_DB_RESULTS: every SELECT's result or error, every failed statement, every write's row count). */
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
#include "proto/proto.h"
#include "util/util.h"

static int results_fd = -1;

/* Append text to the results file (opened, truncated, at the run's first connect). */
static void rec(const char *s, size_t n)
{
    if (results_fd >= 0) rt_sys_write(results_fd, s, n);
}

void db_pq_record_open(void)
{
    const char *rp = getenv(SYMPATH_ENV_DB_RESULTS);
    if (!rp || !*rp || (results_fd = open(rp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) return;
    strbuf b = STRBUF_INIT;
    results_put_header(&b, 1);
    if (!b.failed) rec(b.s, b.len);
    sb_free(&b);
}

/* The result of a SELECT (visible columns only), or its error: one block of the .results file. */
void db_pq_record_result(const char *sql, const PGresult *r, int ncols, const PGconn *conn)
{
    if (results_fd < 0) return;
    char site[17];
    data_site_id(sql, strlen(sql), site);
    strbuf b = STRBUF_INIT;
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK) {
        char msg[1024], flat[1024];
        data_pg_message(conn, r, msg, sizeof msg);
        proto_flat(flat, sizeof flat, msg);
        results_put_result(&b, site, 0);
        results_put_error(&b, flat);
    } else {
        const char **vals = calloc((size_t)ncols + 1, sizeof *vals);
        size_t *lens = calloc((size_t)ncols + 1, sizeof *lens);
        if (!vals || !lens) {
            free(vals), free(lens);
            return;
        }
        results_put_result(&b, site, ncols);
        for (int c = 0; c < ncols; c++) vals[c] = PQfname(r, c);
        results_put_names(&b, vals, ncols);
        for (int row = 0; row < PQntuples(r); row++) {
            for (int c = 0; c < ncols; c++) {
                vals[c] = PQgetisnull(r, row, c) ? NULL : PQgetvalue(r, row, c);
                lens[c] = (size_t)PQgetlength(r, row, c);
            }
            results_put_row(&b, vals, lens, ncols);
        }
        free(vals), free(lens);
    }
    results_put_end(&b);
    if (!b.failed) rec(b.s, b.len);
    sb_free(&b);
}

/* A statement that failed, in the query log ("s" line). */
void db_pq_log_error(const char *sql, const PGresult *r, const PGconn *conn)
{
    char msg[1024], fm[1024], fs[1024];
    data_pg_message(conn, r, msg, sizeof msg);
    proto_flat(fm, sizeof fm, msg);
    proto_flat(fs, sizeof fs, sql);
    db_rt_log_line("s\t%s\t%s", fm, fs);
}

/* A statement other than a SELECT that failed: logged, and recorded for the replay. */
void db_pq_record_failure(const char *sql, const PGresult *r, const PGconn *conn)
{
    char msg[1024], fm[1024], fs[4096];
    data_pg_message(conn, r, msg, sizeof msg);
    proto_flat(fm, sizeof fm, msg);
    proto_flat(fs, sizeof fs, sql); /* cut as the replay cuts the statement it compares (4095 bytes) */
    strbuf b = STRBUF_INIT;
    results_put_fail(&b, fm, fs);
    if (!b.failed) rec(b.s, b.len);
    sb_free(&b);
    db_pq_log_error(sql, r, conn);
}

/* A statement other than a SELECT that succeeded: its PQcmdTuples, when it has one, for the
 * replay's PQcmdTuples (replay_pq.c). */
void db_pq_record_done(const char *sql, const PGresult *r)
{
    const char *tuples = r ? PQcmdTuples((PGresult *)r) : "";
    if (results_fd < 0 || !tuples || !*tuples) return;
    char fs[4096];
    proto_flat(fs, sizeof fs, sql); /* cut as for a failure: the replay compares the same text */
    strbuf b = STRBUF_INIT;
    results_put_done(&b, tuples, fs);
    if (!b.failed) rec(b.s, b.len);
    sb_free(&b);
}
