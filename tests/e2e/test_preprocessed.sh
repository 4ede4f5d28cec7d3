#!/bin/bash
# test_preprocessed.sh: a preprocessed source (.i, as many SV-COMP tasks are) builds without compiler
# warnings (no include path is passed for it), is explored, and replays with gcov.
set -u
name=preprocessed
out="$WORK/$name"
src="$WORK/$name.i"
rm -rf "$out"
mkdir -p "$WORK"
fail() { echo "FAIL [$name]: $*"; exit 1; }
gcc -E -P -I"$SRC/include" "$SRC/tests/programs/magic.c" -o "$src" || fail "cannot preprocess magic.c"
"$SYMPATH" run "$src" -o "$out" --budget 20s --no-progress >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
rc=$?
cat "$WORK/$name.stderr"
[ $rc -eq 0 ] || fail "sympath run exited with $rc"
grep -q 'warning' "$WORK/$name.stderr" && fail "the build of a .i source printed a compiler warning"
jq -e '.coverage.branches_covered > 0' "$out/report.json" >/dev/null || fail "no coverage in report.json"
"$SYMPATH" replay "$out" --coverage >"$WORK/$name.replay" 2>&1
rrc=$?
cat "$WORK/$name.replay"
[ $rrc -eq 0 ] || fail "replay exited with $rrc"
echo "PASS [$name]"
