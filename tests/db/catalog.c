/* catalog.c: branches on REAL prices read from a query with bound doubles, in SQL and in the program. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK)
        return 1;
    double lo = sym_double("lo"), hi = sym_double("hi");
    if (!(lo >= 0.0 && lo <= hi && hi <= 1000.0))
        return 2;
    sqlite3_prepare_v2(db, "SELECT name, price, qty, discount FROM products WHERE price BETWEEN ? AND ?", -1, &st, NULL);
    sqlite3_bind_double(st, 1, lo);
    sqlite3_bind_double(st, 2, hi);
    int n = 0;
    double cheapest = 0, dearest = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        double price = sqlite3_column_double(st, 1);
        double qty = sqlite3_column_double(st, 2); /* an INTEGER column read as a double */
        if (price > 15.0)
            printf("premium\n");
        else
            printf("budget\n");
        if (price * qty > 100.0)
            printf("large stock value\n");
        if (sqlite3_column_type(st, 3) != SQLITE_NULL && sqlite3_column_double(st, 3) > 0.25)
            printf("big discount\n");
        if (sqlite3_column_int(st, 1) == 7)
            printf("about 7\n");
        if (n == 0 || price < cheapest)
            cheapest = price;
        if (n == 0 || price > dearest)
            dearest = price;
        n++;
    }
    sqlite3_finalize(st);
    if (n >= 2 && dearest - cheapest > 50.0)
        printf("wide price range\n");
    /* in SQL: a REAL column against integer and REAL literals, arithmetic */
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM products WHERE price + qty > 1e3 OR price = 2", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0)
        printf("valuable or two\n");
    sqlite3_finalize(st);
    /* a scalar AVG subquery over REAL prices */
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM products WHERE price > (SELECT AVG(price) FROM products) * 1.5", -1, &st,
                       NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0)
        printf("one price well above the mean\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
