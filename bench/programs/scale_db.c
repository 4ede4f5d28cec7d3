/* scale_db.c: a parallel-exploration workload (bench/scale.sh): a database application run with
 * `sympath run --db bench/programs/scale_db.sql`. An order desk: it looks up the customer and the
 * product its inputs name, prices the order (tier, coupon, country, stock), then walks the
 * customer's past orders and the product's category. Branches on synthesized rows, bound
 * parameters, strings and aggregates: the solver does most of the work, and the tree (rows times
 * inputs) is far too big to exhaust in a minute. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "sympath.h"

static int one_row(sqlite3 *db, const char *sql, int arg, sqlite3_stmt **st)
{
    sqlite3_prepare_v2(db, sql, -1, st, NULL);
    sqlite3_bind_int(*st, 1, arg);
    return sqlite3_step(*st) == SQLITE_ROW;
}

int main(void)
{
    int cid = sym_int("customer"), pid = sym_int("product"), qty = sym_int("qty"), coupon = sym_int("coupon");
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open("scale_db.db", &db) != SQLITE_OK)
        return 1;
    if (qty <= 0 || qty > 100) {
        printf("bad quantity\n");
        return 2;
    }

    /* the customer */
    int discount = 0, credit = 0, domestic = 0;
    if (!one_row(db, "SELECT tier, country, credit, name FROM customers WHERE id = ?1", cid, &st)) {
        printf("no customer\n");
        sqlite3_finalize(st);
        sqlite3_close(db);
        return 3;
    }
    const char *tier = (const char *)sqlite3_column_text(st, 0);
    const char *country = (const char *)sqlite3_column_text(st, 1);
    credit = sqlite3_column_int(st, 2);
    const char *name = (const char *)sqlite3_column_text(st, 3);
    if (strcmp(tier, "gold") == 0) discount = 20;
    else if (strcmp(tier, "silver") == 0) discount = 10;
    if (strcmp(country, "NZ") == 0) domestic = 1;
    else if (strcmp(country, "AU") == 0) domestic = 2;
    if (name[0] == 'Z') printf("a customer named Z...\n");
    if (credit > 5000) printf("large credit\n");
    sqlite3_finalize(st);

    /* the product */
    if (!one_row(db, "SELECT price, stock, category FROM products WHERE id = ?1", pid, &st)) {
        printf("no product\n");
        sqlite3_finalize(st);
        sqlite3_close(db);
        return 4;
    }
    int price = sqlite3_column_int(st, 0), stock = sqlite3_column_int(st, 1);
    char cat[16];
    snprintf(cat, sizeof cat, "%s", (const char *)sqlite3_column_text(st, 2)); /* kept past finalize */
    int fragile = strcmp(cat, "glass") == 0;
    int food = !fragile && strcmp(cat, "food") == 0;
    sqlite3_finalize(st);
    if (stock < qty) {
        printf("backorder\n");
        if (stock == 0) printf("sold out\n");
    }

    /* pricing */
    int total = price * qty;
    if (coupon == 1234 && discount < 20) discount += 5;
    else if (coupon != 0 && coupon % 97 == 13) discount += 2;
    total -= total * discount / 100;
    if (fragile && domestic == 0) total += 50;
    else if (food && domestic == 2) total += 20;
    else if (domestic == 1 && total > 1000) total -= 30;
    if (total > credit) {
        printf("over credit\n");
        if (discount >= 20) printf("gold over credit\n");
    } else if (total == credit) {
        printf("exactly the credit\n");
    }

    /* the customer's past orders */
    sqlite3_prepare_v2(db, "SELECT o.qty, o.status, p.price, p.category FROM orders o JOIN products p ON p.id = o.product WHERE o.cust = ?1", -1, &st, NULL);
    sqlite3_bind_int(st, 1, cid);
    int n = 0, returned = 0, big = 0, same = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int q = sqlite3_column_int(st, 0);
        const char *status = (const char *)sqlite3_column_text(st, 1);
        int pr = sqlite3_column_int(st, 2);
        if (strcmp(status, "returned") == 0) returned++;
        else if (strcmp(status, "open") == 0 && q > 10) printf("large open order\n");
        if (q * pr > 2000) big++;
        if (strcmp((const char *)sqlite3_column_text(st, 3), cat) == 0) same++;
        n++;
    }
    sqlite3_finalize(st);
    if (n >= 2 && returned == n) printf("returns everything\n");
    if (big >= 2) printf("big spender\n");
    if (same > 0 && fragile) printf("buys glass again\n");

    /* aggregates over the product's orders */
    sqlite3_prepare_v2(db, "SELECT count(*), sum(qty), max(qty) FROM orders WHERE product = ?1 AND status <> 'returned'", -1, &st, NULL);
    sqlite3_bind_int(st, 1, pid);
    if (sqlite3_step(st) == SQLITE_ROW) {
        int cnt = sqlite3_column_int(st, 0), sum = sqlite3_column_int(st, 1), mx = sqlite3_column_int(st, 2);
        if (cnt >= 2 && sum + qty > stock) printf("demand exceeds stock\n");
        if (cnt == 3 && mx == qty) printf("matches the largest order\n");
    }
    sqlite3_finalize(st);

    /* the other customers: richer ones in the same country */
    sqlite3_prepare_v2(db, "SELECT credit, country, tier FROM customers WHERE id <> ?1", -1, &st, NULL);
    sqlite3_bind_int(st, 1, cid);
    int richer = 0, golds = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (strcmp((const char *)sqlite3_column_text(st, 1), domestic == 1 ? "NZ" : "AU") == 0 &&
            sqlite3_column_int(st, 0) > credit)
            richer++;
        if (strcmp((const char *)sqlite3_column_text(st, 2), "gold") == 0)
            golds++;
    }
    sqlite3_finalize(st);
    if (richer >= 2) printf("two richer neighbours\n");
    if (golds == 2 && discount == 0) printf("a basic customer among golds\n");
    sqlite3_close(db);
    return 0;
}
