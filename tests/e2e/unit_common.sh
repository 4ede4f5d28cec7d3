# unit_common.sh: shared steps of the `sympath unit` end-to-end tests (sourced by tests/e2e/test_unit_*.sh).
# Needs SYMPATH, SRC, WORK (set by ctest). The emitted files are built here again, independently of
# sympath's own verification, with -Wall -Wextra -Werror and gcov, run, and their branch coverage read
# back per function with `gcov -b -f`.
# Budgets (2026-11-28): CI runs these at a load of 3-5, where a clock budget gives a function a third of the runs
# it gets alone. So a test whose function used its whole share alone stops after a run count (--max-execs: about
# 1.3 times the runs it made alone in the old budget) under a clock five times longer, and the others, which stop
# by saturation or exhaustion, have three times the clock they had.
set -u
fail() { echo "FAIL [$name]: $*"; exit 1; }

# unit_run NAME SOURCE... -- OPTIONS...: run sympath unit on the sources (paths relative to $SRC).
unit_run() {
    name=$1; shift
    srcs=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srcs+=("$SRC/$1"); shift; done
    [ $# -gt 0 ] && shift
    out="$WORK/unit_$name"
    rm -rf "$out" "$out.bin"
    mkdir -p "$WORK" "$out.bin"
    "$SYMPATH" unit "${srcs[@]}" -o "$out" --no-progress "$@" >"$out.bin/sympath.log" 2>&1
    rc=$?
    tail -40 "$out.bin/sympath.log"
    [ $rc -eq 0 ] || fail "sympath unit exited with $rc"
    [ -d "$out/build" ] || fail "no build directory"
}

# build_and_run STEM: compile OUT/test_STEM.c with the unit's sources, warnings as errors and gcov, run it.
# A source the test file #includes (a header-only library, a .c whose static functions are tested) is not
# compiled on its own; the flags in the array extra_cflags (if set) go to every compilation.
build_and_run() {
    local stem=$1
    local t="$out/test_$stem.c"
    [ -f "$t" ] || fail "no $t"
    local objs=() incs=() s
    for s in "${srcs[@]}"; do
        incs+=("-I$(dirname "$s")")
        grep -q "^#include \"$(basename "$s")\"" "$t" && continue
        (cd "$out.bin" && cc -c -Wall -Wextra -Werror --coverage -O0 ${extra_cflags[@]+"${extra_cflags[@]}"} "$s" -o "$(basename "${s%.c}").o") \
            >"$out.bin/cc_src.log" 2>&1 || { cat "$out.bin/cc_src.log"; fail "$s does not compile"; }
        objs+=("$(basename "${s%.c}").o")
    done
    (cd "$out.bin" && cc -Wall -Wextra -Werror -O0 "${incs[@]}" ${extra_cflags[@]+"${extra_cflags[@]}"} "$t" ${objs[@]+"${objs[@]}"} ${wrap_flags[@]+"${wrap_flags[@]}"} --coverage -lcmocka \
        -o "test_$stem") >"$out.bin/cc_$stem.log" 2>&1 || { cat "$out.bin/cc_$stem.log"; fail "test_$stem.c does not compile"; }
    (cd "$out.bin" && "./test_$stem") >"$out.bin/run_$stem.log" 2>&1 || { cat "$out.bin/run_$stem.log"; fail "test_$stem fails"; }
    grep -q "PASSED" "$out.bin/run_$stem.log" || fail "test_$stem: no PASSED line"
    grep -q "FAILED" "$out.bin/run_$stem.log" && fail "test_$stem: a test failed"
    (cd "$out.bin" && for s in "${srcs[@]}"; do gcov -b -f -o . "$s"; done; gcov -b -f ./*test_"$stem".gcda) >"$out.bin/gcov.log" 2>&1 || true
    return 0
}

# gcov_taken FUNCTION: percentage of FUNCTION's branch outcomes taken at least once, from the
# *.c.gcov files gcov -b wrote (branch lines between "function NAME" and the next function).
gcov_taken() {
    cat "$out.bin"/*.c.gcov "$out.bin"/*.h.gcov 2>/dev/null | awk -v f="$1" '
        /^function / { on = ($2 == f) }
        on && /^branch / { n++; if ($0 !~ /taken 0%/ && $0 !~ /never executed/) t++ }
        END { if (n) printf "%.2f\n", 100 * t / n }'
}

# expect_gcov FUNCTION MIN: gcov branch coverage of FUNCTION by the emitted tests is at least MIN percent.
expect_gcov() {
    local p
    p=$(gcov_taken "$1")
    [ -n "$p" ] || fail "gcov has no branch data for $1"
    awk -v p="$p" -v m="$2" 'BEGIN { exit !(p + 0 >= m + 0) }' || fail "gcov: $1 branches taken $p% < $2%"
    echo "gcov: $1 branches taken $p%"
}

# expect_sympath_cov FUNCTION: report.json has full branch coverage of FUNCTION.
expect_sympath_cov() {
    jq -e --arg f "$1" '.functions[] | select(.function == $f) | .coverage.branches_covered == .coverage.branches_total and .coverage.branches_total > 0' \
        "$out/report.json" >/dev/null || fail "report.json: $1 not fully covered: $(jq -c --arg f "$1" '.functions[] | select(.function == $f) | .coverage' "$out/report.json")"
}

# expect_text STEM REGEX WHAT: the emitted test file contains a line matching REGEX.
expect_text() {
    grep -Eq "$2" "$out/test_$1.c" || fail "test_$1.c has no $3 (/$2/)"
}

# expect_no_san_drops: the sanitizer check dropped no test of any function (report.json).
expect_no_san_drops() {
    jq -e '[.functions[].sanitizer.dropped] | add == 0' "$out/report.json" >/dev/null ||
        fail "the sanitizer check dropped tests: $(jq -c '[.functions[] | {function, sanitizer, dropped}]' "$out/report.json")"
}

# expect_no_drops: no test of any function was dropped, for any reason (report.json).
expect_no_drops() {
    jq -e '[.functions[] | (.dropped | length) + .sanitizer.dropped] | add == 0' "$out/report.json" >/dev/null ||
        fail "tests dropped: $(jq -c '[.functions[] | {function, dropped, sanitizer}]' "$out/report.json")"
}

pass() { echo "PASS [$name]"; exit 0; }
