#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record-perf-pair.sh DIR [SECONDS]
#
# Records one run twice, as traces/perf-pair.* was made (root, perf,
# tracefs): `cfsreplay record` (a trace.dat on the perf clock, and the
# kernel's PELT updates beside it) runs under `perf record -a` with the
# same sched events, over scripts/workload.py periodic, while a
# SCHED_IDLE spinner on each CPU keeps the CPUs from idling (perf misses
# tracepoints fired on an idle vCPU).  perf record runs with
# --no-bpf-event: otherwise the recorder's BPF programs wake perf's
# side-band thread, and the tracepoints of that wakeup (fired in perf's
# pending-work interrupt, under perf's recursion guard, where perf takes
# no sample) are in the trace.dat only (docs/FORMATS.md).  Then scripts/pair-signals.sh cuts both files to the
# time both cover, as text; written: DIR/perf-pair.trace.txt.gz,
# DIR/perf-pair.perf.txt.gz and DIR/perf-pair.pelt.jsonl.gz.  What one
# cut file holds that the other lacks is printed (`cfsreplay info A B`):
# a pair fit for tests/cli/t0019 lacks nothing.
set -e

dir=$1
src=$(cd "$(dirname "$0")/.." && pwd)
CFSREPLAY=${CFSREPLAY:-$src/cfsreplay}
export CFSREPLAY
mkdir -p "$dir"
cd "$dir"
pe=""
for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task \
	sched_process_fork sched_process_exit sched_process_exec sched_process_free \
	sched_stat_runtime sched_pi_setprio; do
	pe="$pe -e sched:$e"
done
spin=""
trap '[ -z "$spin" ] || kill $spin 2>/dev/null' EXIT
for c in 0 1; do
	taskset -c $c chrt -i 0 sh -c 'while :; do :; done' &
	spin="$spin $!"
done >/dev/null 2>&1
# shellcheck disable=SC2086
perf record -q --no-bpf-event -m 4096 -a $pe -o perf.data -- \
	"$CFSREPLAY" record -f -o trace.dat -- \
	python3 "$src/scripts/workload.py" periodic --marker /dev/null --seconds "${2:-0.3}" \
	>record.log 2>&1
kill $spin
spin=
PAIR_DIR=$PWD/cut bash "$src/scripts/pair-signals.sh" trace.dat perf.data trace.pelt.jsonl.gz
gzip -9 -c cut/a.cut.txt >perf-pair.trace.txt.gz
gzip -9 -c cut/b.cut.txt >perf-pair.perf.txt.gz
cp trace.pelt.jsonl.gz perf-pair.pelt.jsonl.gz
