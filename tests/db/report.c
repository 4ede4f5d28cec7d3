/* report.c: a report over a join (users JOIN orders) with a bound threshold from the program's input. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    int threshold = sym_int("threshold");
    sqlite3 *db;
    sqlite3_open("shop.db", &db);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db,
                       "SELECT u.name, o.amount FROM users u JOIN orders o ON o.user_id = u.id "
                       "WHERE o.amount > ?",
                       -1, &st, NULL);
    sqlite3_bind_int(st, 1, threshold);
    int lines = 0, vip = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(st, 0);
        int amount = sqlite3_column_int(st, 1);
        lines++;
        if (name[0] == 'V' && amount > 500)
            vip++;
    }
    sqlite3_finalize(st);
    if (threshold < 0)
        printf("negative threshold\n");
    if (vip > 0)
        printf("%d VIP orders of %d\n", vip, lines);
    else
        printf("%d orders\n", lines);
    /* a statement that fails at run time: the program reports it and goes on */
    if (sqlite3_prepare_v2(db, "SELECT * FROM audit", -1, &st, NULL) != SQLITE_OK)
        printf("no audit log: %s\n", sqlite3_errmsg(db));
    sqlite3_close(db);
    return 0;
}
