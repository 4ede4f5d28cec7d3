/* copies.c: INSERT ... SELECT over a join of two tables, its count (sqlite3_changes) and the copied rows read back. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_exec(db,
                     "INSERT INTO sales (day, category, amount) SELECT o.day, p.category, o.qty * p.price "
                     "FROM orders o JOIN products p ON p.id = o.product_id WHERE o.day = '2024-12-24'",
                     NULL, NULL, NULL) != SQLITE_OK)
        return 1;
    int n = sqlite3_changes(db);
    if (n == 0)
        puts("nothing sold");
    else if (n > 1)
        puts("a busy day");
    if (sqlite3_prepare_v2(db, "SELECT amount FROM sales WHERE category = 'cake'", -1, &st, NULL) != SQLITE_OK) return 1;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 0) > 50) puts("a big cake sale");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
