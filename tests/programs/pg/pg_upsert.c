/* pg_upsert.c: a stock tool on PostgreSQL: a restock (INSERT ... ON CONFLICT (sku) DO UPDATE) read back, a WITH query with strpos(), position(), replace() and numeric to integer, an INSERT whose foreign key needs its parent, an upsert's RETURNING, a serial id and an UPDATE ... RETURNING. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    PGconn *c = PQconnectdb("dbname=shop");
    if (PQstatus(c) != CONNECTION_OK) return 1;
    PGresult *r =
        PQexec(c, "INSERT INTO stock(sku, qty, price) VALUES ('SK1', 5, 2.50) ON CONFLICT (sku) DO UPDATE SET qty = "
                  "stock.qty + excluded.qty WHERE stock.qty < 90");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) return 1;
    PQclear(r);
    r = PQexec(c, "SELECT qty FROM stock WHERE sku = 'SK1'");
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) return 1;
    int qty = atoi(PQgetvalue(r, 0, 0));
    if (qty >= 90)
        puts("plenty, not restocked");
    else if (qty > 5)
        puts("restocked");
    PQclear(r);
    r = PQexec(c, "WITH low AS (SELECT sku, qty, price FROM stock WHERE qty < 5) SELECT strpos(sku, 'X'), "
                  "position('-' in sku), replace(sku, 'K', 'Q'), CAST(price AS integer) FROM low WHERE qty > 0");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return 1;
    for (int i = 0; i < PQntuples(r); i++) {
        if (atoi(PQgetvalue(r, i, 0)) > 0) puts("an X sku");
        if (atoi(PQgetvalue(r, i, 1)) == 3) puts("a dash third");
        if (strcmp(PQgetvalue(r, i, 2), "QQ") == 0) puts("QQ");
        if (atoi(PQgetvalue(r, i, 3)) == 3) puts("about three");
    }
    PQclear(r);
    /* a stock move of SK9: the foreign key needs its stock row */
    r = PQexec(c, "INSERT INTO moves(id, sku, n) VALUES (1, 'SK9', 3)");
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        puts("no such sku");
    else
        puts("moved");
    PQclear(r);
    /* a restock of SK2 that says what it wrote, and a note whose serial id the server gives */
    r = PQexec(c, "INSERT INTO stock(sku, qty, price) VALUES ('SK2', 4, 1.00) ON CONFLICT (sku) DO UPDATE SET qty = "
                  "stock.qty + excluded.qty RETURNING qty");
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 0)) > 4)
        puts("SK2 restocked");
    PQclear(r);
    r = PQexec(c, "INSERT INTO notes(sku) VALUES ('SK1') RETURNING id");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) puts("no note");
    PQclear(r);
    /* an UPDATE ... RETURNING: whether it returns a row is a branch on the fixture */
    r = PQexec(c, "UPDATE stock SET qty = qty - 1 WHERE sku = 'SK7' AND qty > 0 RETURNING qty");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return 1;
    if (PQntuples(r) > 0) puts("SK7 taken");
    PQclear(r);
    PQfinish(c);
    return 0;
}
