/* pg_codes.c: a branch on argc before the connection, then a count over a char(2) column read by the program (tests/e2e/test_db_pg_seed.sh). */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *code = argc > 1 ? argv[1] : "FR";
    PGconn *c = PQconnectdb("dbname=shop");
    if (PQstatus(c) != CONNECTION_OK) {
        PQfinish(c);
        return 1;
    }
    const char *p[1] = {code};
    PGresult *r = PQexecParams(c, "SELECT count(*) FROM countries WHERE code = $1", 1, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK) { /* one row, as an aggregate returns */
        if (atoi(PQgetvalue(r, 0, 0)) > 0)
            printf("%s is known\n", code);
        else
            printf("%s is unknown\n", code);
    }
    PQclear(r);
    PQfinish(c);
    return 0;
}
