#!/bin/bash
# test_unit_mocks.sh: sympath unit on a unit of two files: driver.c calls hardware functions that are not
# linked (mocked: the solver picks each call's return, a retry loop needs three calls) and ops.c is
# driven through an ops table with an optional NULL slot. With --mock-outputs, hw_temp's stand-in also
# writes the solver's value through its int * parameter; an opaque `struct bus *` handle passed to a mock
# is a block of bytes standing for the unknown type; each mock call's arguments are asserted (hw_read(2)).
# One test file per source; both build with
# -Werror, pass, and cover every branch under gcov.
. "$SRC/tests/e2e/unit_common.sh"
unit_run mocks tests/programs/unit/driver.c tests/programs/unit/ops.c -- --all --budget 30s --mock-outputs
expect_sympath_cov dev_read_ready
expect_sympath_cov dev_sync
expect_sympath_cov overheated
expect_sympath_cov dev_configure
expect_text driver 'struct bus \*b = \(void \*\)b_obj;' "opaque handle input"
expect_text driver 'if \(a0 != NULL\) \*a0 = \*\(int \*\)\(uintptr_t\)mock\(\);' "stand-in writing its output parameter"
expect_text driver 'int hw_temp_out0 = (9[1-9]|[1-9][0-9][0-9]+);' "output value above 90"
jq -e '.mocks | index("hw_status") and index("hw_read")' "$out/report.json" >/dev/null || fail "hw_status/hw_read not mocked"
expect_text driver '^int hw_status\(void\) \{' "stand-in for hw_status"
expect_text driver 'return \(int\)mock\(\);' "stand-in returning mock()"
# the retry loop gives up after three calls that do not return 1
n=$(awk '/^static void test_dev_read_ready/ { c = 0; t = 1 } t && /will_return\(hw_status, / { c++ } t && /^}/ { if (c > m) m = c; t = 0 } END { print m + 0 }' "$out/test_driver.c")
[ "$n" -ge 3 ] || fail "no test queues three hw_status results (max $n)"
expect_text driver 'will_return\(hw_read, ' "test driving hw_read"
# the arguments of each call of a function the unit does not define are asserted
expect_text driver '^    check_expected\(a0\);' "hw_read's stand-in checks its argument"
expect_text driver 'expect_value\(hw_read, a0, 2\);' "the register hw_read was called with"
expect_text ops '\.flush = NULL' "ops table with the optional slot NULL"
expect_text ops '\.read = stub_' "ops table slot filled with a stand-in"
build_and_run driver
build_and_run ops
expect_gcov dev_read_ready 100
expect_gcov dev_sync 100
expect_gcov overheated 100
expect_gcov dev_configure 100
pass
