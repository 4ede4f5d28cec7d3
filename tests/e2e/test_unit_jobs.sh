#!/bin/bash
# test_unit_jobs.sh: sympath unit -j 2 (issue 15): each function's exploration runs on two workers, and the
# emitted tests are what -j 1 gives: they build with -Werror, pass, and cover every branch of the function.
. "$SRC/tests/e2e/unit_common.sh"
unit_run jobs tests/programs/unit/buffer.c -- --function parse_header --function check_access -j 2 --budget 24s
expect_sympath_cov parse_header
expect_sympath_cov check_access
r="$out/build/runs/parse_header/report.json"
jq -e '.parallel.workers == 2 and .parallel.lost == 0 and .paths.duplicates_aimed == 0' "$r" >/dev/null ||
    fail "parse_header was not explored by 2 workers: $(jq -c '.parallel | del(.per_worker)' "$r")"
build_and_run buffer
expect_gcov parse_header 100
expect_gcov check_access 100
pass
