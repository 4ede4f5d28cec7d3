/* promos.c: subqueries in FROM (one table's columns under a WHERE, joined too), a grouped LEFT JOIN read back after an INSERT and an EXISTS over the rows inserted (tests/e2e/test_db_from.sh). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static sqlite3 *db;

static void big_promos(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT p.label, p.percent FROM (SELECT label, percent FROM promos WHERE percent > 10) p "
                      "WHERE p.percent >= 50 ORDER BY p.percent DESC";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 1) == 75) printf("three quarters off: %s\n", sqlite3_column_text(st, 0));
        n++;
    }
    if (n > 1) printf("%d big promos\n", n);
    sqlite3_finalize(st);
}

static void promos_in(const char *city)
{
    sqlite3_stmt *st;
    const char *sql =
        "SELECT s.city, x.label FROM shops s "
        "JOIN (SELECT shop_id, label FROM promos WHERE percent < 20) x ON x.shop_id = s.id WHERE s.city = ?";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    sqlite3_bind_text(st, 1, city, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *label = (const char *)sqlite3_column_text(st, 1);
        if (strcmp(label, "spring") == 0) printf("small spring promo in %s\n", city);
    }
    sqlite3_finalize(st);
}

static void per_shop(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT s.id, COALESCE(SUM(p.percent), 0) FROM shops s LEFT JOIN promos p ON p.shop_id = s.id "
                      "GROUP BY s.id";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 1) > 100) printf("shop %d gives too much\n", sqlite3_column_int(st, 0));
    sqlite3_finalize(st);
}

static void promoted_shops(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT COUNT(*) FROM shops s WHERE EXISTS (SELECT 1 FROM promos p WHERE p.shop_id = s.id "
                      "AND p.percent = 60)";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 1) printf("several shops at 60%%\n");
    sqlite3_finalize(st);
}

int main(void)
{
    if (sqlite3_open("promos.db", &db) != SQLITE_OK) return 1;
    big_promos();
    promos_in("Oslo");
    per_shop();
    /* a row the program adds: the grouped query then runs concretely, its aggregate read as SQLite gives it */
    sqlite3_exec(db, "INSERT INTO promos (shop_id, label, percent) SELECT id, 'new', 60 FROM shops", NULL, NULL, NULL);
    per_shop();
    /* a subquery over them: the inserted rows are enumerated after the fixture's */
    sqlite3_exec(db, "INSERT INTO promos (shop_id, label, percent) VALUES (7, 'late', 60)", NULL, NULL, NULL);
    promoted_shops();
    sqlite3_close(db);
    return 0;
}
