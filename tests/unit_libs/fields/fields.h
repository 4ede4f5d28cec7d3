/* fields.h: a small delimited-record reader for sympath's tests (the shape of libcsv): a reader set up by
 * fr_init, fed bytes by fr_feed, which hands each field to a callback with its length, and ended by fr_finish. */
#ifndef FIELDS_H
#define FIELDS_H
#include <stddef.h>

struct field_reader {
    unsigned char *buf; /* the field being read, grown by realloc */
    size_t pos;         /* its bytes so far */
    size_t cap;         /* the block's size */
    int quoted;         /* inside quotes */
    unsigned char delim;
    int fields; /* fields handed over so far */
};

/* Sets up r with delimiter delim (',' when 0). */
void fr_init(struct field_reader *r, unsigned char delim);
/* Reads n bytes of s; each complete field goes to on_field(field, length, user). Returns the bytes read, or
 * -1 when the buffer cannot grow. */
long fr_feed(struct field_reader *r, const void *s, size_t n, void (*on_field)(void *, size_t, void *), void *user);
/* Hands over the last field, if any; 1 when one was pending, 0 when none, -1 inside open quotes. */
int fr_finish(struct field_reader *r, void (*on_field)(void *, size_t, void *), void *user);
/* Releases r's buffer. */
void fr_free(struct field_reader *r);
#endif
