#!/bin/sh
# scale.sh: parallel exploration (issue 15). For each of three workloads (time in executions, time in the
# solver, a database application) it runs `sympath run -j 1` for BUDGET, takes its final branch coverage C1 and
# the time it reached it (from OUT/stats), then runs `-j N` for each N in NS with the same budget and prints per
# (program, N): the time to reach C1, its ratio to -j 1's time, executions/s, solver share, duplicate paths,
# idle share, jobs moved and final coverage. It ends with a speed-up model computed from the N=2 figures.
# Usage: sh bench/scale.sh [BUDGET]   (from the project root, after `make`; env SYMPATH, WORK, NS="1 2 4 8",
# PROGS="name:prog.c:schema ...")
set -u
BUDGET=${1:-60s}
SYMPATH=${SYMPATH:-build/bin/sympath}
WORK=${WORK:-build/bench}/scale
NS=${NS:-1 2 4 8}
mkdir -p "$WORK"
# name:program:schema (schema empty: no --db)
PROGS=${PROGS:-exec:bench/programs/scale_exec.c: solver:bench/programs/scale_solver.c: db:bench/programs/scale_db.c:bench/programs/scale_db.sql}
ROWS="$WORK/rows.tsv" # the measured figures, one line per (program, N), read by the model below
: >"$ROWS"

# run NAME TAG N PROG SCHEMA: one exploration with -j N into $WORK/NAME-jTAG; fails when it did not end
# normally or wrote no report
run() {
    out="$WORK/$1-j$2"
    rm -rf "$out"
    n=$3
    if [ -n "$5" ]; then set -- "$4" --db "$5"; else set -- "$4"; fi
    "$SYMPATH" run "$@" -j "$n" -o "$out" --budget "$BUDGET" --no-progress >"$out.log" 2>&1 &&
        [ -s "$out/report.json" ] && [ -s "$out/stats" ] && jq -e .coverage "$out/report.json" >/dev/null 2>&1
}
# t_reach STATS C: first elapsed_s of OUT/stats whose covered is >= C ("-" if never)
t_reach() {
    awk -F'\t' -v c="$2" '!/^#/ && $3 + 0 >= c + 0 { printf "%.1f", $1; found = 1; exit } END { if (!found) print "-" }' "$1"
}

