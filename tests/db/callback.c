/* callback.c: numbers read as text, as sqlite3_exec callbacks and sqlite3_get_table give every cell: sscanf, atoi, strtol and atof of an INTEGER and a DECIMAL column, a NULL cell tested by its pointer, and an id read from text bound as a parameter. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

/* one order per call: its amount, as text */
static int on_order(void *big, int n, char **vals, char **names)
{
    (void)n, (void)names;
    long amount = strtol(vals[1], NULL, 10);
    if (amount > 1000) ++*(int *)big;
    int oid = -1;
    sscanf(vals[0], "%d", &oid);
    if (oid == 17) printf("order 17\n");
    return 0;
}

int main(void)
{
    sqlite3 *db;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) return 1;
    int big = 0;
    if (sqlite3_exec(db, "SELECT oid, amount FROM orders", on_order, &big, NULL) != SQLITE_OK) return 1;
    if (big >= 2) printf("two big orders\n");
    char **t;
    int rows, cols;
    if (sqlite3_get_table(db, "SELECT user_id, rate FROM orders ORDER BY amount DESC LIMIT 1", &t, &rows, &cols,
                          NULL) == SQLITE_OK &&
        rows == 1) {
        if (t[3] && atof(t[3]) > 2.5) printf("a high rate\n"); /* NULL: a node on the NULL flag asks for it */
        /* the user of the biggest order, looked up by its id read from the text */
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, "SELECT age FROM users WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
            sqlite3_bind_int(st, 1, atoi(t[2]));
            if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 60) printf("an old customer\n");
            sqlite3_finalize(st);
        }
        sqlite3_free_table(t);
    }
    sqlite3_close(db);
    return 0;
}
