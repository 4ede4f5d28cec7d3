/* checks.c: branches on columns whose values CHECK constraints restrict, and a DEFAULT read back after an INSERT. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("app.db", &db) != SQLITE_OK)
        return 1;
    /* login: the role decides what the user may do */
    sqlite3_prepare_v2(db, "SELECT role, quota FROM accounts WHERE id = 1", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *role = (const char *)sqlite3_column_text(st, 0);
        if (strcmp(role, "admin") == 0)
            printf("administrator\n");
        else if (strcmp(role, "supervisor") == 0)
            printf("supervisor\n");
        else
            printf("user\n");
        if (sqlite3_column_int(st, 1) > 40)
            printf("large quota\n");
    }
    sqlite3_finalize(st);
    /* stock: inventory is never negative, lo <= hi */
    sqlite3_prepare_v2(db, "SELECT inventory, lo, hi FROM items WHERE sku LIKE 'SK%'", -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long inv = sqlite3_column_int64(st, 0);
        if (inv == 0)
            printf("sold out\n");
        else if (inv > 100)
            printf("plenty\n");
        if (sqlite3_column_int64(st, 2) - sqlite3_column_int64(st, 1) > 10)
            printf("wide range\n");
    }
    sqlite3_finalize(st);
    /* a new account without role and quota: the defaults apply */
    int age = sym_int("age");
    sqlite3_exec(db, "DELETE FROM accounts WHERE name = 'newbie'", NULL, NULL, NULL);
    if (sqlite3_exec(db, "INSERT INTO accounts (name) VALUES ('newbie')", NULL, NULL, NULL) == SQLITE_OK) {
        sqlite3_prepare_v2(db, "SELECT role, quota FROM accounts WHERE name = 'newbie'", -1, &st, NULL);
        if (sqlite3_step(st) == SQLITE_ROW) {
            if (strcmp((const char *)sqlite3_column_text(st, 0), "user") == 0 && sqlite3_column_int(st, 1) + age == 15)
                printf("default role, quota plus age is 15\n");
            else
                printf("other\n");
        }
        sqlite3_finalize(st);
    }
    /* a part number longer than --db-text's 8 bytes, named only by the program's SQL */
    sqlite3_prepare_v2(db, "SELECT inventory FROM items WHERE sku = 'SK-LONG-PART-42'", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW)
        printf("the long part is stocked\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
