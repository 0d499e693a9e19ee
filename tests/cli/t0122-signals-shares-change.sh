#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A group's cpu.shares written mid-run, on traces/shares-change.dat (v6.18,
# 2 CPUs): /cfsr-g-hi and /cfsr-g-lo, 1024 each, one worker of each on CPU
# 0; half-way /cfsr-g-hi goes to 4096.  No trace event shows the write
# (sched_group_set_shares(): new tg->shares, then update_load_avg() and
# update_cfs_group() of the group's entity on every CPU).  The kernel's
# records show it (read here from the pelt file alone): the first record
# of /cfsr-g-hi's cfs_rq with the new tg_shares, 4096 << 10, and from then
# on each of its group entity's records carries the kernel's weight.  The
# engine takes the change from the record's tg_shares (signals --clock
# with the pelt file) or from the next snapshot's cgroup row (signals on
# the trace alone, its snapshots every 50 ms): the model's weight of that
# entity, at the last update before each of those records, is within 1 %
# of the kernel's at every record after the change (records), at every
# record from 100 ms after it (snapshots, every 50 ms).  The group has load
# on CPU 0 alone, so calc_group_shares() gives its entity the whole
# shares: 1024 << 10 before, 4096 << 10 after (179 records); the engine
# kept 1024 << 10 and met none of them.
. "$(dirname "$0")/lib.sh"

D=$TRACES/shares-change.dat
K=$TRACES/shares-change.pelt.jsonl.gz

cat >"$TRASH/weights.py" <<'PY'
import bisect, csv, gzip, json, sys
pelt, rows_csv, after = sys.argv[1], sys.argv[2], sys.argv[3]
recs = [json.loads(l) for l in gzip.open(pelt, 'rt')]
cfs = [d for d in recs if d.get('type') == 'cfs' and d.get('tg') == '/cfsr-g-hi']
change = next(d['ts'] for d in sorted(cfs, key=lambda d: d['ts'])
              if d['tg_shares'] == 4096 << 10)
assert all(d['tg_shares'] == 1024 << 10 for d in cfs if d['ts'] < change)
# the snapshots come every 50 ms: the one after the change is within 100 ms
since = change + (100000000 if after == 'snapshot' else 0)
model = {}
for r in csv.DictReader(open(rows_csv)):
    if r['entity'] == 'gse' and r['path'] == '/cfsr-g-hi':
        model.setdefault(int(r['cpu']), []).append((int(r['ts_ns']), int(r['load_weight'])))
n = ok = 0
for d in recs:
    if d.get('type') != 'gse' or d.get('tg') != '/cfsr-g-hi' or d['ts'] <= since:
        continue
    rows = model.get(d['rq_cpu'], [])
    i = bisect.bisect_right(rows, (d['ts'], 1 << 62)) - 1
    n += 1
    ok += i >= 0 and abs(rows[i][1] - d['weight']) <= d['weight'] / 100
print(n, ok)
assert n >= 100 and ok == n, (n, ok)
PY

if command -v trace-cmd >/dev/null 2>&1; then
	test_expect_success 'the marker follows the write' '
		trace-cmd report -i "$D" 2>/dev/null | grep -q "cfsr-shares /cfsr-g-hi 4096"
	'
fi

test_expect_success 'signals --clock records: the entity weight follows the change' '
	cfsreplay signals --entity gse --clock "$K" "$D" >rec.csv 2>/dev/null &&
	python3 weights.py "$K" rec.csv records
'

test_expect_success 'signals on the trace alone: from the snapshot that shows it' '
	cfsreplay signals --entity gse "$D" >snap.csv 2>/dev/null &&
	python3 weights.py "$K" snap.csv snapshot
'

test_done
