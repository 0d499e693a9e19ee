#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SCHED_IDLE tasks and the autogroup in lock-step, on the perf-groups run
# (traces/perf-groups.*: v6.18, 2 CPUs; a SCHED_IDLE spinner per CPU,
# started from a shell of its own session, so in the kernel's autogroup).
# No trace event gives a task's policy (sched_switch shows prio 120), but
# the kernel's records give its weight: scale_load(WEIGHT_IDLEPRIO) =
# 3 << 10 = 3072 for a SCHED_IDLE task (set_load_weight()).  The pelt
# file, read here, names the tasks of that weight and the autogroup's
# records.  validate takes the weight from the records, once per such
# task (on the trace.dat, less those its first snapshot gives policy
# SCHED_IDLE, which the model weighs so from the start), and with the records' groups then matches the autogroup's cfs_rq
# records (they hold those tasks' weight: none matched while the model
# took them as nice 0) as often as the cgroups' (floors: 95 %, measured
# 99.09 % on the perf.data, 99.00 % on the trace.dat), and the task records
# (95 %, measured 99.16 %).  With --perf-cgroups the autogroup is none of
# perf's cgroups: its records are counted as an autogroup's, with why a
# perf.data cannot give it.
. "$(dirname "$0")/lib.sh"

D=$TRACES/perf-groups.dat
P=$TRACES/perf-groups.perf.data
K=$TRACES/perf-groups.pelt.jsonl.gz

# the pids of SCHED_IDLE weight, and the autogroup cfs_rq records up to $2 (ns)
cat >"$TRASH/pelt.py" <<'PY'
import gzip, json, sys
idle, auto = set(), 0
for l in gzip.open(sys.argv[1], 'rt'):
    d = json.loads(l)
    if d.get('type') == 'se' and d.get('weight') == 3 << 10:
        idle.add(d['pid'])
    if (d.get('type') == 'cfs' and d.get('tg', '').startswith('/autogroup-') and
            d['ts'] <= int(sys.argv[2])):
        auto += 1
print(len(idle), auto)
PY

# "tasks_exact% weight_taken autogroup_compared autogroup_exact% absent autogroup_absent"
cat >"$TRASH/val.py" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
task = re.search(r'^task updates compared: \d+, all fields exact: \d+ \(([\d.]+) %\)', t, re.M)
w = re.search(r'weight taken from the record: (\d+);', t)
ag = re.search(r'^/autogroup-\d+ +(\d+) +\d+ +([\d.]+)$', t, re.M)
ab = re.search(r'a group the model does not have: (\d+)', t)
aa = re.search(r'^  of autogroups \(/autogroup-N\): (\d+)$', t, re.M)
print(task.group(1), w.group(1), ag.group(1) if ag else 0, ag.group(2) if ag else 0,
      ab.group(1), aa.group(1) if aa else 0)
PY

test_expect_success 'records of SCHED_IDLE weight: taken, the autogroup then matches (perf.data)' '
	cfsreplay info --json "$P" >pinfo.json &&
	python3 -c "import json; print(json.load(open(\"pinfo.json\"))[\"last_ts\"])" >last &&
	python3 pelt.py "$K" "$(cat last)" >pelt.txt && read nidle nauto <pelt.txt &&
	test "$nidle" -gt 0 && test "$nauto" -gt 0 &&
	cfsreplay validate --pelt "$K" "$P" >vk.txt 2>/dev/null &&
	python3 val.py vk.txt >vk.n && read texact taken acmp aexact absent aabsent <vk.n &&
	test "$taken" = "$nidle" && test "$acmp" -gt 0 && test "$absent" = 0 &&
	python3 -c "import sys; sys.exit(not ($aexact >= 95 and $texact >= 95))"
'

test_expect_success 'the same on the trace.dat of the run' '
	cfsreplay validate "$D" >vd.txt 2>/dev/null &&
	python3 val.py vd.txt >vd.n && read texact taken acmp aexact absent aabsent <vd.n &&
	snap=$(sed -n "s/.*; SCHED_IDLE from the first snapshot: \([0-9]*\)$/\1/p" vd.txt) &&
	read nidle nauto <pelt.txt && test "$((taken + snap))" = "$nidle" && test "$acmp" -gt 0 &&
	python3 -c "import sys; sys.exit(not ($aexact >= 95 and $texact >= 95))"
'

test_expect_success 'validate --perf-cgroups: the autogroup records counted as one perf cannot give' '
	cfsreplay validate --perf-cgroups cpu --pelt "$K" "$P" >vp.txt 2>/dev/null &&
	python3 val.py vp.txt >vp.n && read texact taken acmp aexact absent aabsent <vp.n &&
	read nidle nauto <pelt.txt &&
	test "$acmp" = 0 && test "$aabsent" = "$nauto" && test "$absent" = "$nauto" &&
	test "$taken" = "$nidle" &&
	grep -q "^  (a perf.data cannot give them: an autogroup is a session.s, made by setsid(), not a cgroup" vp.txt
'

test_done
