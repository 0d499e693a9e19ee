#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --perf-cgroups cpu of validate and compare, on traces/perf-groups.* (one
# run recorded at once by `cfsreplay record` and by `perf record -a
# --all-cgroups`; scripts/record-perf-groups.sh): workers a0 (CPU 0) and
# a1 (CPU 1) in /cfsr-pg-a from the start, a1 moved to /cfsr-pg-b
# half-way; the kernel also had an autogroup, which perf's cgroups do not
# name (its tasks are in perf's root cgroup).
# - validate --perf-cgroups --pelt: the model's groups are perf's, the
#   records' only compared.  The group cfs_rqs it compares are those of
#   the pelt file's non-autogroup paths, each as many records as with the
#   records' own groups; the autogroup's records are those of a group the
#   model lacks; the task records that name another group than the
#   model's are those naming the autogroup (the pelt file, read here).
#   Without the option the records' groups, the autogroup among them.
# - compare TRACE_A TRACE_B: B, the perf.data, groups the same tasks as A,
#   the trace.dat (its snapshots); the run time per group is that of the
#   sched_switch intervals of `perf script` charged to the group each
#   task was in at its switch-out (the attach of perf's hierarchy moves
#   a1).  Without the option B has no group but the root.
# - compare --kernel: both models hold the same groups, the same run time.
# - Refusals: with --clock FILE, on a trace that is not a perf.data (or
#   neither of two), on a perf.data without cgroup ids, validate without
#   kernel records, an argument other than cpu.
. "$(dirname "$0")/lib.sh"

D=$TRACES/perf-groups.dat
P=$TRACES/perf-groups.perf.data
K=$TRACES/perf-groups.pelt.jsonl.gz
T=$TRACES/perf-groups.tasks

# validate's group cfs_rq table as "path compared exact", then "absent N"
cat >"$TRASH/paths.py" <<'PY'
import re, sys
rows, on = [], False
for l in open(sys.argv[1]):
    if l.startswith('group cfs_rq updates of'):
        on = True
        continue
    m = re.match(r'records of group cfs_rqs of a group the model does not have: (\d+)', l)
    if m:
        print('absent', m.group(1))
        break
    if on:
        p, n, e, _ = l.split()
        print(p, n, e)
PY

# the pelt file's group cfs_rq records per path, within the trace's span
# (the records are on the perf clock, as the perf.data), and the task
# records naming an autogroup
cat >"$TRASH/pelt.py" <<'PY'
import collections, gzip, json, sys
first, last = int(sys.argv[2]), int(sys.argv[3])
cfs, auto_se = collections.Counter(), 0
for l in gzip.open(sys.argv[1], 'rt'):
    d = json.loads(l)
    if d.get('type') == 'cfs' and d.get('level', 0) > 0 and d['ts'] <= last:
        cfs[d['tg']] += 1
    if d.get('type') == 'se' and d.get('parent_tg', '').startswith('/autogroup-'):
        auto_se += 1
for p in sorted(cfs):
    print(p, cfs[p])
print('auto_se', auto_se)
PY

