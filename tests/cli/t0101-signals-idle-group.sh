#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A cpu cgroup made idle (cpu.idle 1, v5.15+): sched_group_set_idle() sets
# its tg->shares to scale_load(WEIGHT_IDLEPRIO) = 3 << 10 = 3072.
# traces/groups-solo.dat's metadata rewritten (tests/helpers/meta-set):
# /cfsr-g-lo (cpu.shares 512) idle, its cpu.shares reading 3 as the
# kernel's scale_load_down(tg->shares) gives it; its task runs alone on
# its CPU, so calc_group_shares() gives the group entity the whole of
# tg->shares (524288 in the recording) at every update after its first:
# - v1: the entity weighs 3072 and its load_avg, se_weight 3 x load_sum /
#   divider, is at most 3; /cfsr-g-hi keeps 2048 << 10 = 2097152;
# - the same metadata as cgroup v2, cpu.weight 1 (what an idle group's
#   cpu.weight reads from v6.12; 0 before): 3072 again;
# - v2 cpu.weight 1 without cpu.idle: (1 x 1024 + 50) / 100 = 10 shares,
#   10240.
. "$(dirname "$0")/lib.sh"

METASET=${HELPER_DIR:-$SRC_DIR/tests/helpers}/meta-set
SOLO=$TRACES/groups-solo.dat

# with_meta OUT VERSION IDLE: groups-solo.dat with /cfsr-g-lo's cpu.idle
# IDLE, its hierarchy as cgroup VERSION (v2: cpu.weight for cpu.shares)
with_meta() {
	cp "$SOLO" "$1" &&
	cfsreplay info --json "$SOLO" | python3 -c "
import json, sys
m = json.load(sys.stdin)['record_meta']
ver, idle = int(sys.argv[1]), int(sys.argv[2])
for h in m['cgroup_hierarchies']:
    h['version'] = ver
    for g in h['groups']:
        if g['path'] == '/cfsr-g-lo':
            g['cpu.idle'] = idle
            g['cpu.shares'] = 3 if idle else 512
        if ver == 2:
            s = g.pop('cpu.shares')
            if g['path'] != '/':
                g['cpu.weight'] = 1 if g['path'] == '/cfsr-g-lo' else s * 100 // 1024
json.dump(m, open('meta.json', 'w'))" "$2" "$3" &&
	"$METASET" "$1" meta.json
}

# weights TRACE LO HI: the group entities' rows after their first: every
# /cfsr-g-lo one weighs LO (load_avg at most LO >> 10), every /cfsr-g-hi
# one HI
weights() {
	cfsreplay signals --entity gse --format jsonl "$1" 2>/dev/null | python3 -c "
import json, sys
lo, hi = int(sys.argv[1]), int(sys.argv[2])
rows = {'/cfsr-g-lo': [], '/cfsr-g-hi': []}
for line in sys.stdin:
    d = json.loads(line)
    if d['path'] in rows:
        rows[d['path']].append(d)
for path, want in (('/cfsr-g-lo', lo), ('/cfsr-g-hi', hi)):
    rs = rows[path][1:]
    assert len(rs) >= 100, (path, len(rs))
    bad = [(d['ts_ns'], d['load_weight']) for d in rs if d['load_weight'] != want]
    assert not bad, (path, bad[:5])
    over = [d['ts_ns'] for d in rs if d['load_avg'] > want >> 10]
    assert not over, (path, over[:5])
print('ok', len(rows['/cfsr-g-lo']), len(rows['/cfsr-g-hi']))" "$2" "$3"
}

test_expect_success 'the recording: shares 512 and 2048' "
	weights '$SOLO' 524288 2097152
"

test_expect_success 'v1 cpu.idle 1: 3072' "
	with_meta idle1.dat 1 1 &&
	cfsreplay info --json idle1.dat | grep -q '\"cpu.idle\": *1' &&
	weights idle1.dat 3072 2097152
"

test_expect_success 'v2 cpu.idle 1, cpu.weight 1: 3072' "
	with_meta idle2.dat 2 1 &&
	weights idle2.dat 3072 2097152
"

test_expect_success 'v2 cpu.weight 1, not idle: 10240' "
	with_meta weight1.dat 2 0 &&
	weights weight1.dat 10240 2097152
"

test_done
