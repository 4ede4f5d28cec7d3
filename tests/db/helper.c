/* helper.c: every statement prepared by one helper that returns -1 on error (tests/e2e/test_db.sh): each caller's test of that is a branch only an injected fault reaches. */
#include <sqlite3.h>
#include <stdio.h>

static sqlite3 *db;

static int count(const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s\n", sqlite3_errmsg(db));
        return -1;
    }
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    return n;
}

int main(void)
{
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) return 1;
    int all = count("SELECT COUNT(*) FROM items");
    if (all < 0) printf("cannot count the items\n");
    int empty = count("SELECT COUNT(*) FROM items WHERE stock = 0");
    if (empty < 0) printf("cannot count the empty items\n");
    int big = count("SELECT COUNT(*) FROM items WHERE stock > 100");
    if (big < 0) printf("cannot count the big items\n");
    if (all > 0 && empty == all) printf("everything is sold out\n");
    sqlite3_close(db);
    return 0;
}
