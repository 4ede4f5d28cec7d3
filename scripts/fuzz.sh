#!/bin/bash
# fuzz.sh: runs libFuzzer targets of the sanitizer build over their seeds and regression inputs for a bounded time each.
# Usage: scripts/fuzz.sh FUZZ_DIR SECONDS [NAME...]   (FUZZ_DIR: build-san/fuzz; no NAME = every fuzz_* there)
# Each target first replays tests/fuzz/corpus/NAME and tests/fuzz/regress/NAME, then mutates for SECONDS
# (with the dictionary tests/fuzz/NAME.dict when there is one).
# New interesting inputs go to FUZZ_DIR/work/NAME (kept between runs, never committed); a crash leaves
# its input in FUZZ_DIR/crash-NAME-* and makes the script exit 1: fix the bug, then copy the input
# into tests/fuzz/regress/NAME/ so that every later run replays it.
set -u
dir=$(cd "$1" && pwd) secs=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in "$dir"/fuzz_*; do [ -x "$f" ] && names+=("$(basename "$f")"); done
fi
[ ${#names[@]} -gt 0 ] || { echo "fuzz.sh: no fuzz targets in $dir (make build-san)"; exit 1; }
status=0
for n in "${names[@]}"; do
    dirs=("$dir/work/$n")
    mkdir -p "$dir/work/$n"
    for d in "$src/tests/fuzz/corpus/$n" "$src/tests/fuzz/regress/$n"; do
        [ -d "$d" ] && dirs+=("$d")
    done
    dict=()
    [ -f "$src/tests/fuzz/$n.dict" ] && dict=(-dict="$src/tests/fuzz/$n.dict")
    echo "fuzz.sh: $n for ${secs}s over ${dirs[*]}"
    log="$dir/$n.log"
    if "$dir/$n" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
        -artifact_prefix="$dir/crash-$n-" "${dirs[@]}" >"$log" 2>&1; then
        grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+.*DONE' "$log"
    else
        tail -n 60 "$log"
        echo "FAIL [$n]: the fuzzer stopped on a crash, leak or time-out; input in $dir/crash-$n-* (log: $log)"
        status=1
    fi
done
exit $status
