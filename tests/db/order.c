/* order.c: reads the two largest orders of an ORDER BY query: the order of returned rows matters to the program. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"
int main(void)
{
    sqlite3 *db;
    sqlite3_open("shop.db", &db);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT amount, oid FROM orders ORDER BY amount DESC", -1, &st, NULL);
    int first = 1, top = 0, second = 0, n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int a = sqlite3_column_int(st, 0);
        if (first) { top = a; first = 0; } else if (n == 1) second = a;
        n++;
    }
    sqlite3_finalize(st);
    if (n >= 2 && top > 100 && second < 10)
        printf("steep\n");
    if (n >= 2 && top == second)
        printf("tie\n");
    /* aggregates over the rows the query may return are expressions too */
    sqlite3_prepare_v2(db, "SELECT count(*), max(amount), sum(amount) FROM orders WHERE amount > 10", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW) {
        int count = sqlite3_column_int(st, 0), max = sqlite3_column_int(st, 1), sum = sqlite3_column_int(st, 2);
        if (count == 2 && max == 77 && sum == 100)
            printf("two orders, 23 and 77\n");
    }
    sqlite3_finalize(st);
    /* sqlite3_get_table: strings with symbolic bytes, freed by the real sqlite3_free_table */
    char **res;
    int rows, cols;
    if (sqlite3_get_table(db, "SELECT name FROM users WHERE age > 60", &res, &rows, &cols, NULL) == SQLITE_OK) {
        if (rows > 0 && res[cols][0] == 'Q')
            printf("a senior named Q...\n");
        sqlite3_free_table(res);
    }
    return 0;
}
