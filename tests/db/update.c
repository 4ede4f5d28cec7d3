/* update.c: UPDATE and DELETE by the program, then queries that see their effect: the rows keep their meaning. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    int bonus = sym_int("bonus");
    sqlite3 *db;
    sqlite3_open("shop.db", &db);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "UPDATE orders SET amount = amount + ?1 WHERE amount >= 100", -1, &st, NULL);
    sqlite3_bind_int(st, 1, bonus);
    sqlite3_step(st);
    if (sqlite3_changes(db) == 2)
        printf("two orders got the bonus\n");
    sqlite3_finalize(st);
    sqlite3_exec(db, "DELETE FROM users WHERE age < 18", NULL, NULL, NULL);

    int at_1000 = 0;
    sqlite3_prepare_v2(db, "SELECT amount FROM orders", -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 0) == 1000)
            at_1000++;
    sqlite3_finalize(st);
    if (at_1000)
        printf("an order reached 1000 with the bonus\n");

    sqlite3_prepare_v2(db, "SELECT count(*) FROM users", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 2)
        printf("two adult users left\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
