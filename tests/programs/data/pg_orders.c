/* pg_orders.c: a libpq program for `sympath data` on PostgreSQL: branches on the column values of a skewed table. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * orders(id, qty, kind, note): most rows have 1 <= qty <= 100, kind 'std' and a note.
 * Rare: qty > 1000 (big orders), among them kind 'gift'; qty < 0 (refunds); a NULL
 * note. The write at the end is refused in data mode (read-only transaction).
 */
int main(void)
{
    PGconn *c = PQconnectdb("dbname=shop");
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "connect: %s", PQerrorMessage(c));
        PQfinish(c);
        return 1;
    }
    PGresult *r = PQexec(c, "SELECT id, qty, kind, note FROM orders");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fprintf(stderr, "select: %s", PQerrorMessage(c));
        PQclear(r);
        PQfinish(c);
        return 1;
    }
    int n = PQntuples(r), fk = PQfnumber(r, "kind");
    long big = 0, gifts = 0, refunds = 0, plain = 0, no_note = 0;
    for (int i = 0; i < n; i++) {
        int qty = atoi(PQgetvalue(r, i, 1));
        const char *kind = PQgetvalue(r, i, fk);
        if (qty > 1000) {
            if (strcmp(kind, "gift") == 0)
                gifts++;
            else
                big++;
        } else if (qty < 0) {
            refunds++;
        } else {
            plain++;
        }
        if (PQgetisnull(r, i, 3))
            no_note++;
    }
    printf("rows %d: big %ld gifts %ld refunds %ld plain %ld without note %ld\n", n, big, gifts, refunds, plain,
           no_note);
    PQclear(r);
    PGresult *w = PQexec(c, "UPDATE orders SET qty = 0");
    if (PQresultStatus(w) != PGRES_COMMAND_OK)
        printf("write refused\n");
    PQclear(w);
    PQfinish(c);
    return 0;
}
