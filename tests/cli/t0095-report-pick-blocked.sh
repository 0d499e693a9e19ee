#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The free-running engine's group entities on traces/eevdf-split.dat
# (docs/VALIDATION.md, "The kernel's EEVDF state taken in lock-step"):
# a group entity's weight changes with tg->load_avg, each change moves its
# vruntime (reweight_entity() places it again), and the kernel's
# update_blocked_averages() publishes the load a sleep left.  The kernel
# makes one in the periodic balance of the tick that follows a CPU's
# switch to idle (sched_balance_newidle()'s update_next_balance()): an
# independent script finds those ticks in trace-cmd's text and the
# kernel's passes in the capture (each pass updates the CPU's RT signal,
# a "rt" record), and checks that the kernel made one at nearly every such
# tick.  The engine, which makes those passes when no records time them,
# must then judge the picks through group entities nearly as the
# lock-step does with the kernel's own EEVDF state (at most 5 points
# below it; 66.3 % against 98.7 % before the passes were made).
. "$(dirname "$0")/lib.sh"

if ! command -v trace-cmd >/dev/null; then
	test_skip 'blocked-load passes on eevdf-split.dat' 'trace-cmd is not installed'
	test_done
fi

t=$TRACES/eevdf-split.dat
p=$TRACES/eevdf-split.pelt.jsonl.gz

test_expect_success 'eevdf-split: the kernel updates the blocked load at the tick after a switch to idle' "
	trace-cmd report -t '$t' >txt 2>/dev/null &&
	python3 - txt '$p' <<-'EOF'
	import bisect, gzip, json, re, sys
	rx = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s*(.*)$')
	ev = []
	for line in open(sys.argv[1]):
	    m = rx.search(line)
	    if m:
	        ev.append((int(m.group(2)) * 10**9 + int(m.group(3)), int(m.group(1)),
	                   m.group(4), m.group(5)))
	passes = {}
	for line in gzip.open(sys.argv[2], 'rt'):
	    r = json.loads(line)
	    if r.get('type') == 'rt':
	        passes.setdefault(r['rq_cpu'], []).append(r['ts'])
	for c in passes:
	    passes[c].sort()
	# after a switch to the idle task, the CPU's first run-time report more
	# than 0.5 ms later that no switch or report of that CPU follows within
	# 30 us: a tick's
	due, ticks = {}, []
	for i, (ts, cpu, kind, rest) in enumerate(ev):
	    if kind == 'sched_switch' and re.search(r'==> \S+:0 \[', rest):
	        due[cpu] = ts
	    elif kind == 'sched_stat_runtime' and cpu in due and ts - due[cpu] > 500000:
	        nxt = next((e for e in ev[i + 1:i + 40] if e[1] == cpu), None)
	        if nxt and nxt[0] - ts < 30000 and nxt[2] in ('sched_switch', 'sched_stat_runtime'):
	            continue
	        ticks.append((cpu, ts))
	        del due[cpu]
	hit = 0
	for cpu, ts in ticks:
	    k = passes.get(cpu, [])
	    j = bisect.bisect_left(k, ts)
	    hit += j < len(k) and k[j] - ts <= 300000
	print('# ticks after a switch to idle: %d, with a kernel pass within 300 us: %d' %
	      (len(ticks), hit))
	assert len(ticks) > 100 and hit >= 0.9 * len(ticks), (len(ticks), hit)
	EOF
"

test_expect_success 'eevdf-split: report judges the picks through groups as the lock-step does' "
	cfsreplay validate '$t' >val &&
	cfsreplay report --json '$t' >rep.json &&
	python3 - val rep.json <<-'EOF'
	import json, re, sys
	m = re.search(r'^pick check: .*through group entities (\d+), (\d+) agree', open(sys.argv[1]).read(), re.M)
	assert m, 'no pick check line'
	lock = 100 * int(m.group(2)) / int(m.group(1))
	t = json.load(open(sys.argv[2]))['pick_check']['total']
	free = 100 * t['groups_agrees'] / t['groups_contested']
	print('# through group entities: lock-step %.1f %%, report %.1f %% of %d' %
	      (lock, free, t['groups_contested']))
	assert t['groups_contested'] > 400 and lock > 95, (lock, t)
	assert free >= lock - 5, (free, lock)
	EOF
"

test_done
