#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# signals under neighbouring v5.7-v5.17 profiles differs where the kernel
# changes of that range predict, checked against the trace (trace-cmd
# report) and the arithmetic of each change, never against stored output:
#
# - v5.7.6 against v5.7.7: post_init_entity_util_avg() starts a new
#   task's runnable_avg at the CPU capacity (1024 here) before
#   e21cf43406a1, at its util_avg after.  runnable feeds neither load nor
#   util, and periodic.dat has no task group to propagate it, so only the
#   runnable columns differ; among tasks only those the trace forks
#   (sched_wakeup_new), from their first row, which shows the initial
#   values: 1024 and runnable_sum = 1024 * (46718 + period_contrib)
#   against runnable_avg = util_avg.
# - v5.7.7 against v5.8: update_tg_cfs_*() divide by LOAD_AVG_MAX, then by
#   the parent's divider (95d685935a2e).  Without group entities nothing
#   propagates: periodic.dat gives the same rows; on recorded.dat the
#   first difference is a group entity rebuilt by a propagation, its
#   util or runnable sum avg * 47742 against avg * (46718 +
#   period_contrib).
# - v5.12 against v5.13: before 68d7a190682a the util_est flag is the LSB,
#   ORed into _task_util_est(), so every estimate a task row prints above
#   util_avg is odd (v5.13 prints even ones too); fcf6631f3736 makes
#   detach_entity_load_avg() rebuild util_sum and runnable_sum from the
#   averages, so the first difference outside util_est is the cfs_rq a
#   load balance detached a task from, where v5.13's two sums are exactly
#   avg * (46718 + period_contrib).
# - v5.13 against v5.14: 1c35b07e6d39 and ceb6ba45dc80 rebuild the sums
#   when load is removed or dequeued: tasks agree until a cfs_rq has lost
#   one (exit, or a migration away from its CPU), and the first difference
#   is that cfs_rq's row.
. "$(dirname "$0")/lib.sh"

P=$TRACES/periodic.dat
R=$TRACES/recorded.dat

# From trace-cmd report of periodic.dat, one line per event that matters
# here: "fork PID", "exit TS CPU", "wakemove TS ORIG_CPU" (a migration
# inside a wakeup) and "lbmove TS ORIG_CPU" (of a task not being woken:
# a load balance)
have_tc=false
if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "# trace-cmd not found: the checks against the trace are skipped"
elif trace-cmd report --raw-ts "$P" 2>/dev/null | python3 -c '
import re, sys
waking = set()
for line in sys.stdin:
    m = re.search(r"\[(\d+)\]\s*(\d+): (\w+):\s+(.*)", line)
    if not m:
        continue
    cpu, ts, ev, rest = m.groups()
    if ev == "sched_wakeup_new":
        print("fork", re.search(r":(\d+) \[", rest).group(1))
    elif ev == "sched_process_exit":
        print("exit", ts, cpu)
    elif ev == "sched_waking":
        waking.add(re.search(r" pid=(\d+)", rest).group(1))
    elif ev == "sched_wakeup":
        waking.discard(re.search(r":(\d+) \[", rest).group(1))
    elif ev == "sched_migrate_task":
        pid = re.search(r" pid=(\d+)", rest).group(1)
        orig = re.search(r"orig_cpu=(\d+)", rest).group(1)
        print("wakemove" if pid in waking else "lbmove", ts, orig)
' >"$TRASH/events.txt"; then
	have_tc=true
fi

test_expect_success 'v5.7.6 and v5.7.7 differ in the runnable signals of forked tasks' "
	$have_tc || exit 0
	cfsreplay signals --kernel 5.7.6 '$P' >a.csv &&
	cfsreplay signals --kernel 5.7.7 '$P' >b.csv &&
	python3 - <<'EOF'
import csv, re, sys
forked = {l.split()[1] for l in open('events.txt') if l.startswith('fork ')}
A = list(csv.DictReader(open('a.csv')))
B = list(csv.DictReader(open('b.csv')))
key = lambda r: (r['ts_ns'], r['cpu'], r['entity'], r['pid'], r['path'])
if len(A) < 1000 or [key(r) for r in A] != [key(r) for r in B]:
    sys.exit('the two models made different updates')
seen, first_rows, differ = set(), 0, set()
for a, b in zip(A, B):
    for k in a:
        if a[k] != b[k] and k not in ('runnable_sum', 'runnable_avg'):
            sys.exit('%s differs: %s %s' % (k, a, b))
    if a['entity'] != 'task':
        continue
    pid = a['pid']
    if a != b:
        differ.add(pid)
        if pid not in forked:
            sys.exit('pid %s was not forked in the trace but differs' % pid)
        if int(a['runnable_avg']) < int(b['runnable_avg']):
            sys.exit('pid %s: v5.7.6 runnable below v5.7.7: %s %s' % (pid, a, b))
    if pid in forked and pid not in seen:
        div = 46718 + int(a['period_contrib'])
        if a['runnable_avg'] != '1024' or int(a['runnable_sum']) != 1024 * div:
            sys.exit('pid %s: v5.7.6 first row %s' % (pid, a))
        if b['runnable_avg'] != b['util_avg'] or a == b:
            sys.exit('pid %s: v5.7.7 first row %s' % (pid, b))
        first_rows += 1
    seen.add(pid)
