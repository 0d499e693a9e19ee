#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A task blocks and its __schedule() runs a newly-idle balance, in
# lock-step on traces/groups-nested.dat, traces/groups-solo.dat and
# traces/idle-group.dat (v6.18, 2 CPUs).  The kernel's order
# (kernel/sched/core.c __schedule(), kernel/sched/fair.c
# pick_next_task_fair(), sched_balance_newidle()): the task's dequeue (its
# sched_stat_runtime, kept delayed or not), the pick that finds nothing
# runnable and so completes every delayed dequeue on the CPU, the balance's
# update_blocked_averages() (records of the CPU's cfs_rqs and of its RT
# signal, no trace event), the pulls (sched_migrate_task onto the CPU, on
# the CPU), then the switch out of the task.  The engine made the walk of
# the blocked load at the pull's event, which settled the pending report
# as a tick's first: the report was not the dequeue before the balance, and
# the pulled task, queued when the engine reached the switch, was picked
# before the delayed ones (the blocking task's next record: load_sum
# 34170/33742 at 2183.921707224 on groups-nested).  The pull's event now
# settles the report first (newidle_dequeue()), then the walk.
#
# Found from trace-cmd's text and the pelt file alone: a sched_stat_runtime
# on CPU c of pid P, then within 50 us only pulls onto c made on c and a
# switch out of P that blocks (prev_state not R), with a record of c's RT
# signal between the report and the first pull.  Checked: P's next task
# record is exact.  Measured: groups-nested 1 instance, groups-solo 3,
# idle-group 1 (no task record after it); before the change the
# groups-nested one differed, the others were exact.
. "$(dirname "$0")/lib.sh"

need_trace_cmd 'newly-idle pulls after a blocking dequeue'

cat >"$TRASH/find.py" <<'PY'
import bisect, re, sys
from tracedata import events_by_cpu, records
pelt, dat = sys.argv[1], sys.argv[2]
# each CPU's own events (its column): (ts, name, arguments)
ev = events_by_cpu(dat)
recs = records(pelt)
times = [d['ts'] for d in recs]
for cpu, es in sorted(ev.items()):
    for i, (ts, kind, args) in enumerate(es):
        if kind != 'sched_stat_runtime':
            continue
        pid = int(re.search(r' pid=(\d+)', args).group(1))
        pulls, sw = [], None
        for ts2, k2, a2 in es[i + 1:]:
            if ts2 > ts + 50000:
                break
            if k2 == 'sched_migrate_task' and re.search(r'dest_cpu=%d\b' % cpu, a2):
                pulls.append(ts2)
                continue
            if k2 == 'sched_switch':
                m = re.search(r':(\d+) \[\d+\] (\S+) ==>', a2)
                if m and int(m.group(1)) == pid and m.group(2) not in ('R', 'R+'):
                    sw = ts2
            break
        if not pulls or sw is None:
            continue
        if not [d for d in recs[bisect.bisect_right(times, ts):bisect.bisect_left(times, pulls[0])]
                if d['type'] == 'rt' and d['rq_cpu'] == cpu]:
            continue
        nxt = next((d for d in recs[bisect.bisect_right(times, sw):]
                    if d['type'] == 'se' and d['pid'] == pid), None)
        print('%d.%09d %d %s' % (ts // 10**9, ts % 10**9, pid,
                                 '%d.%09d' % (nxt['ts'] // 10**9, nxt['ts'] % 10**9) if nxt else '-'))
PY

total=0
for n in groups-nested groups-solo idle-group; do
	PYTHONPATH="$SRC_DIR/tests/cli" python3 "$TRASH/find.py" "$SRC_DIR/traces/$n.pelt.jsonl.gz" \
		"$SRC_DIR/traces/$n.dat" >"$TRASH/$n.found"
	total=$((total + $(wc -l <"$TRASH/$n.found")))
	"$CFSREPLAY" validate --diffs 100000 "$SRC_DIR/traces/$n.dat" >"$TRASH/$n.out" 2>&1
	test_expect_success "$n: the blocking task's next record after each newly-idle pull is exact" "
		sed 's/^/# /' '$TRASH/$n.found' &&
		while read -r report pid next; do
			[ \"\$next\" = - ] && continue
			grep -q \"^task updates compared\" '$TRASH/$n.out' &&
			! grep \"^  \$next pid \$pid:\" '$TRASH/$n.out' || exit 1
		done <'$TRASH/$n.found'
	"
done

test_expect_success 'the bundled traces have such pulls' "
	test $total -ge 5
"
test_done
