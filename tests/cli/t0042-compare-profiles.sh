#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compare and signals between neighbouring profiles show what the version
# history predicts, checked against the trace itself (trace-cmd report)
# and against the other model's rows, never against stored output:
#
# - v5.19 against v6.0: migrate_se_pelt_lag() (e2f3e35f1f5a, v6.0) ages a
#   task that a wakeup moves away from an idle CPU.  Every task whose
#   signal differs first differs at the first update after such a
#   migration, where v6.0's is the more decayed (the extra ageing has zero
#   inputs); every other task is identical.
# - v6.7 against v6.8: 11137d384996 folded util_est { enqueued, ewma }
#   into one u32.  With UTIL_EST_FASTUP the EWMA never ends below
#   enqueued, so _task_util_est() is the same in both: compare sees no
#   difference at all, and signals rows differ only in a task's util_est
#   column, which prints task_util_est() = max(util_avg, estimate) for the
#   pair layout and the raw u32 (EWMA | UTIL_AVG_UNCHANGED) from v6.8.
. "$(dirname "$0")/lib.sh"

T=$TRACES/recorded.dat

if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "# trace-cmd not found: the v5.19/v6.0 migration check is skipped"
	have_tc=false
else
	have_tc=true
fi

test_expect_success 'v5.19 and v6.0 differ only after wakeup migrations from idle CPUs' "
	$have_tc || exit 0
	trace-cmd report --raw-ts '$T' >report.txt 2>/dev/null &&
	cfsreplay signals --kernel 5.19 '$T' >a.csv &&
	cfsreplay signals --kernel 6.0 '$T' >b.csv &&
	python3 - <<'EOF'
import csv, re, sys

# per CPU, the task running after each switch; per pid, its migrations
# whose source CPU was idle then
curr = {}
idle_migr = {}
for line in open('report.txt'):
    m = re.search(r'\[(\d+)\]\s*(\d+): (\w+):\s+(.*)', line)
    if not m:
        continue
    cpu, ts, ev, rest = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    if ev == 'sched_switch':
        curr[cpu] = int(re.search(r'==> .*:(\d+) \[', rest).group(1))
    elif ev == 'sched_migrate_task':
        pid = int(re.search(r' pid=(\d+)', rest).group(1))
        src = int(re.search(r'orig_cpu=(\d+)', rest).group(1))
        if curr.get(src) == 0:
            idle_migr.setdefault(pid, []).append(ts)

A = list(csv.DictReader(open('a.csv')))
B = list(csv.DictReader(open('b.csv')))
key = lambda r: (r['ts_ns'], r['cpu'], r['entity'], r['pid'], r['path'])
if [key(r) for r in A] != [key(r) for r in B]:
    sys.exit('the two models made different updates')
prev = {}
seen = set()
first_diff = None
for i, (a, b) in enumerate(zip(A, B)):
    if a != b and first_diff is None:
        first_diff = a['entity']
    if a['entity'] != 'task':
        continue
    pid = int(a['pid'])
    if a != b and pid not in seen:
        seen.add(pid)
        lo, hi = prev.get(pid, 0), int(a['ts_ns'])
        if not any(lo <= t <= hi for t in idle_migr.get(pid, [])):
            sys.exit('pid %d differs at %d without a migration from an idle CPU' % (pid, hi))
        for s in ('load_sum', 'util_sum', 'runnable_sum', 'load_avg', 'util_avg'):
            if int(b[s]) > int(a[s]):
                sys.exit('pid %d: v6.0 %s %s above v5.19 %s' % (pid, s, b[s], a[s]))
        if int(b['load_sum']) >= int(a['load_sum']):
            sys.exit('pid %d: v6.0 not decayed further' % pid)
    prev[pid] = int(a['ts_ns'])
print('# tasks that differ: %s; wakeup migrations from idle CPUs: %d' %
      (sorted(seen), sum(len(v) for v in idle_migr.values())))
if not seen or first_diff != 'task':
    sys.exit('expected the first difference on a migrated task')
EOF
"

test_expect_success 'compare v5.19 v6.0: load differences on migrated tasks only' "
	$have_tc || exit 0
	cfsreplay compare --json --kernel 5.19 --kernel 6.0 '$T' >c.json &&
	python3 - <<'EOF'
import json, re, sys
curr, idle = {}, set()
for line in open('report.txt'):
    m = re.search(r'\[(\d+)\]\s*\d+: (\w+):\s+(.*)', line)
    if not m:
        continue
    if m.group(2) == 'sched_switch':
        curr[int(m.group(1))] = int(re.search(r'==> .*:(\d+) \[', m.group(3)).group(1))
    elif m.group(2) == 'sched_migrate_task':
        src = int(re.search(r'orig_cpu=(\d+)', m.group(3)).group(1))
        if curr.get(src) == 0:
            idle.add(int(re.search(r' pid=(\d+)', m.group(3)).group(1)))
d = json.load(open('c.json'))
differ = {t['pid'] for t in d['tasks'] if t['signals']['load_avg']['max_abs_diff']}
print('# compare: load_avg differs for %s' % sorted(differ))
sys.exit(not differ or not differ <= idle)
EOF
"

test_expect_success 'v6.7 and v6.8: compare sees no difference' "
	cfsreplay compare --json --kernel 6.7 --kernel 6.8 '$T' >c.json &&
	python3 - <<'EOF'
import json, sys
d = json.load(open('c.json'))
rows = d['cpus'] + d['tasks']
bad = [(r.get('pid', r.get('cpu')), s) for r in rows for s, v in r['signals'].items()
       if v['max_abs_diff']]
print('# rows compared: %d, with a difference: %d' % (len(rows), len(bad)))
sys.exit(len(rows) < 10 or bad != [])
EOF
"

test_expect_success 'v6.7 and v6.8 signals differ only in a task util_est, by max(util_avg, EWMA)' "
	cfsreplay signals --kernel 6.7 '$T' >a.csv &&
	cfsreplay signals --kernel 6.8 '$T' >b.csv &&
	python3 - <<'EOF'
import csv, sys
A = list(csv.DictReader(open('a.csv')))
B = list(csv.DictReader(open('b.csv')))
if len(A) != len(B) or len(A) < 1000:
    sys.exit('row counts %d %d' % (len(A), len(B)))
moved = 0
for a, b in zip(A, B):
    for k in a:
        if k != 'util_est' and a[k] != b[k]:
            sys.exit('%s differs: %s %s' % (k, a, b))
    if a['entity'] == 'task':
        want = max(int(b['util_avg']), int(b['util_est']) & 0x7fffffff)
        moved += int(b['util_est']) != want
    else:
        want = int(b['util_est'])
    if int(a['util_est']) != want:
        sys.exit('util_est %s, expected %d: %s' % (a['util_est'], want, b))
print('# task rows where the printed estimate differs from the raw u32: %d' % moved)
sys.exit(moved == 0)
EOF
"
test_done
