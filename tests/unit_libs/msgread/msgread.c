/* msgread.c: the reader of msgread.h (tests/e2e/test_unit_byte_reader.sh). */
#include "msgread.h"

void mr_init(mr_ctx *ctx, void *user, mr_reader read)
{
    ctx->error = MR_OK;
    ctx->user = user;
    ctx->read = read;
}

static bool read_byte(mr_ctx *ctx, unsigned char *b)
{
    if (!ctx->read(ctx, b, 1)) {
        ctx->error = MR_READ_FAILED;
        return false;
    }
    return true;
}

bool mr_read_uint(mr_ctx *ctx, unsigned *out)
{
    unsigned char tag, b[2];
    if (!read_byte(ctx, &tag)) return false;
    if (tag <= 0x7f) {
        *out = tag;
    } else if (tag == 0xcc) {
        if (!read_byte(ctx, b)) return false;
        *out = b[0];
    } else if (tag == 0xcd) {
        if (!ctx->read(ctx, b, 2)) {
            ctx->error = MR_READ_FAILED;
            return false;
        }
        *out = (unsigned)b[0] << 8 | b[1];
    } else {
        ctx->error = MR_BAD_TYPE;
        return false;
    }
    ctx->error = MR_OK;
    return true;
}

int mr_read_str(mr_ctx *ctx, char *out, size_t cap)
{
    unsigned char tag, n;
    if (!read_byte(ctx, &tag)) return -1;
    if (tag >= 0xa0 && tag <= 0xbf) {
        n = tag & 0x1f;
    } else if (tag == 0xd9) {
        if (!read_byte(ctx, &n)) return -1;
    } else {
        ctx->error = MR_BAD_TYPE;
        return -1;
    }
    if ((size_t)n + 1 > cap) {
        ctx->error = MR_TOO_LONG;
        return -1;
    }
    if (n > 0 && !ctx->read(ctx, out, n)) {
        ctx->error = MR_READ_FAILED;
        return -1;
    }
    out[n] = 0;
    ctx->error = MR_OK;
    return n;
}
