/* date.c: DATE, TIME and DATETIME/TIMESTAMP columns as ISO-8601 text cells: their kind and the validity of a cell. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

/*
 * Date functions of a date column (SQLite's date(), datetime(), strftime(), julianday()).
 * The argument is a text cell holding 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'; every function first
 * reads it as SQLite does, into the canonical 19-byte datetime C (a date alone at 00:00:00), and is
 * NULL when the text is neither form (a NULL cell, or a text a program stored that sympath does not
 * read: SQLite also reads julian day numbers, a 'T' separator, HH:MM, fractional seconds; those
 * rows then come back as model mismatches, never as wrong assumptions, since fixture cells are
 * valid by their slot constraints). Then strftime's conversions are byte ranges of C, so every
 * result has a constant length, and julianday is SQLite's integer arithmetic on the digits; %w (the
 * day of the week) is one digit computed from the julian day number.
 */

/* %w, the day of the week (0 Sunday .. 6 Saturday), is no byte range of C: its offset says so */
#define AT_WEEKDAY 100

/* Offset and length in C of each strftime conversion modelled, 0 length: not modelled. */
static void conversion(char f, unsigned *at, unsigned *n)
{
    static const char conv[] = "YmdHMSw"; /* %F and %T came with SQLite 3.44 */
    static const unsigned off[] = {0, 5, 8, 11, 14, 17, AT_WEEKDAY}, len[] = {4, 2, 2, 2, 2, 2, 1};
    const char *p = f ? strchr(conv, f) : NULL;
    *at = p ? off[p - conv] : 0;
    *n = p ? len[p - conv] : 0;
}

static expr *jdn(expr_ctx *cx, const db_val *v);

int db_date_format_len(const char *fmt)
{
    unsigned n = 0;
    for (const char *p = fmt; *p; p++) {
        unsigned at, k = 1;
        if (*p == '%' && p[1] != '%' && (conversion(*++p, &at, &k), !k)) return -1;
        if (*p == '%') p++; /* %%: one '%' */
        n += k;
        if (n > 255) return -1;
    }
    return (int)n;
}

/* "v holds a valid date text" and "a valid datetime text" (width 1; 0 when it has too few bytes). For a
 * fixture cell (valid_date) its kind: the slot constraints already say so, and repeating the whole
 * validity condition in every date function of it costs the solver (GROUP BY strftime('%Y-%m', d)
 * compares each pair of rows). */
static void forms(expr_ctx *cx, const db_val *v, expr **d10, expr **d19)
{
    if (v->valid_date) {
        *d10 = expr_const(cx, v->valid_date == DB_DATE_DATE, 1);
        *d19 = expr_const(cx, v->valid_date == DB_DATE_DATETIME, 1);
        return;
    }
    *d10 = db_date_valid(cx, DB_DATE_DATE, v);
    *d19 = db_date_valid(cx, DB_DATE_DATETIME, v);
}

/* "v has the datetime's 19 bytes": among the texts that are not NULL (a valid date or datetime) it
 * tells the two apart as d19 does, with one comparison where the solver would otherwise see the whole
 * validity condition in every byte read. */
static expr *is19(expr_ctx *cx, const db_val *v) { return expr_cmp(cx, PRED_EQ, v->len, c8(cx, 19)); }

