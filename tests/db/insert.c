/* insert.c: a program that inserts two rows, one from its input, and reads that one back, then copies rows with INSERT ... SELECT and reads a copy back: the read-back values keep their expressions. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    int qty = sym_int("qty");
    sqlite3 *db;
    sqlite3_open("shop.db", &db);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "INSERT INTO orders(user_id, amount) VALUES(?1, 7), (?1, ?2)", -1, &st, NULL);
    sqlite3_bind_int(st, 1, 1);
    sqlite3_bind_int(st, 2, qty);
    if (sqlite3_step(st) != SQLITE_DONE)
        printf("insert failed: %s\n", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    /* the new row's oid is larger than every fixture row's: only the inserted row can match */
    sqlite3_int64 id = sqlite3_last_insert_rowid(db);
    sqlite3_prepare_v2(db, "SELECT amount FROM orders WHERE oid = ?", -1, &st, NULL);
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        int amount = sqlite3_column_int(st, 0);
        if (amount == 4242)
            printf("magic amount\n");
        else
            printf("amount %d\n", amount);
    }
    sqlite3_finalize(st);
    /* INSERT ... SELECT: the senior users' ages copied as orders, each row tracked: a copied amount read back */
    sqlite3_exec(db, "INSERT INTO orders(user_id, amount) SELECT id, age FROM users WHERE age > 60", NULL, NULL, NULL);
    sqlite3_prepare_v2(db, "SELECT amount FROM orders WHERE oid > ?", -1, &st, NULL);
    sqlite3_bind_int64(st, 1, id);
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 0) == 99)
            printf("a copied age of 99\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
