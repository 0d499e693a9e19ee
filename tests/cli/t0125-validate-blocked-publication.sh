#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A group cfs_rq's publication into tg->load_avg with no event after it on
# its CPU, before another CPU reweights the group's entity, in lock-step on
# traces/groups-nested.dat and traces/recorded.dat (v6.18, 2 CPUs).  An
# update no trace event of its CPU follows (update_blocked_averages()', or
# a tick's that schedules nothing) publishes right after its record
# (update_tg_load_avg()); a reweight of the group's entity on another CPU
# after that (update_cfs_group() in a tick, an enqueue or a dequeue there)
# reads tg->load_avg with it.  The engine made such a publication once a
# path's length (50 us) had passed without an event on its CPU, after an
# event of the other CPU within those 50 us and that event's reweight; it
# now makes it before any later event of another CPU.
#
# Found here from trace-cmd's text and the pelt file alone.  A quiet
# publication: a group cfs_rq record of CPU B that no event acting on B (of
# CPU B, a sched_wakeup or sched_wakeup_new onto B, a sched_migrate_task
# from or to B) follows within 50 us, whose cfs_rq's next record has
# another tg_load_avg_contrib.  Within those 50 us, an event of another CPU
# A naming a task of that group (of it or of a group below it, by the
# task's records' parent_tg): its sched_stat_runtime, a sched_switch from
# or to it, its wakeup onto A.  The engine makes A's updates up to that
# event there, with their reweights of the group's entity (a tick's, an
# enqueue's, a dequeue's); the entity's next record on A after the event
# carries the weight they gave it.  After a run-time report, which comes
# first in its path, that is the first record more than 20 us after it
# (the path's own record, right after the report, precedes its reweight).
# groups-nested: 4 such records, 1 of them (2184.581632386, CPU 1,
# /cfsr-g-outer, load_avg 366/375: the tick CPU 1 reported at
# 2184.565575540 reweighted the entity after its record at 2184.565580139,
# after CPU 0's quiet publication at 2184.565579000) differed before the
# change; recorded: 37 of them, 2 differed.  None is listed among the
# differing group entity records.
. "$(dirname "$0")/lib.sh"

need_trace_cmd 'quiet publications before another CPU reweights'

cat >"$TRASH/quiet.py" <<'PY'
import bisect, gzip, json, re, sys
from tracedata import report
pelt, dat = sys.argv[1], sys.argv[2]
text = report(dat)
acts = {}   # CPU: the times of the events acting on it
about = []  # (time, CPU, pid, a run-time report): the events of a CPU naming a task
for line in text.splitlines():
    m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s+(.*)', line)
    if not m:
        continue
    cpu, ts, name, rest = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)), \
        m.group(4), m.group(5)
    on = {cpu}
    if name in ('sched_wakeup', 'sched_wakeup_new'):
        w = re.search(r':(\d+) \[\d+\] CPU:(\d+)', rest)
        on.add(int(w.group(2)))
        about.append((ts, int(w.group(2)), int(w.group(1)), False))
    elif name == 'sched_migrate_task':
        on.update(int(c) for c in re.findall(r'(?:orig|dest)_cpu=(\d+)', rest))
    elif name == 'sched_switch':
        sw = re.search(r':(\d+) \[\d+\] \S+ ==> .*:(\d+) \[\d+\]$', rest)
        about += [(ts, cpu, int(sw.group(1)), False), (ts, cpu, int(sw.group(2)), False)]
    elif name == 'sched_stat_runtime':
        about.append((ts, cpu, int(re.search(r'pid=(\d+)', rest).group(1)), True))
    for c in on:
        acts.setdefault(c, []).append(ts)
# the kernel's records; each task's groups, by time, from its own records
recs = sorted((d for d in map(json.loads, gzip.open(pelt, 'rt')) if 'ts' in d),
              key=lambda d: d['ts'])
groups = {}
for d in recs:
    if d.get('type') == 'se' and d.get('pid'):
        groups.setdefault(d['pid'], []).append((d['ts'], d['parent_tg']))

def group_of(pid, ts):
    """the group of task @pid at @ts: its last record's before, else its first"""
    g = groups.get(pid)
    return g[max(bisect.bisect(g, (ts, '\xff')) - 1, 0)][1] if g else None

series = {}
for d in recs:
    if d.get('type') in ('cfs', 'gse'):
        series.setdefault((d['type'], d['tg'], d['rq_cpu']), []).append(d)
found = set()
for (kind, tg, b), s in series.items():
    if kind != 'cfs' or tg == '/':
        continue
    # B's quiet publications
    for r, nxt in zip(s, s[1:]):
        tb = r['ts']
        if nxt['tg_load_avg_contrib'] == r['tg_load_avg_contrib'] or \
                any(tb < t <= tb + 50000 for t in acts.get(b, ())):
            continue
        # A's events about a task of the group within 50 us after, and the
        # record of the group's entity on A after each
        for te, a, pid, report in about:
            if a == b or not tb < te <= tb + 50000:
                continue
            pg = group_of(pid, te)
            if pg is None or (pg != tg and not pg.startswith(tg + '/')):
                continue
            skip = 20000 if report else 0
            g = next((x for x in series.get(('gse', tg, a), []) if x['ts'] > te + skip), None)
            if g:
                found.add('%d.%09d cpu %d %s:' % (g['ts'] // 10**9, g['ts'] % 10**9, a, tg))
for f in sorted(found):
    print(f)
PY

# check NAME MIN: at least MIN such records in traces/NAME, none of them
# listed among validate's differing group entity records
check() {
	python3 quiet.py "$TRACES/$1.pelt.jsonl.gz" "$TRACES/$1.dat" >"$1.after" &&
	test "$(wc -l <"$1.after")" -ge "$2" &&
	cfsreplay validate --diffs 100000 --pelt "$TRACES/$1.pelt.jsonl.gz" "$TRACES/$1.dat" >"$1.v" &&
	awk -v RS= "/^group entity updates compared/" "$1.v" >"$1.gse" &&
	grep -q "^group entity updates compared" "$1.gse" &&
	while read -r rec; do
		! grep -F "  $rec" "$1.gse" || return 1
	done <"$1.after"
}

test_expect_success 'groups-nested: the group entity records after them are exact' '
	check groups-nested 4
'

test_expect_success 'recorded: the group entity records after them are exact' '
	check recorded 35
'

test_done
