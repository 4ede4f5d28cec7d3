#!/bin/bash
# unit.sh: `sympath unit --all` on the programs of bench/unit/; prints per function the branch coverage
# sympath reached, the gcov branch coverage of the emitted tests, tests emitted, tests the sanitizer check
# dropped and moved to test_<file>_bugs.c, exploration time, and whether the emitted file compiled with
# -Wall -Wextra -Werror and passed; then the sanitizer check's reasons.
# Usage: bash bench/unit.sh [BUDGET]   (from the project root, after `make`)
set -u
BUDGET=${1:-20s}
SYMPATH=${SYMPATH:-build/bin/sympath}
WORK=${WORK:-build/bench-unit}
mkdir -p "$WORK"
printf '%-10s %-18s %10s %10s %6s %8s %5s %7s %s\n' file function sympath gcov tests san-drop bugs time compiled+passed
for src in bench/unit/*.c; do
    stem=$(basename "$src" .c)
    out="$WORK/$stem"
    rm -rf "$out" "$out.bin"
    mkdir -p "$out.bin"
    if ! "$SYMPATH" unit "$src" --all -o "$out" --budget "$BUDGET" --no-progress >"$out.bin/sympath.log" 2>&1; then
        printf '%-10s sympath unit failed (see %s)\n' "$stem" "$out.bin/sympath.log"
        continue
    fi
    ok=no
    if (cd "$out.bin" && cc -c -Wall -Wextra -Werror --coverage -O0 "../../../$src" -o "$stem.o" &&
        cc -Wall -Wextra -Werror -O0 -I"../../../bench/unit" "../$stem/test_$stem.c" "$stem.o" --coverage -lcmocka -o t &&
        ./t) >"$out.bin/build.log" 2>&1; then
        ok=yes
    fi
    (cd "$out.bin" && gcov -b -o . "../../../$src") >/dev/null 2>&1
    jq -r '.functions[] | [.function, "\(.coverage.branches_covered)/\(.coverage.branches_total)", .tests_emitted,
        (.sanitizer.dropped // "-"), (.sanitizer.bugs // "-"), (.seconds*10|round/10)] | @tsv' "$out/report.json" |
        while IFS=$'\t' read -r fn cov tests sdrop bugs secs; do
        g=$(awk -v f="$fn" '/^function / { on = ($2 == f) }
            on && /^branch / { n++; if ($0 !~ /taken 0%/ && $0 !~ /never executed/) t++ }
            END { if (n) printf "%d/%d", t, n; else printf "-" }' "$out.bin/$stem.c.gcov" 2>/dev/null)
        printf '%-10s %-18s %10s %10s %6s %8s %5s %6ss %s\n' "$stem" "$fn" "$cov" "$g" "$tests" "$sdrop" "$bugs" "$secs" "$ok"
    done
    jq -r '.functions[] | .function as $f | ((.dropped // [])[] | select(test("sanitizer")) | "    \($f): dropped \(.)"),
        ((.sanitizer.bug_tests // [])[] | "    \($f): bug \(.)")' "$out/report.json"
done
