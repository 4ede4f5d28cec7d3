/* trimbuf.h: a growable text buffer (the shape of clibs/buffer) whose trim has that library's bug. */
#ifndef TRIMBUF_H
#define TRIMBUF_H
#include <stddef.h>

typedef struct tbuf {
    size_t cap;  /* bytes allocated for data, the NUL not counted */
    char *alloc; /* the block */
    char *data;  /* the text: alloc or past its leading blanks */
} tbuf;

/* A buffer holding a copy of s; NULL when out of memory. */
tbuf *tb_new_copy(const char *s);
/* An empty buffer of n bytes. */
tbuf *tb_new_size(size_t n);
void tb_free(tbuf *b);
/* The text's length in bytes. */
size_t tb_length(const tbuf *b);
/* Remove leading and trailing blanks. BUG (kept on purpose, as in clibs/buffer): on a buffer that is empty
 * after its leading blanks are gone, it reads and writes before the text. */
void tb_trim(tbuf *b);
#endif
