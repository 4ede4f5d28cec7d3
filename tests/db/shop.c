/* shop.c: a login/permission check and an order report with bound parameters from program inputs, plus sqlite3_exec with a callback. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

static int adults_named_z;

/* sqlite3_exec callback: one row of the adults query */
static int on_adult(void *arg, int ncol, char **val, char **names)
{
    (*(int *)arg)++;
    if (val[0] && val[0][0] == 'Z')
        adults_named_z++;
    return 0;
}

int main(void)
{
    int uid = sym_int("uid");
    int min = sym_int("min");
    sqlite3 *db;
    sqlite3_open_v2("shop.db", &db, SQLITE_OPEN_READONLY, NULL);

    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT name, role FROM users WHERE id = ?1", -1, &st, NULL);
    sqlite3_bind_int(st, 1, uid);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *role = (const char *)sqlite3_column_text(st, 1);
        if (strcmp(role, "admin") == 0)
            printf("%s may administer\n", sqlite3_column_text(st, 0));
        else
            printf("%s may shop\n", sqlite3_column_text(st, 0));
    } else {
        printf("no user %d\n", uid);
    }
    sqlite3_finalize(st);

    sqlite3_prepare_v2(db, "SELECT amount FROM orders WHERE user_id = :u AND amount >= :m", -1, &st, NULL);
    sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, ":u"), uid);
    sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, ":m"), min);
    int big = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int amount = sqlite3_column_int(st, 0);
        if (amount > 1000)
            big++;
    }
    sqlite3_finalize(st);
    if (big >= 2)
        printf("user %d is a big spender\n", uid);

    int adults = 0;
    char *err = NULL;
    if (sqlite3_exec(db, "SELECT name FROM users WHERE age >= 18", on_adult, &adults, &err) != SQLITE_OK) {
        printf("error: %s\n", err);
        sqlite3_free(err);
    }
    /* COUNT(DISTINCT ...) over the fixture's orders */
    sqlite3_prepare_v2(db, "SELECT count(DISTINCT user_id) FROM orders", -1, &st, NULL);
    if (sqlite3_step(st) == SQLITE_ROW)
        printf("%d orders\n", sqlite3_column_int(st, 0));
    sqlite3_finalize(st);
    if (adults_named_z > 0)
        printf("%d adults, some named Z\n", adults);
    /* printf(): not modelled, its column read concretely (reported as such) */
    sqlite3_exec(db, "SELECT printf('%05d', id) FROM users", NULL, NULL, NULL);
    sqlite3_close(db);
    return 0;
}
