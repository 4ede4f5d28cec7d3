/* lookup.c: a parcel looked up by tracking number after three report queries whose rows come first in the search. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("lookup.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db,
                           "SELECT tracking, shipped FROM parcels WHERE delivered IS NULL AND service = 'express' "
                           "ORDER BY shipped LIMIT 5",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_text(st, 1)[3] == '9') printf("late: %s\n", sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "SELECT dest, sum(weight), count(*) FROM parcels GROUP BY dest HAVING sum(weight) > 20",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 1) > 50) printf("pallet for %s\n", sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM parcels p WHERE NOT EXISTS "
                           "(SELECT 1 FROM scans s WHERE s.parcel_id = p.id)",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) printf("never scanned\n");
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "SELECT weight FROM parcels WHERE tracking = ?", -1, &st, NULL) != SQLITE_OK) return 1;
    sqlite3_bind_text(st, 1, "TRK1001", -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 0) > 30) printf("heavy\n");
    } else {
        printf("unknown parcel\n");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
