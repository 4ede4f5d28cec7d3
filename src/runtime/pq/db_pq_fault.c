/* db_pq_fault.c: injected faults on PostgreSQL (fixture mode): a connect or statement that fails on purpose, and the symbolic PQstatus/PQresultStatus of the program's objects. */
#include <stdint.h>
#include "db_pq_int.h"
#include "../../proto/env.h"

/*
 * The fallible libpq calls (dbcommon/db_fault.c counts them) are the connects
 * (PQconnectdb, PQconnectdbParams, PQsetdbLogin) and the statements (PQexec, PQexecParams,
 * PQprepare, PQexecPrepared). The one that fails does so for real: a connection to a
 * socket that cannot exist (PQstatus CONNECTION_BAD, libpq's own message), or the statement
 * "SELECT sympath_injected_fault()" on the program's connection (PGRES_FATAL_ERROR; inside a
 * transaction, the server aborts it, as after any failed statement). Every object a
 * fallible call returns is remembered with its condition "this call fails" so that
 * PQstatus and PQresultStatus return ite(fails, the error, what libpq says).
 */

typedef struct fault_obj {
    const void *obj; /* a PGconn or a PGresult */
    expr *fails;
    int other; /* the status when the call did not fail, -1: what libpq says */
} fault_obj;

static fault_obj objs[256];
static unsigned nobj; /* next entry to (over)write */

void db_pq_fault_note(const void *obj, expr *fails, int other)
{
    if (!obj) return;
    db_pq_fault_forget(obj);
    if (!fails) return;
    objs[nobj % 256] = (fault_obj){obj, fails, other};
    nobj++;
}

void db_pq_fault_forget(const void *obj)
{
    for (unsigned i = 0; obj && i < 256; i++)
        if (objs[i].obj == obj) objs[i] = (fault_obj){NULL, NULL, -1};
}

static const fault_obj *entry(const void *obj)
{
    for (unsigned i = 0; obj && i < 256; i++)
        if (objs[i].obj == obj) return &objs[i];
    return NULL;
}

PGconn *db_pq_fault_conn(void) { return PQconnectdb("host=" SYMPATH_FAULT_NO_FILE " connect_timeout=1"); }

PGresult *db_pq_fault_result(PGconn *conn, expr *fails, int other)
{
    PGresult *r = PQexec(conn, "SELECT sympath_injected_fault()");
    db_pq_fault_note(r, fails, other);
    return r;
}

ConnStatusType db_pq_status(const PGconn *conn)
{
    ConnStatusType st = PQstatus(conn);
    const fault_obj *e = entry(conn);
    __sym_ret = e ? db_fault_ret(e->fails, CONNECTION_BAD, e->other >= 0 ? (uint32_t)e->other : (uint32_t)st) : NULL;
    return st;
}

ExecStatusType db_pq_result_status(const PGresult *res)
{
    ExecStatusType st = PQresultStatus(res);
    const fault_obj *e = entry(res);
    __sym_ret = e ? db_fault_ret(e->fails, PGRES_FATAL_ERROR, e->other >= 0 ? (uint32_t)e->other : (uint32_t)st) : NULL;
    return st;
}
