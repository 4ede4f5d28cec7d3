/* pg_sql.c: fixture mode on PostgreSQL with ORDER BY ... LIMIT/OFFSET (the cheapest item in stock, the runner-up) and a LEFT JOIN whose missing match is a NULL row. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include "sympath.h"

int main(void)
{
    int budget = sym_int("budget");
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        printf("no connection\n");
        return 1;
    }
    PGresult *r = PQexec(conn, "SELECT name, price FROM items WHERE stock > 0 ORDER BY price LIMIT 1");
    if (PQntuples(r) == 1) {
        int price = atoi(PQgetvalue(r, 0, 1));
        if (price <= budget)
            printf("affordable\n");
        if (price > 100)
            printf("nothing cheap in stock\n");
    } else {
        printf("nothing in stock\n");
    }
    PQclear(r);
    r = PQexec(conn, "SELECT id, price FROM items ORDER BY price DESC LIMIT 1 OFFSET 1");
    if (PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 1)) == 42)
        printf("runner-up costs 42\n");
    PQclear(r);
    r = PQexec(conn, "SELECT i.name, s.qty FROM items i LEFT JOIN sales s ON s.item = i.id ORDER BY i.id");
    for (int i = 0; i < PQntuples(r); i++) {
        if (PQgetisnull(r, i, 1))
            printf("never sold\n");
        else if (atoi(PQgetvalue(r, i, 1)) > 10)
            printf("sold in bulk\n");
    }
    PQclear(r);
    PQfinish(conn);
    return 0;
}
