/* fields.c: a small delimited-record reader (see fields.h). */
#include <stdlib.h>

#include "fields.h"

void fr_init(struct field_reader *r, unsigned char delim)
{
    r->buf = NULL;
    r->pos = r->cap = 0;
    r->quoted = 0;
    r->delim = delim ? delim : ',';
    r->fields = 0;
}

static int grow(struct field_reader *r)
{
    size_t cap = r->cap ? 2 * r->cap : 8;
    unsigned char *b = realloc(r->buf, cap);
    if (!b) return -1;
    r->buf = b;
    r->cap = cap;
    return 0;
}

static void submit(struct field_reader *r, void (*on_field)(void *, size_t, void *), void *user)
{
    if (on_field) on_field(r->buf, r->pos, user);
    r->pos = 0;
    r->fields++;
}

long fr_feed(struct field_reader *r, const void *s, size_t n, void (*on_field)(void *, size_t, void *), void *user)
{
    const unsigned char *p = s;
    if (!p) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == '"') {
            r->quoted = !r->quoted;
            continue;
        }
        if (c == r->delim && !r->quoted) {
            submit(r, on_field, user);
            continue;
        }
        if (r->pos == r->cap && grow(r) != 0) return -1;
        r->buf[r->pos++] = c;
    }
    return (long)n;
}

int fr_finish(struct field_reader *r, void (*on_field)(void *, size_t, void *), void *user)
{
    if (r->quoted) return -1;
    if (r->pos == 0) return 0;
    if (r->fields > 0) r->fields = 0;
    submit(r, on_field, user);
    return 1;
}

void fr_free(struct field_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->pos = r->cap = 0;
}
