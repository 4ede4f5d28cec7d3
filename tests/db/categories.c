/* categories.c: SELECT DISTINCT of a column (each category once) in ORDER BY order, counted and compared; a UNION of two price ranges' categories and a UNION ALL counted. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK)
        return 1;
    sqlite3_prepare_v2(db, "SELECT DISTINCT category FROM products WHERE price < 100 ORDER BY category", -1, &st, NULL);
    int n = 0, toys = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        n++;
        if (strcmp((const char *)sqlite3_column_text(st, 0), "toys") == 0)
            toys = 1;
    }
    sqlite3_finalize(st);
    if (n >= 3)
        printf("a menu of three categories or more\n");
    else if (n == 2)
        printf("two categories\n");
    if (toys)
        printf("cheap toys\n");
    /* UNION: the categories at either end of the price range, each once (a category at both ends too) */
    sqlite3_prepare_v2(db, "SELECT category FROM products WHERE price > 500 UNION SELECT category FROM products WHERE price < 10",
                       -1, &st, NULL);
    int ends = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        ends++;
    sqlite3_finalize(st);
    if (ends == 2)
        printf("two categories at the ends\n");
    /* UNION ALL: the rows of both arms (a cheap toy once per arm) counted */
    sqlite3_prepare_v2(db, "SELECT id FROM products WHERE price < 10 UNION ALL SELECT id FROM products WHERE category = 'toys'",
                       -1, &st, NULL);
    int twice = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        twice++;
    sqlite3_finalize(st);
    if (twice == 2)
        printf("two rows, one product\n");
    sqlite3_close(db);
    return 0;
}
