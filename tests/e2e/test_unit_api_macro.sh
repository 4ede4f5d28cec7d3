#!/bin/bash
# test_unit_api_macro.sh: sympath unit on a library whose every prototype is spelled through an export macro,
# GAUGE_API(type) name(...) (cJSON's CJSON_PUBLIC style), built with the macro's attribute variant (--define).
# The emitted test includes the library's header instead of copying its declarations; the one function the
# header lacks gets a prototype rebuilt from libclang's types (no macro text). It builds with -Werror, passes
# and covers the functions under gcov.
. "$SRC/tests/e2e/unit_common.sh"
unit_run api_macro tests/unit_libs/apimacro/gauge.c -- --all --define GAUGE_BUILD_SHARED --budget 24s
extra_cflags=(-DGAUGE_BUILD_SHARED)
expect_text gauge '^#include "gauge.h"' "the library's own header"
grep -n 'GAUGE_API' "$out/test_gauge.c" && fail "the export macro's text was copied into the test"
grep -n '^[a-z_ ]*\*\? *gauge_\(level_name\|classify\|peak\)(' "$out/test_gauge.c" && fail "a declaration the header has was copied"
[ "$(grep -c '^int gauge_scaled(int reading, int percent);$' "$out/test_gauge.c")" -eq 1 ] ||
    fail "gauge_scaled's prototype is not rebuilt once from its types"
grep -q 'GAUGE_API' "$out/build/harness.c" && fail "the export macro's text was copied into the harness"
expect_sympath_cov gauge_classify
expect_sympath_cov gauge_peak
expect_sympath_cov gauge_scaled
expect_text gauge 'assert_string_equal\(ret, "high"\);' "a test of gauge_level_name's returned string"
build_and_run gauge
expect_gcov gauge_classify 100
expect_gcov gauge_peak 100
jq -e '[.functions[] | .gcov.branches_total] | all(. != null)' "$out/report.json" >/dev/null || fail "report.json lacks gcov figures"
pass
