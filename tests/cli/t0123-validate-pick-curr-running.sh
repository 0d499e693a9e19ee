#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pick that completes a delayed dequeue runs while prev is still each
# level's curr, in lock-step on traces/groups-nested.dat (v6.18, 2 CPUs).
# __schedule() picks before put_prev_task(): pick_task_fair() meets a
# delayed entity and dequeues it (dequeue_entities(DEQUEUE_DELAYED)),
# whose update_load_avg() ages each cfs_rq with cfs_rq->curr still set
# (prev's entity; a prev that blocked stays curr off the queue until
# put_prev_entity()), so the root counts that time as running.  The engine
# cleared prev's curr at its put before making the pick and aged the root
# as idle over the time since its last update.  Found from trace-cmd's
# text and the pelt file alone: a record of a delayed entity (on_rq and
# sched_delayed set) of a group entity or of a task other than the
# switch's prev, within 20 us before a sched_switch of its CPU; the root's
# record of that CPU that next crosses a period.  Seven of them (CPU 0,
# the delayed entity /autogroup-33's; the engine's util_sum was low by the
# time it counted idle, 9595 to 21597) are exact now: none is listed
# among the differing root records.
. "$(dirname "$0")/lib.sh"

D=$TRACES/groups-nested.dat
K=$TRACES/groups-nested.pelt.jsonl.gz

if ! command -v trace-cmd >/dev/null 2>&1; then
	test_skip 'picks that complete a delayed dequeue' 'trace-cmd not installed'
	test_done
fi

cat >"$TRASH/picks.py" <<'PY'
import gzip, json, re, subprocess, sys
pelt, dat = sys.argv[1], sys.argv[2]
text = subprocess.run(['trace-cmd', 'report', '-i', dat], capture_output=True, text=True,
                      check=True).stdout
sw = []
for line in text.splitlines():
    m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+sched_switch:\s+(.*)', line)
    if m:
        sw.append((int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, '0')[:9]),
                   int(m.group(1)), m.group(4)))
recs = sorted((json.loads(l) for l in gzip.open(pelt, 'rt')), key=lambda d: d.get('ts', 0))
recs = [d for d in recs if 'ts' in d]
roots = [d for d in recs if d.get('type') == 'cfs' and d.get('tg') == '/']
found = set()
for d in recs:
    if d.get('type') not in ('se', 'gse') or d['on_rq'] != 1 or d['sched_delayed'] != 1:
        continue
    cpu = d['rq_cpu']
    s = next((x for x in sw if x[1] == cpu and 0 <= x[0] - d['ts'] <= 20000), None)
    if not s or (d.get('pid') and ':%d ' % d['pid'] in s[2].split('==>')[0]):
        continue
    before = [r for r in roots if r['rq_cpu'] == cpu and r['ts'] <= d['ts']]
    if not before:
        continue
    period = before[-1]['last_update_time'] >> 20
    for r in roots:
        if r['rq_cpu'] != cpu or r['ts'] <= s[0]:
            continue
        if r['last_update_time'] >> 20 != period:
            found.add('%d.%09d %d' % (r['ts'] // 10**9, r['ts'] % 10**9, cpu))
            break
        period = r['last_update_time'] >> 20
for f in sorted(found):
    print(f)
PY

test_expect_success 'the trace and records show those picks' '
	python3 picks.py "$K" "$D" >found &&
	for t in 2184.484894988 2184.505584318 2184.557142202 2184.661580741 \
		2184.707578851 2184.903517238 2184.957141143; do
		grep -qx "$t 0" found || return 1
	done
'

test_expect_success 'validate: the root records after them are exact' '
	cfsreplay validate --diffs 100000 --pelt "$K" "$D" >v.txt &&
	grep -q "^root cfs_rq updates compared" v.txt &&
	for t in 2184.484894988 2184.505584318 2184.557142202 2184.661580741 \
		2184.707578851 2184.903517238 2184.957141143; do
		! grep -q "^  $t cpu 0 /:" v.txt || return 1
	done
'

test_done
