/* teams.c: GROUP BY with HAVING COUNT(*) > 2 and the aggregates of each group read back; GROUP BY of an expression by its alias, top groups by LIMIT. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("league.db", &db) != SQLITE_OK)
        return 1;
    sqlite3_prepare_v2(db,
                       "SELECT team, COUNT(*), SUM(score), MAX(score) FROM players GROUP BY team "
                       "HAVING COUNT(*) > 2",
                       -1, &st, NULL);
    int teams = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        teams++;
        const char *team = (const char *)sqlite3_column_text(st, 0);
        if (strcmp(team, "red") == 0)
            printf("the red team is full\n");
        if (sqlite3_column_int(st, 2) > 250)
            printf("a strong team\n");
        if (sqlite3_column_int(st, 3) == 100)
            printf("a perfect player\n");
    }
    if (teams == 0)
        printf("no full team\n");
    sqlite3_finalize(st);
    /* groups without HAVING: how many teams have a player under 10 */
    sqlite3_prepare_v2(db, "SELECT team, MIN(score) FROM players WHERE score < 10 GROUP BY team", -1, &st, NULL);
    int weak = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        weak++;
    if (weak >= 2)
        printf("two weak teams\n");
    sqlite3_finalize(st);
    /* levels with two players or more: grouped by an expression, through its alias */
    sqlite3_prepare_v2(db,
                       "SELECT CASE WHEN score >= 90 THEN 'top' ELSE 'other' END AS level, COUNT(*) FROM players "
                       "GROUP BY level HAVING COUNT(*) >= 2 ORDER BY COUNT(*) DESC LIMIT 3",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW)
        if (strcmp((const char *)sqlite3_column_text(st, 0), "top") == 0)
            printf("two top players\n");
    sqlite3_close(db);
    return 0;
}
