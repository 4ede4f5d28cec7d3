#!/bin/bash
# test_unit_unions.sh: sympath unit on a tagged-union value type (tests/programs/unit/tagged.c): the union's bytes
# are inputs, so the branches on its long, double and char[8] members are covered both ways, by pointer and by
# value; the emitted tests copy the bytes in (memcpy), assert a union the call wrote and one it returned (its
# members of one size: assert_memory_equal), queue a mock's union result (reg_read), build with -Werror, pass, and
# cover the branches under gcov.
. "$SRC/tests/e2e/unit_common.sh"
unit_run unions tests/programs/unit/tagged.c -- --all --budget 12s
expect_sympath_cov value_flip
expect_sympath_cov value_bits
expect_sympath_cov reg_high
expect_text tagged 'memcpy\(&v_obj\.u, \(\(const unsigned char\[8\]\)\{0x' "union bytes copied into a pointee's field"
expect_text tagged 'memcpy\(&a\.u, \(\(const unsigned char\[8\]\)\{0x' "union bytes of a by-value parameter"
expect_text tagged 'assert_memory_equal\(&v_obj\.u, ' "assertion on the union the call wrote"
expect_text tagged 'assert_memory_equal\(&ret, \(\(const unsigned char\[8\]\)\{0x' "assertion on the returned union"
expect_text tagged 'will_return\(reg_read, &reg_read_ret\);' "a mock's union result queued"
build_and_run tagged
# the one branch left of each is the return after a switch over every enumerator
expect_gcov value_truthy 90
expect_gcov value_compare 90
expect_gcov value_flip 100
expect_gcov value_bits 100
expect_gcov reg_high 100
pass
