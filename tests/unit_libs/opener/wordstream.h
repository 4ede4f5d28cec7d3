/* wordstream.h: a reader of words from a text, opened on a buffer and closed when done (the shape of pdjson's
 * json_open_buffer / json_next / json_close); a test library of sympath unit (tests/e2e/test_unit_opener.sh). */
#ifndef WORDSTREAM_H
#define WORDSTREAM_H
#include <stddef.h>

typedef struct word_stream {
    const char *text;
    size_t len, pos;
    char *word; /* the current word, allocated by ws_next */
    size_t cap;
    int words;
} word_stream;

/* Opens ws on the len bytes of text (not copied). */
void ws_open(word_stream *ws, const char *text, size_t len);
/* The length of the next word (letters or digits), copied into ws->word; 0 at the end, -1 on a byte that is
 * neither a letter, a digit nor a space. */
int ws_next(word_stream *ws);
/* Releases what ws_next allocated. */
void ws_close(word_stream *ws);

#endif
