#!/bin/bash
# test_unit_outparse.sh: producers that fill the caller's struct as their last argument, whatever their name
# (issue 13 item 2; UP_OUT in src/unit/producers_int.h). On segs.c: `bool seg_first(const char *path, struct seg
# *s)` makes the cursor seg_next and seg_kind take (its begin/end inside its text: field by field they were blocks
# of their own, a state seg_first never makes), moved on by the modifier seg_next; `int version_parse(const char
# *text, struct version *v)` makes version_stable's input, released with version_free; a parse that fails (false,
# -1) builds no input (its runs are dropped as ending before the call). Checked: the emitted calls, no field-by-field
# cursor, no sanitizer drop or _bugs.c, the suite passes natively with gcov coverage.
# (cwalk's cwk_path_get_next_segment, semver's semver_render: gcov 1/8 -> 7/8 and field by field -> semver_parse)
. "$SRC/tests/e2e/unit_common.sh"
name=outparse
unit_run outparse tests/unit_libs/outparse/segs.c -- --function seg_next --function seg_kind --function version_stable \
    --budget 60s --max-execs 300
t="$out/test_segs.c"
expect_text segs '^    struct seg s_obj = \{0\};' "a zeroed cursor"
expect_text segs '^    seg_first\(s_path, &s_obj\);' "the cursor filled by seg_first, its path a local"
expect_text segs '^    seg_next\(\(struct seg \*\)s\);' "the cursor moved on by seg_next before seg_kind"
expect_text segs '^    version_parse\("[0-9][^"]*", &v_obj\);' "a version parsed from a text"
expect_text segs '^    version_free\(&v_obj\);' "the parsed version released with version_free"
grep -Eq '\.begin = |\.tag = ' "$t" && fail "a struct built field by field: $(grep -Em1 '\.begin = |\.tag = ' "$t")"
[ -f "$out/test_segs_bugs.c" ] && fail "false bugs in test_segs_bugs.c"
expect_no_san_drops
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "the sanitizer check did not run, or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
build_and_run segs
expect_gcov seg_next 100
expect_gcov seg_kind 85
expect_gcov version_stable 100
pass
