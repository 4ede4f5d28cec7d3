#!/bin/bash
# test_unit_byte_reader.sh: a context whose bytes all come through a reader callback that fills the caller's
# buffer (`bool (*)(mr_ctx *, void *data, size_t limit)`, camgunz/cmp's shape): the stand-in fills the bytes it
# is asked for, or fails the read (a choice), so every branch of the tag decoding is reached (the stand-in that
# only returned true/false left every byte 0: 3/12 and 4/16); the emitted stand-in copies the queued bytes.
. "$SRC/tests/e2e/unit_common.sh"
unit_run byte_reader tests/unit_libs/msgread/msgread.c -- --function mr_read_uint --function mr_read_str --budget 60s --max-execs 200
expect_text msgread 'memcpy\(a1, bytes, \(size_t\)a2\);' "a stand-in that copies the bytes read"
expect_text msgread 'will_return\([a-z_]*, "\\xcd' "a test reading a 2-byte integer (tag 0xcd)"
expect_text msgread 'will_return\([a-z_]*, NULL\);|will_return\([a-z_]*, 0\);' "a test whose read fails"
expect_no_san_drops
build_and_run msgread
expect_gcov mr_read_uint 100
expect_gcov mr_read_str 100
pass
