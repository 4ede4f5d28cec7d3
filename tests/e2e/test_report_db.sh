#!/bin/bash
# test_report_db.sh: reports of `sympath run --db` (an abort on a synthesized row: its fixture in errors.sarif and the HTML) and of `sympath data` (OUT/stats, errors.sarif without results, the queries and complement nodes in the HTML); the HTML checked with html.parser and, when chromium is installed, rendered headless.
set -u
name=report_db
W="$WORK/report_db"
rm -rf "$W"
mkdir -p "$W"
fail() { echo "FAIL [$name]: $*"; exit 1; }
cd "$SRC" || exit 1
wellformed() {  # FILE: every element closed in order, no script
python3 - "$1" <<'PY'
import html.parser, sys
VOID = {"meta", "br", "hr", "img", "rect", "polyline", "link"}
class P(html.parser.HTMLParser):
    stack = []
    def handle_starttag(s, t, a):
        if t == "script": sys.exit("script in the report")
        if t not in VOID: s.stack.append(t)
    def handle_endtag(s, t):
        if t in VOID: return
        if not s.stack or s.stack.pop() != t: sys.exit(f"bad nesting at </{t}>")
p = P(); p.feed(open(sys.argv[1]).read())
if p.stack: sys.exit(f"unclosed {p.stack}")
PY
}

# --- run --db: an abort reached with a synthesized row
out="$W/db"
"$SYMPATH" run tests/report/db_age.c --db tests/db/shop.sql -o "$out" --budget 15s --db-rows 2 --no-db-minimize --no-progress >"$W/db.log" 2>&1 ||
    { cat "$W/db.log"; fail "run --db exited with $?"; }
jq -e '.runs[0].results[0] | .ruleId == "abort" and .locations[0].physicalLocation.region.startLine == 14
    and ([.relatedLocations[].physicalLocation.artifactLocation.uri] | index("errors/error-001.sql") != null)' "$out/errors.sarif" \
    >/dev/null || fail "errors.sarif: $(jq -c '.runs[0].results' "$out/errors.sarif")"
"$SYMPATH" report "$out" >/dev/null 2>&1 || fail "report of a --db output failed"
h="$out/report/index.html"
wellformed "$h" || fail "--db index.html malformed"
grep -q 'sympath run --db' "$h" || fail "the command is not named"
grep -q 'href="../errors/error-001.sql"' "$h" || fail "no link to the error's fixture"
grep -q 'rows_synthesized' "$h" || fail "no database figures"
grep -q 'id="stats-covered"' "$h" || fail "no coverage plot"

# --- data: a small table
sh tests/programs/data/make_db.sh rare 2000 "$W/shop.db" || fail "make_db.sh failed"
out="$W/data"
"$SYMPATH" data tests/programs/data/rare.c --db "$W/shop.db" -o "$out" --budget 15s --no-progress >"$W/data.log" 2>&1 ||
    { cat "$W/data.log"; fail "sympath data exited with $?"; }
[ "$(grep -vc '^#' "$out/stats")" -ge 1 ] || fail "data: no stats lines"
[ "$(tail -1 "$out/stats" | cut -f2)" -eq "$(jq .data.runs "$out/report.json")" ] || fail "data: last stats line's runs != report.json"
[ "$(tail -1 "$out/stats" | cut -f8)" -eq "$(jq '.data.queries | length' "$out/report.json")" ] || fail "data: queries column != report.json"
jq -e '.version == "2.1.0" and (.runs[0].results | length) == 0' "$out/errors.sarif" >/dev/null || fail "data: errors.sarif"
"$SYMPATH" report "$out" >/dev/null 2>&1 || fail "report of a data output failed"
h="$out/report/index.html"
wellformed "$h" || fail "data index.html malformed"
grep -q 'id="queries"' "$h" || fail "data: no queries section"
grep -q 'SELECT id, amount, status, country FROM orders' "$h" || fail "data: the program's query is not shown"
[ "$(grep -c '<tr><td class="num">' "$h")" -ge "$(jq '.data.queries | length' "$out/report.json")" ] || fail "data: not every query listed"
if [ "$(jq '.data.complement_left | length' "$out/report.json")" -gt 0 ]; then
    grep -q 'direction not reached' "$h" || fail "data: complement nodes left are not shown"
fi
# rendered by a browser when one is installed (scripts/install-deps.sh installs chromium)
if command -v chromium >/dev/null; then
    timeout 60 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$h" >"$W/dom.html" 2>/dev/null ||
        fail "chromium could not render the report"
    [ "$(grep -o '<polyline' "$W/dom.html" | wc -l)" -eq 4 ] || fail "chromium's DOM has not the 4 plots"
    grep -q 'id="sources"' "$W/dom.html" || fail "chromium's DOM has no sources section"
    echo "chromium rendered the data report"
fi
echo "PASS [$name]"
