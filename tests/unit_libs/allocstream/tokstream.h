/* tokstream.h: a token stream over a text whose buffers come from an allocator the caller may set (as pdjson's json_set_allocator). */
#ifndef TOKSTREAM_H
#define TOKSTREAM_H
#include <stddef.h>

typedef struct ts_allocator {
    void *(*malloc)(size_t size);
    void (*free)(void *block);
} ts_allocator;

typedef struct tokstream {
    const char *text;
    size_t at;
    char *word; /* the last word read, from alloc.malloc; NULL before the first */
    ts_allocator alloc;
} tokstream;

/* Read text from its start, with malloc and free. */
void ts_open(tokstream *s, const char *text);
/* Take buffers from a (copied) from now on. */
void ts_set_allocator(tokstream *s, const ts_allocator *a);
/* The next word's length (its text in s->word), 0 at the end, -1 when out of memory. */
int ts_next(tokstream *s);
/* Release what s holds, with its allocator. */
void ts_close(tokstream *s);

#endif
