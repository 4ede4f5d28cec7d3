/* moves.c: stock moves whose foreign key needs its stock row (PRAGMA foreign_keys = ON): the INSERT fails or succeeds as the fixture decides. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open("stock.db", &db) != SQLITE_OK) return 1;
    sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    if (sqlite3_exec(db, "INSERT INTO moves(sku, n) VALUES ('SK9', 3)", NULL, NULL, NULL) != SQLITE_OK)
        puts("no such sku");
    else
        puts("moved");
    sqlite3_close(db);
    return 0;
}
