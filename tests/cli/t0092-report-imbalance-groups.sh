#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Lasting imbalance between groups of CPUs, on a four-CPU trace.dat written
# here (tests/helpers/dat-write, with traces/recorded.dat's event formats)
# and given the metadata of a machine whose L3s span CPUs {0,1} and {2,3}
# (tests/helpers/meta-set): domain levels MC (the LLCs) and PKG (all four
# CPUs), whose groups are {0,1} and {2,3}.  A parent forks nice-0
# spinners, two woken on each of CPUs 0 and 1, one on CPU 2, and a nice-5
# one (weight 335) on CPU 3, then sleeps; CPUs 0 and 1 run theirs round
# robin, 4 ms each, for 200 ms.  By hand, each task's load staying at its
# weight (it always runs or waits):
#  - pairs of CPUs: B = CPU 0 or 1 (~2048), L = CPU 3 (~335, one task):
#    imbalance min(B - avg, avg - L) ~856 < a spinner's ~1024: no window
#    lasts;
#  - PKG's groups: {0,1} 4 tasks on 2 CPUs, overloaded, avg_load ~2048;
#    {2,3} fully busy, ~(1024 + 335) / 2 = 679; the domain's average
#    ~1363; imbalance min((2048 - 1363) x 2, (1363 - 679) x 2) ~1368 >=
#    1024: one window, {0,1} -> {2,3}, class allowed, from the last
#    wakeup to the end (~200 ms): lasting (PKG's busy interval 4 ms x 16
#    = 64 ms) and beyond any interval (4 ms doubled to max_interval 8 ms,
#    x 16 = 128 ms).
#  - with a spinner of CPU 0 moved to CPU 3 at 100 ms: the window ends
#    there (~100 ms: lasting, not beyond), and 3 against 3 tasks (~1536
#    against ~1191, both overloaded) leave ~344: no window after.
. "$(dirname "$0")/lib.sh"

HELPERS=${HELPER_DIR:-$SRC_DIR/tests/helpers}

# events MOVE_MS: the event list (dat-write's lines); MOVE_MS 0: no move
events() {
	python3 - "$1" <<-'PY'
	import sys
	move = int(sys.argv[1]) * 1000000
	T = 10_000_000_000
	out = []
	def ev(ts, cpu, name, **f):
	    out.append("%d %d %s %s" % (ts, cpu, name, " ".join("%s=%s" % kv for kv in f.items())))
	def switch(ts, cpu, prev, pcomm, pprio, state, nxt, ncomm, nprio):
	    ev(ts, cpu, "sched_switch", common_pid=prev, prev_comm=pcomm, prev_pid=prev,
	       prev_prio=pprio, prev_state=state, next_comm=ncomm, next_pid=nxt, next_prio=nprio)
	for c in (1, 2, 3):
	    switch(T, c, 0, "swapper/%d" % c, 120, 0, 0, "swapper/%d" % c, 120)
	switch(T, 0, 0, "swapper/0", 120, 0, 100, "gen", 120)
	ts, pid, queues, prio = T, 200, {0: [], 1: [], 2: [], 3: []}, {}
	for cpu, n in ((0, 2), (1, 2), (2, 1), (3, 1)):
	    for k in range(n):
	        pid += 1
	        prio[pid] = 125 if cpu == 3 else 120
	        ts += 1000
	        ev(ts, 0, "sched_process_fork", common_pid=100, parent_comm="gen", parent_pid=100,
	           child_comm="spin", child_pid=pid)
	        ts += 1000
	        ev(ts, 0, "sched_wakeup_new", common_pid=100, comm="spin", pid=pid,
	           prio=prio[pid], target_cpu=cpu)
	        queues[cpu].append(pid)
	ts += 1000
	switch(ts, 0, 100, "gen", 120, 1, queues[0][0], "spin", 120)
	for c in (1, 2, 3):
	    switch(ts, c, 0, "swapper/%d" % c, 120, 0, queues[c][0], "spin", prio[queues[c][0]])
	end, t = ts + 200_000_000, ts
	while t + 4_000_000 <= end:
	    t += 4_000_000
	    for c in range(4):
	        cur = queues[c][0]
	        ev(t + c * 1000, c, "sched_stat_runtime", common_pid=cur, comm="spin", pid=cur,
	           runtime=4_000_000)
	        if len(queues[c]) > 1:
	            queues[c].append(queues[c].pop(0))
	            switch(t + c * 1000 + 500, c, cur, "spin", prio[cur], 0, queues[c][0], "spin",
	                   prio[queues[c][0]])
	    if move and t - ts >= move and len(queues[3]) == 1:
	        p = queues[0][1]
	        queues[0].remove(p)
	        queues[3].append(p)
	        ev(t + 10000, 3, "sched_migrate_task", common_pid=0, comm="spin", pid=p, prio=120,
	           orig_cpu=0, dest_cpu=3)
	out.sort(key=lambda l: int(l.split()[0]))
	print("\n".join(out))
	PY
}

