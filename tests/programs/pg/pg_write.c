/* pg_write.c: fixture mode on PostgreSQL with the program's own writes: tracked INSERTs (of two rows; of an input value read back by a query), an UPDATE and a DELETE whose row counts (PQcmdTuples) the program tests, the DELETE's effect seen by a COUNT(*). */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    r = PQexec(conn, "UPDATE customers SET name = 'vip' WHERE id < 100");
    if (strcmp(PQcmdTuples(r), "0") != 0)
        printf("some customers are vip\n");
    PQclear(r);
    r = PQexec(conn, "DELETE FROM orders WHERE qty < 10");
    if (strcmp(PQcmdTuples(r), "0") == 0)
        printf("nothing deleted\n");
    else if (atoi(PQcmdTuples(r)) > 1)
        printf("several orders deleted\n");
    PQclear(r);
    r = PQexec(conn, "SELECT count(*) FROM orders");
    if (PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 0)) == 0)
        printf("no order left\n");
    PQclear(r);
    PQfinish(conn);
    return 0;
}
