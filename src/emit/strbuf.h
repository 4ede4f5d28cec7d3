/* strbuf.h: a growable NUL-terminated text buffer shared by the emit writers (internal to emit/). */
#ifndef SYMPATH_STRBUF_H
#define SYMPATH_STRBUF_H

#include <stddef.h>

/*
 * Invariant: when s is non-NULL, s[len] == '\0' and len < cap. Allocation
 * failure is sticky: `failed` is set, later appends do nothing, and the owner
 * reports ENOMEM once at the end instead of checking every append.
 */
typedef struct strbuf {
    char *s;
    size_t len, cap;
    int failed;
} strbuf;

#define STRBUF_INIT { NULL, 0, 0, 0 }

/* Append n bytes / a C string / printf-formatted text. */
void sb_append(strbuf *b, const char *p, size_t n);
void sb_puts(strbuf *b, const char *p);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s with XML special characters escaped (&<>"' as entities). Characters
 * XML 1.0 cannot carry at all (control characters other than tab, LF, CR) become '?'. */
void sb_xml_escaped(strbuf *b, const char *s);
/* Append s made safe for the inside of an XML comment: no "--", no trailing '-'. */
void sb_xml_comment_text(strbuf *b, const char *s);
/* Release the memory; b becomes empty (reusable). */
void sb_free(strbuf *b);

#endif
