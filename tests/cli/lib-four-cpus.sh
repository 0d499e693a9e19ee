# SPDX-License-Identifier: GPL-2.0-only
#
# Four-CPU traces for the lasting-imbalance tests between groups of CPUs,
# sourced by them after lib.sh: a trace.dat written with
# tests/helpers/dat-write (traces/recorded.dat's event formats) from a
# list of events, given a machine's metadata with tests/helpers/meta-set.
# A parent forks nice-0 spinners, two woken on each of CPUs 0 and 1, one
# on CPU 2, and a nice-5 one (weight 335) on CPU 3, then sleeps; CPUs 0
# and 1 run theirs round robin, 4 ms each, for 200 ms.

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

# four_cpus MOVE_MS OUT LAYOUT: the trace with a four-CPU machine's
# metadata; LAYOUT llc: two LLCs {0,1} and {2,3}, one CPU per core; smt:
# one LLC {0-3}, cores {0,1} and {2,3} of two SMT threads each
four_cpus() {
	events "$1" >ev.txt &&
	"$HELPERS/dat-write" "$TRACES/recorded.dat" "$2" 4 ev.txt &&
	cfsreplay info --json "$TRACES/recorded.dat" | python3 -c "
import json, sys
m = json.load(sys.stdin)['record_meta']
smt = '$3' == 'smt'
for k in ('initial_state', 'initial_tasks', 'initial_cfs_rqs', 'recording'):
    m.pop(k, None)
m['nr_cpus'] = m['nr_cpus_online'] = 4
m['cpus'] = [{'cpu': c, 'capacity': 1024, 'core_id': c // 2 if smt else c, 'package_id': 0,
              'die_id': 0, 'thread_siblings': ('0-1' if c < 2 else '2-3') if smt else str(c),
              'core_siblings': '0-3',
              'caches': [{'index': 3, 'level': 3, 'type': 'Unified', 'size': '16384K',
                          'shared_cpu_list': '0-3' if smt else ('0-1' if c < 2 else '2-3')}]}
             for c in range(4)]
json.dump(m, open('meta4.json', 'w'))" &&
	"$HELPERS/meta-set" "$2" meta4.json
}

