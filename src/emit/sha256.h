/* sha256.h: SHA-256 (FIPS 180-4) over memory buffers, used for programhash in test-suite metadata (internal to emit: suite.c; its unit test). */
#ifndef SYMPATH_SHA256_H
#define SYMPATH_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Incremental hashing state. Initialise with sha256_init, feed bytes with
 * sha256_update (any chunking gives the same digest), finish with sha256_final. */
typedef struct sha256_ctx {
    uint32_t h[8];     /* chaining value */
    uint64_t nbytes;   /* total bytes fed so far */
    uint8_t block[64]; /* partial block */
    size_t fill;       /* bytes used in block, always < 64 between calls */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
/* Feed len bytes at data (data may be NULL when len is 0). */
void sha256_update(sha256_ctx *c, const void *data, size_t len);
/* Write the 32-byte digest to out; c must be re-initialised before reuse. */
void sha256_final(sha256_ctx *c, uint8_t out[32]);
/* One-shot: lowercase hex digest of data[0..len) into hex[65] (NUL-terminated). */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
