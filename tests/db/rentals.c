/* rentals.c: date functions of DATE/TIMESTAMP columns in SQL (date(), datetime(), strftime('%Y'/'%m'/'%Y-%m'), julianday differences) and COUNT(DISTINCT). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    const char *day = argc > 1 ? argv[1] : "2024-03-15";
    if (sqlite3_open("rentals.db", &db) != SQLITE_OK) return 1;
    /* rentals booked on a given day (a TIMESTAMP's date) */
    sqlite3_prepare_v2(db, "SELECT item, datetime(created_at) FROM rentals WHERE date(created_at) = ?", -1, &st, NULL);
    sqlite3_bind_text(st, 1, day, -1, SQLITE_STATIC);
    int booked = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        booked++;
        const char *at = (const char *)sqlite3_column_text(st, 1);
        if (at && strcmp(at + 11, "12:00:00") >= 0) printf("booked in the afternoon\n");
    }
    sqlite3_finalize(st);
    if (booked > 1) printf("busy day\n");
    /* long rentals: more than a week between two DATE columns */
    sqlite3_prepare_v2(db,
                       "SELECT id, julianday(end_day) - julianday(start_day) FROM rentals "
                       "WHERE end_day IS NOT NULL AND julianday(end_day) - julianday(start_day) > 7",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        double days = sqlite3_column_double(st, 1);
        if (days > 30)
            printf("a month or more\n");
        else
            printf("over a week\n");
    }
    sqlite3_finalize(st);
    /* how many different items were rented in a month */
    sqlite3_prepare_v2(db, "SELECT COUNT(DISTINCT item) FROM rentals WHERE strftime('%Y-%m', start_day) = '2024-07'",
                       -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) >= 2) printf("several items in july\n");
    sqlite3_finalize(st);
    /* summer rentals of 2024 by month */
    sqlite3_prepare_v2(db,
                       "SELECT strftime('%m', start_day), item FROM rentals WHERE strftime('%Y', start_day) = '2024' "
                       "AND strftime('%m', start_day) BETWEEN '06' AND '08'",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *m = (const char *)sqlite3_column_text(st, 0);
        if (m && strcmp(m, "08") == 0)
            printf("august\n");
        else
            printf("early summer\n");
    }
    sqlite3_finalize(st);
    /* a month's bookings */
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM rentals WHERE strftime('%Y-%m', created_at) = '2024-12'", -1, &st,
                       NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) >= 2) printf("busy december\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
