#!/bin/bash
# test_unit_dlist.sh: a container whose items are another type with a constructor of their own (issue 13: a
# container API as shipped; clibs/list's list_rpush(list, list_node_new(val))). The adder returns the node it links in,
# and its node argument is no plain value: before, dl_push was no construction step, every list was empty, and dl_at's
# walk of a list had nothing to walk (clibs/list: list_rpush refused, list_at gcov 3/6). Now a construction step may
# take a struct its own producers make, each step's arguments are recorded before the call (two pushes share the
# harness's locals), and a removal is never a step (dl_remove of a node never in the list breaks the list).
. "$SRC/tests/e2e/unit_common.sh"
name=dlist
unit_run dlist tests/unit_libs/dlist/dlist.c -- --function dl_at --function dl_count --budget 15s
# a list of two nodes built as a developer would: each node by dl_node_new, linked in by dl_push
two=$(awk '/^static void test_/ { body = "" } { body = body $0 "\n" } /^}/ && body ~ /dl_push\(l, [a-z_0-9]+\);\n    dl_push\(l, / { print body; exit }' "$out/test_dlist.c")
[ -n "$two" ] || fail "no test builds a list of two nodes with dl_push"
grep -Eq 'dl_node \*l_node_arg(_[0-9]+)? = dl_node_new\(' <<<"$two" || fail "a node not made by dl_node_new"
grep -q 'dl_remove' "$out/test_dlist.c" && fail "a list built with dl_remove"
jq -e '[.functions[].dropped[]?] | length == 0' "$out/report.json" >/dev/null ||
    fail "tests dropped: $(jq -c '[.functions[].dropped[]?]' "$out/report.json")"
expect_no_san_drops
build_and_run dlist
expect_gcov dl_at 100
expect_gcov dl_count 100
pass
