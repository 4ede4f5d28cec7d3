#!/bin/bash
# unit.sh: `sympath unit` on the programs of bench/unit/ (or on given functions of any library file); prints per function the
# branch coverage sympath reached, the gcov branch coverage of the emitted tests on the function and on the whole file, the
# mutation score of the emitted suite on the function (bench/mutate.py), tests emitted, tests the sanitizer check dropped
# and moved to test_<file>_bugs.c, exploration time, whether the emitted test file compiled with -Wall -Wextra -Werror and
# passed; then the sanitizer check's reasons, and a mean line.
# Usage: bash bench/unit.sh [BUDGET]                         `--all` on each file of bench/unit/
#        bash bench/unit.sh BUDGET FILE FUNCTION...          one `sympath unit FILE --function F` per function
# (from the project root, after `make`). Env: SYMPATH_ARGS (extra options, e.g. '--define JSMN_STATIC'),
# MUT_CAP (mutants per function, default 40), MUT_TIMEOUT (seconds per mutant run, default 2), WORK, REUSE=1 (keep the
# tests of an earlier run in WORK and measure them again, without running sympath).
set -u
BUDGET=${1:-20s}
[ $# -gt 0 ] && shift
SYMPATH=${SYMPATH:-build/bin/sympath}
WORK=${WORK:-build/bench-unit}
MUT_CAP=${MUT_CAP:-40}
MUT_TIMEOUT=${MUT_TIMEOUT:-2}
ROOT=$(pwd)
mkdir -p "$WORK"
SUM=$(mktemp)
# one job per line: source, then the functions ('--all' for every function of the file)
JOBS=()
if [ $# -ge 2 ]; then
    lib=$1
    shift
    for f in "$@"; do JOBS+=("$lib $f"); done
else
    for src in bench/unit/*.c; do JOBS+=("$src --all"); done
fi
printf '%-10s %-22s %9s %9s %9s %16s %6s %8s %5s %7s %s\n' file function sympath gcov file-gcov mutation tests san-drop bugs time compiled+passed
for job in "${JOBS[@]}"; do
    src=${job% *}
    fnsel=${job##* }
    stem=$(basename "$src")
    stem=${stem%.*}
    if [ "$fnsel" = --all ]; then
        out="$WORK/$stem"
        sel=(--all)
    else
        out="$WORK/${stem}_$fnsel"
        sel=(--function "$fnsel")
    fi
    if [ "${REUSE:-0}" = 1 ] && [ -f "$out/report.json" ]; then
        rm -rf "$out.bin.old" && mv "$out.bin" "$out.bin.old" 2>/dev/null
        mkdir -p "$out.bin"
        cp "$out.bin.old/sympath.log" "$out.bin/" 2>/dev/null
        rm -rf "$out.bin.old"
    else
        rm -rf "$out" "$out.bin"
        mkdir -p "$out.bin"
    fi
    # shellcheck disable=SC2086
    if [ ! -f "$out/report.json" ] && ! "$SYMPATH" unit "$src" "${sel[@]}" ${SYMPATH_ARGS:-} -o "$out" --budget "$BUDGET" --no-progress \
        >"$out.bin/sympath.log" 2>&1 || [ ! -f "$out/report.json" ]; then
        printf '%-10s %-22s sympath unit failed (see %s)\n' "$stem" "$fnsel" "$out.bin/sympath.log"
        continue
    fi
    build=$(jq -r '[.files[] | select((.test_file // "") | endswith("_bugs.c") | not)][0].build // ""' "$out/report.json")
    build=${build%% && *}
    ok=no
    if [ -n "$build" ]; then
        # the emitted test file alone with -Wall -Wextra -Werror (the library's own warnings are not the
        # emitted file's), then the emitted command, the executable in $out.bin
        wflags=() tc=
        for w in $build; do
            case "$w" in
            -I* | -D* | -U* | -std=*) wflags+=("$w") ;;
            *.c) [ -z "$tc" ] && tc=$w ;;
            esac
        done
        wcmd=$(printf '%s' "$build" | sed -e 's/^cc /cc -O0 /' -e "s# -o [^ ]*# -o $out.bin/t#")
        if (cc -Wall -Wextra -Werror -O0 "${wflags[@]}" -c "$tc" -o /dev/null && eval "$wcmd" && "$out.bin/t") \
            >"$out.bin/build.log" 2>&1; then ok=yes; fi
        # coverage build: every .c of the command compiled alone with --coverage into $out.bin, then gcov -b on each
        flags=() cfiles=() libs=()
        skip=0
        for w in $build; do
            if [ $skip = 1 ]; then skip=0; continue; fi
            case "$w" in
            cc) ;;
            -o) skip=1 ;;
            -l* | -Wl,*) libs+=("$w") ;;
            -*) flags+=("$w") ;;
            *.c) cfiles+=("$w") ;;
            esac
        done
        objs=()
        for c in "${cfiles[@]}"; do
            o="$out.bin/$(basename "$c" .c).o"
            case "$c" in /*) ac=$c ;; *) ac=$ROOT/$c ;; esac
            cc -c -O0 -w --coverage "${flags[@]}" "$ac" -o "$o" >>"$out.bin/cov.log" 2>&1 && objs+=("$o")
        done
        if cc --coverage "${objs[@]}" "${libs[@]}" -o "$out.bin/tc" >>"$out.bin/cov.log" 2>&1; then
            "$out.bin/tc" >>"$out.bin/cov.log" 2>&1
            for c in "${cfiles[@]}"; do
                case "$c" in /*) ac=$c ;; *) ac=$ROOT/$c ;; esac
                (cd "$out.bin" && gcov -b -o . "$ac") >>"$out.bin/cov.log" 2>&1
            done
        fi
    fi
    gfile="$out.bin/$(basename "$src").gcov"
    # a wrapper (no branch of its own, json_parse calling json_parse_ex) is measured with the unit's functions its
    # tests reached (report.json's gcov.callees, sympath's coverage.with_callees), marked '*': its sympath and gcov
    # figures are those of the wrapper and its callees together, its mutants are taken in them too (mutate.py --callees)
    jq -r '.functions[] | [.function, "\(.coverage.branches_covered)/\(.coverage.branches_total)", .tests_emitted,
        (.sanitizer.dropped // "-"), (.sanitizer.bugs // "-"), (.seconds*10|round/10),
        (if .coverage.branches_total == 0 and (.coverage.with_callees.functions // 0) > 0
         then "\(.coverage.with_callees.branches_covered)/\(.coverage.with_callees.branches_total)*" else "" end),
        ([(.gcov.callees // [])[].function] | join(","))] | @tsv' "$out/report.json" |
        while IFS=$'\t' read -r fn cov tests sdrop bugs secs wcov callees; do
            [ "$fnsel" != --all ] && [ "$fn" != "$fnsel" ] && continue
            own=$(awk -v f="$fn" '/^function / { on = ($2 == f) } on && /^branch / { n++ } END { print n + 0 }' \
                "$gfile" 2>/dev/null)
            fset=$fn mutc=()
            if [ -n "$wcov" ] && [ "${own:-0}" = 0 ] && [ -n "$callees" ]; then
                cov=$wcov fset="$fn,$callees" mutc=(--callees "$callees")
            else
                wcov=
            fi
            g=$(awk -v fs="$fset" 'BEGIN { split(fs, a, ","); for (i in a) want[a[i]] = 1 }
            /^function / { on = ($2 in want) }
            on && /^branch / { n++; if ($0 !~ /taken 0%/ && $0 !~ /never executed/) t++ }
            END { if (n) printf "%d/%d", t, n; else printf "-" }' "$gfile" 2>/dev/null)
            [ -n "$wcov" ] && [ "$g" != - ] && g="$g*"
            gf=$(awk '/^branch / { n++; if ($0 !~ /taken 0%/ && $0 !~ /never executed/) t++ }
            END { if (n) printf "%d/%d", t, n; else printf "-" }' "$gfile" 2>/dev/null)
            [ -z "$g" ] && g=- && gf=-
            mut=-
            if [ -n "$build" ]; then
                read -r k c _ < <(python3 bench/mutate.py "$src" "$fn" ${mutc[@]+"${mutc[@]}"} --build "$build" --cap "$MUT_CAP" \
                    --timeout "$MUT_TIMEOUT" --log "$out.bin/mutants_$fn.log" 2>>"$out.bin/mutate.err" | tail -1)
                if [ "${c:-0}" -gt 0 ]; then mut=$(awk -v k="$k" -v c="$c" 'BEGIN { printf "%d/%d (%.0f%%)", k, c, 100*k/c }'); fi
            fi
            printf '%-10s %-22s %9s %9s %9s %16s %6s %8s %5s %6ss %s\n' "$stem" "$fn" "$cov" "$g" "$gf" "$mut" "$tests" \
                "$sdrop" "$bugs" "$secs" "$ok"
            printf '%s\t%s\t%s\t%s\n' "$cov" "$g" "${k:-0}" "${c:-0}" >>"$SUM"
            k=0 c=0
        done
    jq -r '.functions[] | .function as $f | ((.dropped // [])[] | select(test("sanitizer")) | "    \($f): dropped \(.)"),
        ((.sanitizer.bug_tests // [])[] | "    \($f): bug \(.)")' "$out/report.json"
done
# mean of the per-function ratios (functions with no branch / no compiled mutant are left out of that mean)
awk -F'\t' 'function r(s,  a) { sub(/\*$/, "", s); if (split(s, a, "/") == 2 && a[2] > 0) return a[1] / a[2]; return -1 }
    { n++; x = r($1); if (x >= 0) { sa += x; ns++ } x = r($2); if (x >= 0) { ga += x; ng++ }
      if ($4 > 0) { ma += $3 / $4; nm++ } }
    END { printf "mean over %d functions: sympath %.1f%% (%d), gcov %.1f%% (%d), mutation score %.1f%% (%d)\n",
          n, ns ? 100*sa/ns : 0, ns, ng ? 100*ga/ng : 0, ng, nm ? 100*ma/nm : 0, nm }' "$SUM"
rm -f "$SUM"