# four_cpus MOVE_MS OUT: the trace with the two-LLC machine's metadata
four_cpus() {
	events "$1" >ev.txt &&
	"$HELPERS/dat-write" "$TRACES/recorded.dat" "$2" 4 ev.txt &&
	cfsreplay info --json "$TRACES/recorded.dat" | python3 -c "
import json, sys
m = json.load(sys.stdin)['record_meta']
for k in ('initial_state', 'initial_tasks', 'initial_cfs_rqs', 'recording'):
    m.pop(k, None)
m['nr_cpus'] = m['nr_cpus_online'] = 4
m['cpus'] = [{'cpu': c, 'capacity': 1024, 'core_id': c, 'package_id': 0, 'die_id': 0,
              'thread_siblings': str(c), 'core_siblings': '0-3',
              'caches': [{'index': 3, 'level': 3, 'type': 'Unified', 'size': '16384K',
                          'shared_cpu_list': '0-1' if c < 2 else '2-3'}]}
             for c in range(4)]
json.dump(m, open('meta4.json', 'w'))" &&
	"$HELPERS/meta-set" "$2" meta4.json
}

test_expect_success 'the written trace reads back: four CPUs, two LLCs, its events' '
	four_cpus 0 g.dat &&
	trace-cmd report g.dat >g.txt 2>/dev/null &&
	test "$(grep -c sched_wakeup_new g.txt)" = 6 &&
	cfsreplay info --json g.dat >g-info.json &&
	python3 -c "
import json
d = json.load(open(\"g-info.json\"))
assert d[\"nr_cpus\"] == 4, d[\"nr_cpus\"]
" &&
	cfsreplay report g.dat >g.out &&
	grep -q "LLCs \[0-1\] \[2-3\]" g.out &&
	grep -q "^  between groups of CPUs" g.out
'

test_expect_success 'one window between the groups, beyond any interval; no pair lasts' '
	four_cpus 0 g.dat &&
	cfsreplay report --json g.dat >g.json &&
	python3 - <<-PY
	import json
	m = json.load(open("g.json"))["lasting_imbalance"]
	assert [l["name"] for l in m["levels"]] == ["MC", "PKG"], m["levels"]
	assert m["lasting_windows"] == 0, m
	g = m["groups"]
	assert g is not None and g["windows"] == 1 and g["lasting_windows"] == 1, g
	assert g["beyond_max_windows"] == 1, g
	pkg = [l for l in g["levels"] if l["name"] == "PKG"][0]
	assert pkg["lasting_windows"] == 1 and pkg["windows"] == 1, pkg
	assert pkg["max_busy_balance_interval_ns"] == 128000000, pkg
	w = g["top"][0]
	print("# %s" % w)
	assert w["level"] == "PKG" and w["busiest_group"] == "0-1" and w["local_group"] == "2-3", w
	assert w["class"] == "allowed" and w["ended_by"] == "trace-end", w
	assert w["busiest_cpu"] in (0, 1) and w["beyond_max_interval"] is True, w
	assert 195000000 < w["duration_ns"] <= 201000000, w
	assert 1950 < w["busiest_load"] < 2150 and 640 < w["local_load"] < 720, w
	PY
'

test_expect_success 'a move from CPU 0 to CPU 3 at 100 ms ends it: lasting, not beyond' '
	four_cpus 100 m.dat &&
	cfsreplay report --json m.dat >m.json &&
	python3 - <<-PY
	import json
	m = json.load(open("m.json"))["lasting_imbalance"]
	g = m["groups"]
	assert g["windows"] == 1 and g["lasting_windows"] == 1 and g["beyond_max_windows"] == 0, g
	w = g["top"][0]
	assert w["ended_by"] == "migration" and 95000000 < w["duration_ns"] < 105000000, w
	assert m["lasting_windows"] == 0, m
	PY
'

test_done
