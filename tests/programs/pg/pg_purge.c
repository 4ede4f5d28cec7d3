/* pg_purge.c: a date parameter compared with a TIMESTAMP column on PostgreSQL (read at midnight) in a DELETE whose PQcmdTuples the program tests, then in a SELECT (tests/e2e/test_db_types_pg.sh). */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        PQfinish(conn);
        return 1;
    }
    const char *before[1] = {"2024-01-01"};
    PGresult *r = PQexecParams(conn, "DELETE FROM tickets WHERE status = 'closed' AND opened < $1", 1, NULL, before,
                               NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        PQclear(r);
        PQfinish(conn);
        return 1;
    }
    if (strcmp(PQcmdTuples(r), "0") == 0)
        printf("nothing to purge\n");
    else if (atoi(PQcmdTuples(r)) > 1)
        printf("purged %s tickets\n", PQcmdTuples(r));
    PQclear(r);
    r = PQexecParams(conn, "SELECT COUNT(*) FROM tickets WHERE opened >= $1", 1, NULL, before, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && atoi(PQgetvalue(r, 0, 0)) > 0) printf("recent tickets left\n");
    PQclear(r);
    PQfinish(conn);
    return 0;
}
