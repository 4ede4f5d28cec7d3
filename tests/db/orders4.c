/* orders4.c: a join of four tables grouped per customer with a group_concat() read concretely (tests/e2e/test_db_sql.sh), and the dearest product by ORDER BY of a computed column's alias with LIMIT. */
#include <sqlite3.h>
#include <stdio.h>

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("shop.db", &db) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(db,
                           "SELECT c.name, SUM(i.qty * p.price) AS total, group_concat(p.name, ',') FROM customers c "
                           "JOIN orders o ON o.customer_id = c.id JOIN items i ON i.order_id = o.id "
                           "JOIN products p ON p.id = i.product_id GROUP BY c.id",
                           -1, &st, NULL) != SQLITE_OK)
        return 1;
    int customers = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        customers++;
        if (sqlite3_column_int(st, 1) > 100)
            printf("%s spent a lot on %s\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 2));
    }
    sqlite3_finalize(st);
    if (customers == 0) puts("no sales");
    if (sqlite3_prepare_v2(db, "SELECT name, price * 2 AS doubled FROM products ORDER BY doubled DESC LIMIT 1", -1, &st,
                           NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 1) > 50) puts("a dear product");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
