/* customers.c: a LEFT JOIN whose missing match is a NULL row, read back and branched on. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("crm.db", &db) != SQLITE_OK)
        return 1;
    int who = sym_int("who");
    sqlite3_prepare_v2(db,
                       "SELECT c.name, c.vip, o.total FROM customers c LEFT JOIN orders o ON o.cust = c.id "
                       "WHERE c.id = ?",
                       -1, &st, NULL);
    sqlite3_bind_int(st, 1, who);
    int rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        rows++;
        if (sqlite3_column_type(st, 2) == SQLITE_NULL) {
            printf("customer without orders\n");
            if (sqlite3_column_int(st, 1))
                printf("a VIP who never ordered\n");
        } else if (sqlite3_column_int(st, 2) > 100) {
            printf("big order\n");
        } else {
            printf("small order\n");
        }
    }
    if (rows == 0)
        printf("no such customer\n");
    else if (rows > 1)
        printf("several orders\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