test_expect_success 'validate --perf-cgroups: the pelt file group cfs_rqs per path, the autogroup absent' '
	cfsreplay info --json "$P" >pinfo.json &&
	python3 -c "import json; d = json.load(open(\"pinfo.json\")); print(d[\"first_ts\"], d[\"last_ts\"])" >span &&
	read from to <span &&
	python3 pelt.py "$K" "$from" "$to" >pelt.txt &&
	cfsreplay validate --perf-cgroups cpu --pelt "$K" "$P" >vp.txt 2>vp.err &&
	cfsreplay validate --pelt "$K" "$P" >vk.txt 2>vk.err &&
	grep -q "^task groups: *the perf.data.s cgroups, taken as the cpu controller.s" vp.txt &&
	grep -q "^task groups: *the kernel records. (each task in the group they name)" vk.txt &&
	grep -q "task groups from the perf.data.s cgroups" vp.err && ! grep -q perf-cgroups vk.err &&
	grep -q "moved to the record.s group: 0;" vp.txt &&
	python3 paths.py vp.txt >vp.paths && python3 paths.py vk.txt >vk.paths &&
	python3 - pelt.txt vp.paths vk.paths vp.txt <<-PY
	import re, sys
	pelt = dict(l.split() for l in open(sys.argv[1]))
	auto_se = int(pelt.pop("auto_se"))
	def table(f):
	    t = {}
	    for l in open(f):
	        w = l.split()
	        t[w[0]] = int(w[1]) if w[0] == "absent" else (int(w[1]), int(w[2]))
	    return t
	vp, vk = table(sys.argv[2]), table(sys.argv[3])
	ap, ak = vp.pop("absent"), vk.pop("absent")
	auto = {p for p in pelt if p.startswith("/autogroup-")}
	assert auto, pelt
	# with the records groups: every group path of the file; with perf: all but the autogroups
	assert set(vk) == set(pelt), (vk, pelt)
	assert set(vp) == set(pelt) - auto, (vp, pelt)
	for p in vp:
	    # the same records compared, at most those of the file; as exact within 2 %
	    assert vp[p][0] == vk[p][0] <= int(pelt[p]), (p, vp[p], vk[p], pelt[p])
	    assert vp[p][0] * 10 >= int(pelt[p]) * 9, (p, vp[p], pelt[p])
	    assert abs(vp[p][1] - vk[p][1]) * 50 <= vp[p][0], (p, vp[p], vk[p])
	# the autogroup records: of a group the model (perf) does not have
	assert ap - ak == sum(int(pelt[p]) for p in auto), (ap, ak, pelt)
	m = re.search(r"task records naming another group than the model.s: (\d+)", open(sys.argv[4]).read())
	assert m and int(m.group(1)) == auto_se, (m and m.group(1), auto_se)
	PY
'

# "path tasks runtime_ns" of a side's or a model's task_groups
cat >"$TRASH/groups.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d['traces'][int(sys.argv[2])] if 'traces' in d else d['models'][int(sys.argv[2])]
g = g['task_groups']
print('source', g['source'])
for x in sorted(g['groups'], key=lambda x: x['path']):
    print(x['path'], x['tasks'], x['runtime_ns'])
PY

test_expect_success 'compare TRACE.dat PERF.data --perf-cgroups: B groups the tasks as A' '
	cfsreplay compare --json --perf-cgroups cpu "$D" "$P" >c1.json 2>c1.err &&
	cfsreplay compare --json "$D" "$P" >c0.json 2>c0.err &&
	cfsreplay compare --perf-cgroups cpu "$D" "$P" >c1.txt 2>/dev/null &&
	grep -q "task groups from the perf.data.s cgroups" c1.err && ! grep -q perf-cgroups c0.err &&
	python3 groups.py c1.json 0 >a.g && python3 groups.py c1.json 1 >b.g &&
	python3 groups.py c0.json 1 >b0.g &&
	grep -q "^source the trace.s snapshots" a.g &&
	grep -q "^source the perf.data.s cgroups" b.g &&
	grep -q "^source none" b0.g &&
	test "$(grep -c "^/" b0.g)" -eq 1 && grep -q "^/ " b0.g &&
	grep "^/cfsr-pg-" a.g | cut -d" " -f1,2 >a.n && grep "^/cfsr-pg-" b.g | cut -d" " -f1,2 >b.n &&
	printf "/cfsr-pg-a 2\n/cfsr-pg-b 1\n" >want.n && cmp want.n a.n && cmp want.n b.n &&
	grep -q "^CPU time per task group" c1.txt &&
	grep -q "groups of B: the perf.data.s cgroups (--perf-cgroups=cpu, assumed)" c1.txt &&
	grep -q "^/cfsr-pg-b  *1/1 " c1.txt
'

