/* stockout.c: writes the engine refuses (tests/e2e/test_db_check.sh): an UPDATE that would break CHECK (stock >= 0), an INSERT of a name already there (UNIQUE); which happens is up to the fixture. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db, "UPDATE items SET stock = stock - ? WHERE name = 'pen'", -1, &st, NULL) != SQLITE_OK)
        return 1;
    sqlite3_bind_int(st, 1, 3);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        printf("fewer than 3 pens\n");
    else if (sqlite3_changes(db) == 0)
        printf("no pens\n");
    else
        printf("3 pens shipped\n");
    if (sqlite3_prepare_v2(db, "INSERT INTO items (name, stock) VALUES ('lamp', 5)", -1, &st, NULL) != SQLITE_OK)
        return 1;
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_CONSTRAINT) printf("a lamp is listed already\n");
    sqlite3_close(db);
    return 0;
}
