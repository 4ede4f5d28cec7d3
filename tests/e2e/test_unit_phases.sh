#!/bin/bash
# test_unit_phases.sh: a target whose input comes from a parser producer (prog.c: prog_compile makes the
# struct prog that prog_eval runs). The search prefers the branch directions met after the call of the target
# to the producer's (strategy_cov.c, the harness's mark), a producer's failure that crashes the target is
# located once (errors.c), so in 1500 runs prog_eval's branches on the program's value are covered (main's code
# of 2026-11-27: 16 of 23 directions in 457 runs; 21 of 23 in 1000-2000 runs since; a run count, not a clock:
# a 4 s budget gave 17 of 23 at a load of 3-5). Then prog_ops's `int *ops,
# unsigned num_ops`, a capacity pair: the tests pass an array of 8 with num_ops = 8 (main: one int, num_ops
# free, 0 or 1).
. "$SRC/tests/e2e/unit_common.sh"
unit_run phases tests/programs/unit/prog.c -- --function prog_eval --budget 60s --max-execs 1500 --str-len 8
cov=$(jq -r '.functions[] | select(.function == "prog_eval") | .coverage.branches_covered' "$out/report.json")
tot=$(jq -r '.functions[] | select(.function == "prog_eval") | .coverage.branches_total' "$out/report.json")
echo "prog_eval: $cov of $tot branch directions in 1500 runs"
[ "${cov:-0}" -ge 19 ] || fail "prog_eval: ${cov:-?} of ${tot:-?} branch directions covered (want 19 or more)"
expect_text prog 'prog_compile\("' "a program built by prog_compile"
build_and_run prog
expect_gcov prog_eval 80
unit_run phases_cap tests/programs/unit/prog.c -- --function prog_ops --budget 20s --max-execs 400 --str-len 8
expect_text prog 'int ops_obj\[8\]' "an ops array of 8"
expect_text prog 'unsigned int num_ops = 8;' "num_ops = 8, the array's capacity"
expect_text prog 'assert_int_equal\(ret, 1\);' "a program's operation written into ops"
build_and_run prog
pass
