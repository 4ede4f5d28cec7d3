/* visits.c: dates kept in TEXT columns (SQLite has no DATE type) passed to strftime() and julianday(): the program's SQL makes them date columns, so both queries are understood. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("visits.db", &db) != SQLITE_OK) return 1;
    sqlite3_prepare_v2(db,
                       "SELECT strftime('%m', day), who FROM visits WHERE julianday('2024-06-01') - julianday(day) < 7",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *m = (const char *)sqlite3_column_text(st, 0);
        if (!m) continue;
        if (strcmp(m, "05") == 0)
            printf("a visit in late May\n");
        else
            printf("a recent visit\n");
    }
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM visits WHERE strftime('%H', at) >= '18'", -1, &st, NULL);
    int evening = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    if (evening > 0) printf("evening visits\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