expr *db_date_format(expr_ctx *cx, const char *fmt, const db_val *v, expr **bytes)
{
    if (!v->is_text) return expr_const(cx, 1, 1);
    expr *d10, *d19, *timed = is19(cx, v);
    forms(cx, v, &d10, &d19);
    static const char midnight[] = " 00:00:00";
    unsigned n = 0;
    for (const char *p = fmt; *p; p++) {
        unsigned at = 0, k = 0;
        if (*p == '%' && p[1] == '%')
            p++;
        else if (*p == '%')
            conversion(*++p, &at, &k);
        if (!k) { /* a literal byte */
            bytes[n++] = c8(cx, (unsigned char)*p);
            continue;
        }
        if (at == AT_WEEKDAY) { /* '0' + (JDN + 1) mod 7: the julian day number 2451545, 2000-01-01, a Saturday */
            expr *wd = v->nbytes < 10
                           ? expr_const(cx, 0, 64)
                           : expr_binary(cx, EXPR_UREM, expr_binary(cx, EXPR_ADD, jdn(cx, v), expr_const(cx, 1, 64)),
                                         expr_const(cx, 7, 64));
            bytes[n++] = expr_resize(cx, expr_binary(cx, EXPR_ADD, wd, expr_const(cx, '0', 64)), 8);
            continue;
        }
        for (unsigned i = at; i < at + k; i++)
            bytes[n++] = i < 10          ? (i < v->nbytes ? v->bytes[i] : c8(cx, 0))
                         : i < v->nbytes ? expr_ite(cx, timed, v->bytes[i], c8(cx, (unsigned char)midnight[i - 10]))
                                         : c8(cx, (unsigned char)midnight[i - 10]);
    }
    return expr_binary(cx, EXPR_OR, v->null, expr_not(cx, expr_binary(cx, EXPR_OR, d10, d19)));
}

/* The number of bytes i..i+w-1 (digits already required) as 32 bits. */
static expr *digits32(expr_ctx *cx, const db_val *v, unsigned i, unsigned w)
{
    expr *r = expr_const(cx, 0, 32);
    for (unsigned k = 0; k < w; k++)
        r = expr_binary(cx, EXPR_ADD, expr_binary(cx, EXPR_MUL, r, expr_const(cx, 10, 32)),
                        expr_zext(cx, digit(cx, v, i + k), 32));
    return r;
}

/* The julian day number of the date at bytes 0..9 (digits and a valid date already required), 64 bits.
 * SQLite's computeJD (Meeus: the proleptic Gregorian calendar), written for the solver as a linear sum of
 * the digits, without a division or a product of two unknowns: with Y = 1000 a + 100 b + 10 c + d,
 * cc = 10 a + b, yy = 10 c + d,
 *   F(Y) = 365 Y + Y/4 - Y/100 + Y/400 = 365240 a + 36524 b + 3650 c + 365 d + yy/4 + cc/4,
 *   JDN = F(Y) + (days before month M) + D - (M <= 2 and Y is a leap year) + 1721060.
 * Checked against SQLite and PostgreSQL on random dates (test_db_date, test_db_pg_schema). 32 bits inside. */
static expr *jdn(expr_ctx *cx, const db_val *v)
{
    static const unsigned before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    static const unsigned weight[] = {365240, 36524, 3650, 365};
    expr *days = expr_const(cx, 1721060, 32);
    for (unsigned i = 0; i < 4; i++)
        days =
            expr_binary(cx, EXPR_ADD, days,
                        expr_binary(cx, EXPR_MUL, expr_zext(cx, digit(cx, v, i), 32), expr_const(cx, weight[i], 32)));
    expr *cc = two(cx, v, 0), *yy = two(cx, v, 2), *m = two(cx, v, 5);
    days = expr_binary(cx, EXPR_ADD, days, expr_zext(cx, expr_binary(cx, EXPR_LSHR, yy, c8(cx, 2)), 32));
    days = expr_binary(cx, EXPR_ADD, days, expr_zext(cx, expr_binary(cx, EXPR_LSHR, cc, c8(cx, 2)), 32));
    expr *cum = expr_const(cx, before[11], 32);
    for (unsigned i = 11; i-- > 0;)
        cum = expr_ite(cx, expr_cmp(cx, PRED_EQ, m, c8(cx, i + 1)), expr_const(cx, before[i], 32), cum);
    days = expr_binary(cx, EXPR_ADD, days, expr_binary(cx, EXPR_ADD, cum, expr_zext(cx, two(cx, v, 8), 32)));
    expr *leap = expr_ite(cx, expr_cmp(cx, PRED_EQ, yy, c8(cx, 0)), by4(cx, cc), by4(cx, yy));
    expr *early_leap = expr_and1(cx, leap, expr_cmp(cx, PRED_ULE, m, c8(cx, 2)));
    return expr_sext(cx, expr_binary(cx, EXPR_SUB, days, expr_zext(cx, early_leap, 32)), 64);
}

