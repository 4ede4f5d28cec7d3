/* trimbuf.c: a text buffer whose trim reads before the text when nothing is left (clibs/buffer's trim_right). */
#include "trimbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

tbuf *tb_new_size(size_t n)
{
    tbuf *b = malloc(sizeof *b);
    if (!b) return NULL;
    b->cap = n;
    b->data = b->alloc = calloc(n + 1, 1);
    if (!b->alloc) {
        free(b);
        return NULL;
    }
    return b;
}

tbuf *tb_new_copy(const char *s)
{
    size_t n = strlen(s);
    tbuf *b = tb_new_size(n);
    if (b) memcpy(b->alloc, s, n);
    return b;
}

void tb_free(tbuf *b)
{
    free(b->alloc);
    free(b);
}

size_t tb_length(const tbuf *b) { return strlen(b->data); }

static void trim_left(tbuf *b)
{
    while (*b->data && isspace((unsigned char)*b->data)) b->data++;
}

static void trim_right(tbuf *b)
{
    size_t i = tb_length(b) - 1; /* the bug: SIZE_MAX on an empty text */
    int c;
    while ((c = (unsigned char)b->data[i]) && isspace(c)) b->data[i--] = 0;
}

void tb_trim(tbuf *b)
{
    trim_left(b);
    trim_right(b);
}
