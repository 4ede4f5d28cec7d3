/* accounts.c: an account looked up by an e-mail address the program binds from a constant longer than a default TEXT cell: the column's cells grow to its length, so the account can be found. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static sqlite3 *db;

static void show(const char *email)
{
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT plan, credits FROM accounts WHERE email = ?", -1, &st, NULL);
    sqlite3_bind_text(st, 1, email, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        if (strcmp((const char *)sqlite3_column_text(st, 0), "pro") == 0) printf("pro account\n");
        if (sqlite3_column_int(st, 1) > 100) printf("rich\n");
    } else {
        printf("no account\n");
    }
    sqlite3_finalize(st);
}

int main(void)
{
    if (sqlite3_open("accounts.db", &db) != SQLITE_OK) return 1;
    show("alice@example.com");
    sqlite3_close(db);
    return 0;
}
