#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record-perf-groups.sh OUTDIR - one run with tasks in cpu task groups,
# recorded at once by `cfsreplay record` (a trace.dat on the perf clock,
# its snapshots and metadata, the kernel's PELT updates beside it) and by
# `perf record -a --all-cgroups` with the sched and cgroup tracepoints.
#
# The machine's layout (the one the bundled files come from): the cpu
# controller on a cgroup v1 hierarchy, perf_event on the v2 one, so
# perf's cgroup ids are v2's.  The workload mirrors its cpu groups in v2
# (same paths, same tasks), which makes perf's cgroups stand for the cpu
# controller's, as they are where perf_event and cpu share a hierarchy:
#   /cfsr-pg-a  made before recording; workers a0 (CPU 0) and a1 (CPU 1)
#               in it from the start;
#   /cfsr-pg-b  made half-way through; a1 moved to it (v1, then v2).
# Both groups keep cpu.shares 1024.  A SCHED_IDLE spinner per CPU keeps
# the vCPUs busy (perf misses tracepoints fired on an idle vCPU).
# Written: OUTDIR/trace.dat, OUTDIR/trace.pelt.jsonl.gz,
# OUTDIR/perf.data, OUTDIR/tasks ("a0 PID", "a1 PID").
#
# Overridable via environment: CFSR_SECONDS (workers' run time, 0.4).
set -euo pipefail

die() { echo "record-perf-groups.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
OUT=$(realpath -m "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
CFSREPLAY=${CFSREPLAY:-$src/cfsreplay}
[ "$(id -u)" -eq 0 ] || die "must be run as root"
command -v perf >/dev/null || die "perf is not installed"
RUN=${CFSR_SECONDS:-0.4}
# shellcheck source=scripts/cgroup-lib.sh
. "$src/scripts/cgroup-lib.sh"
cgroup_mounts
mkdir -p "$OUT"

spin=""
cleanup() {
	# shellcheck disable=SC2086 # one pid per word
	[ -z "$spin" ] || kill $spin 2>/dev/null || true
	cgroup_remove "$V1/cfsr-pg-b" "$V1/cfsr-pg-a" "$V2/cfsr-pg-b" "$V2/cfsr-pg-a"
}
trap cleanup EXIT
cleanup
mkdir "$V1/cfsr-pg-a" "$V2/cfsr-pg-a"

events=
for e in switch waking wakeup wakeup_new migrate_task process_fork process_exit process_free \
	process_exec stat_runtime pi_setprio; do
	events="$events -e sched:sched_$e"
done
for e in attach_task mkdir rmdir; do
	events="$events -e cgroup:cgroup_$e"
done

# shellcheck disable=SC2016 # expanded by the worker's shell
loop='end=$((${EPOCHREALTIME/./} + $1)); while ((${EPOCHREALTIME/./} < end)); do :; done'
us=$(awk -v s="$RUN" 'BEGIN { printf "%d", (s + 1.5) * 1e6 }')
# the workers start in /cfsr-pg-a of both hierarchies, before either recorder
taskset -c 0 bash -c "echo \$\$ >$V1/cfsr-pg-a/cgroup.procs; echo \$\$ >$V2/cfsr-pg-a/cgroup.procs
	exec -a cfsr-pg-a0 bash -c '$loop' spin $us" &
a0=$!
taskset -c 1 bash -c "echo \$\$ >$V1/cfsr-pg-a/cgroup.procs; echo \$\$ >$V2/cfsr-pg-a/cgroup.procs
	exec -a cfsr-pg-a1 bash -c '$loop' spin $us" &
a1=$!
for c in 0 1; do
	taskset -c $c chrt -i 0 sh -c 'while :; do :; done' &
	spin="$spin $!"
done >/dev/null 2>&1
sleep 0.2
half=$(awk -v s="$RUN" 'BEGIN { print s / 2 }')
# shellcheck disable=SC2086 # one word per option
perf record -q --no-bpf-event -m 4096 -a --all-cgroups $events -o "$OUT/perf.data" -- \
	"$CFSREPLAY" record -f -o "$OUT/trace.dat" -- \
	sh -c "sleep $half; mkdir $V1/cfsr-pg-b $V2/cfsr-pg-b;
		echo $a1 >$V1/cfsr-pg-b/cgroup.procs; echo $a1 >$V2/cfsr-pg-b/cgroup.procs;
		sleep $half" >"$OUT/record.log" 2>&1 || die "recording failed (see $OUT/record.log)"
kill $a0 $a1 2>/dev/null || true
wait $a0 $a1 2>/dev/null || true
printf 'a0 %d\na1 %d\n' "$a0" "$a1" >"$OUT/tasks"
ls -l "$OUT"
