/* busiest.c: aggregates over the groups of a subquery in FROM: the busiest day's shift count (MAX of a COUNT), how many days (COUNT(*)), the least hours of a day (MIN of a SUM), with and without an alias. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("staff.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db, "SELECT MAX(n), COUNT(*) FROM (SELECT day, COUNT(*) AS n FROM shifts GROUP BY day) d",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 1) == 0)
            puts("no shifts");
        else if (sqlite3_column_int(st, 0) >= 3)
            puts("a crowded day");
        if (sqlite3_column_int(st, 1) > 2) puts("many days");
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "SELECT MIN(h) FROM (SELECT day, SUM(hours) h FROM shifts WHERE person <> 'boss' GROUP BY day)",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL && sqlite3_column_int(st, 0) > 20)
        puts("every day is long");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
