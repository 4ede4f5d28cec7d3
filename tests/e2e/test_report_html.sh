#!/bin/bash
# test_report_html.sh: `sympath report` on a run with known limits (tests/report/limits.c): index.html parsed with python3's html.parser: sections, SVG polylines with one point per OUT/stats line, the annotated source (UNSAT, loop bound, no reason), the error with its reproducer link, the unmodelled call; -o elsewhere; missing files degrade.
set -u
name=report_html
out="$WORK/report_html"
rm -rf "$out" "$out.elsewhere"
mkdir -p "$WORK"
fail() { echo "FAIL [$name]: $*"; exit 1; }
cd "$SRC" || exit 1
"$SYMPATH" run tests/report/limits.c -o "$out" --budget 20s --loop-bound 3 --no-progress >"$WORK/report_html.log" 2>&1 ||
    { cat "$WORK/report_html.log"; fail "sympath run exited with $?"; }
"$SYMPATH" report "$out" >"$WORK/report_html.report.log" 2>&1 || { cat "$WORK/report_html.report.log"; fail "sympath report exited with $?"; }
grep -q "$out/report/index.html" "$WORK/report_html.report.log" || fail "the path of index.html is not printed"
[ "$("$SYMPATH" report 2>/dev/null; echo $?)" = 2 ] || fail "no usage error without OUT"
[ "$("$SYMPATH" report "$WORK/no-such-dir" 2>/dev/null; echo $?)" = 1 ] || fail "no error for a missing OUT"

# check_html FILE STATS MODE: structure and content of one index.html (MODE full: everything present)
check_html() {
python3 - "$1" "$2" "$3" "$out" <<'PY'
import html.parser, sys, os
path, stats, mode, out = sys.argv[1:5]
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.ids = {}; s.polylines = {}; s.svg = None; s.scripts = 0
        s.links = []; s.text = {}; s.cur_tr = None; s.external = 0
    def handle_starttag(s, t, a):
        a = dict(a)
        if t not in ("meta", "br", "hr", "img", "rect", "polyline", "link"): s.stack.append(t)
        if "id" in a: s.ids[a["id"]] = t
        if t == "svg": s.svg = a.get("id")
        if t == "polyline": s.polylines[s.svg] = len(a["points"].split()) if a["points"].strip() else 0
        if t == "script": s.scripts += 1
        if t == "a" and "href" in a and not a["href"].startswith("#"): s.links.append(a["href"])
        for k in ("src", "href"):
            if a.get(k, "").startswith(("http:", "https:", "//")): s.external += 1
        if t == "tr" and "id" in a: s.cur_tr = a["id"]; s.text[s.cur_tr] = ""
    def handle_endtag(s, t):
        if t in ("meta", "br", "hr", "img", "rect", "polyline", "link"): return
        if not s.stack or s.stack[-1] != t: sys.exit(f"bad nesting: </{t}> closes {s.stack[-1:]}")
        s.stack.pop()
        if t == "tr": s.cur_tr = None
    def handle_data(s, d):
        s.all = getattr(s, "all", "") + d
        if s.cur_tr: s.text[s.cur_tr] += d
p = P(); p.feed(open(path).read()); p.close()
if p.stack: sys.exit(f"unclosed: {p.stack}")
if p.scripts or p.external: sys.exit("script or external resource in the report")
for sec in ("summary", "progress", "errors", "limits", "sources"):
    if sec not in p.ids: sys.exit(f"no section {sec}")
rows = [l for l in open(stats)] if os.path.exists(stats) else []
n = len([l for l in rows if not l.startswith("#")])
if mode == "full":
    if n < 1: sys.exit("no stats lines")
    for s in ("covered", "execs", "tests", "solver"):
        if p.polylines.get("stats-" + s) != n: sys.exit(f"plot {s}: {p.polylines.get('stats-' + s)} points, stats has {n} lines")
    t10, t14, t18, t21 = (p.text.get(f"L0-{k}", "") for k in (10, 14, 18, 21))
    if "UNSAT" not in t10 or "not covered" not in t10: sys.exit(f"line 10 (x < 5): {t10!r}")
    if "covered" not in t14: sys.exit(f"line 14 (loop): {t14!r}")
    if "not covered" not in t18 or "no recorded reason" not in t18: sys.exit(f"line 18 (ffs): {t18!r}")
    if "reach_error" not in t21: sys.exit(f"line 21: no error mark: {t21!r}")
    if "ffs" not in p.all: sys.exit("the unmodelled call ffs is not listed")
    reps = [l for l in p.links if "errors/error-001.xml" in l]
    if not reps: sys.exit("no link to the reproducer")
    target = os.path.normpath(os.path.join(os.path.dirname(path), reps[0]))
    if not os.path.exists(target): sys.exit(f"reproducer link {reps[0]} -> {target} does not exist")
else:
    if p.polylines: sys.exit("plots without stats")
    if "OUT/stats is missing" not in p.all: sys.exit("no note about the missing stats")
print(f"html ok: {len(p.ids)} ids, {n} stats lines, plots {p.polylines}")
PY
}
check_html "$out/report/index.html" "$out/stats" full || fail "index.html"
grep -q 'stopped' "$out/report/index.html" || fail "no stop reason"
# -o elsewhere: links to OUT's files still resolve
"$SYMPATH" report "$out" -o "$out.elsewhere" >/dev/null 2>&1 || fail "report -o failed"
check_html "$out.elsewhere/index.html" "$out/stats" full || fail "index.html written elsewhere"
# missing stats and reasons: still a report, with notes
rm -f "$out/stats" "$out/build/reasons.tsv"
"$SYMPATH" report "$out" >/dev/null 2>&1 || fail "report without stats failed"
check_html "$out/report/index.html" "$out/stats" degraded || fail "index.html without stats"
echo "PASS [$name]"
