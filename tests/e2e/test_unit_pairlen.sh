#!/bin/bash
# test_unit_pairlen.sh: a buffer/length pair's length is free for the function's own directions (the harness fills
# sym_concrete(n) elements, no branch of its own on n): frame_check's branches on its length saturate within 30 runs
# (46 when the fill looped over n itself); an init function's `char *string_store, int store_length` is a pair, so
# every test passes a length its store holds (before: a 68-byte store with length 85).
. "$SRC/tests/e2e/unit_common.sh"
unit_run pairlen tests/programs/unit/frames.c -- --all --budget 60s --max-execs 30
runs="$out/build/runs"
jq -e '.stop_reason == "saturated" or .stop_reason == "exhausted"' "$runs/frame_check/report.json" >/dev/null ||
    fail "frame_check not saturated in 30 runs: $(jq -c '{stop_reason, total: .executions.total}' "$runs/frame_check/report.json")"
build_and_run frames
expect_gcov frame_check 100
expect_gcov scanner_word 100
# each scanner test: store_length <= the size of the store it passes
awk '/char s_string_store\[[0-9]+\]/ { match($0, /\[[0-9]+\]/); size = substr($0, RSTART + 1, RLENGTH - 2) + 0 }
     /scanner_init\(/ { n = $NF; sub(/\);$/, "", n); tests++; if (n + 0 > size) { bad++; print "store of " size " bytes, length " n } }
     END { if (!tests) { print "no scanner_init call"; exit 1 } exit bad ? 1 : 0 }' "$out/test_frames.c" ||
    fail "a test passes a store length its store does not hold"
pass
