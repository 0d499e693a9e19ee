#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An autogroup's nice (/proc/PID/autogroup, proc_sched_autogroup_set_nice():
# tg->shares = scale_load(sched_prio_to_weight[nice + 20])), read from the
# task rows of a recorded trace's first snapshot: traces/groups-solo.dat's
# snapshots rewritten (tests/helpers/meta-set --truth) to give
# /autogroup-32, the recorder's session, nice 5 in snapshot 0: shares
# 335 << 10 = 343040.  calc_group_shares() never gives a group entity more
# than tg->shares, and all of it while the group's load sits on one CPU:
# - in the recording (nice 0) the entity reaches NICE_0_LOAD, 1048576;
# - at nice 5 no row of the entity after its first on each CPU (the
#   weight it is created with) is above 343040, and rows of the entity
#   alone on its CPU are at exactly 343040, as many as there were at
#   1048576 within 2 %.
. "$(dirname "$0")/lib.sh"

METASET=${HELPER_DIR:-$SRC_DIR/tests/helpers}/meta-set
SOLO=$TRACES/groups-solo.dat

# with_nice OUT NICE: groups-solo.dat with /autogroup-32 at NICE in snapshot 0
with_nice() {
	cp "$SOLO" "$1" &&
	python3 -c "
import gzip, json, sys, zlib
b = open(sys.argv[1], 'rb').read()
i = b.find(b'\x1f\x8b\x08')
while i >= 0:
    try:
        d = zlib.decompressobj(31).decompress(b[i:])
        if b'\"kind\":\"snap\"' in d[:20000]:
            break
    except zlib.error:
        pass
    i = b.find(b'\x1f\x8b\x08', i + 1)
assert i >= 0, 'no snapshots'
out = []
for line in d.decode().splitlines():
    r = json.loads(line)
    if r.get('kind') == 'task' and r.get('seq') == 0 and r.get('autogroup') == '/autogroup-32':
        r['autogroup_nice'] = int(sys.argv[2])
        line = json.dumps(r, separators=(',', ':'))
    out.append(line)
with gzip.open('truth.gz', 'wt') as f:
    f.write('\n'.join(out) + '\n')" "$SOLO" "$2" &&
	"$METASET" --truth "$1" truth.gz
}

# weights TRACE: /autogroup-32's rows after the first on each CPU: the
# largest weight, and how many rows have it
weights() {
	cfsreplay signals --entity gse --format jsonl "$1" 2>/dev/null | python3 -c "
import json, sys
seen, w = set(), []
for line in sys.stdin:
    d = json.loads(line)
    if d['path'] != '/autogroup-32':
        continue
    if d['cpu'] in seen:
        w.append(d['load_weight'])
    seen.add(d['cpu'])
print(max(w), w.count(max(w)))"
}

test_expect_success 'nice 0: the entity reaches NICE_0_LOAD' "
	weights '$SOLO' >base.out &&
	read -r max n <base.out &&
	test \$max -eq 1048576 && test \$n -ge 100
"

test_expect_success 'nice 5: 343040 at most, as often' "
	with_nice nice.dat 5 &&
	weights nice.dat >nice.out &&
	cat base.out nice.out &&
	read -r max n <nice.out &&
	read -r _ n0 <base.out &&
	test \$max -eq 343040 &&
	test \$((n * 100)) -ge \$((n0 * 98)) && test \$((n * 100)) -le \$((n0 * 102))
"

test_expect_success 'nice 0 written out: the same signals' "
	with_nice zero.dat 0 &&
	cfsreplay signals '$SOLO' >a.csv 2>/dev/null &&
	cfsreplay signals zero.dat >b.csv 2>/dev/null &&
	cmp a.csv b.csv
"

test_done
