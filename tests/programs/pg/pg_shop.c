/* pg_shop.c: fixture mode on PostgreSQL beyond the ISSTA example: PQexecParams with integer and text parameters, a join with ORDER BY, COUNT(*), NULL cells, a concrete INSERT. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    int who = sym_int("who");
    char name[4];
    sym_bytes(name, 3, "name");
    name[3] = 0;
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        printf("no connection\n");
        return 1;
    }
    char whotxt[16];
    snprintf(whotxt, sizeof whotxt, "%d", who);
    const char *p1[1] = {whotxt};
    PGresult *r = PQexecParams(conn,
                               "SELECT c.name, o.qty, o.note FROM orders o JOIN customers c ON c.id = o.customer "
                               "WHERE o.customer = $1 ORDER BY o.qty DESC",
                               1, NULL, p1, NULL, NULL, 0);
    int n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        if (strcmp(PQgetvalue(r, i, 0), "bob") == 0)
            printf("an order of bob\n");
        if (PQgetisnull(r, i, 2))
            printf("an order without a note\n");
    }
    if (n >= 2 && atoi(PQgetvalue(r, 0, 1)) > 50)
        printf("a big first order\n");
    PQclear(r);
    const char *p2[1] = {name};
    r = PQexecParams(conn, "SELECT count(*) FROM customers WHERE name = $1", 1, NULL, p2, NULL, NULL, 0);
    if (PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 0)) == 1)
        printf("a known name\n");
    PQclear(r);
    r = PQexec(conn, "INSERT INTO customers VALUES (1000, 'new')");
    if (PQresultStatus(r) == PGRES_COMMAND_OK)
        printf("inserted\n");
    else
        printf("insert failed\n");
    PQclear(r);
    PQfinish(conn);
    return 0;
}
