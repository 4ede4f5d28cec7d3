/* club.c: branches only a larger fixture layout reaches: more rows than the default row slots (a team of 5) and a name longer than a default TEXT cell (13 bytes, measured in C). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open("club.db", &db) != SQLITE_OK) return 1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT name FROM members WHERE team = 'red'", -1, &st, NULL) != SQLITE_OK) return 1;
    int n = 0, longest = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        int len = (int)strlen(name);
        if (len > longest) longest = len;
        n++;
    }
    sqlite3_finalize(st);
    if (n == 0)
        puts("no red members");
    else if (n > 4)
        puts("a big red team");
    else
        puts("a small red team");
    if (longest > 12) puts("a long name");
    sqlite3_close(db);
    return 0;
}
