/* pg_loans.c: MAX of a DATE column in a scalar subquery, SELECT DISTINCT of a computed column and a GROUP BY result computed from its key, on PostgreSQL. */
#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        PQfinish(conn);
        return 1;
    }
    /* the members whose loan is due last */
    PGresult *r = PQexec(conn, "SELECT name FROM members WHERE id IN (SELECT member_id FROM loans WHERE due = "
                               "(SELECT MAX(due) FROM loans))");
    int last = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : 0;
    if (last > 1) printf("several members are due last\n");
    PQclear(r);
    /* the initials of the titles, each once */
    r = PQexec(conn, "SELECT DISTINCT upper(substr(title, 1, 1)) FROM loans");
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        int x = 0;
        for (int i = 0; i < PQntuples(r); i++)
            if (PQgetvalue(r, i, 0)[0] == 'X') x = 1;
        if (PQntuples(r) == 2) printf("two initials\n");
        if (x) printf("a title starts with x\n");
    }
    PQclear(r);
    /* a result computed from the GROUP BY key */
    r = PQexec(conn, "SELECT upper(tier), COUNT(*) FROM members GROUP BY tier");
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        for (int i = 0; i < PQntuples(r); i++)
            if (strcmp(PQgetvalue(r, i, 0), "GOLD") == 0 && strcmp(PQgetvalue(r, i, 1), "2") == 0)
                printf("two gold members\n");
    PQclear(r);
    PQfinish(conn);
    return 0;
}
