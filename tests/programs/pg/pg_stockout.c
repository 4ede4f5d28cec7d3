/* pg_stockout.c: writes the server refuses (tests/e2e/test_db_types_pg.sh): an UPDATE ... RETURNING in a transaction that would break CHECK (stock >= 0), an INSERT of a name already there (UNIQUE); which happens is up to the fixture. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    PGconn *c = PQconnectdb("dbname=shop");
    if (PQstatus(c) != CONNECTION_OK) {
        PQfinish(c);
        return 1;
    }
    PQclear(PQexec(c, "BEGIN"));
    const char *p[2] = {"pen", "3"};
    PGresult *r = PQexecParams(c, "UPDATE shelf SET qty = qty - $2::int WHERE name = $1 RETURNING qty", 2, NULL, p,
                               NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        printf("fewer than 3 pens\n");
        PQclear(PQexec(c, "ROLLBACK"));
    } else if (PQntuples(r) == 0) {
        printf("no pens\n");
        PQclear(PQexec(c, "ROLLBACK"));
    } else {
        printf("3 pens shipped\n");
        PQclear(PQexec(c, "COMMIT"));
    }
    PQclear(r);
    r = PQexec(c, "INSERT INTO shelf (name, qty) VALUES ('lamp', 5)");
    if (PQresultStatus(r) != PGRES_COMMAND_OK) printf("a lamp is listed already\n");
    PQclear(r);
    PQfinish(c);
    return 0;
}
