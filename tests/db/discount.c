/* discount.c: the ISSTA 2007 Figure 1 example (Emmi, Majumdar, Sen) in C against SQLite: discounts by publisher. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

int main(void)
{
    int preferred = sym_int("preferred");
    sqlite3 *db;
    sqlite3_open("books.db", &db);
    int inv;
    if (preferred == 1)
        inv = 0;
    else
        inv = 100;
    char query[256];
    snprintf(query, sizeof query, "SELECT * FROM books WHERE inventory > %d AND subject LIKE 'CS%%'", inv);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, query, -1, &st, NULL);
    int acm = 0, other = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *publisher = (const char *)sqlite3_column_text(st, 2);
        long long isbn = sqlite3_column_int64(st, 0);
        if (strcmp(publisher, "acm") == 0) {
            printf("discount 20%% on %lld\n", isbn);
            acm++;
        } else {
            printf("discount 10%% on %lld\n", isbn);
            other++;
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    printf("%d acm, %d other\n", acm, other);
    return 0;
}
