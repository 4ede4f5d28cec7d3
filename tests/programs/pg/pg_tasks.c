/* pg_tasks.c: DATE and TIMESTAMP columns on PostgreSQL (libpq): a bound date in SQL, the dates read back parsed in C. */
#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        printf("no connection: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return 1;
    }
    const char *cutoff[1] = {"2025-01-01"};
    PGresult *res = PQexecParams(conn, "SELECT title, due, done_at FROM tasks WHERE due < $1 ORDER BY due", 1, NULL,
                                 cutoff, NULL, NULL, 0);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        printf("query failed: %s", PQerrorMessage(conn));
        PQclear(res);
        PQfinish(conn);
        return 1;
    }
    for (int i = 0; i < PQntuples(res); i++) {
        const char *due = PQgetvalue(res, i, 1);
        int y = 0, m = 0, d = 0;
        sscanf(due, "%d-%d-%d", &y, &m, &d);
        if (y < 2000) printf("last century\n");
        if (m == 2 && d == 29) printf("leap day\n");
        if (PQgetisnull(res, i, 2)) {
            printf("pending\n");
            continue;
        }
        const char *done = PQgetvalue(res, i, 2);
        if (strncmp(done, due, 10) > 0) printf("done late\n");
    }
    PQclear(res);
    PQfinish(conn);
    return 0;
}
