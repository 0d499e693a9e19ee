#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cgroup_mkdir of the cpu controller's hierarchy in lock-step, on
# traces/perf-groups.dat (v6.18, 2 CPUs; /cfsr-pg-b made half-way, in
# hierarchy 1, the cpu controller's, and mirrored in hierarchy 0).
# online_fair_sched_group() attaches the new group entity, its averages
# zero, to the root cfs_rq of each CPU: attach_entity_load_avg() gives it
# load_sum max(1, 0) = 1 (v5.18+), so the root gains 1024 x 1 in load_sum,
# nothing in load_avg, and add_tg_cfs_propagate(1).  The kernel's records
# show it (read here from the pelt file, independently of the model): per
# CPU, a root cfs_rq record at the same last_update_time as the one
# before, load_sum + 1024, prop_runnable_sum + 1, the rest equal.  Those
# records are not compared (no period crossed), the one before is taken;
# the root's next record then holds the attach's 1024, decayed by the
# periods between: 1024 y^p.  validate models one mkdir (hierarchy 0's
# counted as another's), two attaches, and none of those next records
# differs from the model by that decayed amount in load_sum (a model
# without the attach would: the CPU whose record before was taken exact
# except for it); at least one is exact.
. "$(dirname "$0")/lib.sh"

D=$TRACES/perf-groups.dat
K=$TRACES/perf-groups.pelt.jsonl.gz

cat >"$TRASH/attach.py" <<'PY'
import gzip, json, sys
recs = {}
for l in gzip.open(sys.argv[1], 'rt'):
    d = json.loads(l)
    if d.get('type') == 'cfs' and d.get('tg') == '/':
        recs.setdefault(d['rq_cpu'], []).append(d)
for cpu, rs in sorted(recs.items()):
    rs.sort(key=lambda d: d['ts'])
    for i in range(1, len(rs) - 1):
        a, b = rs[i - 1], rs[i]
        if (a['last_update_time'] == b['last_update_time'] and
                b['load_sum'] - a['load_sum'] == 1024 and
                b['prop_runnable_sum'] - a['prop_runnable_sum'] == 1 and
                (a['load_avg'], a['util_sum'], a['runnable_sum']) ==
                (b['load_avg'], b['util_sum'], b['runnable_sum'])):
            n = rs[i + 1]
            p = ((n['last_update_time'] - b['last_update_time']) // 1024 +
                 b['period_contrib']) // 1024
            print(cpu, n['ts'], int(1024 * 0.5 ** (p / 32)))
PY

test_expect_success 'the kernel records show the attach on each CPU' '
	python3 attach.py "$K" >attach.txt &&
	test "$(cut -d" " -f1 attach.txt | sort -u | wc -l)" -eq 2 &&
	test "$(wc -l <attach.txt)" -eq 2
'

test_expect_success 'validate: the mkdir attaches the group entities, the root next record holds them' '
	cfsreplay validate --diffs 1000 --pelt "$K" "$D" >v.txt &&
	grep -q "^groups: .* 1 made at a cgroup_mkdir (2 group entities attached), 0 removed at a cgroup_rmdir (0 CPUs still queuing there), 1 mkdir and rmdir of other hierarchies$" v.txt &&
	python3 - attach.txt v.txt <<-PY
	import re, sys
	diffs = {}
	for l in open(sys.argv[2]):
	    m = re.match(r"  (\d+)\.(\d{9}) cpu (\d+) /: load_sum (\d+)/(\d+)", l)
	    if m:
	        diffs[(int(m.group(1)) * 10**9 + int(m.group(2)), int(m.group(3)))] = \
	            int(m.group(5)) - int(m.group(4))
	exact = 0
	for l in open(sys.argv[1]):
	    cpu, ts, gain = map(int, l.split())
	    d = diffs.get((ts, cpu))
	    if d is None:
	        exact += 1
	    else:
	        assert abs(d - gain) > 2, (cpu, ts, d, gain)
	assert exact >= 1, diffs
	PY
'

test_done
