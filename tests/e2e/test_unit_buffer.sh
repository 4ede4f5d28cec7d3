#!/bin/bash
# test_unit_buffer.sh: sympath unit on a buffer/length pair with a bound check and a magic byte sequence,
# and on an enum switch (only declared values) and a function returning string literals; the emitted tests build with -Werror, pass, and cover
# every branch under gcov, also with enumerators named like <unistd.h> macros (kind_cost's unreachable `return -1` excepted: its switch has no default).
. "$SRC/tests/e2e/unit_common.sh"
unit_run buffer tests/programs/unit/buffer.c -- --all --budget 8s
expect_sympath_cov parse_header
expect_text buffer "uint8_t buf_obj\[[0-9]+\] = \{ 'S', 'Y', 'M', [0-2]" "test with the magic bytes and a valid version"
expect_text buffer 'size_t len = [0-3];' "test with a short buffer"
expect_text buffer 'enum kind k = KIND_AUDIO;' "enum input spelled by its enumerator"
grep -q 'enum kind k = [0-9-]' "$out/test_buffer.c" && fail "an enum input outside the declared values"
expect_text buffer 'assert_string_equal\(ret, "image"\);' "assertion on a returned string's text"
build_and_run buffer
expect_gcov parse_header 100
expect_gcov kind_cost 80   # 4 of 5: the switch's implicit default needs an undeclared value
expect_gcov check_access 100
expect_gcov classify_gain 100
expect_text buffer "\.gain = 0x1\.4p\+1" "a float field solved exactly (2.5f)"
pass
