/* data_site.c: SELECT sites in data mode: their ids, the wrapped query the database runs (shared by the executor and the explorer). */
#define _GNU_SOURCE
#include "data.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sql[0..*len) without leading blanks and trailing blanks and ';' */
static const char *trim(const char *sql, size_t *len)
{
    size_t n = *len;
    while (n && isspace((unsigned char)*sql)) sql++, n--;
    while (n && (isspace((unsigned char)sql[n - 1]) || sql[n - 1] == ';')) n--;
    *len = n;
    return sql;
}

void data_site_id(const char *sql, size_t len, char out[17])
{
    sql = trim(sql, &len);
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)sql[i]) * 1099511628211ull;
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

bool data_is_select(const char *sql, size_t len)
{
    size_t i = 0;
    for (;;) {
        while (i < len && isspace((unsigned char)sql[i])) i++;
        if (i + 1 < len && sql[i] == '-' && sql[i + 1] == '-') {
            while (i < len && sql[i] != '\n') i++;
        } else if (i + 1 < len && sql[i] == '/' && sql[i + 1] == '*') {
            const char *e = memmem(sql + i + 2, len - i - 2, "*/", 2);
            i = e ? (size_t)(e - sql) + 2 : len;
        } else {
            break;
        }
    }
    if (i < len && sql[i] == '(') return true;
    static const char *const kw[] = {"select", "with", "values"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(kw[k]);
        if (len - i >= n && !strncasecmp(sql + i, kw[k], n) && (len - i == n || !isalnum((unsigned char)sql[i + n])))
            return true;
    }
    return false;
}

char *data_wrap_select(const char *sql, size_t len, int ncols, const char *cond, uint64_t limit)
{
    return data_wrap_select_at(sql, len, ncols, cond, limit, 0);
}

char *data_wrap_select_at(const char *sql, size_t len, int ncols, const char *cond, uint64_t limit, uint64_t offset)
{
    sql = trim(sql, &len);
    size_t cap = len + (size_t)ncols * 8 + (cond ? strlen(cond) : 0) + 128;
    char *s = malloc(cap);
    if (!s) return NULL;
    size_t o = (size_t)snprintf(s, cap, "WITH sympath_q(");
    for (int i = 0; i < ncols; i++) o += (size_t)snprintf(s + o, cap - o, "%sc%d", i ? "," : "", i);
    o += (size_t)snprintf(s + o, cap - o, ") AS (%.*s\n) SELECT * FROM sympath_q", (int)len, sql);
    if (cond && *cond) o += (size_t)snprintf(s + o, cap - o, " WHERE %s", cond);
    if (limit) o += (size_t)snprintf(s + o, cap - o, " LIMIT %llu", (unsigned long long)limit);
    if (limit && offset) o += (size_t)snprintf(s + o, cap - o, " OFFSET %llu", (unsigned long long)offset);
    return s;
}
