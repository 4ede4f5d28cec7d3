#!/bin/bash
# test_layout.sh: the component order of src/ (no include from a lower component up to a higher one) and one interface header per component.
#
# Every folder under src/ is one component. A file of component C may include a header
# of component D only when D's level is not higher than C's, and only D's interface
# header(s) (INTERFACE below): a component's other headers are its own. Same-level
# includes are allowed (instrument includes runtime/rt_abi.h, the pass/runtime contract;
# runtime includes db/db.h). tests/ may include anything. docs/design.md quotes this order.
set -u
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 1

# ---- the order, highest first: the one place it is written ----
declare -A LEVEL=(
    [cli]=5
    [unit]=4 [data]=4 [replay]=4 [parallel]=4
    [explore]=3
    [solver]=2 [instrument]=2 [emit]=2 [db]=2 [runtime]=2 [report]=2
    [expr]=1 [proto]=1 [util]=1
)
# ---- each component's interface: the headers other components may include ----
declare -A INTERFACE=(
    [unit]="unit/unit.h" [data]="data/data.h" [replay]="replay/replay.h" [parallel]="parallel/parallel.h"
    [explore]="explore/explorer.h" [solver]="solver/solver.h" [instrument]="instrument/instrument.h"
    [emit]="emit/emit.h" [db]="db/db.h" [runtime]="runtime/rt_abi.h" [expr]="expr/expr.h"
    [util]="util/util.h" [report]="report/report.h"
    # proto: proto.h, plus trace.h and env.h, which the runtime's bitcode and the replay
    # library include on their own (proto.h explains why)
    [proto]="proto/proto.h proto/trace.h proto/env.h"
)
# ---- known exceptions, each with its reason; remove a line when its arrow is gone ----
# runtime -> data/data.h: the data-mode protocol (plan, log, SQL literals of data_site.c)
#   still lives in data; it moves to proto with the query logs (issue 16, item 2).
EXCEPTIONS="runtime:data/data.h"

fail=0
for dir in src/*/; do
    comp=$(basename "$dir")
    if [ -z "${LEVEL[$comp]:-}" ]; then
        echo "src/$comp: a component without a level: add it to LEVEL in $0 and to docs/design.md"
        fail=1
    fi
done

# "src/a/b/../../c/d.h" -> "c/d.h" (relative to src/), with builtins only: the loop runs once per include
normalize() {
    local IFS=/ part out=()
    for part in $1; do
        case "$part" in
            ""|.) ;;
            ..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
            *) out+=("$part") ;;
        esac
    done
    local joined="${out[*]}"
    REPLY=${joined#src/}
    [ "$REPLY" = "$joined" ] && REPLY="../$joined"   # outside src/
}

while IFS= read -r hit; do
    file=${hit%%:*}
    inc=${hit#*\"}
    inc=${inc%%\"*}
    comp=${file#src/}
    comp=${comp%%/*}
    # resolve as the compiler does: next to the file first, then from src/
    if [ -f "${file%/*}/$inc" ]; then
        normalize "${file%/*}/$inc"
    elif [ -f "src/$inc" ]; then
        normalize "src/$inc"
    else
        continue                                  # a system header or a lib/ copy
    fi
    target=$REPLY
    case "$target" in ../*) continue ;; esac      # include/sympath.h
    tcomp=${target%%/*}
    [ "$tcomp" = "$comp" ] && continue
    case " $EXCEPTIONS " in *" $comp:$target "*) continue ;; esac
    if [ "${LEVEL[$tcomp]:-0}" -gt "${LEVEL[$comp]:-0}" ]; then
        echo "$file: includes $target: $comp (level ${LEVEL[$comp]:-?}) must not depend on $tcomp (level ${LEVEL[$tcomp]})"
        fail=1
    fi
    case " ${INTERFACE[$tcomp]:-} " in
        *" $target "*) ;;
        *) echo "$file: includes $target, a private header of $tcomp (its interface: ${INTERFACE[$tcomp]:-none})"
           fail=1 ;;
    esac
done < <(grep -rE '^\s*#\s*include "' src --include='*.c' --include='*.h')

[ $fail = 0 ] && echo "layout: ok"
exit $fail
