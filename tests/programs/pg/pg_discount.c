/* pg_discount.c: the ISSTA 2007 Figure 1 example (Emmi, Majumdar, Sen) in C against PostgreSQL (libpq): discounts by publisher. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    int preferred = sym_int("preferred");
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        printf("no connection: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return 1;
    }
    int inv;
    if (preferred == 1)
        inv = 0;
    else
        inv = 100;
    char query[256];
    snprintf(query, sizeof query, "SELECT * FROM books WHERE inventory > %d AND subject LIKE 'CS%%'", inv);
    PGresult *res = PQexec(conn, query);
    if (res == NULL || PQresultStatus(res) != PGRES_TUPLES_OK) { /* NULL: the command was not sent */
        printf("query failed: %s", PQerrorMessage(conn));
        PQclear(res);
        PQfinish(conn);
        return 1;
    }
    int acm = 0, other = 0, big = 0;
    for (int i = 0; i < PQntuples(res); i++) {
        const char *publisher = PQgetvalue(res, i, 2);
        const char *isbn = PQgetvalue(res, i, 0);
        if (strcmp(publisher, "acm") == 0) {
            printf("discount 20%% on %s\n", isbn);
            acm++;
        } else {
            printf("discount 10%% on %s\n", isbn);
            other++;
        }
        if (atoi(PQgetvalue(res, i, 4)) > 5000) /* the inventory's text, read back as a number */
            big++;
    }
    PQclear(res);
    PQfinish(conn);
    printf("%d acm, %d other, %d big\n", acm, other, big);
    return 0;
}
