/* sqltext.c: the one quoting of SQL identifiers and literals (SQLite and PostgreSQL) for every SQL text sympath writes. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "util/util.h"

/* b's text, or NULL (freed) when an append failed. */
static char *done(strbuf *b)
{
    if (b->failed || !b->s) {
        sb_free(b);
        return b->failed ? NULL : strdup("");
    }
    return b->s;
}

char *db_sql_ident(const char *name)
{
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "\"");
    for (const char *p = name; *p; p++) {
        if (*p == '"') sb_puts(&b, "\""); /* doubled */
        sb_append(&b, p, 1);
    }
    sb_puts(&b, "\"");
    return done(&b);
}

char *db_sql_int(int64_t v)
{
    if (v == INT64_MIN) /* -9223372036854775808 does not parse as an integer literal in SQLite */
        return strdup("(-9223372036854775807-1)");
    return util_strf("%lld", (long long)v);
}

char *db_sql_double(double v)
{
    if (!isfinite(v)) return strdup("NULL");
    char *s = util_strf("%.17g", v);
    if (s && !strpbrk(s, ".eEn")) { /* keep it a REAL literal: 3 -> 3.0 */
        char *t = util_strf("%s.0", s);
        free(s);
        s = t;
    }
    return s;
}

char *db_sql_text(bool pg, const char *p, size_t n)
{
    if (!p) return strdup("NULL");
    bool plain = true;
    for (size_t i = 0; i < n; i++) plain &= (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] < 0x7f;
    strbuf b = STRBUF_INIT;
    if (plain) {
        sb_puts(&b, "'");
        for (size_t i = 0; i < n; i++) sb_append(&b, p[i] == '\'' ? "''" : p + i, p[i] == '\'' ? 2 : 1);
        sb_puts(&b, "'");
    } else if (!pg) {
        sb_puts(&b, "CAST(X'");
        for (size_t i = 0; i < n; i++) sb_printf(&b, "%02X", (unsigned char)p[i]);
        sb_puts(&b, "' AS TEXT)");
    } else {
        sb_puts(&b, "E'");
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)p[i];
            if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
                sb_append(&b, p + i, 1);
            else
                sb_printf(&b, "\\x%02X", c);
        }
        sb_puts(&b, "'");
    }
    return done(&b);
}

char *db_sql_blob(const void *p, size_t n)
{
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "X'");
    for (size_t i = 0; i < n; i++) sb_printf(&b, "%02X", ((const unsigned char *)p)[i]);
    sb_puts(&b, "'");
    return done(&b);
}
