/* pg_returning.c: ILIKE, IS DISTINCT FROM, a parameter cast to date, an INSERT ... RETURNING whose row is read back (and replayed without the server), CURRENT_DATE - INTERVAL and COUNT(*) FILTER, on PostgreSQL. */
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
    const char *p[1] = {"a%"};
    PGresult *r = PQexecParams(conn, "SELECT name FROM members WHERE name ILIKE $1", 1, NULL, p, NULL, NULL, 0);
    int a = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : 0;
    PQclear(r);
    if (a > 0) printf("a name starting with a or A\n");
    const char *d[1] = {"2024-06-01"};
    r = PQexecParams(conn, "SELECT id FROM loans WHERE due IS DISTINCT FROM $1::date", 1, NULL, d, NULL, NULL, 0);
    int other = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : 0;
    PQclear(r);
    if (other > 0) printf("a loan due another day\n");
    r = PQexec(conn, "INSERT INTO members (id, name, tier) VALUES (99, 'zed', 'gold') RETURNING id");
    int id = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    if (id == 99) printf("inserted member 99\n");
    r = PQexec(conn, "SELECT id FROM members WHERE tier = 'gold'");
    int gold = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : 0;
    PQclear(r);
    if (gold > 1) printf("another gold member\n");
    /* a date window of the clock (INTERVAL) and an aggregate FILTER */
    r = PQexec(conn, "SELECT COUNT(*) FILTER (WHERE due >= CURRENT_DATE - INTERVAL '30 days'), COUNT(*) FROM loans");
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
        int recent = atoi(PQgetvalue(r, 0, 0)), all = atoi(PQgetvalue(r, 0, 1));
        if (recent > 0 && recent < all) printf("recent and older loans\n");
    }
    PQclear(r);
    PQfinish(conn);
    return 0;
}
