#!/bin/bash
# test_unit_mutants.sh: the mutation analysis of `sympath unit` (issue 13: "the same mutation-kill power"). unescape
# decodes in place; its tests kept for branch coverage are one construct each ("+", "%41", "a"), where a pointer
# stepped wrongly after an escape (`r += 3` -> `r += 4`) changes nothing visible. The exploration's candidate tests
# (runs with a new combination of branch directions) are run on the mutant-schemata recorder; those killing a mutant
# the kept tests miss join the suite. Checked: report.json's mutation figures, the suite compiles with warnings as
# errors and passes, and it fails on two hand-made mutants of the pointer steps that the suite of --no-mutants
# passes.
. "$SRC/tests/e2e/unit_common.sh"
unit_run mutants tests/programs/unit/unescape.c -- --function unescape --budget 30s --max-execs 600
r="$out/report.json"
jq -e '.functions[0].mutation | .mutants >= 30 and .tests_added >= 1 and .killed_by_suite * 10 >= .mutants * 8
    and .killed_by_suite > .killed_by_kept_tests and .candidates >= 1' "$r" >/dev/null ||
    fail "mutation figures: $(jq -c '.functions[0].mutation' "$r")"
# the candidates were diversified too (diversify.c): their free inputs are not all zero
jq -e '.functions[0].diversify.candidates_diversified >= 1' "$r" >/dev/null ||
    fail "no candidate diversified: $(jq -c '.functions[0].diversify' "$r")"
grep -Eq '^      mutants: [0-9]+/[0-9]+ killed by the emitted tests \([0-9]+%\); [0-9]+ of [0-9]+ candidate tests added' \
    "$out.bin/sympath.log" || fail "no 'mutants: K/N killed' line in the summary"
build_and_run unescape
full=$out
# the same unit without the analysis: its suite for comparison
unit_run mutants_off tests/programs/unit/unescape.c -- --function unescape --budget 30s --max-execs 600 --no-mutants
jq -e '.functions[0].mutation == null' "$out/report.json" >/dev/null || fail "--no-mutants still analysed mutants"
# mutant_suite DIR LINE FROM TO: does the suite in DIR pass with `FROM` replaced by `TO` on line LINE of unescape.c?
mutant_passes() {
    local dir=$1 line=$2 from=$3 to=$4 m="$WORK/unit_mutants.m"
    mkdir -p "$m"
    sed "${line}s/$from/$to/" "$SRC/tests/programs/unit/unescape.c" >"$m/unescape.c"
    cmp -s "$m/unescape.c" "$SRC/tests/programs/unit/unescape.c" && fail "the mutant of line $line is the original"
    cc -O0 -w -I"$SRC/tests/programs/unit" "$dir/test_unescape.c" "$m/unescape.c" -lcmocka -o "$m/t" >"$m/cc.log" 2>&1 ||
        { cat "$m/cc.log"; fail "the suite of $dir does not compile with the mutant"; }
    timeout 20 "$m/t" >"$m/run.log" 2>&1
}
grep -n 'r += 3;' "$SRC/tests/programs/unit/unescape.c" | grep -q '^30:' || fail "unescape.c: line 30 is not 'r += 3;'"
grep -n 'w += 1;' "$SRC/tests/programs/unit/unescape.c" | grep -q '^21:' || fail "unescape.c: line 21 is not 'w += 1;'"
for m in "30 r\ +=\ 3 r\ +=\ 4" "21 w\ +=\ 1 w\ -=\ 1"; do
    eval "set -- $m"
    mutant_passes "$full" "$1" "$2" "$3" && fail "the suite passes with line $1 '$2' -> '$3'"
    mutant_passes "$out" "$1" "$2" "$3" || echo "note: the --no-mutants suite already kills line $1 '$2' -> '$3'"
done
pass
