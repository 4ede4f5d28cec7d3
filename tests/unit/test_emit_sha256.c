/* test_emit_sha256.c: SHA-256 against the FIPS 180-4 / NIST example vectors, chunked updates and file hashing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "emit/sha256.h"

static void check(const char *msg, size_t len, const char *want)
{
    char hex[65];
    sha256_hex(msg, len, hex);
    assert_string_equal(hex, want);
}

static void test_empty(void **state)
{
    check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_abc(void **state)
{
    check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_448_bits(void **state)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    assert_int_equal(strlen(m), 56); /* padding needs a second block */
    check(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_896_bits(void **state)
{
    const char *m = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    check(m, strlen(m), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_million_a(void **state)
{
    size_t n = 1000000;
    char *m = malloc(n);
    assert_non_null(m);
    memset(m, 'a', n);
    check(m, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    /* the same through odd-sized chunks straddling block boundaries */
    sha256_ctx c;
    uint8_t d[32], d2[32];
    sha256_init(&c);
    for (size_t off = 0, step = 1; off < n; off += step, step = step % 97 + 1)
        sha256_update(&c, m + off, off + step <= n ? step : n - off);
    sha256_final(&c, d);
    sha256_init(&c);
    sha256_update(&c, m, n);
    sha256_final(&c, d2);
    assert_memory_equal(d, d2, 32);
    free(m);
}

static void test_file(void **state)
{
    char path[] = "/tmp/sympath-sha-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "abc", 3), 3);
    close(fd);
    char hex[65];
    assert_int_equal(sha256_file_hex(path, hex), 0);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    unlink(path);
    assert_int_equal(sha256_file_hex(path, hex), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),    cmocka_unit_test(test_abc),       cmocka_unit_test(test_448_bits),
        cmocka_unit_test(test_896_bits), cmocka_unit_test(test_million_a), cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
