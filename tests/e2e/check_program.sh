#!/bin/bash
# check_program.sh: runs sympath on one program of tests/programs and checks the EXPECT- annotations in its header.
#   EXPECT-BUILD-FAIL: TEXT       sympath run exits 1 and its stderr contains TEXT
#   EXPECT-COVERAGE: P            report.json branch coverage >= P percent
#   EXPECT-ERROR: KIND LINE [SIG] report.json lists an error of KIND at LINE (0 = any line), with signal SIG
#   EXPECT-ERROR-AT: KIND WHERE   an error of KIND whose location ends with WHERE (FILE:LINE: nothing after it)
#   EXPECT-NO-ERRORS              report.json lists no error at all (no violation, crash or hang)
#   EXPECT-DIVERGENCE             at least one divergence is counted
#   EXPECT-NO-CONCRETIZATION: KIND  report.json counts no concretization of KIND (e.g. external_call)
#   EXPECT-CONCRETIZED-CALL: F...   report.json's concretizations_by_function counts calls of each F
#   EXPECT-REPLAY                 `sympath replay --coverage` reproduces every error, and gcov's branch
#                                 coverage agrees with sympath's: equal when gcc and clang see the same
#                                 number of branches; otherwise gcov leaves at most the extra branches
#                                 gcc has uncovered (docs/coverage.md explains where they come from)
#   EXPECT-REPLAY-ERRORS          `sympath replay` reproduces every error (no coverage comparison)
#   SYMPATH-ARGS: ...             extra arguments for sympath run
# Environment: SYMPATH (the binary), WORK (scratch dir).
set -u
prog=$1
name=$(basename "$prog" .c)
out="$WORK/$name"
rm -rf "$out"
mkdir -p "$WORK"
fail() { echo "FAIL [$name]: $*"; exit 1; }
args=$(sed -n 's|^// SYMPATH-ARGS: ||p' "$prog")

build_fail=$(sed -n 's|^// EXPECT-BUILD-FAIL: ||p' "$prog")
# shellcheck disable=SC2086
"$SYMPATH" run "$prog" -o "$out" --budget 60s --no-progress $args >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
rc=$?
cat "$WORK/$name.stderr"
if [ -n "$build_fail" ]; then
    [ $rc -eq 1 ] || fail "expected exit code 1 for a program that cannot be built, got $rc"
    grep -qF -- "$build_fail" "$WORK/$name.stderr" || fail "stderr does not mention '$build_fail'"
    echo "ok [$name]: build failure reported"
    exit 0
fi
[ $rc -eq 0 ] || fail "sympath run exited with $rc"
report="$out/report.json"
jq -e . "$report" >/dev/null || fail "report.json missing or not JSON"
ls "$out"/tests/test-*.xml >/dev/null 2>&1 || fail "no test case written"
[ -f "$out/tests/metadata.xml" ] || fail "no metadata.xml"
ls "$out"/tests "$out"/errors 2>/dev/null | grep -q '\.tmp' && fail "temporary files left in the suite"

cov=$(sed -n 's|^// EXPECT-COVERAGE: ||p' "$prog")
if [ -n "$cov" ]; then
    got=$(jq '.coverage.percent' "$report")
    jq -e ".coverage.percent >= $cov" "$report" >/dev/null || fail "coverage $got% < expected $cov%"
    echo "ok [$name]: coverage $got% ($(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$report"))"
fi

while read -r kind line sig; do
    [ -n "$kind" ] || continue
    q=".errors[] | select(.kind == \"$kind\")"
    [ "$line" != 0 ] && q="$q | select(.location | test(\":$line(\\\\b|$)\"))"
    [ -n "${sig:-}" ] && q="$q | select(.signal == $sig)"
    jq -e "[$q] | length > 0" "$report" >/dev/null ||
        fail "expected error '$kind' at line $line ${sig:+signal $sig}; report has: $(jq -c '[.errors[] | {kind, location, signal}]' "$report")"
    repro=$(jq -r "[$q][0].reproducer" "$report")
    [ -f "$out/$repro" ] || fail "reproducer $repro of '$kind' missing"
    echo "ok [$name]: $kind at line $line found ($repro)"
