/* stays.c: strftime() of a DATE column in WHERE and in the result, julianday() differences, COUNT(DISTINCT) (e2e: test_db_sql). */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("hotel.db", &db) != SQLITE_OK) return 1;
    /* returning guests: fewer different guests than stays */
    sqlite3_prepare_v2(db, "SELECT COUNT(*), COUNT(DISTINCT guest) FROM stays", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 1) < sqlite3_column_int(st, 0))
        printf("a guest came back\n");
    sqlite3_finalize(st);
    /* nights of each finished stay that began in 2024 */
    sqlite3_prepare_v2(db,
                       "SELECT strftime('%m', arrival), julianday(departure) - julianday(arrival) FROM stays "
                       "WHERE strftime('%Y', arrival) = '2024' AND departure IS NOT NULL",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *month = (const char *)sqlite3_column_text(st, 0);
        if (sqlite3_column_double(st, 1) > 7) printf("a long stay from month %s\n", month);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
