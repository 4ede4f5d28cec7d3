/* ledger.c: branches on DECIMAL(10,2) and NUMERIC columns, in a WHERE clause with a decimal literal and in the program. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("ledger.db", &db) != SQLITE_OK)
        return 1;
    sqlite3_prepare_v2(db, "SELECT total, fee FROM orders WHERE total >= 9.99", -1, &st, NULL);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        double total = sqlite3_column_double(st, 0);
        if (total > 100.00)
            printf("large\n");
        else
            printf("small\n");
        if (sqlite3_column_type(st, 1) != SQLITE_NULL && sqlite3_column_double(st, 1) > 2.5)
            printf("high fee\n");
        n++;
    }
    sqlite3_finalize(st);
    if (n == 0)
        printf("no order over 9.99\n");
    sqlite3_close(db);
    return 0;
}
