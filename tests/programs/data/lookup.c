/* lookup.c: a data-mode program whose branch on a big table's rows compares with a value read from a small configuration table (concretized in the big table's paths). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/*
 * config(name, value): a few rows, one of them ('limit', 150). pairs(id, a, b) (make_db.sh
 * two_cols): a + b > limit on 14 rows only (the limit comes from the configuration row, so
 * the condition reads values of two tuples: the configuration's is concrete in the candidate
 * queries), a == b on 4% of the rows.
 */
int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *cfg, *st;
    if (sqlite3_open_v2("pairs.db", &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        return 1;
    long limit = 0;
    if (sqlite3_prepare_v2(db, "SELECT name, value FROM config", -1, &cfg, NULL) != SQLITE_OK)
        return 1;
    while (sqlite3_step(cfg) == SQLITE_ROW)
        if (strcmp((const char *)sqlite3_column_text(cfg, 0), "limit") == 0)
            limit = sqlite3_column_int64(cfg, 1);
    sqlite3_finalize(cfg);
    if (limit == 0) {
        printf("no limit configured\n");
        return 2;
    }
    if (sqlite3_prepare_v2(db, "SELECT a, b FROM pairs", -1, &st, NULL) != SQLITE_OK)
        return 1;
    long over = 0, same = 0, other = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long a = sqlite3_column_int64(st, 0), b = sqlite3_column_int64(st, 1);
        if (a + b > limit)
            over++; /* 14 rows */
        else if (a == b)
            same++;
        else
            other++;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    printf("over %ld same %ld other %ld\n", over, same, other);
    return 0;
}
