/* wants.c: aggregates over a UNION ALL inside WITH (how many want a course, since when, how many seats; coalesce(SUM(n), 0) of seats less waiting) and over a UNION subquery in FROM (how many people). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("school.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db, "WITH wants AS (SELECT student, day, seats FROM enrolled WHERE course = 1 UNION ALL "
                               "SELECT student, since, 1 FROM waiting WHERE course = 1) "
                               "SELECT COUNT(*), MIN(day), SUM(seats) FROM wants", -1, &st, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 0) > 2) puts("in demand");
        const char *first = (const char *)sqlite3_column_text(st, 1);
        if (first && strcmp(first, "2024-06-01") < 0) puts("wanted since spring");
        if (sqlite3_column_int(st, 2) > 6) puts("many seats");
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM (SELECT student FROM enrolled UNION SELECT student FROM waiting) s",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) != SQLITE_ROW) return 1;
    if (sqlite3_column_int(st, 0) == 2) puts("two people");
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "WITH w AS (SELECT seats AS n FROM enrolled UNION ALL SELECT -course FROM waiting) "
                               "SELECT coalesce(SUM(n), 0) FROM w", -1, &st, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) != SQLITE_ROW) return 1;
    if (sqlite3_column_int(st, 0) < 0) puts("more waiting than seats");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
