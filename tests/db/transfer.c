/* transfer.c: a withdrawal in a transaction, rolled back when it leaves too little: what the program reads afterwards is the balance before or after, as SQLite says. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

static int balance(sqlite3 *db, int *found)
{
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT balance FROM accounts WHERE id = 1", -1, &st, NULL);
    *found = sqlite3_step(st) == SQLITE_ROW;
    int b = *found ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    return b;
}

int main(void)
{
    int amount = sym_int("amount");
    if (amount <= 0 || amount > 1000)
        return 0;
    sqlite3 *db;
    if (sqlite3_open("bank.db", &db) != SQLITE_OK)
        return 1;
    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "UPDATE accounts SET balance = balance - ?1 WHERE id = 1", -1, &st, NULL);
    sqlite3_bind_int(st, 1, amount);
    sqlite3_step(st);
    sqlite3_finalize(st);
    int found;
    int after = balance(db, &found);
    if (!found) {
        printf("no account 1\n");
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(db);
        return 0;
    }
    int rolled_back = 0;
    if (after < 100) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        rolled_back = 1;
    } else {
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    }
    int now = balance(db, &found);
    if (rolled_back && now >= 100)
        printf("refused although the balance was enough before\n"); /* amount > now - 100 */
    if (rolled_back && now < 0)
        printf("overdrawn before the withdrawal\n");
    if (!rolled_back && now == 100)
        printf("exactly 100 left\n");
    sqlite3_close(db);
    return 0;
}