/* NULL unless v is a valid date or datetime text (width 1). */
static expr *not_a_date(expr_ctx *cx, const db_val *v)
{
    expr *d10, *d19;
    forms(cx, v, &d10, &d19);
    return expr_binary(cx, EXPR_OR, v->null, expr_not(cx, expr_binary(cx, EXPR_OR, d10, d19)));
}

/* The seconds of v from the julian day number's midnight on: JDN * 86400 + its time of day (0 for a date alone). */
static expr *seconds_of(expr_ctx *cx, const db_val *v)
{
    expr *t = expr_binary(cx, EXPR_MUL, jdn(cx, v), expr_const(cx, 86400, 64));
    if (v->nbytes < 19) return t;
    expr *tod = expr_const(cx, 0, 64);
    static const unsigned at[] = {11, 14, 17}, mul[] = {3600, 60, 1};
    for (unsigned i = 0; i < 3; i++)
        tod = expr_binary(
            cx, EXPR_ADD, tod,
            expr_binary(cx, EXPR_MUL, expr_zext(cx, digits32(cx, v, at[i], 2), 64), expr_const(cx, mul[i], 64)));
    return expr_binary(cx, EXPR_ADD, t, expr_ite(cx, is19(cx, v), tod, expr_const(cx, 0, 64)));
}

expr *db_date_seconds(expr_ctx *cx, const db_val *a, const db_val *b, expr **null)
{
    if (!a->is_text || !b->is_text || a->nbytes < 10 || b->nbytes < 10) {
        *null = expr_const(cx, 1, 1);
        return expr_const(cx, 0, 64);
    }
    *null = expr_binary(cx, EXPR_OR, not_a_date(cx, a), not_a_date(cx, b));
    return expr_ite(cx, *null, expr_const(cx, 0, 64), expr_binary(cx, EXPR_SUB, seconds_of(cx, a), seconds_of(cx, b)));
}

expr *db_date_days(expr_ctx *cx, const db_val *a, const db_val *b, expr **null)
{
    if (!a->is_text || !b->is_text || a->nbytes < 10 || b->nbytes < 10) {
        *null = expr_const(cx, 1, 1);
        return expr_const(cx, 0, 64);
    }
    *null = expr_binary(cx, EXPR_OR, not_a_date(cx, a), not_a_date(cx, b));
    return expr_ite(cx, *null, expr_const(cx, 0, 64), expr_binary(cx, EXPR_SUB, jdn(cx, a), jdn(cx, b)));
}

expr *db_date_day_number(expr_ctx *cx, const db_val *v)
{
    if (v->is_text && v->day) return v->day;
    if (!v->is_text || v->nbytes < 10) return NULL;
    if (v->valid_date == DB_DATE_DATE && v->nbytes == 10) return jdn(cx, v);
    char text[11];
    for (unsigned i = 0; i < 10; i++) {
        if (v->bytes[i]->op != EXPR_CONST) return NULL;
        text[i] = (char)v->bytes[i]->value;
    }
    text[10] = 0;
    bool len10 = v->len && v->len->op == EXPR_CONST && v->len->value == 10;
    return len10 && db_date_text_valid(DB_DATE_DATE, text) ? jdn(cx, v) : NULL;
}

static bool null_const(const db_val *v) { return v->null && v->null->op == EXPR_CONST && (v->null->value & 1); }

expr *db_date_day_ite(expr_ctx *cx, expr *c, const db_val *a, const db_val *b)
{
    if (!a->is_text || !b->is_text || (!a->day && !b->day)) return NULL; /* no date + n: the bytes as before */
    expr *da = db_date_day_number(cx, a), *db = db_date_day_number(cx, b);
    if (null_const(a)) return db;
    if (null_const(b)) return da;
    return da && db ? expr_ite(cx, c, da, db) : NULL;
}

