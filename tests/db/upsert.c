/* upsert.c: a stock tool's restock (INSERT ... ON CONFLICT DO UPDATE ... RETURNING), INSERT OR REPLACE read back, and a WITH query with replace(), instr() and CAST. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("stock.db", &db) != SQLITE_OK) return 1;
    int n = sym_int("n");
    if (n < 1 || n > 50) return 0;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO stock(sku, qty) VALUES ('SK1', ?) ON CONFLICT(sku) DO UPDATE SET qty = qty + "
                           "excluded.qty RETURNING qty",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    sqlite3_bind_int(st, 1, n);
    int qty = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (qty > n) puts("restocked");
    if (qty == n) puts("new in stock");
    sqlite3_exec(db, "REPLACE INTO stock(sku, qty) VALUES ('SK2', 7)", NULL, NULL, NULL);
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM stock WHERE qty = 7", -1, &st, NULL) != SQLITE_OK) return 1;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 1) puts("two at seven");
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(
            db,
            "WITH low AS (SELECT sku, qty, price FROM stock WHERE qty < 5) SELECT replace(sku, '-', '_'), "
            "instr(sku, 'X'), CAST(price * 10 AS INTEGER) FROM low WHERE qty > 0",
            -1, &st, NULL) != SQLITE_OK)
        return 1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *sku = (const char *)sqlite3_column_text(st, 0);
        if (sqlite3_column_int(st, 1) > 0) puts("an X sku");
        if (sqlite3_column_int(st, 2) > 100) puts("dear");
        if (strcmp(sku, "A_B") == 0) puts("A-B");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
