/* cheapest.c: ORDER BY ... LIMIT/OFFSET picking the cheapest item in stock and the runner-up by price. */
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
    int budget = sym_int("budget");
    /* the cheapest item in stock: the first row in price order */
    sqlite3_prepare_v2(db, "SELECT name, price FROM items WHERE stock > 0 ORDER BY price LIMIT 1", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW) {
        int price = sqlite3_column_int(st, 1);
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (price <= budget)
            printf("affordable\n");
        else
            printf("too dear\n");
        if (price > 100)
            printf("nothing cheap in stock\n");
        if (name[0] == 'Z')
            printf("cheapest starts with Z\n");
    } else {
        printf("nothing in stock\n");
    }
    sqlite3_finalize(st);
    /* the runner-up among the dearest: position 2 of the descending order */
    sqlite3_prepare_v2(db, "SELECT id, price FROM items ORDER BY price DESC LIMIT 1 OFFSET 1", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 1) == 42)
            printf("runner-up costs 42\n");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
