/* msgread.h: a small MessagePack-like reader for tests/e2e/test_unit_byte_reader.sh: every byte comes through a reader callback that fills the caller's buffer (camgunz/cmp's shape). */
#ifndef MSGREAD_H
#define MSGREAD_H

#include <stdbool.h>
#include <stddef.h>

typedef struct mr_ctx mr_ctx;
/* Fill data with exactly limit bytes; false when they cannot be read. */
typedef bool (*mr_reader)(mr_ctx *ctx, void *data, size_t limit);

enum { MR_OK, MR_READ_FAILED, MR_BAD_TYPE, MR_TOO_LONG };
struct mr_ctx {
    int error; /* MR_* of the last call */
    void *user;
    mr_reader read;
};

void mr_init(mr_ctx *ctx, void *user, mr_reader read);
/* An unsigned integer: a byte 0x00-0x7f is itself, 0xcc then 1 byte, 0xcd then 2 bytes big-endian. */
bool mr_read_uint(mr_ctx *ctx, unsigned *out);
/* A string: 0xa0-0xbf with the length in the low 5 bits, or 0xd9 then a length byte; then its bytes into
 * out (cap bytes, NUL added). The length, or -1 (ctx->error says why). */
int mr_read_str(mr_ctx *ctx, char *out, size_t cap);

#endif
