/* customers.c: a LEFT JOIN whose missing match is a NULL row, and NOT EXISTS, IN and scalar subqueries. */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("crm.db", &db) != SQLITE_OK)
        return 1;
    int who = sym_int("who");
    sqlite3_prepare_v2(db,
                       "SELECT c.name, c.vip, o.total FROM customers c LEFT JOIN orders o ON o.cust = c.id "
                       "WHERE c.id = ?",
                       -1, &st, NULL);
    sqlite3_bind_int(st, 1, who);
    int rows = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        rows++;
        if (sqlite3_column_type(st, 2) == SQLITE_NULL) {
            printf("customer without orders\n");
            if (sqlite3_column_int(st, 1))
                printf("a VIP who never ordered\n");
        } else if (sqlite3_column_int(st, 2) > 100) {
            printf("big order\n");
        } else {
            printf("small order\n");
        }
    }
    if (rows == 0)
        printf("no such customer\n");
    else if (rows > 1)
        printf("several orders\n");
    sqlite3_finalize(st);
    /* subqueries: NOT EXISTS (correlated), IN (SELECT ...), a scalar SUM compared in WHERE */
    sqlite3_prepare_v2(db,
                       "SELECT name FROM customers c WHERE c.vip = 1 AND "
                       "NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id)",
                       -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW)
        printf("an idle VIP\n");
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM customers WHERE id IN (SELECT cust FROM orders WHERE total > 500)", -1,
                       &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0)
        printf("a big spender\n");
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db,
                       "SELECT name FROM customers WHERE (SELECT SUM(total) FROM orders WHERE cust = customers.id) > 1000",
                       -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW)
        printf("a loyal customer\n");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
