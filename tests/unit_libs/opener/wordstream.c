/* wordstream.c: a reader of words from a text (see wordstream.h). Selects POSIX.1-2001 like many portable libraries. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L
#endif
#include "wordstream.h"

#include <stdlib.h>
#include <string.h>

void ws_open(word_stream *ws, const char *text, size_t len)
{
    memset(ws, 0, sizeof *ws);
    ws->text = text;
    ws->len = len;
}

static int is_word_byte(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

int ws_next(word_stream *ws)
{
    while (ws->pos < ws->len && ws->text[ws->pos] == ' ') ws->pos++;
    if (ws->pos == ws->len) return 0;
    size_t b = ws->pos;
    while (ws->pos < ws->len && is_word_byte(ws->text[ws->pos])) ws->pos++;
    size_t n = ws->pos - b;
    if (n == 0) return -1;
    if (n + 1 > ws->cap) {
        char *w = realloc(ws->word, n + 1);
        if (!w) return -1;
        ws->word = w;
        ws->cap = n + 1;
    }
    memcpy(ws->word, ws->text + b, n);
    ws->word[n] = '\0';
    ws->words++;
    return (int)n;
}

void ws_close(word_stream *ws)
{
    free(ws->word);
    ws->word = NULL;
    ws->cap = 0;
}