print('# forked tasks: %d, with rows: %d, differing: %d' % (len(forked), first_rows, len(differ)))
sys.exit(first_rows == 0 or not differ <= forked)
EOF
"

test_expect_success 'v5.7.7 and v5.8 agree without group entities' "
	cfsreplay signals --kernel 5.7.7 '$P' >a.csv &&
	cfsreplay signals --kernel 5.8 '$P' >b.csv &&
	! grep -q ',gse,' a.csv && test \$(wc -l <a.csv) -gt 1000 && cmp a.csv b.csv
"

test_expect_success 'v5.7.7 and v5.8 first differ at a propagation by LOAD_AVG_MAX' "
	cfsreplay signals --kernel 5.7.7 '$R' >a.csv &&
	cfsreplay signals --kernel 5.8 '$R' >b.csv &&
	python3 - <<'EOF'
import csv, sys
A = list(csv.DictReader(open('a.csv')))
B = list(csv.DictReader(open('b.csv')))
for a, b in zip(A, B):
    if a == b:
        continue
    if a['entity'] != 'gse':
        sys.exit('first difference not at a group entity: %s %s' % (a, b))
    div = 46718 + int(b['period_contrib'])
    ok = [s for s in ('util', 'runnable')
          if int(a[s + '_sum']) == int(a[s + '_avg']) * 47742 and
          int(b[s + '_sum']) == int(b[s + '_avg']) * div and a[s + '_sum'] != b[s + '_sum']]
    print('# first difference at %s %s, rebuilt: %s' % (a['ts_ns'], a['path'], ok))
    sys.exit(not ok)
sys.exit('no difference')
EOF
"

test_expect_success 'v5.12 prints odd estimates (LSB flag); v5.13 resyncs a detach' "
	$have_tc || exit 0
	cfsreplay signals --kernel 5.12 '$P' >a.csv &&
	cfsreplay signals --kernel 5.13 '$P' >b.csv &&
	python3 - <<'EOF'
import csv, re, sys
lb = [(int(t), c) for k, t, c in (l.split() for l in open('events.txt') if l[0] != 'f')
      if k == 'lbmove']
A = list(csv.DictReader(open('a.csv')))
B = list(csv.DictReader(open('b.csv')))
above = [(int(a['util_est']), int(b['util_est'])) for a, b in zip(A, B)
         if a['entity'] == 'task' and int(a['util_est']) > int(a['util_avg'])]
if not above or any(x % 2 == 0 for x, _ in above):
    sys.exit('v5.12 estimates above util_avg: %d, even ones among them' % len(above))
if not any(y % 2 == 0 for _, y in above):
    sys.exit('v5.13 prints no even estimate')
for a, b in zip(A, B):
    if all(a[k] == b[k] for k in a if k != 'util_est'):
        continue
    ts, cpu = int(a['ts_ns']), a['cpu']
    before = [c for t, c in lb if t <= ts]
    div = 46718 + int(b['period_contrib'])
    print('# %d task rows above util_avg; first difference at %d on CPU %s, last load balance from CPU %s'
          % (len(above), ts, cpu, before[-1] if before else '-'))
    sys.exit(a['entity'] != 'cfs_rq' or not before or before[-1] != cpu or
             int(b['util_sum']) != int(b['util_avg']) * div or
             int(b['runnable_sum']) != int(b['runnable_avg']) * div or
             a['util_sum'] == b['util_sum'])
sys.exit('no difference outside util_est')
EOF
"

test_expect_success 'v5.13 and v5.14 first differ at a cfs_rq that lost load' "
	$have_tc || exit 0
	cfsreplay signals --kernel 5.13 '$P' >a.csv &&
	cfsreplay signals --kernel 5.14 '$P' >b.csv &&
	python3 - <<'EOF'
import csv, re, sys
lost = [(int(t), c) for k, t, c in (l.split() for l in open('events.txt') if l[0] != 'f')]
A = list(csv.DictReader(open('a.csv')))
B = list(csv.DictReader(open('b.csv')))
for a, b in zip(A, B):
    if a == b:
        continue
    ts = int(a['ts_ns'])
    print('# first difference: %s on CPU %s at %d' % (a['entity'], a['cpu'], ts))
    sys.exit(a['entity'] != 'cfs_rq' or
             not any(t <= ts and c == a['cpu'] for t, c in lost))
sys.exit('no difference')
EOF
"
test_done
