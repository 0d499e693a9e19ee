#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A group's removed load carried up by the blocked-load walk, in lock-step
# on traces/groups-split.dat (v6.18, 2 CPUs, two cgroups).
# __update_blocked_fair() applies a group cfs_rq's removed load
# (update_cfs_rq_load_avg(): add_tg_cfs_propagate() sets propagate and a
# negative prop_runnable_sum), then updates the group entity, whose
# propagate_entity_load_avg() moves the change onto the root.  The
# kernel's record of the group cfs_rq comes before the engine makes that
# walk (at the CPU's next event); validate takes the record's averages
# and, the engine being behind it, its pending propagation, which the
# walk then carries up.  Three such group records (read from the pelt
# file, independently of the model: propagate set, prop_runnable_sum < 0,
# nothing left to remove); the root record of their CPU that next crosses
# a period (the walk's own root records cross none, and are not compared)
# is exact: none is listed among the differing root records.  Without the
# propagation taken each is off by the group entity's lost load.
. "$(dirname "$0")/lib.sh"

D=$TRACES/groups-split.dat
K=$TRACES/groups-split.pelt.jsonl.gz

cat >"$TRASH/walks.py" <<'PY'
import gzip, json, sys
recs = [json.loads(l) for l in gzip.open(sys.argv[1], 'rt')]
recs = sorted((d for d in recs if d.get('type') == 'cfs'), key=lambda d: d['ts'])
for want in sys.argv[2:]:
    ts = int(want.replace('.', ''))
    i = next(i for i, d in enumerate(recs) if d['ts'] == ts)
    g = recs[i]
    # the removal applied in this update: a pending propagation, nothing left to remove
    assert g['tg'] != '/' and g['propagate'] == 1 and g['prop_runnable_sum'] < 0, g
    assert g['removed_nr'] == 0, g
    roots = [d for d in recs[:i] if d['tg'] == '/' and d['rq_cpu'] == g['rq_cpu']]
    period = roots[-1]['last_update_time'] >> 20
    for d in recs[i + 1:]:
        if d['tg'] != '/' or d['rq_cpu'] != g['rq_cpu']:
            continue
        if d['last_update_time'] >> 20 != period:
            print('%d.%09d %d' % (d['ts'] // 10**9, d['ts'] % 10**9, d['rq_cpu']))
            break
        period = d['last_update_time'] >> 20
PY

test_expect_success 'the records show the walks and the root records after them' '
	python3 walks.py "$K" 2183.241596555 2183.289646757 2183.297600278 >next &&
	printf "%s\\n" "2183.245582044 0" "2183.293595012 1" "2183.301587377 0" >want &&
	cmp want next
'

test_expect_success 'validate: those root records are exact' '
	cfsreplay validate --diffs 100000 --pelt "$K" "$D" >v.txt &&
	grep -q "^root cfs_rq updates compared" v.txt &&
	while read t c; do
		! grep -q "^  $t cpu $c /:" v.txt || return 1
	done <next
'

test_done
