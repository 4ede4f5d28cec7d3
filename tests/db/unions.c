/* unions.c: UNION and UNION ALL whose arms join two tables, one with a literal column naming its arm (tests/e2e/test_db_from.sh). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static sqlite3 *db;

static void promo_cities(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT s.city, p.label, 'big' FROM shops s JOIN promos p ON p.shop_id = s.id "
                      "WHERE p.percent >= 50 UNION SELECT s.city, p.label, 'seasonal' FROM promos p "
                      "JOIN shops s ON s.id = p.shop_id WHERE p.label = 'spring' ORDER BY 1";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (strcmp((const char *)sqlite3_column_text(st, 0), "Oslo") == 0) printf("a promo in Oslo\n");
        if (strcmp((const char *)sqlite3_column_text(st, 2), "seasonal") == 0) printf("a seasonal promo\n");
        n++;
    }
    if (n > 1) printf("%d promos to show\n", n);
    sqlite3_finalize(st);
}

static void rome(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT p.label FROM promos p JOIN shops s ON s.id = p.shop_id WHERE s.city = 'Rome' "
                      "UNION ALL SELECT city FROM shops WHERE id > 5";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) n++;
    if (n == 2) printf("two lines\n");
    sqlite3_finalize(st);
}

int main(void)
{
    if (sqlite3_open("unions.db", &db) != SQLITE_OK) return 1;
    promo_cities();
    rome();
    sqlite3_close(db);
    return 0;
}
