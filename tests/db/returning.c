/* returning.c: UPDATE ... RETURNING and DELETE ... RETURNING on SQLite (tests/e2e/test_db_sql.sh): the rows a write hit come back, their values read as the row after it. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int n = sym_int("n");
    if (sqlite3_open("stock.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db, "UPDATE stock SET qty = qty - ? WHERE sku = 'SK1' AND qty >= ? RETURNING qty, price", -1,
                           &st, NULL) != SQLITE_OK)
        return 1;
    sqlite3_bind_int(st, 1, n);
    sqlite3_bind_int(st, 2, n);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 0) == 0)
            puts("sold out");
        else
            puts("sold");
    } else {
        puts("not enough");
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "DELETE FROM stock WHERE qty = 0 RETURNING sku;", -1, &st, NULL) != SQLITE_OK) return 1;
    int gone = 0;
    while (sqlite3_step(st) == SQLITE_ROW) gone++;
    sqlite3_finalize(st);
    if (gone > 1) puts("several sold out");
    sqlite3_close(db);
    return 0;
}
