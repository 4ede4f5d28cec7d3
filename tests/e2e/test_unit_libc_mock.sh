#!/bin/bash
# test_unit_libc_mock.sh: --mock getenv replaces a libc function for the unit's calls only (the harness,
# the runtime and CMocka keep the real one): the solver picks getenv's result, "full" included; the
# emitted file links with -Wl,--wrap=getenv, builds with -Werror and passes; sympath's own gcov figure
# (measured with the unit's objects renaming getenv, since gcov's runtime calls getenv too) is complete.
. "$SRC/tests/e2e/unit_common.sh"
unit_run libc_mock tests/programs/unit/envcfg.c -- --all --mock getenv --budget 18s
expect_sympath_cov debug_level
expect_text envcfg '^char \*__wrap_getenv\(const char \*a0\) \{' "stand-in __wrap_getenv"
expect_text envcfg 'char getenv_ret\[[0-9]+\] = "full";' "getenv result solved to \"full\""
expect_text envcfg 'will_return\(__wrap_getenv, NULL\);' "test where getenv finds nothing"
jq -e '.functions[0].gcov.branches_taken == .functions[0].gcov.branches_total and .functions[0].gcov.branches_total > 0' \
    "$out/report.json" >/dev/null || fail "gcov figure incomplete: $(jq -c '.functions[0].gcov' "$out/report.json")"
(cd "$out.bin" && cc -Wall -Wextra -Werror -I"$SRC/tests/programs/unit" "$out/test_envcfg.c" "${srcs[@]}" -Wl,--wrap=getenv \
    -lcmocka -o t && ./t) >"$out.bin/run.log" 2>&1 || { cat "$out.bin/run.log"; fail "the emitted tests do not build or pass"; }
pass
