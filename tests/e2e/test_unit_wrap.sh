#!/bin/bash
# test_unit_wrap.sh: --mock of a function the unit defines (store_put in store.c): calls from cache.c go to a
# stand-in (tests linked with -Wl,--wrap=store_put), calls inside store.c reach the real function; both
# emitted files build with -Werror, pass, and cover cache_set's branches (the store failing included).
. "$SRC/tests/e2e/unit_common.sh"
unit_run wrap tests/programs/unit/cache.c tests/programs/unit/store.c -- --all --mock store_put --budget 18s
expect_sympath_cov cache_set
jq -e '[.functions[].function] | index("store_put") | not' "$out/report.json" >/dev/null || fail "the mocked store_put was tested"
expect_text cache '^int __wrap_store_put\(int a0, int a1\) \{' "stand-in __wrap_store_put"
expect_text cache 'will_return\(__wrap_store_put, [1-9]' "test where the store fails"
grep -q '^ *will_return(' "$out/test_store.c" && fail "calls inside store.c must reach the real store_put"
grep -q -- '-Wl,--wrap=store_put' "$out/BUILD.txt" || fail "the build line lacks -Wl,--wrap=store_put"
wrap_flags=(-Wl,--wrap=store_put)
build_and_run cache
build_and_run store
expect_gcov cache_set 100
pass
