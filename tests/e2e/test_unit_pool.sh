#!/bin/bash
# test_unit_pool.sh: a producer that takes storage for its result (issue 13 item 2). On kvpool.c, whose parser
# has two forms, `kv_parse(text, kv_node slots[], unsigned qty)` and `kv_parse_with(text, kv_pool *pool)` (a
# table of callbacks): the inputs of kv_find and kv_number are built by kv_parse with zeroed slots, as a developer
# writes it (not by kv_parse_with with stand-ins deciding which node the pool returns: that version's tests did
# not compile or double-freed the stand-in's node), every branch is reached, none is dropped, and the suite
# passes natively.
. "$SRC/tests/e2e/unit_common.sh"
name=pool
unit_run pool tests/unit_libs/pool/kvpool.c -- --function kv_find --function kv_number --budget 30s --max-execs 190
t="$out/test_kvpool.c"
expect_text kvpool '^    const kv_node \*list = kv_parse\(list_text, list_slots, [1-9]' "a list built by kv_parse over slots"
expect_text kvpool '^    kv_node list_slots\[[0-9]+\] = \{ 0 \};' "zeroed storage"
grep -q 'kv_parse_with\|stub_take' "$t" && fail "a test builds its list through the callback pool"
grep -q 'free((void \*)list)' "$t" && fail "a test frees a node that lives in its slots"
expect_no_san_drops
build_and_run kvpool
expect_gcov kv_find 100
expect_gcov kv_number 100
pass
