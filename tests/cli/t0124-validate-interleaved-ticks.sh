#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Two CPUs' ticks of one task group interleaved, in lock-step on
# traces/eevdf-split.dat (v6.18, 2 CPUs, HZ 250, /cfsr-g-hi and /cfsr-g-lo
# busy on both CPUs).  entity_tick() updates the group's cfs_rq (the
# kernel's record of it fires in __update_load_avg_cfs_rq()), publishes it
# into tg->load_avg (update_tg_load_avg()), then updates the group's entity
# (its record) and reweights it (update_cfs_group(): calc_group_shares()
# reads tg->load_avg).  The ticks of both CPUs come within microseconds of
# each other: when each CPU's cfs_rq record comes before the other's entity
# record, each reweight reads tg->load_avg after the other CPU's
# publication.  The engine made one CPU's whole tick (its reweight too)
# before the other's publication; it now makes that publication first.
#
# Found here from trace-cmd's text and the pelt file alone.  A tick: a
# group cfs_rq record within 5 us after a sched_stat_runtime of its CPU
# that no sched_switch directly follows (the report of a __schedule() is
# followed by its switch), and that group's entity record on the CPU
# within 20 us after it (the reweight comes right after this record).  Two
# ticks of one group on CPUs A and B interleave: each cfs_rq record comes
# before the other CPU's entity record.  B published when its cfs_rq's
# next record has another tg_load_avg_contrib.  A's next entity record of
# that group carries the weight A's tick gave it; the script checks it is
# calc_group_shares() with B's new contribution (two CPUs: tg->load_avg
# less A's own contribution is B's), not with its old one, for each.
# 131 such records (46 of them differed before the change, all in their
# load_avg); none is listed among the differing group entity records.
. "$(dirname "$0")/lib.sh"

D=$TRACES/eevdf-split.dat
K=$TRACES/eevdf-split.pelt.jsonl.gz

need_trace_cmd 'interleaved ticks of a group on two CPUs'

cat >"$TRASH/ticks.py" <<'PY'
import gzip, json, re, sys
from tracedata import report
pelt, dat = sys.argv[1], sys.argv[2]
text = report(dat)
# each CPU's sched_stat_runtime times, but those a sched_switch directly follows
reports, last = {}, {}
for line in text.splitlines():
    m = re.search(r'\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):', line)
    if not m:
        continue
    cpu, ts, name = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)), m.group(4)
    if name == 'sched_switch' and last.get(cpu) == 'sched_stat_runtime':
        reports[cpu].pop()
    if name == 'sched_stat_runtime':
        reports.setdefault(cpu, []).append(ts)
    last[cpu] = name
recs = sorted((d for d in map(json.loads, gzip.open(pelt, 'rt'))
               if d.get('type') in ('cfs', 'gse') and 'ts' in d), key=lambda d: d['ts'])
assert {d['rq_cpu'] for d in recs} == {0, 1}, 'records of two CPUs expected'
series = {}
for d in recs:
    series.setdefault((d['type'], d['tg'], d['rq_cpu']), []).append(d)

def shares(cfs, others):
    """calc_group_shares() of the cfs_rq of record @cfs; @others: tg->load_avg less its contrib"""
    load = max(cfs['weight'] >> 10, cfs['load_avg'])
    return min(max(cfs['tg_shares'] * load // max(others + load, 1), 2), cfs['tg_shares'])

# group: its ticks (CPU, cfs_rq record, entity record's time, contrib published, next entity record)
ticks = {}
for (kind, tg, cpu), s in series.items():
    if kind != 'cfs' or tg == '/':
        continue
    gse = series.get(('gse', tg, cpu), [])
    for r, nxt in zip(s, s[1:]):
        if not any(0 <= r['ts'] - t <= 5000 for t in reports.get(cpu, ())):
            continue
        after = [g for g in gse if g['ts'] > r['ts']]
        if len(after) < 2 or after[0]['ts'] - r['ts'] > 20000:
            continue
        ticks.setdefault(tg, []).append({'cpu': cpu, 'cfs': r, 'gse': after[0]['ts'],
                                         'new': nxt['tg_load_avg_contrib'], 'next': after[1]})
found = set()
for tg, group in ticks.items():
    for a in group:
        for b in group:
            # B published, and each cfs_rq record came before the other CPU's entity record
            if a['cpu'] == b['cpu'] or b['new'] == b['cfs']['tg_load_avg_contrib']:
                continue
            if not (b['cfs']['ts'] < a['gse'] and a['cfs']['ts'] < b['gse']):
                continue
            g = a['next']
            rec = '%d.%09d cpu %d %s:' % (g['ts'] // 10**9, g['ts'] % 10**9, a['cpu'], tg)
            # A's reweight read B's new contribution (two CPUs: the others' are B's)
            old = shares(a['cfs'], b['cfs']['tg_load_avg_contrib'])
            assert g['weight'] == shares(a['cfs'], b['new']) != old, (rec, g['weight'], old)
            found.add(rec)
for f in sorted(found):
    print(f)
PY

test_expect_success 'the trace and records show interleaved ticks' '
	python3 ticks.py "$K" "$D" >after &&
	echo "# $(wc -l <after) group entity records after them" &&
	test "$(wc -l <after)" -ge 120
'

test_expect_success 'validate: the group entity records after them are exact' '
	cfsreplay validate --diffs 100000 --pelt "$K" "$D" >v.txt &&
	awk -v RS= "/^group entity updates compared/" v.txt >gse.txt &&
	grep -q "^group entity updates compared" gse.txt &&
	while read -r rec; do
		! grep -F "  $rec" gse.txt || return 1
	done <after
'

test_done
