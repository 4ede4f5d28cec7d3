/* pg_write.c: fixture mode on PostgreSQL with the program's own writes: tracked INSERTs (of two rows; of an input value read back by a query), a DELETE whose effect a COUNT(*) sees. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include "sympath.h"

int main(void)
{
    int qty = sym_int("qty");
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK)
        return 1;
    char qtxt[16];
    snprintf(qtxt, sizeof qtxt, "%d", qty);
    const char *p[1] = {qtxt};
    PQclear(PQexec(conn, "INSERT INTO customers VALUES (1000, 'new'), (1001, 'old')"));
    PQclear(PQexecParams(conn, "INSERT INTO orders VALUES (500, 1000, $1, NULL)", 1, NULL, p, NULL, NULL, 0));
    PGresult *r = PQexec(conn, "SELECT qty FROM orders WHERE oid = 500");
    if (PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 0)) == 71)
        printf("the inserted order has 71\n");
    PQclear(r);
    PQclear(PQexec(conn, "DELETE FROM orders WHERE qty < 10"));
    r = PQexec(conn, "SELECT count(*) FROM orders");
    if (PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 0)) == 0)
        printf("no order left\n");
    PQclear(r);
    PQfinish(conn);
    return 0;
}
