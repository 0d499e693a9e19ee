#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record-perf-cgroups.sh - record the perf.data files of tasks in cgroups
# (traces/perf-cgroups.data, traces/perf-cgroups.pipe.data) with
# `perf record --all-cgroups`, and beside them what the tests compare
# them with.
#
#   usage: scripts/record-perf-cgroups.sh OUTDIR
#          scripts/record-perf-cgroups.sh --topology  (print the topology
#          files of this machine in the form of perf-cgroups.topology)
#
# Two workers spin for CFSR_SECONDS, each pinned to one CPU:
#   A  in the cgroup v1 cpu hierarchy's group /cfsr-pc-a (cpu.shares 512),
#      left in the root of the cgroup v2 hierarchy;
#   B  in the root of the cpu hierarchy, in the cgroup v2 group /cfsr-pc-b;
#      half-way through, the v2 group /cfsr-pc-late is made and B moved to
#      it, so that the kernel writes a PERF_RECORD_CGROUP into the data
#      (perf writes the records of the groups that exist when it starts).
# Two perf record sessions run at once over the same run: a seekable file
# (OUTDIR/perf-cgroups.data) and a pipe-mode one, uncompressed
# (OUTDIR/perf-cgroups.pipe.data).  Beside them:
#   perf-cgroups.topology  each CPU's /sys/devices/system/cpu/cpuN/topology
#                     files at recording time ("cpuN key=value ...")
#   perf-cgroups.tasks     "A PID V1CPU_PATH V2_PATH" per worker, with the
#                     groups it was placed in (B's last v2 group)
#
# Needs root, perf, a cgroup v1 cpu hierarchy and a cgroup2 mount (the
# layout of the machine the bundled files come from: perf_event is not
# mounted on v1 there, so perf's cgroup ids are those of the v2 hierarchy).
#
# Overridable via environment:
#   CFSR_SECONDS    run time of the workers (default 0.4)
set -euo pipefail

die() { echo "record-perf-cgroups.sh: $*" >&2; exit 1; }

# each CPU's topology files, one line per CPU: "cpuN core_id=0 ..."
sys_topology() {
	local c k line
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		line=${c##*/}
		for k in core_id physical_package_id die_id thread_siblings_list \
			core_siblings_list die_cpus_list; do
			[ -r "$c/topology/$k" ] && line="$line $k=$(cat "$c/topology/$k")"
		done
		echo "$line"
	done | sort -V
}

if [ "${1:-}" = --topology ]; then
	sys_topology
	exit 0
fi
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR | --topology" >&2; exit 2; }
OUT=$(realpath -m "$1")
[ "$(id -u)" -eq 0 ] || die "must be run as root (writes to cgroupfs, records all CPUs)"
[ "$(nproc --all)" -ge 2 ] || die "needs at least 2 CPUs"
command -v perf >/dev/null || die "perf is not installed"
command -v taskset >/dev/null || die "taskset (util-linux) is not installed"
RUN=${CFSR_SECONDS:-0.4}
# shellcheck source=scripts/cgroup-lib.sh
. "$(dirname "$0")/cgroup-lib.sh"
cgroup_mounts
mkdir -p "$OUT"

cleanup() {
	cgroup_remove "$V1/cfsr-pc-a" "$V2/cfsr-pc-b" "$V2/cfsr-pc-late"
}
trap cleanup EXIT
cleanup
mkdir "$V1/cfsr-pc-a" "$V2/cfsr-pc-b"
echo 512 >"$V1/cfsr-pc-a/cpu.shares"

events=
for e in switch waking wakeup wakeup_new migrate_task process_fork process_exit process_free \
	stat_runtime; do
	events="$events -e sched:sched_$e"
done

# the topology as sysfs gives it, at recording time
sys_topology >"$OUT/perf-cgroups.topology"

# perf takes a while to start (it reads every task and cgroup first): each
# session's command says when it runs, and the workers start after both
gate=$(mktemp -d)
trap 'rm -rf "$gate"; cleanup' EXIT
# shellcheck disable=SC2086 # one word per option
perf record -q -a --all-cgroups $events -o "$OUT/perf-cgroups.data" -- \
	sh -c "touch $gate/a; sleep $RUN" 2>/dev/null &
perf_a=$!
# shellcheck disable=SC2086
perf record -q -a --all-cgroups $events -o - -- \
	sh -c "touch $gate/b; sleep $RUN" >"$OUT/perf-cgroups.pipe.data" 2>/dev/null &
perf_b=$!
for _ in $(seq 200); do
	[ -e "$gate/a" ] && [ -e "$gate/b" ] && break
	sleep 0.05
done
[ -e "$gate/a" ] && [ -e "$gate/b" ] || die "perf record did not start"

# a bash loop on its own clock (no process per check)
# shellcheck disable=SC2016 # expanded by the worker's shell
spin='end=$((${EPOCHREALTIME/./} + $1)); while ((${EPOCHREALTIME/./} < end)); do :; done'
us=$(awk -v s="$RUN" 'BEGIN { printf "%d", (s - 0.1) * 1e6 }')
taskset -c 0 bash -c "echo \$\$ >$V1/cfsr-pc-a/cgroup.procs; exec bash -c '$spin' spin $us" &
wa=$!
taskset -c 1 bash -c "echo \$\$ >$V2/cfsr-pc-b/cgroup.procs; exec bash -c '$spin' spin $us" &
wb=$!
sleep "$(awk -v s="$RUN" 'BEGIN { print (s - 0.1) / 2 }')"
mkdir "$V2/cfsr-pc-late"
echo "$wb" >"$V2/cfsr-pc-late/cgroup.procs"
wait "$wa" "$wb"
wait "$perf_a" "$perf_b" || die "perf record failed"
printf 'A %d /cfsr-pc-a /\nB %d / /cfsr-pc-late\n' "$wa" "$wb" >"$OUT/perf-cgroups.tasks"
ls -l "$OUT"/perf-cgroups.*
