#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pick check with --perf-cgroups cpu, on traces/perf-groups.perf.data
# (v6.18, 2 CPUs; a0 in /cfsr-pg-a on CPU 0, a1 in /cfsr-pg-a then
# /cfsr-pg-b on CPU 1, beside tasks of perf's root cgroup).  With the
# option the engine holds perf's groups from the first sample on, so the
# pick check judges every contested switch through the group entities, as
# it does with the groups of the kernel's records (--clock, validate's
# own): no switch is left "task-groups" (groups not known), and the
# switches judged are those judged with the records' groups (counting
# those left "lag-guessed": a lag from before the trace that the two
# runs' EEVDF states, which differ, may or may not show).
# Without the option the cgroup attach events only keep the attached
# tasks apart (task-groups), as before.
. "$(dirname "$0")/lib.sh"

P=$TRACES/perf-groups.perf.data
K=$TRACES/perf-groups.pelt.jsonl.gz

# "source cpu:contested:groups_contested ... task-groups lag-guessed" of a
# report's pick check
cat >"$TRASH/pick.py" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))['pick_check']
print(p['task_groups'], ' '.join('%d:%d:%d' % (i, c['contested'], c['groups_contested'])
                                 for i, c in enumerate(p['cpus'])),
      p['reasons'].get('task-groups', 0), p['reasons'].get('lag-guessed', 0))
PY

test_expect_success 'report --perf-cgroups: every contested pick judged through the groups' '
	cfsreplay report --json --perf-cgroups cpu "$P" >pg.json 2>/dev/null &&
	cfsreplay report --json --clock "$K" "$P" >pk.json 2>/dev/null &&
	cfsreplay report --json "$P" >p0.json 2>/dev/null &&
	python3 pick.py pg.json >pg.txt && python3 pick.py pk.json >pk.txt &&
	python3 pick.py p0.json >p0.txt &&
	read src cpu0 cpu1 tg lg <pg.txt && test "$src" = perf-cgroups && test "$tg" = 0 &&
	read ksrc kcpu0 kcpu1 ktg klg <pk.txt && test "$ksrc" = snapshots && test "$ktg" = 0 &&
	n=0 && kn=0 &&
	for c in $cpu0 $cpu1; do
		test "$(echo $c | cut -d: -f2)" = "$(echo $c | cut -d: -f3)" || return 1
		n=$((n + $(echo $c | cut -d: -f2)))
	done &&
	for c in $kcpu0 $kcpu1; do kn=$((kn + $(echo $c | cut -d: -f2))); done &&
	test $((n + lg)) = $((kn + klg)) &&
	read src0 c00 c01 tg0 lg0 <p0.txt && test "$src0" = cgroup-attach-events && test "$tg0" -gt 0 &&
	cfsreplay report --perf-cgroups cpu "$P" >pg.out 2>/dev/null &&
	grep -q "task groups from the perf.data.s cgroups (--perf-cgroups=cpu" pg.out &&
	! grep -q "task-groups" pg.out
'

# "contested cannot task-groups lag-guessed" of validate's pick check line
cat >"$TRASH/vpick.py" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r'^pick check: +\d+ switches, \d+ trivial, (\d+) contested .*?, (\d+) cannot judge\n(.*)$',
              t, re.M)
g = re.search(r'task-groups (\d+)', m.group(3))
lg = re.search(r'lag-guessed (\d+)', m.group(3))
print(m.group(1), m.group(2), g.group(1) if g else 0, lg.group(1) if lg else 0)
PY

test_expect_success 'validate --perf-cgroups: the lock-step pick check judges the same switches' '
	cfsreplay validate --perf-cgroups cpu --pelt "$K" "$P" >vg.txt 2>/dev/null &&
	cfsreplay validate --pelt "$K" "$P" >vk.txt 2>/dev/null &&
	python3 vpick.py vg.txt >vg.n && python3 vpick.py vk.txt >vk.n &&
	read gc gn gt glg <vg.n && read kc kn kt klg <vk.n &&
	test "$gt" = 0 && test "$kt" = 0 && test $((gc + glg)) = $((kc + klg)) &&
	test $((gn - glg)) = $((kn - klg))
'

test_expect_success 'compare --perf-cgroups: the perf.data side and both models judge them too' '
	cfsreplay compare --json --perf-cgroups cpu "$TRACES/perf-groups.dat" "$P" >c.json 2>/dev/null &&
	cfsreplay compare --json --perf-cgroups cpu --kernel 6.12 "$P" >m.json 2>/dev/null &&
	read src cpu0 cpu1 tg lg <pg.txt &&
	python3 - c.json m.json "$cpu0" "$cpu1" <<-PY
	import json, sys
	want = sum(int(c.split(":")[1]) for c in sys.argv[3:])
	b = json.load(open(sys.argv[1]))["traces"][1]["comparators"]["pick_check"]
	assert b["contested"] == b["groups_contested"] == want, (b, want)
	for m in json.load(open(sys.argv[2]))["models"]:
	    p = m["pick_check"]
	    assert p["reasons"].get("task-groups", 0) == 0, p["reasons"]
	    assert p["total"]["contested"] == p["total"]["groups_contested"], p["total"]
	PY
'

test_done
