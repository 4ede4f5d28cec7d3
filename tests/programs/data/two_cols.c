/* two_cols.c: data-mode program whose path depends on two integer columns jointly (a + b > 100, then a == b), with a bound parameter. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open("pairs.db", &db) != SQLITE_OK) {
        fprintf(stderr, "cannot open pairs.db\n");
        return 1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT a, b FROM pairs WHERE id > ?", -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
        sqlite3_close(db);
        return 1;
    }
    sqlite3_bind_int(st, 1, 0);
    long high_twins = 0, high = 0, low_twins = 0, low = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long a = sqlite3_column_int64(st, 0);
        long long b = sqlite3_column_int64(st, 1);
        if (a + b > 100) {
            if (a == b)
                high_twins++;       /* rarest: both conditions */
            else
                high++;             /* rare */
        } else if (a == b) {
            low_twins++;
        } else {
            low++;
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    printf("high_twins %ld\n", high_twins);
    printf("high %ld\n", high);
    printf("low_twins %ld\n", low_twins);
    printf("low %ld\n", low);
    return 0;
}
