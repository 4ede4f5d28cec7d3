#!/bin/sh
# run.sh: prints sympath's figures on a set of programs (coverage, time to reach it, executions/s, solver share, build time),
# the floating-point figures (coverage, share of FP queries, time per FP query) on float workloads,
# and the instrumented executor's run time against the native build on a mostly concrete workload.
# Usage: sh bench/run.sh [BUDGET]   (from the project root, after `make`)
set -u
BUDGET=${1:-30s}
SYMPATH=${SYMPATH:-build/bin/sympath}
WORK=${WORK:-build/bench}
mkdir -p "$WORK"
PROGS="tests/programs/magic.c tests/programs/crashes.c tests/programs/switch_calls.c tests/programs/loops.c tests/programs/many_paths.c examples/demo.c bench/programs/libc_cmdline.c"

printf '%-18s %9s %8s %9s %8s %7s %6s %6s %7s\n' program coverage reached_s execs execs/s solver% tests errors build_s
for p in $PROGS; do
    name=$(basename "$p" .c)
    out="$WORK/$name"
    rm -rf "$out"
    if ! "$SYMPATH" run "$p" -o "$out" --budget "$BUDGET" --no-progress >"$WORK/$name.log" 2>&1; then
        printf '%-18s build or run failed (see %s)\n' "$name" "$WORK/$name.log"
        continue
    fi
    jq -r --arg n "$name" '[$n,
        "\(.coverage.branches_covered)/\(.coverage.branches_total)",
        (.coverage.reached_after_seconds*100|round/100),
        .executions.total,
        (.executions.per_second|round),
        (.time.solver_share*1000|round/10),
        .tests, (.errors|length), (.time.build_seconds*100|round/100)] | @tsv' "$out/report.json" |
        awk -F'\t' '{printf "%-18s %9s %8s %9s %8s %7s %6s %6s %7s\n", $1,$2,$3,$4,$5,$6,$7,$8,$9}'
done

echo
echo "floating point (Z3 queries with an FP operator: share of all Z3 calls, mean time; answered without Z3: relaxed = by the"
echo "approximation over the reals, sampled = by candidates; core = UNSAT from the approximation's core, checked in FP;"
echo "skel = UNSAT from the query with its FP operations as free unknowns):"
FPROGS="bench/programs/float_newton.c tests/programs/float_exact.c tests/programs/double_libm.c tests/programs/float_bits_poly.c"
printf '%-18s %9s %8s %9s %8s %9s %8s %8s %8s %8s %8s\n' program coverage reached_s z3_calls fp_share s/fp_query relaxed sampled core skel fp_tmo
for p in $FPROGS; do
    name=$(basename "$p" .c)
    out="$WORK/$name"
    rm -rf "$out"
    if ! "$SYMPATH" run "$p" -o "$out" --budget "$BUDGET" --no-progress >"$WORK/$name.log" 2>&1; then
        printf '%-18s build or run failed (see %s)\n' "$name" "$WORK/$name.log"
        continue
    fi
    jq -r --arg n "$name" '[$n,
        "\(.coverage.branches_covered)/\(.coverage.branches_total)",
        (.coverage.reached_after_seconds*100|round/100),
        .solver.z3_calls,
        (if .solver.z3_calls > 0 then (.solver.fp_queries / .solver.z3_calls * 100 | round | tostring) + "%" else "-" end),
        (if .solver.fp_queries > 0 then (.solver.fp_seconds / .solver.fp_queries * 1000 | round / 1000) else "-" end),
        .solver.fp_relaxed, .solver.fp_sampled, .solver.fp_core_unsat, .solver.fp_skeleton_unsat, .solver.fp_timeouts] | @tsv' "$out/report.json" |
        awk -F'\t' '{printf "%-18s %9s %8s %9s %8s %9s %8s %8s %8s %8s %8s\n", $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11}'
done

echo
echo "overhead on a mostly concrete workload (bench/programs/concrete_work.c):"
out="$WORK/concrete"
rm -rf "$out"
"$SYMPATH" run bench/programs/concrete_work.c -o "$out" --max-execs 1 --no-progress >"$WORK/concrete.log" 2>&1 ||
    { echo "  cannot build (see $WORK/concrete.log)"; exit 1; }
CLANG=${CLANG:-clang-14}
$CLANG -O2 -fwrapv -fno-delete-null-pointer-checks -w -Iinclude bench/programs/concrete_work.c build/lib/replay.c -o "$WORK/concrete_native"
best() { # best of 5 wall-clock runs of a command, in seconds
    b=""
    for i in 1 2 3 4 5; do
        s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
        t=$(awk -v s="$s" -v e="$e" 'BEGIN{print e-s}')
        if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN{exit !(t<b)}'; then b=$t; fi
    done
    echo "$b"
}
tn=$(best "$WORK/concrete_native")
ti=$(best "$out/build/executor")
printf '  native %.3f s   instrumented executor %.3f s   ratio %.2fx\n' "$tn" "$ti" "$(awk -v a="$ti" -v b="$tn" 'BEGIN{print a/b}')"

echo
echo "libc models against native libc on a mostly concrete string workload (bench/programs/string_work.c):"
out="$WORK/string"
rm -rf "$out"
"$SYMPATH" run bench/programs/string_work.c -o "$out" --max-execs 1 --no-progress >"$WORK/string.log" 2>&1 ||
    { echo "  cannot build (see $WORK/string.log)"; exit 1; }
$CLANG -O2 -fwrapv -fno-delete-null-pointer-checks -w -Iinclude bench/programs/string_work.c build/lib/replay.c -o "$WORK/string_native"
tn=$(best "$WORK/string_native")
ti=$(best "$out/build/executor")
printf '  native %.3f s   instrumented executor with the models %.3f s   ratio %.2fx\n' "$tn" "$ti" "$(awk -v a="$ti" -v b="$tn" 'BEGIN{print a/b}')"
