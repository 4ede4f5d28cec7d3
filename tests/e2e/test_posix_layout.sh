#!/bin/bash
# test_posix_layout.sh: --sym-args/--sym-stdin/--sym-file put their bytes first in every test case, in
# the documented order and names (docs/design.md), before the program's own inputs; replay.conf
# records the options; bad option values are usage errors that build nothing.
set -u
name=posix_layout
out="$WORK/$name"
src="$WORK/$name.c"
rm -rf "$out" "$WORK/${name}_bad"
mkdir -p "$WORK"
fail() { echo "FAIL [$name]: $*"; exit 1; }
cat >"$src" <<'PROG'
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main(int argc, char **argv) {
    FILE *f = fopen("f.txt", "r");
    int c = fgetc(f), d = getchar(), x = __VERIFIER_nondet_int();
    if (argc == 3 && argv[2][0] == 'z' && c == 'q' && d == 'w' && x == 7)
        return 1;
    return 0;
}
PROG
"$SYMPATH" run "$src" -o "$out" --budget 10s --no-progress --sym-args 1 2 2 --sym-stdin 2 --sym-file f.txt 1 \
    >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
rc=$?
cat "$WORK/$name.stderr"
[ $rc -eq 0 ] || fail "sympath run exited with $rc"
expected="extra_args argv[1][0] argv[1][1] argv[2][0] argv[2][1] stdin.len stdin[0] stdin[1] file:f.txt.len file:f.txt[0] -"
for t in "$out"/tests/test-*.xml; do
    got=$(grep '<input' "$t" | sed -n '/variable=/{s|.*variable="\([^"]*\)".*|\1|p;b};s|.*|-|p' | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$expected" ] || fail "$(basename "$t"): inputs '$got', expected '$expected'"
done
# the run that returns 1 needs argc 3, argv[2][0] 'z', file byte 'q', stdin byte 'w' and x == 7
winner=$(grep -l '>7</input>' "$out"/tests/test-*.xml | head -1)
[ -n "$winner" ] || fail "no test reaches the last branch (argv, file, stdin and the nondet int together)"
grep -q 'variable="extra_args">1<' "$winner" || fail "the winning test does not have argc 3"
grep -q 'variable="argv\[2\]\[0\]">122<' "$winner" || fail "argv[2][0] is not 'z' in $winner"
grep -q 'variable="file:f.txt\[0\]">113<' "$winner" || fail "file:f.txt[0] is not 'q' in $winner"
grep -q 'variable="stdin\[0\]">119<' "$winner" || fail "stdin[0] is not 'w' in $winner"
for line in "sym-args 1 2 2" "sym-stdin 2" "sym-file 1 f.txt"; do
    grep -qx "$line" "$out/build/replay.conf" || fail "replay.conf lacks '$line'"
done
grep -q '^posixconf /' "$out/build/replay.conf" || fail "replay.conf lacks the posixconf line"
"$SYMPATH" replay "$out" >"$WORK/$name.replay" 2>&1 || { cat "$WORK/$name.replay"; fail "replay failed"; }
grep -q 'exit code 1' "$WORK/$name.replay" || fail "no replayed test ends with exit code 1 natively"
# bad values: usage error (exit 2), nothing built
"$SYMPATH" run "$src" -o "$WORK/${name}_bad" --sym-args 2 1 3 >/dev/null 2>"$WORK/$name.bad"
[ $? -eq 2 ] || fail "--sym-args 2 1 3 is not a usage error"
grep -q 'MIN <= MAX' "$WORK/$name.bad" || fail "the error does not explain the bounds: $(cat "$WORK/$name.bad")"
[ -e "$WORK/${name}_bad" ] && fail "a usage error created the output directory"
echo "PASS [$name]"
