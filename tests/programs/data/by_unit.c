/* by_unit.c: a data-mode program whose query aggregates (GROUP BY, through sqlite3_get_table): its rows have no keys, so its tests' fixtures hold the (small) table whole. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

/* sensors(id, reading, unit) of make_db.sh exhaust: units C, F, K; negative readings in each. */
int main(void)
{
    sqlite3 *db;
    char **t, *err = NULL;
    int nr, nc;
    if (sqlite3_open("sensors.db", &db) != SQLITE_OK)
        return 1;
    if (sqlite3_get_table(db, "SELECT unit, count(*), min(reading) FROM sensors GROUP BY unit ORDER BY unit", &t, &nr,
                          &nc, &err) != SQLITE_OK) {
        printf("query failed: %s\n", err);
        return 1;
    }
    int frozen = 0, many = 0;
    for (int i = 1; i <= nr; i++) {
        long n = atol(t[i * nc + 1]), lo = atol(t[i * nc + 2]);
        if (lo < 0)
            frozen++; /* every unit */
        if (n > 20)
            many++; /* unit C only */
    }
    sqlite3_free_table(t);
    sqlite3_close(db);
    printf("units %d, below zero %d, with many readings %d\n", nr, frozen, many);
    return 0;
}
