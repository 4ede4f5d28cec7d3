#!/bin/bash
# test_mpi_link.sh: the Open MPI link (sizes, both directions at once, time-outs, codec, close) and the build shipping, under mpirun -np 3; and the --mpi usage errors.
set -u
fail() { echo "FAIL [mpi_link]: $*"; exit 1; }
. "$(dirname "$0")/mpi_common.sh"
DRIVER=${MPI_LINK_DRIVER:-${SYMPATH%/bin/sympath}/tests/mpi_link_driver}
[ -x "$DRIVER" ] || fail "no driver at $DRIVER"
dir="$WORK/mpi_link"
rm -rf "$dir"
mkdir -p "$dir"

# the driver checks everything inside each rank; a deadlock ends at the time-out
timeout 30 "${MPIRUN[@]}" -np 3 "$DRIVER" "$dir" >"$dir/out.log" 2>&1
rc=$?
cat "$dir/out.log"
[ $rc -eq 124 ] && fail "mpirun did not end within 30 s (deadlock?)"
[ $rc -eq 0 ] || fail "mpirun exited with $rc"
for r in 0 1 2; do grep -q "^PASS rank $r\$" "$dir/out.log" || fail "rank $r did not pass"; done
for r in 1 2; do
    cmp -s "$dir/src/executor" "$dir/rank-$r/executor" || fail "rank $r: executor differs from the one shipped"
    cmp -s "$dir/src/sites.tsv" "$dir/rank-$r/sites.tsv" || fail "rank $r: site table differs"
    [ -x "$dir/rank-$r/executor" ] || fail "rank $r: executor not executable"
done

# usage errors of --mpi: -j, and a job of one process
prog="$SRC/tests/programs/const_function.c"
"$SYMPATH" run "$prog" --mpi -j 2 -o "$dir/out-j" >"$dir/j.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- "--mpi takes its workers from mpirun -np" "$dir/j.log" || fail "-j with --mpi: exit $rc, $(cat "$dir/j.log")"
timeout 30 "${MPIRUN[@]}" -np 1 "$SYMPATH" run "$prog" --mpi -o "$dir/out-1" --no-progress >"$dir/np1.log" 2>&1
rc=$?
grep -q "needs at least 2 processes" "$dir/np1.log" || fail "-np 1: no clear error (exit $rc): $(cat "$dir/np1.log")"
[ $rc -ne 0 ] || fail "-np 1: exit 0"
[ -e "$dir/out-1/build/executor" ] && fail "-np 1: built anyway"
echo "PASS [mpi_link]: 3 ranks, ${SECONDS} s"
