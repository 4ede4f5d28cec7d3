/* pg_prices.c: numeric(8,2), double precision and real columns on PostgreSQL (libpq): a decimal bound in SQL, the values read back with atof/strtod and compared in C, AVG and SUM of an expression over numeric, DISTINCT, ORDER BY a numeric column and an id read back as a parameter. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        printf("no connection: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return 1;
    }
    PGresult *res = PQexec(conn, "SELECT name, price, weight, rating FROM items WHERE price BETWEEN 10 AND 20.5");
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        printf("query failed: %s", PQerrorMessage(conn));
        PQclear(res);
        PQfinish(conn);
        return 1;
    }
    for (int i = 0; i < PQntuples(res); i++) {
        double price = atof(PQgetvalue(res, i, 1));
        if (price > 19.99) printf("%s: almost 20\n", PQgetvalue(res, i, 0));
        if (price == 12.34) printf("the price on the poster\n");
        if (PQgetisnull(res, i, 2)) continue;
        double weight = strtod(PQgetvalue(res, i, 2), NULL);
        if (weight > 2.5) printf("heavy\n");
        if (PQgetisnull(res, i, 3)) continue;
        float rating = strtof(PQgetvalue(res, i, 3), NULL);
        if (rating >= 4.5f) printf("well rated\n");
    }
    PQclear(res);
    /* aggregates of numeric: an exact sum and mean, and a computed column */
    res = PQexec(conn, "SELECT COUNT(*), AVG(price), COALESCE(SUM(price * 2), 0) FROM items");
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 1)) {
        if (atof(PQgetvalue(res, 0, 1)) > 15.5) printf("dear on average\n");
        if (strtod(PQgetvalue(res, 0, 2), NULL) == 41.0) printf("twice the sum is 41\n");
    }
    PQclear(res);
    /* DISTINCT: rows mapped back to the fixture by their values */
    res = PQexec(conn, "SELECT DISTINCT name FROM items WHERE price > 5 ORDER BY name");
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) >= 2 && PQgetvalue(res, 1, 0)[0] == 'k')
        printf("two names, the second starts with k\n");
    PQclear(res);
    /* ORDER BY numeric (compared by their integers), the dearest item's id text passed back as a parameter */
    res = PQexec(conn, "SELECT id FROM items ORDER BY price DESC LIMIT 1");
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
        const char *param[1] = {PQgetvalue(res, 0, 0)};
        PGresult *w = PQexecParams(conn, "SELECT COUNT(*) FROM items WHERE id < $1 AND weight IS NOT NULL", 1, NULL,
                                   param, NULL, NULL, 0);
        int n = PQresultStatus(w) == PGRES_TUPLES_OK ? atoi(PQgetvalue(w, 0, 0)) : -1;
        if (n == 1) printf("a weighed item with a lower id than the dearest\n");
        PQclear(w);
    }
    PQclear(res);
    PQfinish(conn);
    return 0;
}