done < <(sed -n 's|^// EXPECT-ERROR: ||p' "$prog")

while read -r kind where; do
    [ -n "$kind" ] || continue
    jq -e --arg k "$kind" --arg w "$where" '[.errors[] | select(.kind == $k and (.location | endswith($w)))] | length > 0' \
        "$report" >/dev/null || fail "expected '$kind' located at $where (nothing after it); report has: $(jq -c '[.errors[] | .location]' "$report")"
    echo "ok [$name]: $kind located at $where"
done < <(sed -n 's|^// EXPECT-ERROR-AT: ||p' "$prog")

if grep -q '^// EXPECT-NO-ERRORS' "$prog"; then
    jq -e '.errors | length == 0' "$report" >/dev/null ||
        fail "expected no error; report has: $(jq -c '[.errors[] | {kind, location}]' "$report")"
    echo "ok [$name]: no error"
fi

if grep -q '^// EXPECT-DIVERGENCE' "$prog"; then
    jq -e '.divergences > 0' "$report" >/dev/null || fail "no divergence counted"
    jq -e '.concretizations.external_call > 0' "$report" >/dev/null || fail "no external-call concretization counted"
    echo "ok [$name]: $(jq .divergences "$report") divergences counted"
fi

for kind in $(sed -n 's|^// EXPECT-NO-CONCRETIZATION: ||p' "$prog"); do
    got=$(jq ".concretizations.$kind" "$report")
    [ "$got" = 0 ] || fail "expected no $kind concretization, report counts $got"
    echo "ok [$name]: no $kind concretization"
done

for fn in $(sed -n 's|^// EXPECT-CONCRETIZED-CALL: ||p' "$prog"); do
    got=$(jq --arg f "$fn" '.concretizations_by_function[$f] // 0' "$report")
    [ "$got" -gt 0 ] || fail "expected concretizations counted for $fn, report.json has $got"
    echo "ok [$name]: $got concretizations counted for $fn"
done

if grep -q '^// EXPECT-REPLAY-ERRORS' "$prog"; then
    "$SYMPATH" replay "$out" >"$WORK/$name.replay" 2>&1
    rrc=$?
    cat "$WORK/$name.replay"
    [ $rrc -eq 0 ] || fail "replay exited with $rrc (a test did not behave as recorded)"
    echo "ok [$name]: replay reproduces every error"
fi

if grep -q '^// EXPECT-REPLAY$' "$prog"; then
    "$SYMPATH" replay "$out" --coverage >"$WORK/$name.replay" 2>&1
    rrc=$?
    cat "$WORK/$name.replay"
    [ $rrc -eq 0 ] || fail "replay exited with $rrc (a test did not behave as recorded)"
    line=$(grep 'gcov branch coverage' "$WORK/$name.replay")
    gcov_cov=$(echo "$line" | sed -n 's|.*coverage: *\([0-9]*\)/\([0-9]*\).*|\1|p')
    gcov_tot=$(echo "$line" | sed -n 's|.*coverage: *\([0-9]*\)/\([0-9]*\).*|\2|p')
    sym_cov=$(jq .coverage.branches_covered "$report")
    sym_tot=$(jq .coverage.branches_total "$report")
    [ -n "$gcov_cov" ] || fail "replay printed no gcov branch coverage"
    if [ "$gcov_tot" = "$sym_tot" ]; then
        [ "$gcov_cov" = "$sym_cov" ] || fail "gcov says $gcov_cov/$gcov_tot branches, sympath said $sym_cov/$sym_tot"
    else
        extra=$((gcov_tot - sym_tot))
        [ $extra -gt 0 ] && [ $((gcov_tot - gcov_cov)) -le $((extra + sym_tot - sym_cov)) ] ||
            fail "gcov says $gcov_cov/$gcov_tot branches, sympath said $sym_cov/$sym_tot"
    fi
    echo "ok [$name]: replay agrees: gcov $gcov_cov/$gcov_tot, sympath $sym_cov/$sym_tot"
fi
echo "PASS [$name]"
