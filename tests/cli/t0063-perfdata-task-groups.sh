#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Task groups of a perf.data (traces/perf-groups.*: one run recorded at
# once by `cfsreplay record` and by `perf record -a --all-cgroups` with the
# sched and cgroup tracepoints; scripts/record-perf-groups.sh).  The cpu
# controller is on cgroup v1 (hierarchy 1), perf_event on v2 (0); the
# workload mirrors its cpu groups in v2: workers a0 (CPU 0) and a1 (CPU 1)
# in /cfsr-pg-a from before the start, a1 moved to /cfsr-pg-b half-way
# (v1 first, then v2).
# - Without an option, signals on the perf.data has no group rows and
#   info says why, naming the option.
# - With the kernel's PELT updates of the run as --clock (which name each
#   task's group), the perf.data's cgroup_attach_task events move tasks
#   as the trace.dat's do: group cfs_rqs on the same CPUs, the move at the
#   v1 attach (the same event, stamped by each tracer: within 2 us), as
#   many rows per group cfs_rq in the trace.dat's span.
# - --perf-cgroups=cpu: the groups come from the samples' cgroups and the
#   attaches of perf's hierarchy; the (CPU, group) pairs and the move's
#   instant are those an independent reading of `perf script` gives, and
#   the pairs those of the trace.dat's own replay (snapshots, v1 attaches),
#   whose move is at the v1 attach, as `trace-cmd report` shows it.
# - report --perf-cgroups=cpu counts the two groups and says what it
#   assumes; without it, none, and why.
# - --perf-cgroups is refused with a --clock file, on a perf.data whose
#   samples carry no cgroup id, and with another argument than cpu.
. "$(dirname "$0")/lib.sh"

D=$TRACES/perf-groups.dat
P=$TRACES/perf-groups.perf.data
K=$TRACES/perf-groups.pelt.jsonl.gz
T=$TRACES/perf-groups.tasks

# groups CSV [FROM TO]: "cpu path rows first last" of each group cfs_rq
# (not the root, not an autogroup), rows within [FROM, TO] when given
groups() {
	awk -F, -v from="${2:-0}" -v to="${3:-99999999999999999}" '
		$3 == "cfs_rq" && $5 != "/" && $5 !~ /^\/autogroup-/ && $1 >= from && $1 <= to {
			k = $2 " " $5; if (!(k in f)) f[k] = $1; l[k] = $1; n[k]++ }
		END { for (k in f) print k, n[k], f[k], l[k] }' "$1" | sort
}

test_expect_success 'without an option: no group rows, info says why and names the option' "
	cfsreplay signals '$P' >plain.csv 2>plain.err &&
	test \$(wc -l <plain.csv) -gt 1000 &&
	test -z \"\$(groups plain.csv)\" &&
	! grep -q 'perf-cgroups' plain.err &&
	cfsreplay info '$P' >info.txt &&
	grep -q '^  membership: *unknown: .*--perf-cgroups=cpu of signals, report, validate and compare' info.txt
"

