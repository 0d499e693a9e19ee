#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record-groups.sh - record one of the task-group traces (traces/groups-*.dat
# and the kernel PELT capture beside each) with `cfsreplay record --truth`.
#
#   usage: scripts/record-groups.sh solo|split|nested|shares|idle OUTPUT.dat
#
# Each scenario makes cgroup v1 cpu groups (names cfsr-g-*) with chosen
# cpu.shares *before* recording, so that the recorder's metadata carries
# them, runs periodic workers (busy BUSY ms of every PERIOD ms, nice 0),
# each pinned with taskset to one CPU and put in its group before it spins,
# and removes the groups afterwards (also on error or signal):
#
#   solo    /cfsr-g-hi (2048) with one worker on CPU 1, /cfsr-g-lo (512)
#           with one worker on CPU 0: each group alone on its CPU, no load
#           elsewhere, so each group entity weighs its group's whole shares.
#   split   /cfsr-g-hi (2048) and /cfsr-g-lo (512), one worker of each on
#           each CPU: each group's load is split about evenly over the two
#           CPUs, so each group entity weighs about half its shares.
#   nested  /cfsr-g-outer (2048) with one worker of its own on CPU 0, and its
#           child /cfsr-g-outer/inner (512) with one worker on each CPU: the
#           inner group entities sit on the outer group's cfs_rqs, whose
#           own entities weigh the outer shares in the ratio of the outer
#           cfs_rqs' loads (about 1024 + 256 on CPU 0 against 256 on CPU 1).
#   shares  /cfsr-g-hi and /cfsr-g-lo (1024 each), one worker of each on
#           CPU 0; half-way through, /cfsr-g-hi's cpu.shares becomes 4096
#           (a write no trace event shows; a marker "cfsr-shares
#           /cfsr-g-hi 4096" follows it), so its entity goes from about
#           half the CPU's group weight to four fifths.
#   idle    /cfsr-g-idle (cpu.idle 1) with a worker spinning without pause
#           on CPU 1, /cfsr-g-norm (1024) with one spinning on CPU 0 and one
#           unpinned that runs 1 ms every 10 ms: CPU 1 runs only idle fair
#           work (sched_idle_cpu()) whenever the periodic worker is off it,
#           so the kernel's wake-ups take it as idle, and the periodic
#           worker's wake-ups there preempt the idle group's worker.
#
# A worker line may give its own busy and period (ms) and a CPU list; each
# worker writes a marker "cfsr-worker pid=N cpu=C group=/PATH" into the
# recording's trace_marker when it starts spinning.
#
# Needs root, a cgroup v1 cpu hierarchy, python3, taskset, and what
# `cfsreplay record` needs (tracefs; BTF and BPF for the PELT capture).
#
# Overridable via environment:
#   CFSR_SECONDS    run time of each worker (default 1)
#   CFSR_BUSY_MS    busy part of each period (default 16)
#   CFSR_PERIOD_MS  period (default 20)
#   CFSR_TRUTH_MS   snapshot period for --truth (default 50)
#   PYTHON          interpreter for the workers (default /usr/bin/python3)
set -euo pipefail

die() { echo "record-groups.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || { echo "usage: $0 solo|split|nested|shares|idle OUTPUT.dat" >&2; exit 2; }
SCENARIO=$1
OUT=$(realpath -m "$2")
case $SCENARIO in solo|split|nested|shares|idle) ;; *) die "unknown scenario '$SCENARIO'" ;; esac
[ "$(id -u)" -eq 0 ] || die "must be run as root (writes to cgroupfs and tracefs)"
[ "$(nproc --all)" -ge 2 ] || die "needs at least 2 CPUs"
command -v taskset >/dev/null || die "taskset (util-linux) is not installed"

HERE=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
SECONDS_RUN=${CFSR_SECONDS:-1}
BUSY_MS=${CFSR_BUSY_MS:-16}
PERIOD_MS=${CFSR_PERIOD_MS:-20}
CG=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
if [ -z "$CG" ] || [ ! -e "$CG/cpu.shares" ]; then
	die "no cgroup v1 cpu hierarchy found in /proc/mounts"
fi

make -C "$HERE/.." -s >/dev/null || die "cannot build cfsreplay"
CFSR=$HERE/../cfsreplay

# groups to make, parents first: "PATH SHARES" (or "PATH idle": cpu.idle 1);
# workers: "CPUS PATH [BUSY_MS PERIOD_MS]"; a change of shares made
# half-way: "PATH SHARES" or empty
CHANGE=
case $SCENARIO in
solo)
	GROUPS_MADE="/cfsr-g-hi 2048
