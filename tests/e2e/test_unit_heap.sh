#!/bin/bash
# test_unit_heap.sh: sympath unit on functions that free (list_remove) or realloc (buf_push) their input
# objects: such tests allocate their inputs with malloc (locals would make free() abort), assert nothing
# about the freed node, build with -Werror, pass, and cover list_remove's branches under gcov.
. "$SRC/tests/e2e/unit_common.sh"
unit_run heap tests/programs/unit/owned.c -- --all --budget 24s
expect_sympath_cov list_remove
expect_text owned 'struct node \*l_head = malloc\(sizeof \*l_head\);' "heap-allocated list node"
expect_text owned 'assert_ptr_equal\(l_obj->head, ' "assertion that the head was unlinked"
expect_text owned 'realloc|[mc]alloc\(sizeof\(char' "heap-allocated buffer for realloc"
jq -e '[.functions[].dropped | length] | add == 0' "$out/report.json" >/dev/null || fail "tests were dropped: $(jq -c '[.functions[].dropped]' "$out/report.json")"
build_and_run owned
expect_gcov list_remove 100
pass