expr *db_date_add_days(expr_ctx *cx, const db_val *v, expr *n, bool pg, expr **bytes, expr **len, expr **jd)
{
    if (jd) *jd = expr_const(cx, 0, 64);
    *len = expr_const(cx, 10, 8);
    if (!v->is_text || v->nbytes < 10) {
        for (unsigned i = 0; i < (pg ? 11u : 10u); i++) bytes[i] = c8(cx, 0);
        return expr_const(cx, 1, 1);
    }
#define K(x) expr_const(cx, (uint64_t)(x), 64)
#define K32(x) expr_const(cx, (uint64_t)(x), 32)
#define OP(o, a, b) expr_binary(cx, EXPR_##o, a, b)
    /* J >= 2086302 (the year 1000) + n: every step below is on positive values, so unsigned division is exact; in
     * range (the NULL flag below) every step fits 32 bits (e < 4 * 5673484 + 2^14), the year 16 bits and the month
     * and day 8: a 64-bit division is a circuit four times the size of a 32-bit one, and the solver's time on a
     * query holding the digits of a renewed date (a membership's date(expires, '+30 days') read back) went with it */
    expr *j = OP(ADD, jdn(cx, v), n);
    expr *j32 = expr_resize(cx, j, 32);
    expr *f = OP(SUB, OP(ADD, j32, K32(1401)), K32(38));
    f = OP(ADD, f,
           OP(UDIV, OP(MUL, OP(UDIV, OP(ADD, OP(MUL, K32(4), j32), K32(274277)), K32(146097)), K32(3)), K32(4)));
    expr *e = OP(ADD, OP(MUL, K32(4), f), K32(3));
    expr *g = OP(UDIV, OP(UREM, e, K32(1461)), K32(4));
    expr *h = OP(ADD, OP(MUL, K32(5), g), K32(2));
    expr *day = expr_resize(cx, OP(ADD, OP(UDIV, OP(UREM, h, K32(153)), K32(5)), K32(1)), 8);
    expr *month32 = OP(ADD, OP(UREM, OP(ADD, OP(UDIV, h, K32(153)), K32(2)), K32(12)), K32(1));
    expr *year = expr_resize(
        cx, OP(ADD, OP(SUB, OP(UDIV, e, K32(1461)), K32(4716)), OP(UDIV, OP(SUB, K32(14), month32), K32(12))), 16);
    expr *part[3] = {year, expr_resize(cx, month32, 8), day};
    static const unsigned width[3] = {4, 2, 2}, at[3] = {0, 5, 8};
    for (unsigned p = 0; p < 3; p++)
        for (unsigned k = 0; k < width[p]; k++) {
            uint64_t div = 1;
            for (unsigned d = k + 1; d < width[p]; d++) div *= 10;
            unsigned w = part[p]->width;
            expr *dg = OP(UREM, OP(UDIV, part[p], expr_const(cx, div, w)), expr_const(cx, 10, w));
            bytes[at[p] + k] = expr_resize(cx, OP(ADD, dg, expr_const(cx, '0', w)), 8);
        }
    bytes[4] = bytes[7] = c8(cx, '-');
    /* SQLite: NULL past 9999-12-31 (julian day number 5373484), on j so that no division is in the flag; from
     * year 178 up: |n| < 300000 (a constant one is so by the parse), from the year 1000 on, j stays positive */
    expr *past = expr_cmp(cx, PRED_SGT, j, K(5373484));
    expr *range = expr_cmp(cx, PRED_ULT, OP(ADD, n, K(299999)), K(2 * 299999 + 1));
    if (!pg) {
        range = expr_and1(cx, range, expr_not(cx, past));
    } else { /* PostgreSQL: the year 10000 and on (at most 10821 here) in five digits, 'YYYYY-MM-DD' */
        expr *five[11];
        for (unsigned k = 0; k < 5; k++) {
            uint64_t div = 1;
            for (unsigned d = k + 1; d < 5; d++) div *= 10;
            expr *dg = OP(UREM, OP(UDIV, year, expr_const(cx, div, 16)), expr_const(cx, 10, 16));
            five[k] = expr_resize(cx, OP(ADD, dg, expr_const(cx, '0', 16)), 8);
        }
        five[5] = five[8] = c8(cx, '-');
        for (unsigned k = 0; k < 2; k++) five[6 + k] = bytes[5 + k], five[9 + k] = bytes[8 + k];
        for (unsigned i = 0; i < 11; i++) bytes[i] = expr_ite(cx, past, five[i], i < 10 ? bytes[i] : c8(cx, 0));
        *len = expr_ite(cx, past, expr_const(cx, 11, 8), *len);
    }
    if (jd) *jd = j;
#undef K
#undef K32
#undef OP
    return expr_binary(cx, EXPR_OR, not_a_date(cx, v), expr_not(cx, range));
}

