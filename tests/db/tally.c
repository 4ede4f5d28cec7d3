/* tally.c: INSERT ... SELECT of a GROUP BY over a join (a row per day and category, its SUM), how many groups it copied (sqlite3_changes) and a copied total read back. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_exec(db,
                     "INSERT INTO sales (day, category, amount) SELECT o.day, p.category, SUM(o.qty * p.price) "
                     "FROM orders o JOIN products p ON p.id = o.product_id GROUP BY o.day, p.category",
                     NULL, NULL, NULL) != SQLITE_OK)
        return 1;
    int n = sqlite3_changes(db);
    if (n == 0)
        puts("nothing sold");
    else if (n > 1)
        puts("several days or categories");
    if (sqlite3_prepare_v2(db, "SELECT day, amount FROM sales WHERE category = 'bread'", -1, &st, NULL) != SQLITE_OK)
        return 1;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 1) > 100) printf("a good bread day: %s\n", sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
