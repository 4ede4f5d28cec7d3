/* writer.c: data-mode program that reads the orders and then tries to INSERT one: the write must be refused, the file unchanged. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) {
        fprintf(stderr, "cannot open shop.db\n");
        return 1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT id, amount FROM orders", -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
        sqlite3_close(db);
        return 1;
    }
    long long total = 0;
    long neg = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long amount = sqlite3_column_int64(st, 1);
        if (amount < 0)
            neg++;
        total += amount;
    }
    sqlite3_finalize(st);
    char *err = NULL;
    if (sqlite3_exec(db, "INSERT INTO orders (amount, status, country) VALUES (42, 'paid', 'US')", NULL, NULL, &err) !=
        SQLITE_OK) {
        printf("insert refused: %s\n", err ? err : "?");
        sqlite3_free(err);
    } else {
        printf("insert done\n");
    }
    sqlite3_close(db);
    printf("total %lld, %ld negative\n", total, neg);
    return 0;
}
