/* db_pq_build.c: PostgreSQL fixture mode's run database: the type assumptions, the run's schema on the scratch database with the fixture's rows, the program's connections to it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libpq-fe.h>
#include "../../db/db.h"
#include "../dbcommon/data_rt.h"
#include "db_pq_int.h"
#include "util/util.h"
#include "../../proto/env.h"

static char *schema_name; /* this executor's schema in the scratch database */

bool db_pq_wanted(void)
{
    const char *s = getenv(SYMPATH_ENV_DB_PG_SCRATCH);
    return s && *s;
}

/* ---------------------------------------------------------------- the run's database */

/* Extra assumptions of the PostgreSQL types (db_pg_kind) over every slot's cells (char(n): of the rows the fixture holds). */
static void type_assumptions(void)
{
    expr_ctx *cx = rt_cx();
    for (int ti = 0; ti < db_rt.schema->ntables; ti++) {
        const db_table *t = &db_rt.schema->tables[ti];
        for (unsigned k = 0; k < db_rt.lim.rows; k++)
            for (int c = 0; c < t->ncols; c++) {
                const db_val *v = &db_rt.cells[ti][(size_t)k * t->ncols + c];
                unsigned n;
                int64_t lo = 0, hi = 0;
                expr *ok = NULL;
                switch (db_pg_column_kind(&t->cols[c], &n)) {
                case DB_PG_INT2: lo = -32768, hi = 32767; break;
                case DB_PG_INT4: lo = INT32_MIN, hi = INT32_MAX; break;
                case DB_PG_BOOL: lo = 0, hi = 1; break;
                case DB_PG_VARCHAR:
                    if (n < db_rt.lim.text) ok = expr_cmp(cx, PRED_ULE, v->len, expr_const(cx, n, 8));
                    break;
                case DB_PG_CHAR: /* shorter values come back blank-padded: exactly n bytes */
                    if (n <= db_rt.lim.text) ok = expr_cmp(cx, PRED_EQ, v->len, expr_const(cx, n, 8));
                    break;
                default: break;
                }
                if (lo || hi)
                    ok = expr_and1(cx, expr_cmp(cx, PRED_SLE, expr_const(cx, (uint64_t)lo, 64), v->v),
                                   expr_cmp(cx, PRED_SLE, v->v, expr_const(cx, (uint64_t)hi, 64)));
                /* char(n)'s exact length only for a row the fixture holds (an absent row is never written): the
                 * first run's all-zero inputs hold no row and empty texts, which every other type assumption
                 * allows; this one ended that run before the program connected */
                if (ok && db_pg_column_kind(&t->cols[c], &n) == DB_PG_CHAR)
                    ok = expr_binary(cx, EXPR_OR, expr_not(cx, db_rt.alive[ti][k]), ok);
                if (ok) db_rt_assume(expr_binary(cx, EXPR_OR, v->null, ok));
            }
    }
}

/* One statement on the setup connection; 0 when it succeeded (else an "e" line). */
static int setup_exec(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok) {
        char msg[1024], flat[1024], text[600];
        data_pg_message(c, r, msg, sizeof msg);
        proto_flat(flat, sizeof flat, msg);
        proto_flat(text, sizeof text, sql);
        db_rt_log_line("e\tbuilding the run's schema %s on the scratch database: %s (%s)", schema_name, flat, text);
    }
    PQclear(r);
    return ok ? 0 : -1;
}

int64_t db_pq_ctid_id(const char *s)
{
    unsigned long b, o;
    if (!s || sscanf(s, "(%lu,%lu)", &b, &o) != 2) return -1;
    return (int64_t)(b << 16 | (o & 0xffff));
}

/* A connection to the scratch database with search_path set to the run's schema (or none). */
static PGconn *scratch_connect(bool with_path)
{
    char opt[300];
    /* UTC in every session: a timestamptz fixture text is read and printed back unchanged (with '+00') */
    if (with_path)
        snprintf(opt, sizeof opt, "-c search_path=%s -c client_min_messages=warning -c DateStyle=ISO -c TimeZone=UTC",
                 schema_name);
    else
        snprintf(opt, sizeof opt, "-c client_min_messages=warning -c TimeZone=UTC");
    const char *const keys[] = {"dbname", "options", NULL};
    const char *const vals[] = {getenv(SYMPATH_ENV_DB_PG_SCRATCH), opt, NULL};
    return PQconnectdbParams(keys, vals, 1);
}

/* db_rt_insert_fixture's row inserter on the setup connection (ctx): INSERT ... RETURNING ctid. */
static int insert_row(void *ctx, const db_table *t, int ti, unsigned k, const db_cell *cells)
{
    PGconn *c = ctx;
    char *ins = db_pg_insert_sql(t, cells, true);
    PGresult *r = ins ? PQexec(c, ins) : NULL;
    int rc = 0;
    if (r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
        db_rt.rowids[ti][k] = db_pq_ctid_id(PQgetvalue(r, 0, 0));
    } else { /* the solver's row violates a constraint the server checks: reported */
        char msg[1024], flat[1024];
        data_pg_message(c, r, msg, sizeof msg);
        proto_flat(flat, sizeof flat, msg);
        const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
        if (state && !strcmp(state, "23514")) { /* check_violation: a CHECK sympath does not model */
            const char *name = PQresultErrorField(r, PG_DIAG_CONSTRAINT_NAME);
            char why[1200];
            snprintf(why, sizeof why, "%s (%s)", flat, name ? name : "?");
            db_rt_log_line("r\t%s\t%s", why, ins ? ins : "");
            PQclear(r);
            free(ins);
            db_rt_reject_row(ti, k, why);
        }
        db_rt_log_line("e\tfixture row rejected by PostgreSQL (%s): %s", flat, ins ? ins : "out of memory");
        rc = -1;
    }
    PQclear(r);
    free(ins);
    return rc;
}

