/* exhaust.c: data-mode program on a small table where one branch needs a reading no tuple has (the data cannot reach it). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open("sensors.db", &db) != SQLITE_OK) {
        fprintf(stderr, "cannot open sensors.db\n");
        return 1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT id, reading, unit FROM sensors", -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
        sqlite3_close(db);
        return 1;
    }
    int cold = 0, normal = 0, overload = 0, kelvin = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int reading = sqlite3_column_int(st, 1);
        const char *unit = (const char *)sqlite3_column_text(st, 2);
        if (reading < 0)
            cold++;
        else if (reading > 1000)
            overload++;             /* no tuple of the table has a reading above 1000 */
        else
            normal++;
        if (strcmp(unit, "K") == 0)
            kelvin++;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    printf("cold %d normal %d overload %d kelvin %d\n", cold, normal, overload, kelvin);
    return 0;
}
