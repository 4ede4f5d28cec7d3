/* login.c: a login check whose user name comes from the program's input, bound as a text parameter. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    char name[6];
    sym_bytes(name, 5, "name");
    name[5] = 0;
    sqlite3 *db;
    sqlite3_open("shop.db", &db);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT role FROM users WHERE name = ? LIMIT 1", -1, &st, NULL);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (strcmp((const char *)sqlite3_column_text(st, 0), "admin") == 0)
            printf("%s is an administrator\n", name);
        else
            printf("%s is a user\n", name);
    } else {
        printf("unknown user %s\n", name);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
