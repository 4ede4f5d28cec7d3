/* loans.c: julianday() of a bound date minus a DATE column read back, MAX of a DATE (text) column in a scalar subquery, SELECT DISTINCT of a computed column, a GROUP BY result computed from its key, the top group by an aggregate under a LIMIT. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("loans.db", &db) != SQLITE_OK) return 1;
    /* days overdue: julianday of a parameter minus julianday of the cell */
    sqlite3_prepare_v2(db, "SELECT julianday(?) - julianday(due_date) FROM loans WHERE returned = 0 AND due_date < ?",
                       -1, &st, NULL);
    sqlite3_bind_text(st, 1, "2024-06-01", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, "2024-06-01", -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        double days = sqlite3_column_double(st, 0);
        if (days > 30)
            printf("lost?\n");
        else
            printf("late by %.0f days\n", days);
    }
    sqlite3_finalize(st);
    /* the members whose loan is due last (MAX of a text column) */
    sqlite3_prepare_v2(db,
                       "SELECT name FROM members WHERE id IN (SELECT member_id FROM loans WHERE due_date = "
                       "(SELECT MAX(due_date) FROM loans))",
                       -1, &st, NULL);
    int last = 0;
    while (sqlite3_step(st) == SQLITE_ROW) last++;
    sqlite3_finalize(st);
    if (last > 1) printf("several members are due last\n");
    /* DISTINCT of an expression: the initials of the titles */
    sqlite3_prepare_v2(db, "SELECT DISTINCT upper(substr(title, 1, 1)) FROM loans", -1, &st, NULL);
    int initials = 0, x = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        initials++;
        const char *c = (const char *)sqlite3_column_text(st, 0);
        if (c && c[0] == 'X') x = 1;
    }
    sqlite3_finalize(st);
    if (initials == 2) printf("two initials\n");
    if (x) printf("a title starts with x\n");
    /* GROUP BY a key with a result computed from it */
    sqlite3_prepare_v2(db, "SELECT upper(tier), COUNT(*) FROM members GROUP BY tier", -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW)
        if (strcmp((const char *)sqlite3_column_text(st, 0), "GOLD") == 0 && sqlite3_column_int(st, 1) > 1)
            printf("several gold members\n");
    sqlite3_finalize(st);
    /* the top borrower: a LIMIT below the groups there can be, in the order of an aggregate */
    sqlite3_prepare_v2(db, "SELECT member_id, COUNT(*) AS n FROM loans GROUP BY member_id ORDER BY n DESC, member_id LIMIT 1",
                       -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 1) == 2) printf("the top borrower has two loans\n");
        if (sqlite3_column_int(st, 0) > 100) printf("the top borrower joined late\n");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
