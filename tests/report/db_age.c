/* db_age.c: a database program (schema tests/db/shop.sql) that aborts on one value of a row, for tests/e2e/test_report_db.sh: the error's fixture in the reports. */
#include <sqlite3.h>
#include <stdlib.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_open("shop.db", &db);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT name, age FROM users WHERE age > 60", -1, &st, NULL);
    int old = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 1) == 99)
            abort();
        old++;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return old > 1;
}