if command -v perf >/dev/null; then
	test_expect_success 'compare --perf-cgroups: run time per group as perf script shows it' '
		perf_cgroup_events "$P" >events.txt &&
		python3 - events.txt "$T" b.g <<-PY
		import sys
		tasks = dict(l.split() for l in open(sys.argv[2]))
		ev = [l.split() for l in open(sys.argv[1])]
		names = {w[1]: w[2] for w in ev if w[0] == "cgroup"}
		# the hierarchy of perf: that of the attaches whose cgroup id and path a CGROUP record gives
		roots = {w[2] for w in ev if w[0] == "attach" and names.get(w[3]) == w[4]}
		assert len(roots) == 1, roots
		moves = sorted((int(w[1]), w[5], w[4]) for w in ev if w[0] == "attach" and w[2] in roots)
		switches = sorted((int(w[1]), w[2], w[3]) for w in ev if w[0] == "switch")
		def group(pid, ts):
		    g = "/cfsr-pg-a" if pid in (tasks["a0"], tasks["a1"]) else "/"
		    for t, p, path in moves:
		        if p == pid and t < ts:
		            g = path
		    return g
		run, who, since = {}, {}, {}
		for ts, cpu, pid in switches:
		    if cpu in since and pid != "0":
		        g = group(pid, ts)
		        run[g] = run.get(g, 0) + ts - since[cpu]
		        who.setdefault(g, set()).add(pid)
		    since[cpu] = ts
		got = {}
		for l in open(sys.argv[3]):
		    w = l.split()
		    if w[0] != "source":
		        got[w[0]] = (int(w[1]), int(w[2]))
		for g in ("/cfsr-pg-a", "/cfsr-pg-b"):
		    assert got[g] == (len(who[g]), run[g]), (g, got[g], len(who[g]), run[g])
		PY
	'
else
	test_skip 'compare --perf-cgroups: run time per group as perf script shows it' 'perf is not installed'
fi

test_expect_success 'compare --kernel --perf-cgroups: both models hold the groups of the two-trace form' '
	cfsreplay compare --json --kernel 6.6 --perf-cgroups cpu "$P" >k1.json 2>k1.err &&
	cfsreplay compare --json --kernel 6.6 "$P" >k0.json 2>/dev/null &&
	grep -q "task groups from the perf.data.s cgroups" k1.err &&
	python3 groups.py k1.json 0 >ka.g && python3 groups.py k1.json 1 >kb.g &&
	python3 groups.py k0.json 0 >k0.g &&
	cmp ka.g kb.g && cmp ka.g b.g &&
	grep -q "^source none" k0.g && test "$(grep -c "^/" k0.g)" -eq 1 &&
	cfsreplay compare --kernel 6.6 --perf-cgroups cpu "$P" >k1.txt 2>/dev/null &&
	grep -q "^/cfsr-pg-a  *2/2 " k1.txt && grep -q "^/cfsr-pg-b  *1/1 " k1.txt
'

# refused CMD... PATTERN: exit 2, nothing on stdout, PATTERN on stderr
refused() {
	local want=$1
	shift
	cfsreplay "$@" >out 2>err
	test $? -eq 2 && test ! -s out && grep -q "$want" err
}

test_expect_success 'compare --perf-cgroups refused with --clock, without a perf.data or cgroup ids' '
	refused "give one" compare --kernel 6.6 --perf-cgroups cpu --clock "$K" "$P" &&
	refused "is a trace.dat, not a perf.data" compare --kernel 6.6 --perf-cgroups cpu "$D" &&
	refused "neither .* is one" compare --perf-cgroups cpu "$D" "$TRACES/periodic.dat" &&
	refused "no samples with cgroup ids" compare --perf-cgroups cpu "$D" "$TRACES/periodic.perf.data" &&
	refused "no samples with cgroup ids" compare --kernel 6.6 --perf-cgroups cpu "$TRACES/periodic.perf.data" &&
	refused "takes cpu" compare --perf-cgroups memory "$D" "$P"
'

test_expect_success 'validate --perf-cgroups refused without a perf.data, cgroup ids or kernel records' '
	refused "is a trace.dat, not a perf.data" validate --perf-cgroups cpu "$D" &&
	refused "is a trace.dat, not a perf.data" validate --perf-cgroups cpu --pelt "$K" "$D" &&
	refused "no samples with cgroup ids" validate --perf-cgroups cpu --pelt "$K" "$TRACES/periodic.perf.data" &&
	refused "needs the kernel.s records of the run" validate --perf-cgroups cpu "$P" &&
	refused "takes cpu" validate --perf-cgroups memory --pelt "$K" "$P" &&
	refused "unknown option" validate --perf-cgroups cpu --clock "$K" "$P"
'

test_done