echo "parallel exploration, budget $BUDGET per run, NS=\"$NS\"; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(times are noisy on a shared machine: compare rows of this run only, never with another run of the script)"
fmt='%-7s %3s %8s %6s %8s %7s %6s %6s %6s %9s\n'
printf "$fmt" program N t_C1_s ratio execs/s solver% dup idle% moved coverage
for entry in $PROGS; do
    name=${entry%%:*}; rest=${entry#*:}; prog=${rest%%:*}; schema=${rest#*:}
    # the reference: -j 1
    c1=""; t1=""
    if run "$name" ref 1 "$prog" "$schema"; then
        c1=$(jq .coverage.branches_covered "$WORK/$name-jref/report.json")
        t1=$(t_reach "$WORK/$name-jref/stats" "$c1")
        printf "$fmt" "$name" "ref" "$t1" 1 \
            "$(jq '.executions.per_second|round' "$WORK/$name-jref/report.json")" \
            "$(jq '.time.solver_share*1000|round/10' "$WORK/$name-jref/report.json")" - - - \
            "$(jq -r '"\(.coverage.branches_covered)/\(.coverage.branches_total)"' "$WORK/$name-jref/report.json")"
    else
        printf '%-7s %3s failed (see %s)\n' "$name" ref "$WORK/$name-jref.log"
    fi
    for n in $NS; do
        if ! run "$name" "$n" "$n" "$prog" "$schema"; then
            printf '%-7s %3s failed (see %s)\n' "$name" "$n" "$WORK/$name-j$n.log"
            continue
        fi
        r="$WORK/$name-j$n/report.json"
        t="-"; ratio="-"
        if [ -n "$c1" ]; then
            t=$(t_reach "$WORK/$name-j$n/stats" "$c1")
            ratio=$(awk -v a="$t" -v b="$t1" 'BEGIN { if (a == "-" || b == "-" || b + 0 <= 0) print "-"; else printf "%.2f", a / b }')
        fi
        # one TSV line: name N t ratio execs/s solver% dup idle% moved coverage execs wall job_seconds
        # solver share: with .parallel, the workers' solver seconds over workers x wall; without it (the old -j:
        # N executors, one explorer, one solver), the report's solver_share (solver seconds over wall).
        jq -r --arg name "$name" --arg n "$n" --arg t "$t" --arg ratio "$ratio" '
            def r1: (. * 10 | round) / 10;
            .time.total_seconds as $wall |
            (.parallel // null) as $p |
            [$name, $n, $t, $ratio,
             (.executions.per_second | round),
             (if $p then (([$p.per_worker[]?.solver_seconds] | add // 0) / ($p.workers * $wall) * 100 | r1)
              else (.time.solver_share * 100 | r1) end),
             (if .paths then "\(.paths.duplicates_aimed // "?")/\(.paths.duplicates)" else "-" end),
             (if $p then ($p.idle_seconds / ($p.workers * $wall) * 100 | r1) else "-" end),
             (if $p then $p.jobs_moved else "-" end),
             "\(.coverage.branches_covered)/\(.coverage.branches_total)",
             .executions.total, $wall,
             (if $p then $p.job_seconds else "-" end),
             (if $p then ($p.coordinator_cpu_seconds // "-") else "-" end)] | @tsv' "$r" >"$WORK/row" 2>/dev/null ||
            { printf '%-7s %3s failed (unreadable %s)\n' "$name" "$n" "$r"; continue; }
        cat "$WORK/row" >>"$ROWS"
        awk -F'\t' -v fmt="$fmt" '{ printf fmt, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$WORK/row"
    done
done
echo "(ref: the -j 1 run that sets C1, its final coverage; t_C1_s: first second of OUT/stats with coverage >= C1, \"-\""
echo " if never; ratio: t_C1_s over ref's (bar: <= 0.6 at N=2); solver%: solver seconds over workers x wall;"
echo " dup: A/B, B paths run more than once, A of them by two runs that did not diverge (two workers on one path;"
echo " bar: 0 at N=8; a run after a divergence may repeat a path, -j 1 too); idle%: idle seconds over workers x wall;"
echo " moved: jobs moved; idle% and moved need report.json's \"parallel\" object: \"-\" without it)"

# The speed-up model. A model, not a measurement: from the N=2 row of each program,
#   i  = idle share at N=2 (idle seconds over 2 x wall),
#   o  = job transfer overhead: job_seconds (time spent preparing the jobs moved) over the busy worker time
#        2 x wall x (1 - i); the same as (job_seconds / jobs moved) x jobs moved over busy time,
#   r  = per-run time: 2 x wall / executions (worker seconds per run; o / (jobs per run) gives a job's cost in runs),
# and, assuming each of a worker's N-1 peers independently leaves it idle a share i of the time (they share the
# same frontier and wait for the coordinator's jobs; about i x (N-1) while that is small) and jobs moved grow in
# proportion to N (so o stays the same),
#   i(N) = 1 - (1 - i)^(N-1),   S(N) = N x (1 - i(N)) / (1 + o) = N x (1 - i)^(N-1) / (1 + o)
# on a machine with N cores (S peaks near N = 1 / -ln(1 - i)), and at most N_c = 2 x wall / coordinator CPU
# seconds: the coordinator is one process whose work (results, figures, coverage, steals) grows with the
# workers; measured at N=2, it saturates one core at N_c workers (S(N) = min(above, N_c)). It ignores what the
# N=2 run cannot show: job granularity (a short prefix ends soon and its worker asks again), the exchange of
# coverage (workers steering by stale coverage run useless paths), and the machine's memory bandwidth.
echo
echo "speed-up model (a model, not a measurement; from the N=2 figures, see bench/README.md):"
awk -F'\t' '
    $2 == 2 {
        seen = 1
        if ($8 == "-" || $13 == "-" || $11 + 0 <= 0) {
            printf "  %-7s no \"parallel\" figures in report.json (the old -j): nothing to model\n", $1
            next
        }
        i = $8 / 100; wall = $12; execs = $11; js = $13; moved = $9
        busy = 2 * wall * (1 - i)
        o = busy > 0 ? js / busy : 0
        r = 2 * wall / execs
        cpu = $14 == "-" ? 0 : $14 + 0
        nc = cpu > 0 ? 2 * wall / cpu : 1e9
        printf "  %-7s i=%.3f  job cost=%s ms x %d jobs  run=%.2f ms  o=%.4f  coordinator %.2f s CPU (N_c=%s)  measured t_C1 ratio at N=2: %s\n",
            $1, i, (moved > 0 ? sprintf("%.2f", js / moved * 1000) : "-"), moved, r * 1000, o, cpu,
            (cpu > 0 ? sprintf("%.0f", nc) : "-"), $4
        printf "  %-7s", ""
        for (k = 0; k < 4; k++) {
            N = 4 * 2 ^ k
            iN = 1 - (1 - i) ^ (N - 1)
            sN = N * (1 - iN) / (1 + o)
            printf "  S(%d)=%.1f", N, (sN < nc ? sN : nc)
        }
        printf "\n"
    }
    END { if (!seen) print "  no N=2 run (NS does not hold 2)" }' "$ROWS"
echo "  i(N) = 1-(1-i)^(N-1), S(N) = min(N*(1-i(N))/(1+o), N_c), N_c = 2*wall / coordinator CPU seconds;"
echo "  not modelled: job granularity, coverage exchange, memory bandwidth"
