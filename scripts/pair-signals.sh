#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pair-signals.sh [--record DIR] | TRACE.dat PERF.data
#
# How far `cfsreplay signals` on the trace.dat and on the perf.data of one
# run agree.  With --record DIR (root), first records such a pair: the
# sched events in a tracefs instance of its own and with perf record -a at
# once, over a workload, while a SCHED_IDLE spinner on each CPU keeps the
# CPUs from idling (perf misses tracepoints fired on an idle vCPU).
#
# Both files are printed as ns text (trace-cmd report -t, perf script
# --ns), which reads exactly as the binary files do (tests/cli/t0015),
# and cut to the time both cover, on the trace.dat's clock (the offset is
# the one `cfsreplay info A B` finds).  Printed: the spread of the
# per-event timestamp differences around the offset, what each cut file
# holds that the other lacks (info A B), and how many signals rows agree.
set -e

CFSREPLAY=${CFSREPLAY:-$(dirname "$0")/../cfsreplay}
EVENTS="sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task
	sched_process_fork sched_process_exit sched_process_free sched_process_exec
	sched_stat_runtime"

record() {
	local out=$1 name=cfsr-pair-$$ inst pe="" spin="" e c
	inst=/sys/kernel/tracing/instances/$name
	mkdir -p "$out"
	mkdir "$inst"
	trap 'kill $spin 2>/dev/null; rmdir "$inst" 2>/dev/null || true' EXIT
	echo 65536 >"$inst/buffer_size_kb"
	for e in $EVENTS; do
		echo 1 >"$inst/events/sched/$e/enable"
		pe="$pe -e sched:$e"
	done
	for c in 0 1; do
		taskset -c $c chrt -i 0 sh -c 'while :; do :; done' &
		spin="$spin $!"
	done
	echo 1 >"$inst/tracing_on"
	# shellcheck disable=SC2086
	perf record -q -m 4096 -a $pe -o "$out/perf.data" -- \
		sh -c 'for i in $(seq 40); do ls >/dev/null; sleep 0.005; done' 2>/dev/null
	echo 0 >"$inst/tracing_on"
	kill $spin
	spin=
	# extract removes the instance
	trace-cmd extract -B "$name" -o "$out/trace.dat" >/dev/null 2>&1
}

if [ "$1" = --record ]; then
	record "$2"
	set -- "$2/trace.dat" "$2/perf.data"
fi
a=$1
b=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

off=$("$CFSREPLAY" info "$a" "$b" | sed -n 's/^clock offset B-A: \(-*[0-9]*\) ns.*/\1/p')
release=$("$CFSREPLAY" info --json "$a" | python3 -c 'import json,sys; print(json.load(sys.stdin)["kernel_release"])')
trace-cmd report -t "$a" >"$tmp/a.txt" 2>/dev/null
perf script --ns -i "$b" -F comm,tid,cpu,time,event,trace >"$tmp/b.txt" 2>/dev/null

python3 - "$tmp" "$off" <<'PY'
import re, sys, collections
tmp, off = sys.argv[1], int(sys.argv[2])
rx = re.compile(r'\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d{9}):\s+(?:sched:)?(\w+):')
def events(path, shift):
    out = []
    for line in open(path):
        m = rx.search(line)
        if m:
            out.append((int(m[2]) * 10**9 + int(m[3]) - shift, line))
    return out
a, b = events(tmp + '/a.txt', 0), events(tmp + '/b.txt', off)
lo = max(a[0][0], b[0][0]) + 2000000
hi = min(a[-1][0], b[-1][0]) - 2000000
for name, ev in (('a', a), ('b', b)):
    with open('%s/%s.cut.txt' % (tmp, name), 'w') as f:
        f.writelines(l for t, l in ev if lo <= t <= hi)
# switch pairs: same CPU, prev and next pid, nearest within 200 us
sw = re.compile(r'\[(\d+)\].*sched_switch:.*?(?:prev_pid=|:)(\d+) \[?.*?==> .*?(?:next_pid=|:)(\d+)')
def switches(ev):
    d = collections.defaultdict(list)
    for t, l in ev:
        m = sw.search(l)
        if m and lo <= t <= hi:
            d[m.groups()].append(t)
    return d
sa, sb = switches(a), switches(b)
diffs = []
for k, ts in sb.items():
    for t in ts:
        c = [x for x in sa.get(k, []) if abs(x - t) < 200000]
        if c:
            diffs.append(min((t - x for x in c), key=abs))
diffs.sort()
print('window: %.6f s; offset %d ns' % ((hi - lo) / 1e9, off))
print('switches paired: %d; perf - trace.dat - offset: min %d, median %d, max %d ns; '
      'exactly 0: %d' % (len(diffs), diffs[0], diffs[len(diffs) // 2], diffs[-1],
                         diffs.count(0)))
PY
"$CFSREPLAY" info "$tmp/a.cut.txt" "$tmp/b.cut.txt" | sed -n '/^event /,/^$/p'
"$CFSREPLAY" signals --kernel "$release" "$tmp/a.cut.txt" >"$tmp/a.csv"
"$CFSREPLAY" signals --kernel "$release" "$tmp/b.cut.txt" >"$tmp/b.csv"
python3 - "$tmp" "$off" <<'PY'
import csv, sys, collections
tmp, off = sys.argv[1], int(sys.argv[2])
rows = {}
for s in 'ab':
    d = collections.defaultdict(list)
    for r in csv.DictReader(open('%s/%s.csv' % (tmp, s))):
        d[r['pid']].append(r)
    rows[s] = d
keys = ('load_sum', 'runnable_sum', 'util_sum', 'period_contrib', 'load_avg',
        'runnable_avg', 'util_avg', 'util_est')
same_tasks = n = ident = 0
worst = collections.Counter()
for pid, ra in rows['a'].items():
    rb = rows['b'].get(pid, [])
    if len(ra) != len(rb):
        continue
    same_tasks += 1
    for x, y in zip(ra, rb):
        n += 1
        d = {k: abs(int(x[k]) - int(y[k])) for k in keys}
        ident += not any(d.values())
        for k in ('load_avg', 'runnable_avg', 'util_avg'):
            worst[k] = max(worst[k], d[k])
print('signals rows: %d (trace.dat) and %d (perf.data)' %
      (sum(map(len, rows['a'].values())), sum(map(len, rows['b'].values()))))
print('tasks: %d and %d; with as many rows on both sides: %d, their rows: %d, '
      'identical apart from the clock: %d; max |d avg|: %s' %
      (len(rows['a']), len(rows['b']), same_tasks, n, ident, dict(worst)))
PY
