#!/bin/bash
# make_corpus.sh: regenerates the fuzz seeds in tests/fuzz/corpus/ from real sympath outputs (run by hand; the seeds are committed).
# Usage: tests/fuzz/make_corpus.sh [SYMPATH]   (default build/bin/sympath)
#   fuzz_replay_testcase  test cases and error reproducers written by `sympath run` on a few programs
#   fuzz_explore_trace    the record areas of executor runs of those test cases (the executor is run
#                         standalone on a region file laid out as the explorer lays it out)
#   fuzz_db_schema        the schemas of tests/db
#   fuzz_db_sql           the statements of the database programs of tests/db and tests/programs/data
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
sympath=${1:-$src/build/bin/sympath}
corpus=$src/tests/fuzz/corpus
work=$(mktemp -d /tmp/sympath-corpus.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$corpus"/{fuzz_replay_testcase,fuzz_explore_trace,fuzz_db_schema,fuzz_db_sql}

# the region header of trace.h, for a standalone executor run with the given inputs; records after it
region() { # FILE VALUES...
    python3 - "$@" <<'PY'
import struct, sys
path, vals = sys.argv[1], sys.argv[2:]
inputs_cap, cov_cap, recs_cap = 4096, 1 << 16, 1 << 14
inputs_off = 4096
cov_off = inputs_off + 8 * inputs_cap
recs_off = (cov_off + cov_cap + 63) & ~63
total = recs_off + 40 * recs_cap
hdr = struct.pack("<IIQQQQQQQQQ", 0x53594d31, 1, total, inputs_off, inputs_cap, cov_off, cov_cap,
                  recs_off, recs_cap, len(vals), 1)
buf = bytearray(total)
buf[:len(hdr)] = hdr
for i, v in enumerate(vals):
    try:
        x = int(v, 0)
    except ValueError:
        x = 0
    struct.pack_into("<Q", buf, inputs_off + 8 * i, x & (2**64 - 1))
open(path, "wb").write(buf)
PY
}
records() { # REGION OUT: the published records of a region
    python3 - "$1" "$2" <<'PY'
import struct, sys
buf = open(sys.argv[1], "rb").read()
recs_off, recs_cap, _, _, nrecs = struct.unpack_from("<QQQQQ", buf, 48)
n = min(nrecs, recs_cap, 200)   # seeds stay small
open(sys.argv[2], "wb").write(buf[recs_off:recs_off + 40 * n])
PY
}

for p in "$src/examples/demo.c" "$src"/tests/programs/{float_exact,int128_input,posix_stdin_wc,libc_strings,switch_calls}.c; do
    name=$(basename "$p" .c)
    args=$(sed -n 's|^// SYMPATH-ARGS: ||p' "$p")
    # shellcheck disable=SC2086
    "$sympath" run "$p" -o "$work/$name" --no-progress $args --budget 5s >/dev/null 2>&1 || true
    for t in $(ls "$work/$name"/tests/test-*.xml 2>/dev/null | head -3) $(ls "$work/$name"/errors/error-*.xml 2>/dev/null | head -1); do
        cp "$t" "$corpus/fuzz_replay_testcase/$name-$(basename "$t")"
        vals=$(sed -n 's|.*<input[^>]*>\(.*\)</input>.*|\1|p' "$t")
        # shellcheck disable=SC2086
        region "$work/region" $vals
        (cd "$work" && SYMPATH_SHM_FD=3 "$work/$name/build/executor" 3<>"$work/region" </dev/null >/dev/null 2>&1) || true
        records "$work/region" "$corpus/fuzz_explore_trace/$name-$(basename "$t" .xml).trace"
    done
done

cp "$src"/tests/db/*.sql "$corpus/fuzz_db_schema/"

i=0
for f in "$src"/tests/db/*.c "$src"/tests/programs/data/*.c; do
    grep -ho '"\(SELECT\|INSERT\|UPDATE\|DELETE\) [^"]*"' "$f" | sed 's/^"//; s/"$//; s/%%/%/g; s/%l*[du]/1/g' |
        while IFS= read -r q; do
            printf '%s' "$q" > "$corpus/fuzz_db_sql/$(basename "$f" .c)-$i.sql"
            i=$((i + 1))
        done
done
ls "$corpus"/* | head -100
