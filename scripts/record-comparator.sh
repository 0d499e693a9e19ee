#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record-comparator.sh - record a controlled workload for the comparator
# tests (traces/pinned.dat, unpinned.dat, forkburst.dat).
#
#   usage: scripts/record-comparator.sh pinned|unpinned|forkburst|shares OUTPUT.dat
#
# Needs root, tracefs, trace-cmd (3.1.6 tested), python3 and util-linux
# unshare.  Recording uses a tracefs instance of its own (never the
# top-level buffer, which other tools may be using): the events are enabled
# by hand in instances/NAME/events (trace-cmd record does not work on the
# recording machine), the workload (scripts/comparator-workload.py) runs,
# and `trace-cmd extract -B NAME` saves the instance's buffer.  As in
# scripts/record-sample.sh, extract runs in a private mount namespace in
# which events/ holds only the sched, syscalls setaffinity and ftrace formats
# and /proc/kallsyms one line, so that the file stays small.  extract
# removes the instance when it is done; the EXIT trap removes it otherwise.
set -euo pipefail

die() { echo "record-comparator.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || { echo "usage: $0 pinned|unpinned|forkburst|shares OUTPUT.dat" >&2; exit 2; }
SCENARIO=$1
OUT=$(realpath -m "$2")
case $SCENARIO in pinned|unpinned|forkburst|shares) ;; *) die "unknown scenario '$SCENARIO'" ;; esac
[ "$(id -u)" -eq 0 ] || die "must be run as root"
HERE=$(cd "$(dirname "$0")" && pwd)
T=/sys/kernel/tracing
[ -d "$T/instances" ] || die "tracefs is not mounted at $T"
INST=cfsr-comparator-$$
I=$T/instances/$INST
WORK=$(mktemp -d /tmp/cfsr-comparator.XXXXXX)

cleanup() {
	set +e
	[ -d "$I" ] && { echo 0 > "$I/tracing_on"; rmdir "$I"; }
	rm -rf "$WORK"
}
trap cleanup EXIT

EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exit
sched/sched_process_exec sched/sched_process_free sched/sched_stat_runtime
sched/sched_pi_setprio syscalls/sys_enter_sched_setaffinity ftrace/print"

mkdir "$I"
echo 0 > "$I/tracing_on"
# the clock extract stores is the top-level one: use the same in the instance
TOPCLOCK=$(sed -E 's/.*\[([^]]+)\].*/\1/' "$T/trace_clock")
echo "$TOPCLOCK" > "$I/trace_clock"
echo 4096 > "$I/buffer_size_kb"
for e in $EVENTS; do
	[ "$e" = ftrace/print ] && continue
	echo 1 > "$I/events/$e/enable"
done
echo 1 > "$I/tracing_on"
sleep 0.05
/usr/bin/python3 "$HERE/comparator-workload.py" "$SCENARIO" --marker "$I/trace_marker"
sleep 0.05
echo 0 > "$I/tracing_on"

V=$WORK/events
mkdir -p "$V"
cat "$T/events/header_page" > "$V/header_page"
cat "$T/events/header_event" > "$V/header_event"
for e in $EVENTS; do
	mkdir -p "$V/$e"
	cat "$T/events/$e/format" > "$V/$e/format"
	cat "$T/events/$e/id" > "$V/$e/id" 2>/dev/null || true
done
# one line is enough for trace-cmd report to name the print events' ip
grep -m1 ' tracing_mark_write$' /proc/kallsyms > "$WORK/kallsyms" || true
unshare -m --propagation private sh -c '
	mount --bind "$1" "$2/events" && mount --bind "$3" /proc/kallsyms &&
	exec trace-cmd extract -B "$4" --compression zstd -o "$5"' \
	sh "$V" "$T" "$WORK/kallsyms" "$INST" "$OUT" > "$WORK/extract.log" 2>&1 ||
	{ cat "$WORK/extract.log" >&2; die "trace-cmd extract failed"; }
echo "wrote $OUT ($(stat -c %s "$OUT") bytes, clock $TOPCLOCK)"
