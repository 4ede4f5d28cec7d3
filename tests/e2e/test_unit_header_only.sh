#!/bin/bash
# test_unit_header_only.sh: sympath unit on a header-only library (ringq.h: declarations, a static inline
# helper, a static helper and two ordinary functions, all in the header). The header is the unit (parsed as
# C); --all takes every function defined in it, static ones too; --define sets its capacity. The emitted test
# #includes the header (nothing is linked), builds with -Werror, passes, and covers the functions under gcov.
. "$SRC/tests/e2e/unit_common.sh"
unit_run header_only tests/unit_libs/hdronly/ringq.h -- --all --define RINGQ_CAP=3 --budget 36s
extra_cflags=(-DRINGQ_CAP=3)
expect_text ringq '^#include "ringq.h"$' "the header included"
for f in ringq_next ringq_full ringq_push ringq_pop; do
    grep -q "^static void test_${f}_1" "$out/test_ringq.c" || fail "$f (a function of the header) is not tested"
done
expect_sympath_cov ringq_next
expect_sympath_cov ringq_push
expect_sympath_cov ringq_pop
# the capacity comes from --define: the last slot is 2, after which ringq_next wraps to 0
grep -A4 'size_t i = 2;' "$out/test_ringq.c" | grep -q 'assert_int_equal(ret, 0);' || fail "RINGQ_CAP=3 not in effect"
grep -q -- '-DRINGQ_CAP=3' "$out/BUILD.txt" || fail "the build line lacks the --define"
grep -q 'ringq\.h ' "$out/BUILD.txt" && fail "the build line compiles the header"
build_and_run ringq
expect_gcov ringq_next 100
expect_gcov ringq_push 100
expect_gcov ringq_pop 100
jq -e '.functions[] | select(.function == "ringq_pop") | .gcov.branches_total > 0' "$out/report.json" >/dev/null ||
    fail "report.json has no gcov figure for the header's functions"
# one function by name; an unknown one lists the header's functions, static ones included
"$SYMPATH" unit "$SRC/tests/unit_libs/hdronly/ringq.h" --function nope -o "$WORK/unit_header_only_bad" \
    >"$out.bin/bad.log" 2>&1
[ $? -eq 2 ] || fail "unknown function: not a usage error"
grep -q 'ringq_next ringq_full ringq_push ringq_pop' "$out.bin/bad.log" || { cat "$out.bin/bad.log"; fail "the header's functions are not listed"; }
# a .c that includes the header: its functions are not the .c's, the message names the header to give
"$SYMPATH" unit "$SRC/tests/unit_libs/hdronly/ringq_user.c" --function ringq_push -o "$WORK/unit_header_only_bad" \
    >"$out.bin/user.log" 2>&1
[ $? -eq 2 ] || fail "a header's function asked of a .c: not a usage error"
grep -q 'ringq_push is defined in the header .*hdronly/ringq.h: give the header as the unit' "$out.bin/user.log" ||
    { cat "$out.bin/user.log"; fail "the header to give is not named"; }
pass
