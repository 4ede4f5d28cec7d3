/* strbuf.c: a growable NUL-terminated text buffer and XML text escaping. */
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Make room for n more bytes plus the terminating NUL. 0 or -1 (failed set). */
static int reserve(strbuf *b, size_t n)
{
    if (b->failed) return -1;
    if (b->len + n < b->cap) return 0; /* fast path: enough space */
    size_t cap = b->cap ? b->cap : 256;
    while (cap <= b->len + n) {
        if (cap > ((size_t)-1) / 2) {
            b->failed = 1;
            return -1;
        }
        cap *= 2;
    }
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

void sb_append(strbuf *b, const char *p, size_t n)
{
    if (reserve(b, n)) return;
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_puts(strbuf *b, const char *p) { sb_append(b, p, strlen(p)); }

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    char small[128];
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        sb_append(b, small, (size_t)n);
        return;
    }
    if (reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static int xml_forbidden(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n' && c != '\r'; }

void sb_xml_escaped(strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '&': sb_puts(b, "&amp;"); break;
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        case '\'': sb_puts(b, "&apos;"); break;
        default: sb_append(b, xml_forbidden(*p) ? "?" : (const char *)p, 1); break;
        }
    }
}

void sb_xml_comment_text(strbuf *b, const char *s)
{
    char prev = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '-' && prev == '-') sb_append(b, " ", 1); /* "--" may not occur in a comment */
        sb_append(b, xml_forbidden(*p) ? "?" : (const char *)p, 1);
        prev = (char)*p;
    }
    if (prev == '-') sb_append(b, " ", 1); /* nor may the comment end in "--->" */
}

void sb_free(strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
