#!/bin/bash
# test_report_status.sh: the live status screen on a terminal (tmux, 120x40): its fields while exploring; after one Ctrl-C the run ends normally, the alternate screen is left, the cursor shown and the summary printed; after two Ctrl-C (a run in flight) the process dies and the terminal is restored all the same; a 58x12 terminal gets the one-line progress; --no-progress shows nothing. Skipped (77) without tmux.
set -u
name=report_status
command -v tmux >/dev/null || { echo "SKIP [$name]: no tmux"; exit 77; }
W="$WORK/report_status"
rm -rf "$W"
mkdir -p "$W"
sock="sympath_status_$$"
T() { tmux -L "$sock" "$@"; }
fail() { echo "FAIL [$name]: $*"; T capture-pane -p -t s 2>/dev/null | sed 's/^/| /'; T kill-server 2>/dev/null; exit 1; }
state() { T display -p -t s '#{alternate_on} #{cursor_flag}'; }
# wait_for REGEX SECONDS: until the pane shows REGEX
wait_for() {
    local i
    for i in $(seq 1 $(($2 * 5))); do
        T capture-pane -p -t s | grep -Eq "$1" && return 0
        sleep 0.2
    done
    return 1
}
start() {  # a fresh interactive shell in a 120x40 terminal (or ${SIZE}), then the command typed in
    local w=${SIZE%x*} h=${SIZE#*x}
    local i
    T kill-server 2>/dev/null
    for i in 1 2 3 4 5; do  # the previous server may still be on its way out
        T new-session -d -x "$w" -y "$h" -s s "env -i PATH=$PATH HOME=${HOME:-/tmp} TERM=xterm-256color bash --norc --noprofile" \
            2>/dev/null && break
        sleep 0.5
    done
    T has-session -t s 2>/dev/null || fail "tmux does not start"
    sleep 0.3
    T send-keys -t s "cd $SRC && $1; echo EXITED-\$?" Enter
}

SIZE=120x40
# --- one Ctrl-C: the exploration stops cleanly
start "$SYMPATH run tests/programs/many_paths.c -o $W/a --budget 60s"
wait_for 'branches :' 60 || fail "no status screen"
sleep 1
[ "$(state)" = "1 0" ] || fail "not on the alternate screen with the cursor hidden: $(state)"
screen=$(T capture-pane -p -t s)
for f in 'elapsed :' 'budget : 0h 01m 00s' 'branches : +[0-9]+/[0-9]+' 'tests :' 'errors :' 'total :' 'execs/s :' \
         'queries :' 'share :' 'time-outs:' 'diverged :' 'target :' 'many_paths.c'; do
    echo "$screen" | grep -Eq "$f" || fail "the screen has no '$f'"
done
T send-keys -t s C-c
wait_for 'EXITED-0' 30 || fail "no clean exit after one Ctrl-C"
[ "$(state)" = "0 1" ] || fail "terminal not restored after Ctrl-C: $(state)"
after=$(T capture-pane -p -t s)
echo "$after" | grep -q 'stopped (interrupted)' || fail "no summary after the screen"
echo "$after" | grep -q '+- time' && fail "the status screen is left on the terminal"
[ "$(grep -vc '^#' "$W/a/stats")" -ge 1 ] || fail "no stats written under the screen"

# --- two Ctrl-C while a run is in flight: killed, terminal restored
start "$SYMPATH run tests/programs/hang.c -o $W/b --budget 60s --timeout 30s"
wait_for 'branches :' 60 || fail "no status screen (hang.c)"
sleep 1
T send-keys -t s C-c
sleep 0.5
T send-keys -t s C-c
for _ in $(seq 1 50); do [ "$(state)" = "0 1" ] && break; sleep 0.2; done
[ "$(state)" = "0 1" ] || fail "terminal not restored after a second Ctrl-C: $(state)"
T capture-pane -p -t s | grep -q '+- time' && fail "the status screen is left on the terminal (second Ctrl-C)"

# --- a terminal too small for the screen: the one-line progress, left with its summary
SIZE=58x12
start "$SYMPATH run tests/programs/many_paths.c -o $W/d --budget 2s"
wait_for 'EXITED-0' 60 || fail "no exit on a small terminal"
T capture-pane -p -t s | grep -q '^\[sympath\] branches 6/6' || fail "no progress line (cut to the width) on a small terminal"
T capture-pane -p -t s | grep -q '+- time' && fail "the screen on a terminal smaller than 60x16"
SIZE=120x40

# --- --no-progress: neither the screen nor the line
start "$SYMPATH run tests/programs/many_paths.c -o $W/c --budget 2s --no-progress"
wait_for 'EXITED-0' 60 || fail "no exit with --no-progress"
T capture-pane -p -t s | grep -Eq '\+- time|\[sympath\] branches' && fail "progress shown with --no-progress"
T kill-server
echo "PASS [$name]"
