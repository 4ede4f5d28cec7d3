/* tasks.c: branches on DATE and TIMESTAMP text: compared in SQL (due < ?, done_at >= literal), parsed and compared in C. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("tasks.db", &db) != SQLITE_OK) return 1;
    sqlite3_prepare_v2(db, "SELECT title, due, done_at FROM tasks WHERE due < ? ORDER BY due", -1, &st, NULL);
    sqlite3_bind_text(st, 1, "2025-01-01", -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *due = (const char *)sqlite3_column_text(st, 1);
        int y = 0, m = 0, d = 0;
        sscanf(due, "%d-%d-%d", &y, &m, &d);
        if (y < 2000) printf("last century\n");
        if (m == 2 && d == 29) printf("leap day\n");
        if (memcmp(due, "2024", 4) == 0) printf("this year\n");
        if (sqlite3_column_type(st, 2) == SQLITE_NULL) {
            printf("pending\n");
            continue;
        }
        const char *done = (const char *)sqlite3_column_text(st, 2);
        if (strncmp(done, due, 10) > 0) printf("done late\n");
        if ((done[11] - '0') * 10 + (done[12] - '0') >= 18) printf("done in the evening\n");
    }
    sqlite3_finalize(st);
    /* a date through a parameter into the DATE column, then found by a text comparison */
    sqlite3_prepare_v2(db, "INSERT INTO tasks(title, due) VALUES (?, ?)", -1, &st, NULL);
    sqlite3_bind_text(st, 1, "party", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, "2024-12-24", -1, SQLITE_STATIC);
    sqlite3_step(st);
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM tasks WHERE due = '2024-12-24'", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) >= 2) printf("busy christmas eve\n");
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM tasks WHERE done_at >= '2024-06-01 00:00:00'", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) printf("done since june\n");
    sqlite3_finalize(st);
    /* "a week ago" by the run's clock: a text constant in the model */
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM tasks WHERE due < date('now', '-7 days')", -1, &st, NULL);
    sqlite3_step(st);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
