/* invoice.c: computed result columns and aggregates of expressions: cents * 2 + qty per line, COALESCE(SUM(qty), 0) and AVG(price), SUM(cents * 3) per item with HAVING. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("invoice.db", &db) != SQLITE_OK)
        return 1;
    sqlite3_prepare_v2(db, "SELECT item, cents * 2 + qty FROM lines", -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int64(st, 1) > 10000)
            printf("a line over 100.00\n");
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "SELECT COALESCE(SUM(qty), 0), AVG(price), COUNT(*) FROM lines", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 0) > 10)
            printf("many pieces\n");
        if (sqlite3_column_type(st, 1) != SQLITE_NULL && sqlite3_column_double(st, 1) > 5.5)
            printf("dear on average\n");
    }
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "SELECT item, SUM(cents * 3) FROM lines GROUP BY item HAVING SUM(cents * 3) > 5000", -1,
                       &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int64(st, 1) > 20000)
            printf("a big item\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
