#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The v3.8-v4.2 enqueue_task_fair() and dequeue_task_fair() take a
# wakeup's levels in two loops: the first enqueues each entity, updating
# its cfs_rq, up to the first group entity that was queued already; the
# second, from there up, updates that group entity alone
# (update_entity_load_avg(se, 1)), not the cfs_rq above it.  v4.3-v4.14
# call update_load_avg(se, 1) there, which updates the parent cfs_rq too.
#
# traces/groups-nested.dat has two workers on CPU 0, one in
# /cfsr-g-outer and one in /cfsr-g-outer/inner.  When either wakes while
# the other is runnable, /cfsr-g-outer's entity is queued already, so the
# wake-up's walk stops below the root: under 3.18 no root cfs_rq row may
# be printed at that instant, under 4.9 there is one, and under 3.18 the
# second loop's update of /cfsr-g-outer's entity is there.  The instants
# come from the trace alone (trace-cmd report: the worker markers,
# sched_wakeup, sched_switch's prev_state), not from the tool.
. "$(dirname "$0")/lib.sh"

if ! command -v trace-cmd >/dev/null; then
	test_skip 'the legacy second loop' 'trace-cmd is not installed'
	test_done
fi

T=$TRACES/groups-nested.dat

# instants: "below T CPU GROUP" for each worker wake-up while the other
# worker of its CPU (a parent group's or a child group's) is runnable, with
# GROUP the outer group, whose entity is queued already
test_expect_success 'the wake-ups below a queued group entity, from the trace' "
	group_workers '$T' >workers &&
	trace-cmd report -N -t '$T' 2>/dev/null >report &&
	python3 - <<'EOF' >instants &&
import collections, re
start = end = None
workers = {}
for l in open('workers'):
    f = l.split()
    if f[0] == 'window':
        start, end = int(f[1]), int(f[2])
    else:
        workers[f[1]] = (f[2], f[3])
by_cpu = collections.defaultdict(list)
for pid, (cpu, g) in workers.items():
    by_cpu[cpu].append((g, pid))
other = {}
for cpu, ws in by_cpu.items():
    if len(ws) != 2:
        continue
    (outer, p1), (inner, p2) = sorted(ws)
    assert inner.startswith(outer + '/'), ws
    other[p1] = (cpu, p2, outer)
    other[p2] = (cpu, p1, outer)
runnable = {}
for l in open('report'):
    m = re.search(r'\s(\d+)\.(\d{9}):\s+(\S+):\s+(.*)', l)
    if not m:
        continue
    t = int(m.group(1)) * 10**9 + int(m.group(2))
    ev, rest = m.group(3), m.group(4)
    if ev in ('sched_wakeup', 'sched_wakeup_new'):
        pid, now = re.search(r' pid=(\d+)', rest).group(1), True
    elif ev == 'sched_switch':
        s = re.search(r'prev_pid=(\d+) .*prev_state=(\S+)', rest)
        if s.group(2).startswith('R'):
            continue
        pid, now = s.group(1), False
    else:
        continue
    if pid not in other:
        continue
    cpu, q, outer = other[pid]
    if now and not runnable.get(pid, True) and runnable.get(q) and start <= t <= end:
        print('below', t, cpu, outer)
    runnable[pid] = now
EOF
	test \$(wc -l <instants) -ge 20
"

# rows KERNEL: the instants with a root cfs_rq row, and with a row of the
# outer group's entity, on the instant's CPU
rows() {
	cfsreplay signals --kernel "$1" "$T" >"$1.csv" 2>/dev/null &&
	python3 - "$1.csv" <<'EOF'
import collections, csv, sys
have = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    have[(r['ts_ns'], r['cpu'], r['entity'], r['path'])] += 1
n = root = gse = 0
for l in open('instants'):
    _, t, cpu, outer = l.split()
    n += 1
    root += have[(t, cpu, 'cfs_rq', '/')] > 0
    gse += have[(t, cpu, 'gse', outer)] > 0
print(n, root, gse)
EOF
}

test_expect_success 'v3.8-v4.2: the second loop updates the group entity, not the root' "
	rows 3.18 >r318 &&
	cat r318 &&
	read n root gse <r318 &&
	test \$root -eq 0 && test \$gse -eq \$n
"

test_expect_success 'v4.3-v4.14: the same instants update the root' "
	rows 4.9 >r49 &&
	cat r49 &&
	read n root gse <r49 &&
	test \$root -eq \$n
"

test_done
