#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Execs that stay on their CPU: a sched_process_exec that no stopper move
# of its task preceded is sched_exec()'s choice of the task's own CPU,
# judged by find_idlest_cpu() with the task's CPU counted without it.  On
# two-CPU text traces written here, each exec's verdict follows by hand:
#  - idle-skip: CPU 0 runs the exec'ing task (pid 100) with a forked child
#    waiting, CPU 1 idles: without the task CPU 0 still holds a task, CPU 1
#    is idle and would be taken: diverges, idle-skipped, CPU 1 preferred;
#  - idle-own: CPU 0 runs the task alone, CPU 1 runs another task: CPU 0
#    is idle without it: agrees, idle-chosen;
#  - fewest: CPU 0 holds the task and one waiting child, CPU 1 a running
#    and a waiting task: no idle CPU, CPU 0 has 1 task without it against
#    2: agrees, fewest-tasks;
#  - load: CPU 0 holds the task and three waiting children, CPU 1 two
#    tasks: 3 against 2, the rule's loads decide: cannot judge, load-rule;
#  - not-running: the exec event names a task CPU 0 does not run (a
#    switch is missing): cannot judge, state-unknown.
. "$(dirname "$0")/lib.sh"

# stay_trace SCENARIO: the trace, on stdout
stay_trace() {
	python3 - "$1" <<-'PY'
	import sys
	scen = sys.argv[1]
	T = 10_000_000_000
	def line(comm, pid, cpu, ts, text):
	    return "%16s-%-7d [%03d] %d.%09d: %s" % (comm, pid, cpu, ts // 10**9, ts % 10**9, text)
	kids0 = {"idle-skip": 1, "idle-own": 0, "fewest": 1, "load": 3, "not-running": 0}[scen]
	cpu1 = {"idle-skip": 0, "idle-own": 1, "fewest": 2, "load": 2, "not-running": 1}[scen]
	out = ["cpus=2", line("<idle>", 0, 0, T, "sched_switch:         swapper/0:0 [120] R ==> gen:100 [120]")]
	ts = T
	if cpu1:
	    out.append(line("<idle>", 0, 1, ts, "sched_switch:         swapper/1:0 [120] R ==> w:300 [120]"))
	    for k in range(1, cpu1):
	        ts += 1000
	        out.append(line("w", 300, 1, ts, "sched_wakeup:         w:%d [120] CPU:001" % (300 + k)))
	else:
	    out.append(line("<idle>", 0, 1, ts, "sched_switch:         swapper/1:0 [120] R ==> swapper/1:0 [120]"))
	for k in range(kids0):
	    ts += 1000
	    out.append(line("gen", 100, 0, ts, "sched_process_fork:   comm=gen pid=100 child_comm=gen child_pid=%d" % (201 + k)))
	    ts += 1000
	    out.append(line("gen", 100, 0, ts, "sched_wakeup_new:     gen:%d [120] CPU:000" % (201 + k)))
	ts += 1000
	pid = 150 if scen == "not-running" else 100
	out.append(line("gen", pid, 0, ts, "sched_process_exec:   filename=/bin/true pid=%d old_pid=%d" % (pid, pid)))
	ts += 1000
	out.append(line("gen", 100, 0, ts, "sched_switch:         gen:100 [120] S ==> swapper/0:0 [120]"))
	print("\n".join(out))
	PY
}

# exec_is SCENARIO VERDICT REASON [PREFERRED]: the one exec of the trace
exec_is() {
	stay_trace "$1" >"$1.txt" &&
	cfsreplay report --json --kernel 6.18 "$1.txt" >"$1.json" &&
	python3 - "$1.json" "$2" "$3" "${4:-}" <<-'PY'
	import json, sys
	p = json.load(open(sys.argv[1]))["placement"]
	verdict, reason, pref = sys.argv[2], sys.argv[3], sys.argv[4]
	want = {"agrees": 0, "diverges": 0, "cannot-judge": 0}
	want[verdict] = 1
	assert p["counts"]["exec"] == want, p["counts"]["exec"]
	assert p["exec_stayed"] == want, p["exec_stayed"]
	assert p["reasons"]["exec"][reason] == 1, p["reasons"]["exec"]
	if pref:
	    top = [d for d in p["top"] if d["kind"] == "exec"]
	    assert len(top) == 1 and top[0]["from_cpu"] == top[0]["to_cpu"] == 0, top
	    assert top[0]["preferred_cpu"] == int(pref), top
	    cpus = {c["cpu"]: c for c in top[0]["cpus"]}
	    assert cpus[0]["nr_running"] == 2 and cpus[1]["state"] == "idle", cpus
	PY
}

test_expect_success 'a waiting child on its CPU, the other CPU idle: diverges' '
	exec_is idle-skip diverges idle-skipped 1
'
test_expect_success 'its CPU idle without it: agrees, idle-chosen' '
	exec_is idle-own agrees idle-chosen
'
test_expect_success 'no idle CPU, its CPU fewest tasks without it: agrees' '
	exec_is fewest agrees fewest-tasks
'
test_expect_success 'no idle CPU, more tasks than the other: the load rule, not judged' '
	exec_is load cannot-judge load-rule
'
test_expect_success 'the exec event of a task its CPU does not run: state unknown' '
	exec_is not-running cannot-judge state-unknown
'

test_done
