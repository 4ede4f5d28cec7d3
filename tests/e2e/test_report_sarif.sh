#!/bin/bash
# test_report_sarif.sh: errors.sarif after `sympath run` on the demo (a crash and a reach_error): SARIF 2.1.0 fields read back with jq, the file valid against tests/e2e/sarif-min.schema.json (python3-jsonschema); OUT/stats lines agree with report.json.
set -u
name=report_sarif
out="$WORK/report_sarif"
rm -rf "$out"
mkdir -p "$WORK"
fail() { echo "FAIL [$name]: $*"; exit 1; }
cd "$SRC" || exit 1
"$SYMPATH" run examples/demo.c -o "$out" --budget 20s --no-progress >"$WORK/report_sarif.log" 2>&1 ||
    { cat "$WORK/report_sarif.log"; fail "sympath run exited with $?"; }
s="$out/errors.sarif"
[ -f "$s" ] || fail "no errors.sarif"
jq -e '.version == "2.1.0" and (."$schema" | test("sarif-2.1.0")) and .runs[0].tool.driver.name == "sympath"' "$s" >/dev/null ||
    fail "version, \$schema or driver name wrong"
# one rule per kind, one result per error of report.json, same kinds and lines
[ "$(jq '.runs[0].results | length' "$s")" -eq "$(jq '.errors | length' "$out/report.json")" ] || fail "not one result per error"
jq -e '[.runs[0].tool.driver.rules[].id] | sort == ["crash", "reach_error"]' "$s" >/dev/null || fail "rules: $(jq -c '[.runs[0].tool.driver.rules[].id]' "$s")"
jq -e '.runs[0].tool.driver.rules | all(.shortDescription.text | length > 0)' "$s" >/dev/null || fail "a rule without shortDescription"
r=$(jq -c '.runs[0].results[] | select(.ruleId == "reach_error")' "$s")
[ -n "$r" ] || fail "no reach_error result"
echo "$r" | jq -e '.level == "error" and .locations[0].physicalLocation.artifactLocation.uri == "examples/demo.c"
    and .locations[0].physicalLocation.region.startLine == 33' >/dev/null || fail "reach_error result: $r"
echo "$r" | jq -e '.message.text | test("reach_error")' >/dev/null || fail "reach_error message: $r"
rep=$(echo "$r" | jq -r '.relatedLocations[0].physicalLocation.artifactLocation.uri')
[ -f "$out/$rep" ] || fail "the related reproducer $rep does not exist"
jq -e '.runs[0].results[] | select(.ruleId == "crash") | .locations[0].physicalLocation.region.startLine == 38' "$s" >/dev/null ||
    fail "crash result not at demo.c:38"
jq -e '.runs[0].results | all(.ruleIndex as $i | .ruleId) ' "$s" >/dev/null || fail "results"
jq -e '.runs[0] as $r | $r.results | all(. as $x | $r.tool.driver.rules[$x.ruleIndex].id == $x.ruleId)' "$s" >/dev/null ||
    fail "ruleIndex does not point at the rule of ruleId"
python3 - "$SRC/tests/e2e/sarif-min.schema.json" "$s" <<'PY' || fail "errors.sarif does not validate against sarif-min.schema.json"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.validate(json.load(open(sys.argv[2])), schema)
# the schema itself must catch a broken file
bad = json.load(open(sys.argv[2])); del bad["runs"][0]["results"][0]["ruleId"]
try:
    jsonschema.validate(bad, schema); sys.exit("the schema accepts a result without ruleId")
except jsonschema.ValidationError:
    pass
PY
# OUT/stats: a header, then lines whose last one is the final state of report.json
st="$out/stats"
[ -f "$st" ] || fail "no stats"
head -1 "$st" | grep -q '^# elapsed_s	execs	covered	total	tests	errors	solver_s	queries	solver_timeouts	divergences$' ||
    fail "stats header: $(head -1 "$st")"
[ "$(grep -vc '^#' "$st")" -ge 1 ] || fail "no stats line"
awk -F'\t' '!/^#/ && NF != 10 { exit 1 }' "$st" || fail "a stats line without 10 columns"
awk -F'\t' '!/^#/ { if ($1 + 0 < last) exit 1; last = $1 + 0 }' "$st" || fail "elapsed not increasing"
last=$(tail -1 "$st")
[ "$(echo "$last" | cut -f2)" -eq "$(jq '.executions.total' "$out/report.json")" ] || fail "last execs != report.json: $last"
[ "$(echo "$last" | cut -f3)" -eq "$(jq '.coverage.branches_covered' "$out/report.json")" ] || fail "last covered != report.json"
[ "$(echo "$last" | cut -f5)" -eq "$(jq '.tests' "$out/report.json")" ] || fail "last tests != report.json"
[ "$(echo "$last" | cut -f6)" -eq 2 ] || fail "last errors != 2"
[ "$(echo "$last" | cut -f8)" -eq "$(jq '.solver.queries' "$out/report.json")" ] || fail "last queries != report.json"
echo "PASS [$name]"
