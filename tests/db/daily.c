/* daily.c: GROUP BY over a table holding the program's own rows: today's orders copied into sales (INSERT ... SELECT), then totals per category over those rows and the fixture's sales. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_exec(db, "INSERT INTO sales (day, category, amount) SELECT day, 'bread', qty FROM orders WHERE qty > 0",
                     NULL, NULL, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_prepare_v2(db, "SELECT category, SUM(amount), COUNT(*) FROM sales GROUP BY category", -1, &st, NULL) !=
        SQLITE_OK)
        return 1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *cat = sqlite3_column_text(st, 0);
        if (sqlite3_column_int(st, 2) > 2)
            printf("%s: a busy category\n", cat);
        else if (sqlite3_column_int(st, 1) > 100)
            printf("%s: a few big sales\n", cat);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