/* Run one statement in a savepoint: when it fails, the transaction goes on as before it. */
static void exec_in_savepoint(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, "SAVEPOINT sympath_optional");
    PQclear(r);
    r = PQexec(c, sql);
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    r = PQexec(c, ok ? "RELEASE SAVEPOINT sympath_optional" : "ROLLBACK TO SAVEPOINT sympath_optional");
    PQclear(r);
}

/* The optional statements of the DDL (after DB_PG_OPTIONAL_MARK, one per line: the user's CHECKs),
 * each in a savepoint: one the scratch database refuses (a function it lacks) is left out. */
static void apply_optional(PGconn *c, char *lines)
{
    for (char *line = lines, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (*line) exec_in_savepoint(c, line);
    }
}

/* After the fixture's rows: each identity column of the run's tables (the user's serial columns, schema_pg.c) gets
 * its next value past the largest key the fixture holds, so a program's INSERT that omits it gets a new key, as on
 * the user's server, not one the fixture already uses. In a savepoint: a failure leaves the sequences as they are. */
static void reset_identities(PGconn *c)
{
    static const char *sql =
        "DO $sympath$ DECLARE r record; BEGIN FOR r IN SELECT cl.relname, a.attname FROM pg_attribute a "
        "JOIN pg_class cl ON cl.oid = a.attrelid WHERE cl.relnamespace = current_schema()::regnamespace "
        "AND a.attnum > 0 AND a.attidentity <> '' LOOP EXECUTE format('SELECT setval(pg_get_serial_sequence(%L, %L), "
        "GREATEST(COALESCE((SELECT max(%I) FROM %I), 0), 0) + 1, false)', quote_ident(r.relname), r.attname, "
        "r.attname, r.relname); END LOOP; END $sympath$";
    exec_in_savepoint(c, sql);
}

/* db_rt_setup_with's builder: the run's schema with the fixture's rows (see the top). */
static int build_pg(void)
{
    type_assumptions();
    const char *prefix = getenv(SYMPATH_ENV_DB_PG_PREFIX);
    /* one schema per executor: the fork server's pid names it (the run is its child) */
    int owner = getenv(SYMPATH_ENV_CTL_FD) ? (int)getppid() : (int)getpid();
    if (asprintf(&schema_name, "%s_%d", prefix && *prefix ? prefix : "sympath_run", owner) < 0) return -1;
    db_pq_record_open();
    char *ddl = util_read_file(getenv(SYMPATH_ENV_DB_PG_DDL) ? getenv(SYMPATH_ENV_DB_PG_DDL) : "", NULL);
    if (!ddl) {
        db_rt_log_line("e\tcannot read the PostgreSQL DDL %s", getenv(SYMPATH_ENV_DB_PG_DDL));
        return -1;
    }
    PGconn *c = scratch_connect(false);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        char msg[1024], flat[1024];
        data_pg_message(c, NULL, msg, sizeof msg);
        proto_flat(flat, sizeof flat, msg);
        db_rt_log_line("e\tcannot connect to the scratch database: %s", flat);
        PQfinish(c);
        free(ddl);
        return -1;
    }
    char *sql = NULL;
    /* one transaction, committed without waiting for the WAL (a scratch schema rebuilt every run) */
    int rc = asprintf(&sql,
                      "SET synchronous_commit = off; BEGIN; DROP SCHEMA IF EXISTS \"%s\" CASCADE; "
                      "CREATE SCHEMA \"%s\"; SET LOCAL search_path = \"%s\"",
                      schema_name, schema_name, schema_name) < 0
                 ? -1
                 : 0;
    char *optional = strstr(ddl, DB_PG_OPTIONAL_MARK);
    if (optional) *optional = 0, optional += strlen(DB_PG_OPTIONAL_MARK);
    rc = rc || setup_exec(c, sql) || setup_exec(c, ddl);
    if (!rc && optional) apply_optional(c, optional);
    free(sql), free(ddl);
    rc = rc || db_rt_insert_fixture(insert_row, c);
    if (!rc) reset_identities(c);
    rc = rc || setup_exec(c, "COMMIT");
    PQfinish(c);
    return rc;
}

PGconn *db_pq_connect(void)
{
    if (!db_rt.state) {
        db_rt.pg = true;
        db_rt_setup_with(build_pg);
    }
    if (db_rt.state != 1) /* never the user's database: a connection that failed */
        return PQconnectdb("host=/nonexistent/sympath-fixture-setup-failed connect_timeout=1");
    expr *fails;
    if (db_fault_next(&fails)) { /* the injected fault (db_pq_fault.c) */
        PGconn *c = db_pq_fault_conn();
        db_pq_fault_note(c, fails, CONNECTION_OK);
        return c;
    }
    PGconn *c = scratch_connect(true);
    db_pq_fault_note(c, fails, -1);
    return c;
}
