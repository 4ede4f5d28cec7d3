/* library.c: a report over a LEFT JOIN with GROUP BY (loans per book, books never lent count 0) and HAVING. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("library.db", &db) != SQLITE_OK)
        return 1;
    sqlite3_prepare_v2(db,
                       "SELECT b.title, COUNT(l.id), MAX(l.days) FROM books b LEFT JOIN loans l ON l.book = b.id "
                       "GROUP BY b.id",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int loans = sqlite3_column_int(st, 1);
        if (loans == 0)
            printf("never lent\n");
        else if (loans >= 2)
            printf("popular\n");
        if (sqlite3_column_type(st, 2) != SQLITE_NULL && sqlite3_column_int(st, 2) > 30)
            printf("a long loan\n");
    }
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db,
                       "SELECT b.year, COUNT(*) FROM books b JOIN loans l ON l.book = b.id GROUP BY b.year "
                       "HAVING COUNT(*) > 2",
                       -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW)
        printf("a busy year\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
