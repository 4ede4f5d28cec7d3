#!/bin/bash
# test_report_unit.sh: a unit suite's printed build/run line writes JUnit XML (read back: one testcase per emitted test, no failure); errors.sarif holds the failed assertion at checked.c:8; OUT/build/runs/F/stats exists; `sympath report` renders the unit output (functions, per-function plots, JUnit line).
. "$SRC/tests/e2e/unit_common.sh"
unit_run report_unit tests/programs/unit/checked.c -- --function scale --budget 5s
line=$(head -1 "$out/BUILD.txt")
echo "$line" | grep -q "CMOCKA_MESSAGE_OUTPUT=xml CMOCKA_XML_FILE=$out/test_checked.junit.xml" || fail "build line without JUnit output: $line"
for round in 1 2; do  # twice: the second run must replace the file, not write to stderr
    (cd "$SRC" && sh -c "$line") >"$out.bin/line.log" 2>&1 || { cat "$out.bin/line.log"; fail "the build line fails (round $round)"; }
    python3 - "$out/test_checked.junit.xml" "$(jq '.functions[0].tests_emitted' "$out/report.json")" \
        "$(jq -r '[.functions[0].tests[].name] | join(",")' "$out/report.json")" <<'PY' || fail "JUnit XML (round $round)"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall(".//testcase")
names = sorted(c.get("name") for c in cases)
if len(cases) != int(sys.argv[2]): sys.exit(f"{len(cases)} testcases, report.json says {sys.argv[2]}")
if names != sorted(sys.argv[3].split(",")): sys.exit(f"names {names} != {sys.argv[3]}")
if root.findall(".//failure") or root.findall(".//error"): sys.exit("a failure in the JUnit XML")
suite = root.find(".//testsuite")
if suite is None or suite.get("failures") != "0": sys.exit("testsuite failures != 0")
print("junit ok:", names)
PY
    grep -q "<testsuites>" "$out.bin/line.log" && fail "XML written to the terminal instead of the file (round $round)"
done
# SARIF: the unit's assertion failure
jq -e '.runs[0].results[] | select(.ruleId == "assertion") | .locations[0].physicalLocation.region.startLine == 8
    and (.locations[0].physicalLocation.artifactLocation.uri | endswith("checked.c"))
    and .properties.unit_function == "scale"' "$out/errors.sarif" >/dev/null || fail "errors.sarif: $(jq -c . "$out/errors.sarif")"
[ -s "$out/build/runs/scale/stats" ] || fail "no stats of the function's exploration"
# the HTML report of a unit output
"$SYMPATH" report "$out" >/dev/null 2>&1 || fail "sympath report on a unit output failed"
h="$out/report/index.html"
grep -q 'id="functions"' "$h" || fail "no functions section"
grep -q 'id="fn-0-covered"' "$h" || fail "no per-function plot"
grep -q 'test_scale_1_aborts' "$h" || fail "the emitted tests are not listed"
grep -q 'CMOCKA_XML_FILE' "$h" || fail "no build/run line"
grep -q 'checked.c' "$h" && grep -q 'assert(factor != 0)' "$h" || fail "the unit's source is not shown"
grep -q 'harness.c' "$h" && fail "the harness is shown as a source"
pass
