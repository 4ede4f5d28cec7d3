#!/bin/bash
# run_cmocka.sh: runs one CMocka test binary for ctest; when tests of it called skip() and none failed, it exits 77 (ctest: skipped).
# Usage: run_cmocka.sh BINARY [ARGS...]. CMocka counts a skip() as a pass (exit 0); the test itself prints why it skips.
out=$(mktemp /tmp/sympath-cmocka.XXXXXX)
trap 'rm -f "$out"' EXIT
# a pipeline, not a process substitution: tee must not be a child of the test (tests count their children)
"$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
if [ $rc -eq 0 ] && grep -q '^\[  SKIPPED \] [0-9]* test' "$out"; then
    echo "skipped: $(basename "$1"): $(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out") test(s) called skip() (why: above)"
    exit 77
fi
exit $rc
