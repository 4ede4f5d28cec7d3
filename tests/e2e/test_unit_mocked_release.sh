#!/bin/bash
# test_unit_mocked_release.sh: a library of two files given one (issue 13: any library as shipped). store.c alone:
# table_new, table_find and table_free of table.c are mocks. (a) The mock values a producer's calls take are
# queued before the producer and declared before the queue (store_new calling table_new: the test did not compile,
# `table_new_ret` used before its declaration; before that it was queued after store_new and failed natively).
# (b) The destructor store_free calls table_free, a mock nothing was queued for: the test is run again releasing
# only the producer's block (`free((void *)s)`), the table being the test's own. The suite passes with no leak.
. "$SRC/tests/e2e/unit_common.sh"
name=mocked_release
unit_run mocked_release tests/unit_libs/twofile/store.c -- --function store_has --budget 10s
t="$out/test_store.c"
expect_text store '^    will_return\(table_new, &table_new_ret\);' "the mock's value queued before the producer"
decl=$(grep -n 'table table_new_ret = ' "$t" | head -1 | cut -d: -f1)
queue=$(grep -n 'will_return(table_new, ' "$t" | head -1 | cut -d: -f1)
made=$(grep -n '= store_new(' "$t" | head -1 | cut -d: -f1)
[ -n "$decl" ] && [ -n "$queue" ] && [ -n "$made" ] && [ "$decl" -lt "$queue" ] && [ "$queue" -lt "$made" ] ||
    fail "declaration ($decl), queue ($queue) and construction ($made) out of order"
expect_text store '^    free\(\(void \*\)s\);' "the producer's block freed"
grep -q '^    store_free(' "$t" && fail "a test calls store_free, which calls an unqueued mock"
expect_no_san_drops
build_and_run store
expect_gcov store_has 100
pass
