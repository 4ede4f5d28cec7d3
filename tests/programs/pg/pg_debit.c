/* pg_debit.c: parameters in an UPDATE's SET (balance - $1 of a numeric(12,2) column under CHECK (balance >= 0)) and a
 * parameter cast to a date minus days in a DELETE (day < $1::date - 30), each PQcmdTuples tested and read back; a
 * transaction committed after a failed INSERT, which the server rolls back (tests/e2e/test_db_types_pg.sh). */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    PGconn *conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        PQfinish(conn);
        return 1;
    }
    const char *debit[2] = {"250.00", "1"};
    PGresult *r =
        PQexecParams(conn, "UPDATE wallets SET balance = balance - $1 WHERE id = $2", 2, NULL, debit, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        printf("insufficient funds\n");
    else if (strcmp(PQcmdTuples(r), "1") == 0)
        printf("debited\n");
    PQclear(r);
    r = PQexec(conn, "SELECT balance FROM wallets WHERE id = 1");
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && atof(PQgetvalue(r, 0, 0)) < 100.0)
        printf("low balance\n");
    PQclear(r);
    const char *today[1] = {"2025-03-01"};
    r = PQexecParams(conn, "DELETE FROM entries WHERE day < $1::date - 30", 1, NULL, today, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdTuples(r), "0") != 0) printf("purged\n");
    PQclear(r);
    /* a bonus and its journal entry in one transaction, committed unchecked: when entry 7 is already there the
     * INSERT fails, the server aborts the transaction and its COMMIT rolls back (the bonus is not read back) */
    PQclear(PQexec(conn, "BEGIN"));
    PQclear(PQexec(conn, "UPDATE wallets SET balance = balance + 5 WHERE id = 2"));
    PQclear(PQexec(conn, "INSERT INTO entries (id, day) VALUES (7, '2025-03-01')"));
    PQclear(PQexec(conn, "COMMIT"));
    r = PQexec(conn, "SELECT balance FROM wallets WHERE id = 2");
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && atof(PQgetvalue(r, 0, 0)) < 5.0) printf("poor\n");
    PQclear(r);
    PQfinish(conn);
    return 0;
}
