/* cursor.h: a single-header scanner in the stb style (the declarations always, the definitions only where the
 * user defines CURSOR_IMPLEMENTATION), its reader made by value (the shape of rxi's sj.h: sj_Reader sj_reader(data,
 * len)); a test library of sympath unit (tests/e2e/test_unit_hdrimpl.sh). */
#ifndef CURSOR_H
#define CURSOR_H
#include <stddef.h>

typedef struct cursor {
    const char *data, *cur, *end;
    int lines; /* newlines passed */
} cursor;

typedef struct cursor_tok {
    int kind; /* 0 end, 1 word, 2 newline */
    const char *start;
    size_t len;
} cursor_tok;

/* A cursor at the start of the len bytes of data (not copied). */
cursor cursor_make(const char *data, size_t len);
/* The next token: spaces are skipped, a word runs to a space or newline. */
cursor_tok cursor_next(cursor *c);
/* The line of the cursor (1 at the start), counted from the data to the cursor. */
int cursor_line(const cursor *c);
/* The kind of the next token, not consumed; its start and len are left unset (only kind is meant to be read). */
cursor_tok cursor_peek(const cursor *c);
/* Whether the cursor is at the end of its data (defined in every file that includes the header). */
static inline int cursor_at_end(const cursor *c) { return c->cur == c->end; }
#endif

#ifdef CURSOR_IMPLEMENTATION
cursor cursor_make(const char *data, size_t len)
{
    cursor c = {data, data, data + len, 0};
    return c;
}

cursor_tok cursor_next(cursor *c)
{
    cursor_tok t = {0, c->cur, 0};
    while (c->cur != c->end && *c->cur == ' ') c->cur++;
    t.start = c->cur;
    if (c->cur == c->end) return t;
    if (*c->cur == '\n') {
        c->lines++;
        c->cur++;
        t.kind = 2;
        t.len = 1;
        return t;
    }
    t.kind = 1;
    while (c->cur != c->end && *c->cur != ' ' && *c->cur != '\n') c->cur++;
    t.len = (size_t)(c->cur - t.start);
    return t;
}

cursor_tok cursor_peek(const cursor *c)
{
    cursor_tok t;
    t.kind = c->cur == c->end ? 0 : *c->cur == '\n' ? 2 : 1;
    return t;
}

int cursor_line(const cursor *c)
{
    int n = 1;
    for (const char *p = c->data; p != c->cur; p++)
        if (*p == '\n') n++;
    return n;
}
#endif