test_expect_success 'the trace.dat span and the workers' "
	cfsreplay info --json '$D' >dinfo.json &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[\"first_ts\"], d[\"last_ts\"])' dinfo.json >span &&
	read from to <span && test \"\$to\" -gt \"\$from\" &&
	a0=\$(awk '\$1 == \"a0\" { print \$2 }' '$T') && a1=\$(awk '\$1 == \"a1\" { print \$2 }' '$T') &&
	test -n \"\$a0\" && test -n \"\$a1\"
"

test_expect_success '--clock PELT: the perf.data attaches move tasks as the trace.dat ones do' "
	read from to <span &&
	cfsreplay signals --clock '$K' '$D' >kd.csv 2>kd.err &&
	cfsreplay signals --clock '$K' '$P' >kp.csv 2>kp.err &&
	groups kd.csv \$from \$to >kd.g && groups kp.csv \$from \$to >kp.g &&
	sed 's/^/# trace.dat: /' kd.g && sed 's/^/# perf.data: /' kp.g &&
	test \$(wc -l <kd.g) -eq 3 &&
	cut -d' ' -f1-3 kd.g >kd.n && cut -d' ' -f1-3 kp.g >kp.n && cmp kd.n kp.n &&
	db=\$(awk '\$2 == \"/cfsr-pg-b\" { print \$4 }' kd.g) && pb=\$(awk '\$2 == \"/cfsr-pg-b\" { print \$4 }' kp.g) &&
	test \$((db - pb)) -ge -2000 && test \$((db - pb)) -le 2000
"

if command -v perf >/dev/null; then
	test_expect_success '--perf-cgroups=cpu: groups, CPUs and move as perf script shows them' "
		cfsreplay signals --perf-cgroups=cpu '$P' >pg.csv 2>pg.err &&
		sed 's/^/# /' pg.err &&
		grep -q '2 tasks in a group from their first sample, 1 moved at cgroup_attach_task of perf.s hierarchy 0, 0 moved at a sample' pg.err &&
		grep -q 'shares 1024' pg.err &&
		perf script -i '$P' --show-cgroup-events --ns -F comm,tid,cpu,time,event,trace >script.txt 2>/dev/null &&
		python3 - script.txt '$T' pg.csv <<'PY'
import csv, re, sys
lines = open(sys.argv[1]).read().splitlines()
tasks = dict(l.split() for l in open(sys.argv[2]))
names = {}
attaches = []
runs = []
for l in lines:
    m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+PERF_RECORD_CGROUP cgroup: (\d+) (\S+)', l)
    if m:
        names[int(m.group(4))] = m.group(5)
        continue
    m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+cgroup:cgroup_attach_task: dst_root=(\d+) dst_id=(\d+) dst_level=\d+ dst_path=(\S+) pid=(\d+)', l)
    if m:
        attaches.append((int(m.group(2)) * 10**9 + int(m.group(3)), int(m.group(4)), int(m.group(5)), m.group(6), m.group(7)))
        continue
    m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+sched:sched_switch: .*prev_pid=(\d+) .*next_pid=(\d+)', l)
    if m:
        ts = int(m.group(2)) * 10**9 + int(m.group(3))
        runs.append((ts, int(m.group(1)), m.group(4)))
        runs.append((ts, int(m.group(1)), m.group(5)))
# perf's hierarchy: that of the attaches whose cgroup id and path a CGROUP record gives
roots = {root for _, root, i, path, _ in attaches if names.get(i) == path}
assert len(roots) == 1, roots
root = roots.pop()
moves = sorted((ts, pid, path) for ts, r, _, path, pid in attaches if r == root)
assert [(p, g) for _, p, g in moves] == [(tasks['a1'], '/cfsr-pg-b')], moves
def group(pid, ts):
    g = '/cfsr-pg-a' if pid in (tasks['a0'], tasks['a1']) else '/'
    for t, p, path in moves:
        if p == pid and t <= ts:
            g = path
    return g
want = {(cpu, group(pid, ts)) for ts, cpu, pid in runs} - {(0, '/'), (1, '/')}
got, first, last = set(), {}, {}
for r in csv.DictReader(open(sys.argv[3])):
    if r['entity'] != 'cfs_rq' or r['path'] == '/':
        continue
    k = (int(r['cpu']), r['path'])
    got.add(k)
    first.setdefault(k, int(r['ts_ns']))
    last[k] = int(r['ts_ns'])
assert got == want, (got, want)
mts = moves[0][0]
# at the attach, or at the run-time report of the dequeue that began the move (one tick)
assert mts - 4000000 <= first[(1, '/cfsr-pg-b')] <= mts, (first, mts)
assert last[(1, '/cfsr-pg-a')] <= mts, (last, mts)
print('# perf hierarchy %d, groups %s, move at %d' % (root, sorted(got), mts))
PY
	"
else
	test_skip '--perf-cgroups=cpu: groups, CPUs and move as perf script shows them' 'perf is not installed'
fi

test_expect_success '--perf-cgroups=cpu: the group cfs_rqs of the trace.dat of the run, moved at its v1 attach' "
	read from to <span &&
	cfsreplay signals --perf-cgroups=cpu '$P' >pg.csv 2>/dev/null &&
	cfsreplay signals '$D' >d.csv 2>d.err &&
	groups pg.csv \$from \$to >pg.g && groups d.csv \$from \$to >d.g &&
	sed 's/^/# perf.data: /' pg.g && sed 's/^/# trace.dat: /' d.g &&
	cut -d' ' -f1,2 pg.g >pg.n && cut -d' ' -f1,2 d.g >d.n && cmp d.n pg.n &&
	test \$(wc -l <d.n) -eq 3 &&
	trace-cmd report -t '$D' 2>/dev/null >d.txt &&
	grep -c 'cgroup_attach_task' d.txt >n.att && test \$(cat n.att) -eq 2 &&
	v1=\$(sed -n 's/.* \\([0-9]*\\)\\.\\([0-9]*\\): *cgroup_attach_task: *dst_root=1 .*dst_path=\\/cfsr-pg-b .*/\\1\\2/p' d.txt) &&
	v2=\$(sed -n 's/.* \\([0-9]*\\)\\.\\([0-9]*\\): *cgroup_attach_task: *dst_root=0 .*dst_path=\\/cfsr-pg-b .*/\\1\\2/p' d.txt) &&
	echo \"# attaches in the trace.dat: v1 \$v1, v2 \$v2\" &&
	test -n \"\$v1\" && test \"\$v2\" -gt \"\$v1\" &&
	db=\$(awk '\$2 == \"/cfsr-pg-b\" { print \$4 }' d.g) && pb=\$(awk '\$2 == \"/cfsr-pg-b\" { print \$4 }' pg.g) &&
	test \$((v1 - db)) -ge 0 && test \$((v1 - db)) -le 4000000 &&
	test \$((v2 - pb)) -ge -2000 && test \$((v2 - pb)) -le 4000000 &&
	test \"\$(awk '\$2 == \"/cfsr-pg-b\" { print \$3 }' d.g)\" = \"\$(awk '\$2 == \"/cfsr-pg-b\" { print \$3 }' pg.g)\"
"

# traces/perf-cgroups.data (t0060) holds no cgroup tracepoint: its worker
# B, pinned to CPU 1, went from perf's root to /cfsr-pc-b and then to
# /cfsr-pc-late, made mid-run; the option (not true of that machine)
# moves it at its first sample in each
if command -v perf >/dev/null; then
	test_expect_success '--perf-cgroups=cpu without attaches: moves at a sample in another cgroup' "
		cfsreplay signals --perf-cgroups=cpu '$TRACES/perf-cgroups.data' >pc.csv 2>pc.err &&
		grep -q '0 tasks in a group from their first sample, no cgroup_attach_task of perf.s hierarchy, 2 moved at a sample' pc.err &&
		perf script -i '$TRACES/perf-cgroups.data' --show-cgroup-events --ns -F comm,tid,cpu,time,event,trace >pcs.txt 2>/dev/null &&
		python3 - pcs.txt '$TRACES/perf-cgroups.tasks' pc.csv <<'PY'
import csv, re, sys
b = [l.split()[1] for l in open(sys.argv[2]) if l.startswith('B ')][0]
made = {}
b_ts = set()
for l in open(sys.argv[1]):
    m = re.match(r'\\s*(.*?)\\s+(-?\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d+):\\s+(.*)', l)
    if not m:
        continue
    ts = int(m.group(4)) * 10**9 + int(m.group(5))
    c = re.match(r'PERF_RECORD_CGROUP cgroup: \\d+ (\\S+)', m.group(6))
    if c:
        made[c.group(1)] = ts
    elif m.group(2) == b:
        b_ts.add(ts)
first = {}
for r in csv.DictReader(open(sys.argv[3])):
    if r['entity'] == 'cfs_rq' and r['path'] != '/':
        first.setdefault((int(r['cpu']), r['path']), int(r['ts_ns']))
assert set(first) == {(1, '/cfsr-pc-b'), (1, '/cfsr-pc-late')}, first
for k, ts in first.items():
    # at one of B's own samples, after perf learnt of the cgroup
    assert ts in b_ts and ts >= made[k[1]], (k, ts, made)
print('# B moved at its samples', sorted(first.items(), key=lambda x: x[1]))
PY
	"
else
	test_skip '--perf-cgroups=cpu without attaches: moves at a sample in another cgroup' 'perf is not installed'
fi

test_expect_success 'report --perf-cgroups=cpu: the two non-root cgroups, flagged as assumed' "
	cfsreplay report --json '$P' >r0.json &&
	cfsreplay report --json --perf-cgroups=cpu '$P' >r1.json &&
	cfsreplay report --perf-cgroups=cpu '$P' >r1.txt &&
	grep -q 'taken as the cpu' r1.txt && grep -q 'every group.s shares 1024' r1.txt &&
	python3 - r0.json r1.json <<'PY'
import json, sys
g0 = json.load(open(sys.argv[1]))['groups']
g1 = json.load(open(sys.argv[2]))['groups']
assert g0['groups'] == 0 and g0['perf_cgroup_membership'].startswith('unknown'), g0
assert g1['groups'] == 2 and g1['perf_cgroup_membership'].startswith('assumed'), g1
assert 'shares 1024' in g1['perf_cgroup_membership'], g1
PY
"

test_expect_success '--perf-cgroups refused with a --clock file, without cgroup ids, or not cpu' "
	{ cfsreplay signals --perf-cgroups=cpu --clock '$K' '$P' >out 2>err; test \$? -eq 2; } &&
	test ! -s out && grep -q 'give one' err &&
	{ cfsreplay signals --perf-cgroups=cpu '$TRACES/periodic.perf.data' >out 2>err; test \$? -eq 2; } &&
	grep -q 'no samples with cgroup ids' err &&
	{ cfsreplay signals --perf-cgroups=memory '$P' >out 2>err; test \$? -eq 2; } &&
	grep -q 'takes cpu' err &&
	{ cfsreplay report --perf-cgroups=cpu --clock '$K' '$P' >out 2>err; test \$? -eq 2; } &&
	grep -q 'give one' err
"

test_done
