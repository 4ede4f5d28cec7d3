/* pg_roles.c: a role column whose table has a CHECK sympath does not model (md5): the one role it forbids must never reach a fixture. */
#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        PQfinish(conn);
        return 1;
    }
    PGresult *r = PQexec(conn, "SELECT role FROM accounts WHERE id = 1");
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
        const char *role = PQgetvalue(r, 0, 0);
        if (strlen(role) > 4 && role[1] != 'd') /* only 'auditor', which the unmodelled CHECK forbids */
            printf("auditor\n");
        else if (strcmp(role, "admin") == 0)
            printf("admin\n");
        else
            printf("user\n");
    }
    PQclear(r);
    PQfinish(conn);
    return 0;
}
