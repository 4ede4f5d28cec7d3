#!/bin/bash
# test_unit_bag.sh: a container that takes ownership of what is put into it (issue 13: a tree/container API as
# shipped; parson's json_object_dotset_value(object, name, value)). The test built the bag and the value with the
# unit's producers and released both after the call: after a successful put, bag_free frees the value too, a double
# free, and every such test was dropped as "does not pass natively" (parson's dotset_value: gcov 5/20 -> 13/20).
# Now a test that dies natively of a double free is run once more releasing only the first argument's objects.
. "$SRC/tests/e2e/unit_common.sh"
name=bag
unit_run bag tests/unit_libs/bag/bag.c -- --function bag_put --budget 15s
jq -e '[.functions[].dropped[]? | select(test("natively"))] | length == 0' "$out/report.json" >/dev/null ||
    fail "tests dropped as not passing natively: $(jq -c '[.functions[].dropped[]?]' "$out/report.json")"
ok=$(awk '/^static void test_/ { body = "" } { body = body $0 "\n" } /^}/ && body ~ /assert_int_equal\(ret, 0\);/ { print body; exit }' "$out/test_bag.c")
[ -n "$ok" ] || fail "no test of a successful put"
grep -q 'bag_free(b);' <<<"$ok" || fail "the successful put's bag is not released"
grep -q 'value_free(v);' <<<"$ok" && fail "the value the bag owns is released again"
expect_no_san_drops
build_and_run bag
expect_gcov bag_put 60
pass
