/* renew.c: a renewal UPDATE of a DATE (date(expires, '+30 days')) and a fee in cents (fee - 500) under CHECKs, then the row read back (the new date compared in SQL). */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("renew.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db,
                           "UPDATE members SET expires = date(expires, '+30 days'), fee = fee - 500 "
                           "WHERE id = 1 AND plan = 'premium'",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        printf("renewal refused\n");
    else if (sqlite3_changes(db) == 0)
        printf("member 1 is not premium\n");
    if (sqlite3_prepare_v2(db, "SELECT fee, expires < '2026-11-29' FROM members WHERE id = 1", -1, &st, NULL) !=
        SQLITE_OK)
        return 1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        int fee = sqlite3_column_int(st, 0);
        if (fee < 2000) printf("fee below 20: %d cents\n", fee);
        if (sqlite3_column_int(st, 1)) printf("expired\n");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
