#!/bin/bash
# test_unit_ptrs.sh: sympath unit on NULL/alias checks (copy_value: `dst == src`) and a linked-list traversal;
# the emitted CMocka file builds with -Werror, passes, and covers every branch under gcov.
. "$SRC/tests/e2e/unit_common.sh"
unit_run ptrs tests/programs/unit/ptrs.c -- --all --budget 24s
expect_sympath_cov copy_value
expect_sympath_cov list_count
expect_text ptrs '^    (const )?int \*src = &dst_obj;|src = &dst_obj;' "test where src aliases dst"
expect_text ptrs 'int \*dst = NULL;' "test with a NULL dst"
expect_text ptrs 'struct node head_next = ' "list of at least two nodes"
expect_text ptrs 'assert_int_equal\(hits_obj, ' "assertion on the out-parameter"
build_and_run ptrs
expect_gcov copy_value 100
expect_gcov list_count 100
pass
