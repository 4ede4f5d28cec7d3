/* pg_club.c: branches only a larger fixture layout reaches on PostgreSQL: more red members than the default row slots (5) and a name longer than a default TEXT cell (13 bytes, measured in C). */
#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    PGconn *c = PQconnectdb("dbname=club");
    if (PQstatus(c) != CONNECTION_OK) return 1;
    PGresult *r = PQexec(c, "SELECT name FROM members WHERE team = 'red'");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return 1;
    int n = PQntuples(r), longest = 0;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(PQgetvalue(r, i, 0));
        if (len > longest) longest = len;
    }
    PQclear(r);
    if (n == 0)
        puts("no red members");
    else if (n > 4)
        puts("a big red team");
    else
        puts("a small red team");
    if (longest > 12) puts("a long name");
    PQfinish(c);
    return 0;
}
