/* rare.c: data-mode program: orders by category (refunds, big orders, fraud, big orders from NZ), rare ones among many common ones. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open_v2("shop.db", &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "cannot open shop.db\n");
        return 1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT id, amount, status, country FROM orders", -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
        sqlite3_close(db);
        return 1;
    }
    long refunds = 0, big = 0, common = 0, fraud = 0, nz_big = 0, rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long amount = sqlite3_column_int64(st, 1);
        const char *status = (const char *)sqlite3_column_text(st, 2);
        const char *country = (const char *)sqlite3_column_text(st, 3);
        rows++;
        if (amount < 0)
            refunds++;              /* very rare: a handful of refunds */
        else if (amount > 10000)
            big++;                  /* rare */
        else
            common++;
        if (strcmp(status, "fraud") == 0)
            fraud++;                /* rare */
        if (strcmp(country, "NZ") == 0) {
            if (amount > 5000)
                nz_big++;           /* rare combination of two common conditions */
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    printf("rows %ld\n", rows);
    printf("refunds %ld\n", refunds);
    printf("big %ld\n", big);
    printf("common %ld\n", common);
    printf("fraud %ld\n", fraud);
    printf("nz_big %ld\n", nz_big);
    return 0;
}
