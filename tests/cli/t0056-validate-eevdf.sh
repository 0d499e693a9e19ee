#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The bundled traces/eevdf-split.dat (scripts/record-groups.sh split), whose
# kernel PELT capture carries the EEVDF state of each entity and cfs_rq
# (docs/PELT-CAPTURE.md): the capture's keys are read by an independent
# python check (present on every se, gse and cfs line; a vlag is kept
# within the clamp update_entity_lag() applies), and validate's lock-step
# takes them: its fidelity floors sit just below what is measured now
# (docs/VALIDATION.md), and the same capture without
# the EEVDF keys leaves fewer of the picks made through group entities
# agreeing with the kernel's (the group entities' vruntimes are then the
# model's own).
. "$(dirname "$0")/lib.sh"

t=$TRACES/eevdf-split.dat
p=$TRACES/eevdf-split.pelt.jsonl.gz

test_expect_success 'eevdf-split: every entity and cfs_rq line has its EEVDF keys' "
	python3 - '$p' <<-'EOF'
	import gzip, json, sys
	n = {'se': 0, 'gse': 0, 'cfs': 0}
	for line in gzip.open(sys.argv[1], 'rt'):
	    r = json.loads(line)
	    k = r.get('type')
	    if k in ('se', 'gse'):
	        for key in ('vruntime', 'deadline', 'vlag', 'slice', 'rel_deadline', 'curr'):
	            assert key in r, (key, r)
	        # a task's slice is set at fork; a group entity never queued has none
	        assert r['slice'] > 0 if k == 'se' else r['slice'] >= 0, r
	        # off its cfs_rq, vlag is the lag update_entity_lag() clamped to
	        # the service of max(2 slices, a tick): at most 2 * 2.8 ms at the
	        # lightest task weight seen here (nice 0) or group weight (>= 2)
	        if r['on_rq'] == 0 and k == 'se':
	            limit = max(2 * r['slice'], 4000000) * 1024 // max(r['weight'] >> 10, 2)
	            assert abs(r['vlag']) <= limit, (limit, r)
	    elif k == 'cfs':
	        for key in ('zero_vruntime', 'avg_vruntime', 'avg_load', 'curr_vruntime', 'curr_weight'):
	            assert key in r, (key, r)
	        assert (r['curr_weight'] == 0) == (r['curr_vruntime'] == 0), r
	    else:
	        continue
	    n[k] += 1
	assert min(n.values()) > 500, n
	print('#', n)
	EOF
"

test_expect_success 'eevdf-split: validate takes the EEVDF state, fidelity floors' "
	cfsreplay validate '$t' >val &&
	python3 - val <<-'EOF'
	import re, sys
	t = open(sys.argv[1]).read()
	m = re.search(r'^EEVDF state: +taken from (\d+) entity records, not from (\d+) .*; '
	              r'(\d+) delayed tasks the kernel had dequeued; '
	              r'cfs_rq sums read (\d+) times, the model.s equal (\d+) times', t, re.M)
	assert m, 'no EEVDF line'
	taken, not_taken, dequeued, read, equal = map(int, m.groups())
	print('#', m.group(0))
	assert taken > 2000 and not_taken < taken / 50 and equal >= 0.8 * read, m.groups()
	for kind, floor in (('task', 99.1), ('group entity', 96), ('root cfs_rq', 92.1),
	                    ('group cfs_rq', 99.4)):
	    m = re.search(r'^%s updates compared: (\d+), all fields exact: (\d+)' % kind, t, re.M)
	    assert m and int(m.group(1)) > 500, (kind, m and m.group(0))
	    pct = 100 * int(m.group(2)) / int(m.group(1))
	    print('# %s: %.2f %% exact (floor %s)' % (kind, pct, floor))
	    assert pct >= floor, (kind, pct, floor)
	for what in ('tasks', 'group entities'):
	    m = re.search(r'^%s: .*delayed state differs: (\d+)' % what, t, re.M)
	    assert m and int(m.group(1)) <= 1, (what, m and m.group(0))
	EOF
"

test_expect_success 'eevdf-split: without the EEVDF keys, fewer group picks agree' "
	python3 - '$p' stripped.pelt.jsonl.gz <<-'EOF' &&
	import gzip, json, sys
	keys = {'vruntime', 'deadline', 'vlag', 'slice', 'rel_deadline', 'curr', 'zero_vruntime',
	        'avg_vruntime', 'avg_load', 'curr_vruntime', 'curr_weight'}
	with gzip.open(sys.argv[1], 'rt') as f, gzip.open(sys.argv[2], 'wt') as o:
	    for line in f:
	        r = json.loads(line)
	        if r.get('type') != 'hdr':
	            r = {k: v for k, v in r.items() if k not in keys}
	        o.write(json.dumps(r, separators=(',', ':')) + '\n')
	EOF
	cfsreplay validate --pelt stripped.pelt.jsonl.gz '$t' >plain &&
	cfsreplay validate '$t' >val &&
	! grep -q '^EEVDF state:' plain &&
	sed -n 's/^pick check: .*through group entities [0-9]*, \([0-9]*\) agree.*/\1/p' plain >without &&
	sed -n 's/^pick check: .*through group entities [0-9]*, \([0-9]*\) agree.*/\1/p' val >with &&
	test -s without && test -s with && test \$(cat with) -gt \$(cat without)
"

test_done
