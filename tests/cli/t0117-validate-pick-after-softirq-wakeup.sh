#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pick of a tick's __schedule() that keeps the task, with wakeups of
# the tick's softirq in between, in lock-step on traces/recorded.dat
# (v6.18, 2 CPUs).  entity_tick() asks for a resched; the interrupt's
# softirq wakes tasks of other CPUs (RCU, timers: sched_waking and
# sched_wakeup on this CPU, target another) before __schedule() runs;
# pick_task_fair()'s update_curr() reports the run time again, and its
# pick_next_entity() completes the delayed dequeue of a task it picks
# (the kernel's record of that task, on_rq and sched_delayed both 1, at
# the report's instant) before it picks the running task again: no
# switch.  Found here from trace-cmd's text and the pelt file alone: a
# report of the running task, only wakeups aimed at other CPUs since its
# previous report (within 100 us), no switch of it after, and a delayed
# task's record within 5 us.  The first group entity record on that CPU
# after each such pick is exact: the engine completed the dequeue there
# (it took a report after anything but another report as no pick).
. "$(dirname "$0")/lib.sh"

D=$TRACES/recorded.dat
K=$TRACES/recorded.pelt.jsonl.gz

cat >"$TRASH/picks.py" <<'PY'
import gzip, json, re, subprocess, sys
pelt, dat = sys.argv[1], sys.argv[2]
text = subprocess.run(['trace-cmd', 'report', '-i', dat], capture_output=True,
                      text=True, check=True).stdout
evs = []
for line in text.splitlines():
    m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s+(.*)', line)
    if m:
        ts = int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, '0')[:9])
        evs.append((ts, int(m.group(1)), m.group(4), m.group(5)))
recs = [json.loads(l) for l in gzip.open(pelt, 'rt')]
delayed = [d for d in recs if d.get('type') == 'se' and d.get('pid')
           and d['on_rq'] == 1 and d['sched_delayed'] == 1]
gse = sorted((d for d in recs if d.get('type') == 'gse'), key=lambda d: d['ts'])
def pid_of(e):
    return int(re.search(r'pid=(\d+)', e[3]).group(1))
for cpu in sorted({e[1] for e in evs}):
    ce = [e for e in evs if e[1] == cpu]
    for i, e in enumerate(ce):
        if e[2] != 'sched_stat_runtime':
            continue
        j, between = i - 1, []
        while j >= 0 and ce[j][2] != 'sched_stat_runtime':
            between.append(ce[j])
            j -= 1
        if j < 0 or not between or pid_of(ce[j]) != pid_of(e) or e[0] - ce[j][0] > 100000:
            continue
        if not all(b[2] in ('sched_waking', 'sched_wakeup') and
                   int(re.search(r'(?:target_cpu=|CPU:)(\d+)', b[3]).group(1)) != cpu
                   for b in between):
            continue
        if i + 1 < len(ce) and ce[i + 1][2] == 'sched_switch' and \
                ':%d ' % pid_of(e) in ce[i + 1][3].split('==>')[0]:
            continue
        if not any(d['rq_cpu'] == cpu and 0 <= d['ts'] - e[0] < 5000 for d in delayed):
            continue
        g = next(d for d in gse if d['rq_cpu'] == cpu and d['ts'] > e[0])
        print('%d.%09d cpu %d %s:' % (g['ts'] // 10**9, g['ts'] % 10**9, cpu, g['tg']))
PY

if ! command -v trace-cmd >/dev/null 2>&1; then
	test_skip 'picks after a tick with softirq wakeups' 'trace-cmd not installed'
	test_done
fi

test_expect_success 'the trace shows such picks' '
	python3 picks.py "$K" "$D" >after &&
	test "$(wc -l <after)" -ge 10
'

test_expect_success 'validate: the group entity records after them are exact' '
	cfsreplay validate --diffs 100000 --pelt "$K" "$D" >v.txt &&
	grep -q "^group entity updates compared" v.txt &&
	while read -r rec; do
		! grep -qF "  $rec" v.txt || return 1
	done <after
'

test_done
