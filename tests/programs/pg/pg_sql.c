/* pg_sql.c: fixture mode on PostgreSQL with the SQL real programs send: ORDER BY ... LIMIT/OFFSET, a LEFT JOIN whose missing match is a NULL row, NOT EXISTS, GROUP BY ... HAVING after a transaction rolled back, an UPDATE read back, a UNION with ORDER BY ... LIMIT. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include "sympath.h"

/* rows of a query without parameters */
static int rows(PGconn *conn, const char *sql, PGresult **out)
{
    *out = PQexec(conn, sql);
    return PQresultStatus(*out) == PGRES_TUPLES_OK ? PQntuples(*out) : -1;
}

int main(void)
{
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        printf("no connection\n");
        return 1;
    }
    PGresult *r;
    if (rows(conn, "SELECT name, price FROM items WHERE stock > 0 ORDER BY price LIMIT 1", &r) == 1) {
        if (atoi(PQgetvalue(r, 0, 1)) > 100)
            printf("nothing cheap in stock\n");
    } else {
        printf("nothing in stock\n");
    }
    PQclear(r);
    if (rows(conn, "SELECT id FROM items ORDER BY price DESC LIMIT 1 OFFSET 1", &r) == 1)
        printf("a runner-up\n");
    PQclear(r);
    int n = rows(conn, "SELECT i.name, s.qty FROM items i LEFT JOIN sales s ON s.item = i.id", &r);
    for (int i = 0; i < n; i++)
        if (PQgetisnull(r, i, 1))
            printf("never sold\n");
    PQclear(r);
    if (rows(conn, "SELECT id FROM items i WHERE NOT EXISTS (SELECT 1 FROM sales s WHERE s.item = i.id)", &r) > 0)
        printf("an unsold item\n");
    PQclear(r);
    /* a transaction rolled back: the sales are all there again */
    PQclear(PQexec(conn, "BEGIN"));
    PQclear(PQexec(conn, "DELETE FROM sales"));
    PQclear(PQexec(conn, "ROLLBACK"));
    if (rows(conn, "SELECT item, COUNT(*) FROM sales GROUP BY item HAVING COUNT(*) > 2", &r) > 0)
        printf("a best seller\n");
    PQclear(r);
    /* an UPDATE read back: the sale of one of each dear item in stock */
    PQclear(PQexec(conn, "UPDATE items SET stock = stock - 1 WHERE stock > 0 AND price > 50"));
    if (rows(conn, "SELECT id FROM items WHERE stock = 0 AND price > 50", &r) > 0)
        printf("a dear item sold out\n");
    PQclear(r);
    /* UNION of two tables' columns, duplicates removed, the two smallest in ORDER BY order */
    if (rows(conn, "SELECT price FROM items WHERE stock > 5 UNION SELECT qty FROM sales WHERE qty > 10 ORDER BY 1 LIMIT 2",
             &r) == 2)
        printf("two prices or bulk quantities\n");
    PQclear(r);
    PQfinish(conn);
    return 0;
}
