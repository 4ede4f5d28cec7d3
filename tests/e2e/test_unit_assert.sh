#!/bin/bash
# test_unit_assert.sh: sympath unit on a function that fails an assertion for some inputs: the failing
# input becomes a test that expects the abort (forked child, SIGABRT); the others pass normally. The global
# call counter is reset at each test's start and asserted after the call.
. "$SRC/tests/e2e/unit_common.sh"
unit_run checked tests/programs/unit/checked.c -- --function scale --budget 15s
expect_sympath_cov scale
expect_text checked 'int factor = 0;' "input with factor 0"
expect_text checked 'assert_int_equal\(WTERMSIG\(status\), SIGABRT\);' "test expecting SIGABRT"
expect_text checked '^    calls = 0;' "reset of the global"
expect_text checked 'assert_int_equal\(calls, 1\);' "assertion on the global the call wrote"
jq -e '.functions[0].tests_expecting_failure >= 1' "$out/report.json" >/dev/null || fail "report.json counts no failing test"
build_and_run checked
# the CMake fragment builds and runs the same tests
mkdir -p "$out.bin/cmake"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(t C)\nenable_testing()\ninclude(%s)\n' "$out/tests.cmake" \
    >"$out.bin/cmake/CMakeLists.txt"
(cmake -S "$out.bin/cmake" -B "$out.bin/cmake/b" && cmake --build "$out.bin/cmake/b" && cd "$out.bin/cmake/b" &&
    ctest --output-on-failure) >"$out.bin/cmake.log" 2>&1 || { cat "$out.bin/cmake.log"; fail "the CMake fragment does not build and pass"; }
# the printed build line works as printed
(cd "$out.bin" && sh -c "$(head -1 "$out/BUILD.txt")") >"$out.bin/line.log" 2>&1 || { cat "$out.bin/line.log"; fail "the build line fails"; }
expect_gcov scale 75   # the failing side of assert() runs in a child that aborts: gcov never sees it
pass
