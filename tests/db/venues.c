/* venues.c: SELECT DISTINCT over an inner join (the cities with a dear event) and over a LEFT JOIN (venues without events: NULL rows), rows mapped back to slot combinations by value. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("venues.db", &db) != SQLITE_OK) return 1;
    sqlite3_prepare_v2(db, "SELECT DISTINCT v.city FROM venues v JOIN events e ON e.venue_id = v.id WHERE e.price > 20",
                       -1, &st, NULL);
    int n = 0, oslo = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        n++;
        if (strcmp((const char *)sqlite3_column_text(st, 0), "Oslo") == 0) oslo = 1;
    }
    sqlite3_finalize(st);
    if (n == 2) printf("two cities\n");
    if (oslo) printf("oslo\n");
    sqlite3_prepare_v2(db, "SELECT DISTINCT v.name, e.status FROM venues v LEFT JOIN events e ON e.venue_id = v.id", -1,
                       &st, NULL);
    int nulls = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_type(st, 1) == SQLITE_NULL) nulls++;
    sqlite3_finalize(st);
    if (nulls >= 2) printf("two venues without events\n");
    sqlite3_close(db);
    return 0;
}
