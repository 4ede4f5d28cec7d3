/* db_pq_int.h: what the files of PostgreSQL fixture mode (db_pq*.c) share: the modelled results, ctids, result recording, parameters. */
#ifndef SYMPATH_DB_PQ_INT_H
#define SYMPATH_DB_PQ_INT_H

#include <stdbool.h>
#include <libpq-fe.h>
#include "../dbcommon/db_rt.h"
#include "db_pq.h"

/* A result of the program's that sympath models. */
typedef struct pq_fix {
    struct pq_fix *next;
    const PGresult *res;
    qstate qs;  /* the query, its parameters, predictions and statistics */
    int hidden; /* hidden ctid columns at the end of the result */
    int nrows;
    int *slots;           /* nrows * DB_MAX_FROM fixture slots (-1: not a fixture row) */
    const inserted **ins; /* nrows: the tracked row the program inserted, or NULL */
    int *groups;          /* nrows: GROUP BY: the group (its first row combination) of each row, -1 none */
    bool shadowed;
    /* a write's result (nrows 0): the rows an understood UPDATE/DELETE hit, as db_rt.changes
     * gave them (64 bits, equal to libpq's PQcmdTuples), or NULL; and the PQcmdTuples text
     * that db_pq_cmd_tuples shadowed (inside the PGresult: cleared by db_pq_clear), NULL none */
    expr *tuples;
    const char *tuples_text;
} pq_fix;

/* The results the program holds that sympath models (db_pq.c adds, db_pq_values.c reads and
 * frees), newest first. */
extern pq_fix *db_pq_fixes;
/* The entry of db_pq_fixes for r, NULL when r is not modelled. */
pq_fix *db_pq_find_fix(const PGresult *r);

/*
 * The decimal text p[0..len) of the integer v (64 bits; null: width 1, NULL for never NULL)
 * as byte expressions (db_pq_values.c): when p is exactly v's concrete text, each digit
 * becomes its expression of v (shadows on p's bytes), under a BK_CONCRETIZE event that fixes
 * the number of digits (its other side asks for another magnitude). Returns true when a
 * shadow was put; p is unchanged either way.
 */
bool db_pq_shadow_digits(expr *v, expr *null, char *p, int len);

/* "(block,offset)" -> block << 16 | offset; -1 when s is not a ctid (db_pq_build.c). */
int64_t db_pq_ctid_id(const char *s);

/*
 * The replay's record of the run (db_pq_record.c), SYMPATH_DB_RESULTS in replay_pq.c's
 * format: db_pq_record_open truncates it and writes its header (at the run's first
 * connect); db_pq_record_result appends a SELECT's result (its ncols visible columns) or
 * error; db_pq_record_failure a failed statement of another kind (and logs it, as
 * db_pq_log_error does: an "s" line of the query log).
 */
void db_pq_record_open(void);
void db_pq_record_result(const char *sql, const PGresult *r, int ncols, const PGconn *conn);
void db_pq_record_failure(const char *sql, const PGresult *r, const PGconn *conn);
/* A statement other than a SELECT that succeeded with result r: a "done" line with r's
 * PQcmdTuples and sql (flattened), none when PQcmdTuples is "" or nothing is recorded. */
void db_pq_record_done(const char *sql, const PGresult *r);
void db_pq_log_error(const char *sql, const PGresult *r, const PGconn *conn);

/*
 * Injected faults (db_pq_fault.c; counted by dbcommon/db_fault.c): db_pq_fault_note(obj,
 * fails, other) remembers the condition "the call that returned obj failed" (width 1; NULL
 * forgets it) for a connection or result the program got (the last 256), with the status
 * the object has when the call does not fail (other; -1: libpq's answer, for an object of a
 * call that did not fail); db_pq_fault_forget when it is freed. db_pq_fault_conn is a
 * connection that failed for real (CONNECTION_BAD); db_pq_fault_result runs a statement
 * that fails on conn (PGRES_FATAL_ERROR) and notes its result with fails and other.
 */
void db_pq_fault_note(const void *obj, expr *fails, int other);
void db_pq_fault_forget(const void *obj);
PGconn *db_pq_fault_conn(void);
PGresult *db_pq_fault_result(PGconn *conn, expr *fails, int other);

/* The parameters of an execution (text format) as s->params (db_pq_params.c): a parameter
 * compared with a text column is the program's bytes, one compared with an integer column
 * (or that reads as an integer) the value of its decimal digits; binary ones unknown. */
void db_pq_make_params(qstate *s, int nparams, const char *const *values, const int *formats);

#endif
