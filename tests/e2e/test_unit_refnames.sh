#!/bin/bash
# test_unit_refnames.sh: a container whose adder keeps its key by reference (issue 13 items 2 and 4): tnode.c's
# tn_add copies a child's name, tn_add_ref keeps it (as cJSON_AddItemToObjectCS), and tn_free frees only copies.
# (a) An adder returning a plain int (0 success, -1 failure) is not taken as failed: the harness then added the same
# child again with the other adder, a cycle, and every such run hung. (b) A test that built its tree with tn_add_ref
# handed the name to tn_free as if the destructor freed it (calloc, never freed): LeakSanitizer dropped it; the test
# is now run again with the name a local array. No test is dropped, every branch is taken, the suite passes.
# (--no-minimize: the minimisation keeps tests for tn_count_named's own branches, which a tree built with tn_add
# takes as well; the tests built with tn_add_ref are what (b) is about)
. "$SRC/tests/e2e/unit_common.sh"
name=refnames
unit_run refnames tests/unit_libs/refnames/tnode.c -- --function tn_count_named --budget 12s --no-minimize
t="$out/test_tnode.c"
expect_text tnode '^    tn_add_ref\(\(tnode \*\)t, ' "a name kept by reference (tn_add_ref)"
jq -e '[.functions[].dropped | length] | add == 0' "$out/report.json" >/dev/null ||
    fail "tests were dropped: $(jq -c '[.functions[].dropped]' "$out/report.json")"
build_and_run tnode
expect_gcov tn_count_named 100
pass
