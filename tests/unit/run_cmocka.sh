#!/bin/bash
# run_cmocka.sh: runs one CMocka test binary for ctest; when tests of it called skip() and none failed, it exits 77 (ctest: skipped).
# Usage: run_cmocka.sh BINARY [ARGS...]. CMocka counts a skip() as a pass (exit 0); the test itself prints why it skips.
out=$(mktemp /tmp/sympath-cmocka.XXXXXX)
trap 'rm -f "$out"' EXIT
"$@" > >(tee "$out") 2>&1
rc=$?
wait
if [ $rc -eq 0 ] && grep -q '^\[  SKIPPED \] [0-9]* test' "$out"; then
    echo "skipped: $(basename "$1"): $(grep -c '^\[  SKIPPED \] [a-z_]' "$out") test(s) called skip() (why: above)"
    exit 77
fi
exit $rc
