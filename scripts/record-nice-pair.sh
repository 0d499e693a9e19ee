#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record-nice-pair.sh - record one workload under two settings, for compare.
#
#   usage: scripts/record-nice-pair.sh NICE OUTPUT.perf.data
#
# Two CPU-bound tasks, "spin-a" (nice 0) and "spin-b" (nice NICE), both
# pinned to CPU 0, spin for 1.6 s; perf records the scheduler events of the
# whole machine for 1 s in the middle (perf.data, zstd-compressed).  With
# NICE 0 the two share CPU 0 equally; with NICE 5 spin-b's weight is 335
# against 1024 (sched_prio_to_weight[]), so it should get about 0.33 of
# spin-a's run time.  Needs root, perf, taskset and python3.
set -eu

[ $# -eq 2 ] || { echo "usage: $0 NICE OUTPUT.perf.data" >&2; exit 2; }
nice_b=$1
out=$2

spin='
import ctypes, os, sys, time
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)   # PR_SET_NAME
os.nice(int(sys.argv[2]))
end = time.monotonic() + 1.6
while time.monotonic() < end:
    pass
'
taskset -c 0 python3 -c "$spin" spin-a 0 &
a=$!
taskset -c 0 python3 -c "$spin" spin-b "$nice_b" &
b=$!
sleep 0.3
events=
for e in switch waking wakeup wakeup_new migrate_task process_fork process_exit \
	process_exec process_free stat_runtime pi_setprio; do
	events="$events -e sched:sched_$e"
done
# shellcheck disable=SC2086
perf record -z -q -a $events -o "$out" -- sleep 1
wait "$a" "$b"
