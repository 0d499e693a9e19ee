#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pair-signals.sh [--record DIR] | TRACE.dat PERF.data [PELT.jsonl.gz]
#
# How far `cfsreplay signals` on the trace.dat and on the perf.data of one
# run agree.  With --record DIR (root), first records such a pair: the
# sched events in a tracefs instance of its own (trace clock perf) and with
# perf record -a at once, over a workload (scripts/workload.py periodic),
# while a SCHED_IDLE spinner on each CPU keeps the CPUs from idling (perf
# misses tracepoints fired on an idle vCPU, and, without --no-bpf-event,
# those of the wakeups of its own side-band thread at BPF program loads),
# and the kernel's PELT updates with tests/helpers/pelt-capture into
# DIR/pelt.jsonl.gz.
#
# With a PELT file (given, or recorded), signals takes its clock readings
# (--clock) and the rows are compared one by one (CLOCK mode below).
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

PELTCAP=${PELTCAP:-$(dirname "$0")/../tests/helpers/pelt-capture}

spin=""
inst=""
record() {
	local out=$1 name=cfsr-pair-$$ pe="" e c
	inst=/sys/kernel/tracing/instances/$name
	mkdir -p "$out"
	mkdir "$inst"
	trap '[ -z "$spin" ] || kill $spin 2>/dev/null; rmdir "$inst" 2>/dev/null || true' EXIT
	# perf record's default clock, local_clock(): the one the capture uses
	echo perf >"$inst/trace_clock"
	echo 65536 >"$inst/buffer_size_kb"
	for e in $EVENTS; do
		echo 1 >"$inst/events/sched/$e/enable"
		pe="$pe -e sched:$e"
	done
	for c in 0 1; do
		taskset -c $c chrt -i 0 sh -c 'while :; do :; done' &
		spin="$spin $!"
	done >/dev/null 2>&1
	echo 1 >"$inst/tracing_on"
	# shellcheck disable=SC2086
	"$PELTCAP" -o "$out/pelt.jsonl.gz" -m "$inst/trace_marker" -l "$out/sync.log" -- \
		perf record -q --no-bpf-event -m 4096 -a $pe -o "$out/perf.data" -- \
		python3 "$(dirname "$0")/workload.py" periodic --marker /dev/null \
		--seconds "${PAIR_SECONDS:-1}" >/dev/null 2>&1
	echo 0 >"$inst/tracing_on"
	kill $spin
	spin=
	# extract removes the instance
	trace-cmd extract -B "$name" -o "$out/trace.dat" >/dev/null 2>&1
}

if [ "$1" = --record ]; then
	record "$2"
	set -- "$2/trace.dat" "$2/perf.data" "$2/pelt.jsonl.gz"
fi
a=$1
b=$2
pelt=$3
# PAIR_DIR: keep the cut texts and the signals there (else a temporary directory)
if [ -n "$PAIR_DIR" ]; then
	tmp=$PAIR_DIR
	mkdir -p "$tmp"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi

# CLOCK mode: signals --clock PELT on both, rows compared one by one
# (scripts/pair-rows.py says which rows are excluded and why).  The perf
# text is put on the trace.dat's clock with the shift signals itself found
# for the perf.data (stderr), so that the PELT file's times hold for both.
if [ -n "$pelt" ]; then
	off=$("$CFSREPLAY" info "$a" "$b" | sed -n 's/^clock offset B-A: \(-*[0-9]*\) ns.*/\1/p')
	"$CFSREPLAY" signals --clock "$pelt" "$b" 2>"$tmp/b.err" >/dev/null
	shift_ns=$(sed -n 's/.* by \([-+][0-9]*\) ns .*/\1/p' "$tmp/b.err")
	# a cfsreplay that says nothing of the clocks: the offset info A B found
	grep -q "on the trace's clock" "$tmp/b.err" && shift_ns=0
	shift_ns=${shift_ns:-$off}
	grep -h '^signals: times' "$tmp/b.err" || true
	trace-cmd report -t "$a" >"$tmp/a.txt" 2>/dev/null
	perf script --ns -i "$b" -F comm,tid,cpu,time,event,trace >"$tmp/b.txt" 2>/dev/null
	python3 - "$tmp" "$off" "$shift_ns" <<'PY'
import re, sys
tmp, off, shift = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rx = re.compile(r'(\[\d+\]\s+(?:\S+\s+)?)(\d+)\.(\d{9}):')
def events(path, move):
    for line in open(path, errors='replace'):
        m = rx.search(line)
        if m:
            t = int(m[2]) * 10**9 + int(m[3])
            yield t, t - move, m, line
a = [(t, l) for t, _, _, l in events(tmp + '/a.txt', 0)]
b = list(events(tmp + '/b.txt', shift))
# the window both hold, 2 ms in from each end, on the trace.dat's clock
lo = max(a[0][0], b[0][0] - off) + 2000000
hi = min(a[-1][0], b[-1][0] - off) - 2000000
with open(tmp + '/a.cut.txt', 'w') as f:
    f.writelines(l for t, l in a if lo <= t <= hi)
with open(tmp + '/b.cut.txt', 'w') as f:
    for t, moved, m, l in b:
        if lo <= t - off <= hi:
            f.write(l[:m.start(2)] + '%d.%09d' % divmod(moved, 10**9) + l[m.end(3):])
print('window: %.6f s on the trace.dat clock; perf times moved by %+d ns' %
      ((hi - lo) / 1e9, -shift))
PY
	"$CFSREPLAY" info "$tmp/a.cut.txt" "$tmp/b.cut.txt" | sed -n '/^event /,/^$/p'
	release=$("$CFSREPLAY" info --json "$a" | python3 -c 'import json,sys; print(json.load(sys.stdin)["kernel_release"])')
	for s in a b; do
		"$CFSREPLAY" signals --mark-clock --kernel "$release" --clock "$pelt" "$tmp/$s.cut.txt" \
			>"$tmp/$s.csv" 2>"$tmp/$s.err"
	done
	python3 "$(dirname "$0")/pair-rows.py" "$tmp/a.cut.txt" "$tmp/b.cut.txt" \
		"$tmp/a.csv" "$tmp/b.csv"
	exit 0
fi

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
