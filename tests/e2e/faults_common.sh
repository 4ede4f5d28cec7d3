# faults_common.sh: shared checks of the fault-injection tests (sourced by tests/e2e/test_faults_*.sh).
# Needs SYMPATH, SRC, WORK (set by ctest) and $name (the test's name, for messages).
# The guarantee checked after every fault: no half-written file in the suite, no test the log
# announced missing from the disk, report.json complete (valid JSON that agrees with the files) or absent.
set -u
mkdir -p "$WORK"
fail() { echo "FAIL [$name]: $*"; exit 1; }
ok() { echo "ok [$name]: $*"; }

# faultfs_build: compile the LD_PRELOAD shim (tests/faults/faultfs.c) once; prints its path.
faultfs_build() {
    local so="$WORK/faultfs.so"
    if [ ! -f "$so" ] || [ "$SRC/tests/faults/faultfs.c" -nt "$so" ]; then
        cc -O1 -Wall -shared -fPIC -o "$so.$$" "$SRC/tests/faults/faultfs.c" -ldl && mv "$so.$$" "$so" ||
            fail "cannot build the faultfs shim"
    fi
    echo "$so"
}

# xml_complete FILE: the file is a whole test-format document (xmllint when there is one).
xml_complete() {
    if command -v xmllint >/dev/null; then
        xmllint --noout "$1" 2>/dev/null
    else
        head -n 1 "$1" | grep -q '^<?xml' && tail -n 1 "$1" | grep -qE '^</(testcase|test-metadata)>$'
    fi
}

# check_suite OUT LOG: the invariants after any fault. Sets ntests (test files on disk).
check_suite() {
    local out=$1 log=$2 f n
    # no temporary left, under any name the writers use
    left=$(find "$out" -name '*.tmp*' -o -name '.*.tmp*' 2>/dev/null | head -3)
    [ -z "$left" ] || fail "temporary files left: $left"
    ntests=0
    for f in "$out"/tests/*.xml "$out"/errors/*.xml; do
        [ -e "$f" ] || continue
        xml_complete "$f" || fail "$f is not a complete XML document"
        case $(basename "$f") in test-*) ntests=$((ntests + 1)) ;; esac
    done
    for f in "$out"/errors/error-*.xml; do
        [ -e "$f" ] || continue
        [ -s "${f%.xml}.txt" ] || fail "$f has no description (.txt)"
    done
    for f in "$out"/errors/error-*.txt; do
        [ -e "$f" ] || continue
        [ -f "${f%.txt}.xml" ] || fail "$f has no reproducer (.xml)"
    done
    # the summary's count is what is on disk: no test announced and lost
    n=$(sed -n 's|.*executions ([0-9]*/s), \([0-9]*\) tests in .*|\1|p' "$log" | tail -n 1)
    if [ -n "$n" ]; then
        [ "$n" -eq "$ntests" ] || fail "the summary says $n tests, $ntests complete test files on disk"
    fi
    if [ -e "$out/report.json" ]; then
        jq -e . "$out/report.json" >/dev/null || fail "report.json is not complete JSON"
        n=$(jq .tests "$out/report.json")
        [ "$n" -eq "$ntests" ] || fail "report.json says $n tests, $ntests test files on disk"
        for f in $(jq -r '.errors[].reproducer // empty' "$out/report.json"); do
            [ -f "$out/$f" ] || fail "report.json names the reproducer $f, which is missing"
        done
    fi
}
