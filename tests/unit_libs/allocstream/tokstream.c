/* tokstream.c: words of a text, each copied into a buffer of the stream's allocator (issue 13: a release that calls the allocator the test set). */
#include <stdlib.h>
#include <string.h>

#include "tokstream.h"

void ts_open(tokstream *s, const char *text)
{
    s->text = text;
    s->at = 0;
    s->word = NULL;
    s->alloc.malloc = malloc;
    s->alloc.free = free;
}

void ts_set_allocator(tokstream *s, const ts_allocator *a) { s->alloc = *a; }

int ts_next(tokstream *s)
{
    while (s->text[s->at] == ' ') s->at++;
    size_t n = 0;
    while (s->text[s->at + n] && s->text[s->at + n] != ' ') n++;
    if (n == 0) return 0;
    char *w = s->alloc.malloc(n + 1);
    if (!w) return -1;
    memcpy(w, s->text + s->at, n);
    w[n] = 0;
    s->alloc.free(s->word);
    s->word = w;
    s->at += n;
    return (int)n;
}

void ts_close(tokstream *s)
{
    s->alloc.free(s->word);
    s->word = NULL;
}
