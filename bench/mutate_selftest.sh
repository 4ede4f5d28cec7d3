#!/bin/bash
# mutate_selftest.sh: checks bench/mutate.py on a tiny function: the candidates it lists, and that a test asserting the results kills more mutants than one that asserts nothing.
set -eu
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/clamp.c" <<'C'
/* "a comment with < and 7" */
int clamp(int x, int lo, int hi) {
    char buf[16] = "x < 3";
    (void)buf;
    if (x < lo && lo <= hi) return lo;
    if (x > hi) return hi - 0;
    return x * 2 / 2;
}
C
for kind in strong weak; do
    if [ $kind = strong ]; then body='assert_int_equal(clamp(1, 2, 5), 2); assert_int_equal(clamp(2, 2, 5), 2);
    assert_int_equal(clamp(9, 2, 5), 5); assert_int_equal(clamp(5, 2, 5), 5); assert_int_equal(clamp(3, 2, 5), 3);
    assert_int_equal(clamp(1, 3, 2), 1); assert_int_equal(clamp(6, 2, 5), 5);'
    else body='clamp(3, 2, 5);'; fi
    cat >"$T/test_$kind.c" <<C
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
int clamp(int x, int lo, int hi);
static void t(void **state) { (void)state; $body }
int main(void) { const struct CMUnitTest ts[] = { cmocka_unit_test(t) }; return cmocka_run_group_tests(ts, NULL, NULL); }
C
done
n=$(python3 bench/mutate.py --list "$T/clamp.c" clamp | tail -1 | cut -d' ' -f3)
python3 bench/mutate.py --list "$T/clamp.c" clamp | grep -q 'buf\|16' && { echo "FAIL: a declaration's array size or a literal was mutated"; exit 1; }
# < <= > (3), && (1), - * / (3), constants 0 2 2 (0->1, 2->3, 2->0 twice: 5)
[ "$n" = 12 ] || { echo "FAIL: $n candidates, expected 12"; python3 bench/mutate.py --list "$T/clamp.c" clamp; exit 1; }
read -r ks cs _ < <(python3 bench/mutate.py "$T/clamp.c" clamp --build "cc $T/test_strong.c $T/clamp.c -lcmocka -o $T/t" | tail -1)
read -r kw cw _ < <(python3 bench/mutate.py "$T/clamp.c" clamp --build "cc $T/test_weak.c $T/clamp.c -lcmocka -o $T/t" | tail -1)
echo "strong test: $ks/$cs killed, weak test: $kw/$cw killed"
[ "$cs" -gt 0 ] && [ "$ks" -gt "$kw" ] || { echo FAIL; exit 1; }
echo PASS