expr *db_date_field(expr_ctx *cx, const char *field, const db_val *v, expr **null)
{
    static const char *const names[] = {"year", "month", "day", "hour", "minute"};
    static const unsigned at[] = {0, 5, 8, 11, 14}, width[] = {4, 2, 2, 2, 2};
    *null = expr_const(cx, 1, 1);
    if (!strcasecmp(field, "dow")) { /* the day of the week, 0 Sunday .. 6 Saturday, as strftime's %w */
        if (!v->is_text || v->nbytes < 10) return expr_const(cx, 0, 64);
        *null = not_a_date(cx, v);
        expr *wd = expr_binary(cx, EXPR_UREM, expr_binary(cx, EXPR_ADD, jdn(cx, v), expr_const(cx, 1, 64)),
                               expr_const(cx, 7, 64));
        return expr_ite(cx, *null, expr_const(cx, 0, 64), wd);
    }
    for (unsigned f = 0; f < 5; f++) {
        if (strcasecmp(field, names[f])) continue;
        if (!v->is_text || v->nbytes < 10) return expr_const(cx, 0, 64);
        *null = not_a_date(cx, v);
        expr *x = f < 3 || v->nbytes >= 19 ? expr_zext(cx, digits32(cx, v, at[f], width[f]), 64) : NULL;
        if (f >= 3) /* a date alone is at midnight */
            x = x ? expr_ite(cx, is19(cx, v), x, expr_const(cx, 0, 64)) : expr_const(cx, 0, 64);
        return expr_ite(cx, *null, expr_const(cx, 0, 64), x);
    }
    return expr_const(cx, 0, 64);
}

bool db_date_field_ok(const char *field)
{
    static const char *const names[] = {"year", "month", "day", "hour", "minute", "dow"};
    for (unsigned f = 0; f < 6; f++)
        if (!strcasecmp(field, names[f])) return true;
    return false;
}

expr *db_julianday(expr_ctx *cx, const db_val *v, expr **k, double *unit)
{
    if (!v->is_text || v->nbytes < 10) {
        *k = expr_const(cx, 0, 64), *unit = 2.0;
        return expr_const(cx, 1, 1);
    }
    expr *days = jdn(cx, v), *null = not_a_date(cx, v);
    expr *r;
    if (v->nbytes < 19) { /* dates only: JD = (2 * days - 1) / 2, exact in a double */
        *unit = 2.0;
        r = expr_binary(cx, EXPR_SUB, expr_binary(cx, EXPR_MUL, days, expr_const(cx, 2, 64)), expr_const(cx, 1, 64));
    } else { /* iJD in milliseconds, as SQLite keeps it; julianday() divides it by 86400000.0 */
        *unit = 86400000.0;
        expr *hms = expr_binary(
            cx, EXPR_ADD,
            expr_binary(cx, EXPR_ADD, expr_binary(cx, EXPR_MUL, digits32(cx, v, 11, 2), expr_const(cx, 3600000, 32)),
                        expr_binary(cx, EXPR_MUL, digits32(cx, v, 14, 2), expr_const(cx, 60000, 32))),
            expr_binary(cx, EXPR_MUL, digits32(cx, v, 17, 2), expr_const(cx, 1000, 32)));
        hms = expr_ite(cx, is19(cx, v), expr_zext(cx, hms, 64), expr_const(cx, 0, 64));
        r = expr_binary(cx, EXPR_SUB, expr_binary(cx, EXPR_MUL, days, expr_const(cx, 86400000, 64)),
                        expr_const(cx, 43200000, 64));
        r = expr_binary(cx, EXPR_ADD, r, hms);
    }
    *k = expr_ite(cx, null, expr_const(cx, 0, 64), r);
    return null;
}