/cfsr-g-lo 512"
	WORKERS="1 /cfsr-g-hi
0 /cfsr-g-lo" ;;
split)
	GROUPS_MADE="/cfsr-g-hi 2048
/cfsr-g-lo 512"
	WORKERS="0 /cfsr-g-hi
1 /cfsr-g-hi
0 /cfsr-g-lo
1 /cfsr-g-lo" ;;
nested)
	GROUPS_MADE="/cfsr-g-outer 2048
/cfsr-g-outer/inner 512"
	WORKERS="0 /cfsr-g-outer
0 /cfsr-g-outer/inner
1 /cfsr-g-outer/inner" ;;
shares)
	GROUPS_MADE="/cfsr-g-hi 1024
/cfsr-g-lo 1024"
	WORKERS="0 /cfsr-g-hi
0 /cfsr-g-lo"
	CHANGE="/cfsr-g-hi 4096" ;;
idle)
	[ -e "$CG/cpu.idle" ] || die "no cpu.idle in $CG (needs a v5.15+ kernel)"
	GROUPS_MADE="/cfsr-g-idle idle
/cfsr-g-norm 1024"
	WORKERS="1 /cfsr-g-idle 20 20
0 /cfsr-g-norm 20 20
0-1 /cfsr-g-norm 1 10" ;;
esac

MADE=
cleanup() {
	set +e
	# children first (made after their parents); a group still holding a
	# task cannot be removed, so move any leftover task back to the root
	for g in $MADE; do
		while read -r pid; do echo "$pid" > "$CG/tasks"; done < "$CG$g/tasks"
		rmdir "$CG$g"
	done
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

while read -r g shares; do
	[ -e "$CG$g" ] && die "$CG$g exists already"
	mkdir "$CG$g"
	MADE="$g $MADE"
	if [ "$shares" = idle ]; then
		echo 1 > "$CG$g/cpu.idle"
	else
		echo "$shares" > "$CG$g/cpu.shares"
	fi
done <<<"$GROUPS_MADE"

# The recorded command: one pinned worker per line of $WORKERS.  taskset
# pins the shell first, so the worker joins its group on its own CPU and
# the group never has load elsewhere; then the shell becomes the worker.
WORKER='
import os, sys, time
secs, busy, period, marker, group = float(sys.argv[1]), float(sys.argv[2]) / 1e3, float(sys.argv[3]) / 1e3, sys.argv[4], sys.argv[5]
with open(marker, "w") as m:
    cpus = sorted(os.sched_getaffinity(0))
    m.write("cfsr-worker pid=%d cpu=%s group=%s\n" % (os.getpid(), cpus[0] if len(cpus) == 1 else ",".join(map(str, cpus)), group))
start = time.monotonic()
nxt = start
while nxt - start < secs:
    while time.monotonic() < nxt + busy:
        pass
    nxt += period
    d = nxt - time.monotonic()
    if d > 0:
        time.sleep(d)
'
# shellcheck disable=SC2016 # expanded by the recorded command's shells
"$CFSR" record -f --truth="${CFSR_TRUTH_MS:-50}" --buffer-kb 8192 -o "$OUT" -- \
	bash -c '
	while read -r cpu g b p; do
		taskset -c "$cpu" sh -c "echo \$\$ > \"\$1\$2/tasks\" && exec \"\$3\" -c \"\$4\" \"\$5\" \"\$6\" \"\$7\" \"\$CFSREPLAY_TRACE_MARKER\" \"\$2\"" \
			sh "$1" "$g" "$2" "$3" "$4" "${b:-$5}" "${p:-$6}" &
	done <<<"$7"
	if [ -n "$8" ]; then
		sleep "$(awk -v s="$4" "BEGIN { print s / 2 }")"
		set -- "$@" $8
		echo "${10}" > "$1${9}/cpu.shares"
		echo "cfsr-shares ${9} ${10}" > "$CFSREPLAY_TRACE_MARKER"
	fi
	wait' \
	bash "$CG" "$PYTHON" "$WORKER" "$SECONDS_RUN" "$BUSY_MS" "$PERIOD_MS" "$WORKERS" "$CHANGE" ||
	die "cfsreplay record failed"
echo "wrote $OUT ($(stat -c %s "$OUT") bytes) and ${OUT%.dat}.pelt.jsonl.gz ($(stat -c %s "${OUT%.dat}.pelt.jsonl.gz") bytes)"
