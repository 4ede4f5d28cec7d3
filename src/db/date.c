/* date.c: DATE, TIME and DATETIME/TIMESTAMP columns as ISO-8601 text cells: their kind and the validity of a cell. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "db.h"

bool db_text_is_number(const char *t)
{
    char *end = NULL;
    if (strpbrk(t, "xXiInN")) return false; /* hex, inf, nan: strtod's, not SQLite's numbers */
    strtod(t, &end);
    if (end == t) return false;
    while (*end == ' ') end++;
    return !*end;
}

char *db_val_concrete_text(const db_val *v, char *buf)
{
    unsigned n = (unsigned)(v->len->value & 0xff);
    if (n > v->nbytes) n = v->nbytes;
    for (unsigned i = 0; i < n; i++) buf[i] = (char)v->bytes[i]->value;
    buf[n] = 0;
    return buf;
}

bool db_val_is_number_text(const db_val *v)
{
    char buf[256];
    return db_text_is_number(db_val_concrete_text(v, buf));
}

/* The two-digit number at t[i], t[i+1] (digits already checked). */
static int num2(const char *t, int i) { return (t[i] - '0') * 10 + (t[i + 1] - '0'); }

bool db_date_text_valid(db_date_kind k, const char *t)
{
    static const char *const formats[] = {"", "dddd-dd-dd", "dd:dd:dd", "dddd-dd-dd dd:dd:dd"};
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (k == DB_DATE_NONE || strlen(t) != db_date_len(k)) return false;
    const char *f = formats[k];
    for (int i = 0; f[i]; i++)
        if (f[i] == 'd' ? t[i] < '0' || t[i] > '9' : t[i] != f[i]) return false;
    if (k != DB_DATE_TIME) {
        int y = num2(t, 0) * 100 + num2(t, 2), m = num2(t, 5), d = num2(t, 8);
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if (y < 1000 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap)) return false;
    }
    int at = k == DB_DATE_TIME ? 0 : 11;
    return k == DB_DATE_DATE || (num2(t, at) < 24 && num2(t, at + 3) < 60 && num2(t, at + 6) < 60);
}

db_date_kind db_date_kind_of(const char *t)
{
    if (!t) return DB_DATE_NONE;
    if (strcasestr(t, "DATETIME") || strcasestr(t, "TIMESTAMP")) return DB_DATE_DATETIME;
    if (strcasestr(t, "DATE")) return DB_DATE_DATE;
    if (strcasestr(t, "TIME")) return DB_DATE_TIME;
    return DB_DATE_NONE;
}

static expr *c8(expr_ctx *cx, unsigned v) { return expr_const(cx, v, 8); }

/* The digit at byte i (its value 0..9 as 8 bits; the caller requires it to be a digit). */
static expr *digit(expr_ctx *cx, const db_val *v, unsigned i)
{
    return expr_binary(cx, EXPR_SUB, v->bytes[i], c8(cx, '0'));
}

/* The two-digit number at bytes i, i+1 (8 bits, 0..99). */
static expr *two(expr_ctx *cx, const db_val *v, unsigned i)
{
    return expr_binary(cx, EXPR_ADD, expr_binary(cx, EXPR_MUL, digit(cx, v, i), c8(cx, 10)), digit(cx, v, i + 1));
}

/* lo <= x <= hi for an 8-bit x. */
static expr *within(expr_ctx *cx, expr *x, unsigned lo, unsigned hi)
{
    return expr_and1(cx, expr_cmp(cx, PRED_UGE, x, c8(cx, lo)), expr_cmp(cx, PRED_ULE, x, c8(cx, hi)));
}

/* An 8-bit value divisible by 4. */
static expr *by4(expr_ctx *cx, expr *x)
{
    return expr_cmp(cx, PRED_EQ, expr_binary(cx, EXPR_AND, x, c8(cx, 3)), c8(cx, 0));
}

/* Year, month and day at bytes 0..9 ('YYYY-MM-DD', digits already required). */
static expr *ymd_ok(expr_ctx *x, const db_val *v)
{
    expr *ok = expr_cmp(x, PRED_NE, v->bytes[0], c8(x, '0')); /* year 1000..9999 */
    expr *cc = two(x, v, 0), *yy = two(x, v, 2), *m = two(x, v, 5), *d = two(x, v, 8);
    ok = expr_and1(x, ok, within(x, m, 1, 12));
    /* Gregorian: divisible by 4, centuries only when divisible by 400 */
    expr *yy0 = expr_cmp(x, PRED_EQ, yy, c8(x, 0));
    expr *leap = expr_ite(x, yy0, by4(x, cc), by4(x, yy));
    expr *feb = expr_ite(x, leap, c8(x, 29), c8(x, 28));
    expr *thirty = expr_binary(
        x, EXPR_OR, expr_binary(x, EXPR_OR, expr_cmp(x, PRED_EQ, m, c8(x, 4)), expr_cmp(x, PRED_EQ, m, c8(x, 6))),
        expr_binary(x, EXPR_OR, expr_cmp(x, PRED_EQ, m, c8(x, 9)), expr_cmp(x, PRED_EQ, m, c8(x, 11))));
    expr *last = expr_ite(x, expr_cmp(x, PRED_EQ, m, c8(x, 2)), feb, expr_ite(x, thirty, c8(x, 30), c8(x, 31)));
    ok = expr_and1(x, ok, expr_cmp(x, PRED_UGE, d, c8(x, 1)));
    return expr_and1(x, ok, expr_cmp(x, PRED_ULE, d, last));
}

/* Hours, minutes and seconds at bytes at..at+7 ('HH:MM:SS', digits already required). */
static expr *hms_ok(expr_ctx *cx, const db_val *v, unsigned at)
{
    expr *ok = within(cx, two(cx, v, at), 0, 23);
    ok = expr_and1(cx, ok, within(cx, two(cx, v, at + 3), 0, 59));
    return expr_and1(cx, ok, within(cx, two(cx, v, at + 6), 0, 59));
}

expr *db_date_valid(expr_ctx *cx, db_date_kind k, const db_val *v)
{
    static const char *const formats[] = {"", "dddd-dd-dd", "dd:dd:dd", "dddd-dd-dd dd:dd:dd"};
    if (k == DB_DATE_NONE) return expr_const(cx, 1, 1);
    const char *f = formats[k];
    unsigned n = (unsigned)strlen(f);
    if (!v->is_text || v->nbytes < n) return expr_const(cx, 0, 1);
    expr *ok = expr_cmp(cx, PRED_EQ, v->len, c8(cx, n));
    for (unsigned i = 0; i < n; i++)
        ok = expr_and1(cx, ok,
                       f[i] == 'd' ? within(cx, v->bytes[i], '0', '9')
                                   : expr_cmp(cx, PRED_EQ, v->bytes[i], c8(cx, (unsigned char)f[i])));
    if (k != DB_DATE_TIME) ok = expr_and1(cx, ok, ymd_ok(cx, v));
    if (k != DB_DATE_DATE) ok = expr_and1(cx, ok, hms_ok(cx, v, k == DB_DATE_TIME ? 0 : 11));
    return ok;
}
