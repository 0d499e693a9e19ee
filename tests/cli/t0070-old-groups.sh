#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Task groups under the older models (v3.8-v4.2 legacy, v4.3-v5.6), on the
# bundled traces/groups-{solo,split}.dat (scripts/record-groups.sh, with
# the kernel's own PELT records beside each).  Independent of the tool:
# each worker's CPU and group from its "cfsr-worker pid=N cpu=C group=P"
# marker and the window in which all workers run (last marker to first
# worker exit), both read with trace-cmd; each group's tg->shares from the
# kernel's own records of its cfs_rqs (tg_shares); the expected weights by
# hand from each kernel's formula:
#
# - solo: each group alone on its CPU, no load of it elsewhere, so its
#   tg->load_avg is that CPU's published contribution C and the group's
#   weight there is tg->shares * load / (C - C + load) = tg->shares, in
#   every generation.  When the worker sleeps the group's cfs_rq is
#   empty: calc_cfs_shares() (v3.8-v4.14) weighs its load.weight, 0, and
#   clamps to MIN_SHARES, 2 (unscaled: in 10-bit units, 2048 scaled,
#   before v4.7; 2 from v4.7); calc_group_shares() (v4.15+) takes
#   max(load.weight, load_avg), the average still > 0, and keeps
#   tg->shares.  So under 3.18 and 4.9 every weight is the shares or the
#   floor, mostly the shares (the workers are busy 16 ms of every 20);
#   under 4.19 and 5.4 always the shares.
# - split: each group has a worker on each CPU, the same duty cycle, so
#   its load is about even over the two CPUs: its two entities weigh
#   about the same (ratio ~1), and, the groups' shares being 2048 and 512,
#   the busier group's entity outweighs the other's about 4 to 1 on each
#   CPU.
# - no output speaks of flattened groups any more.
. "$(dirname "$0")/lib.sh"

if ! command -v trace-cmd >/dev/null; then
	test_skip 'task groups under the older models' 'trace-cmd is not installed'
	test_done
fi

# facts NAME: NAME.facts holds "window START END", "worker PID CPU GROUP"
# lines from trace-cmd, and "shares GROUP SHARES" from the kernel's records
facts() {
	local t=$TRACES/groups-$1.dat p=$TRACES/groups-$1.pelt.jsonl.gz
	group_workers "$t" >"$1.facts" &&
	python3 -c '
import gzip, json, sys
groups = set(l.split()[3] for l in open(sys.argv[2]) if l.startswith("worker"))
shares = {}
for line in gzip.open(sys.argv[1], "rt"):
    r = json.loads(line)
    if r.get("type") == "cfs" and r.get("tg") in groups and r.get("tg_shares", 0) > 0:
        shares[r["tg"]] = r["tg_shares"]
for g in sorted(groups):
    print("shares", g, shares[g])
' "$p" "$1.facts" >>"$1.facts"
}

# weights NAME KERNEL: NAME-KERNEL.csv, the model's group entity rows
weights() {
	cfsreplay signals --entity gse --kernel "$2" "$TRACES/groups-$1.dat" >"$1-$2.csv" 2>"$1-$2.err"
}

test_expect_success 'groups-solo.dat: the facts from the trace and the kernel records' "
	facts solo &&
	grep -q '^shares /cfsr-g-hi 2097152$' solo.facts &&
	grep -q '^shares /cfsr-g-lo 524288$' solo.facts &&
	test \$(grep -c '^worker' solo.facts) -eq 2
"

test_expect_success 'groups-solo.dat: a group alone on its CPU weighs its shares' "
	for k in 3.18 4.9 4.19 5.4; do weights solo \$k || exit 1; done &&
	python3 - <<'EOF'
import csv, sys
facts = [l.split() for l in open('solo.facts')]
lo, hi = [int(x) for x in facts[0][1:3]]
shares = {f[1]: int(f[2]) for f in facts if f[0] == 'shares'}
where = {(f[3], f[2]) for f in facts if f[0] == 'worker'}
# the floor: MIN_SHARES = 2, in 10-bit units before v4.7 (scaled 2048)
floor = {'3.18': 2048, '4.9': 2, '4.19': None, '5.4': None}
bad = 0
for k, fl in floor.items():
    for g, cpu in sorted(where):
        w = [int(r['load_weight']) for r in csv.DictReader(open('solo-%s.csv' % k))
             if r['entity'] == 'gse' and r['path'] == g and r['cpu'] == cpu
             and lo <= int(r['ts_ns']) <= hi]
        full = sum(1 for x in w if x == shares[g])
        other = [x for x in w if x != shares[g] and x != fl]
        print('# %s %s cpu %s: %d rows, %d at the shares %d, %d at the floor, %d else'
              % (k, g, cpu, len(w), full, shares[g], len(w) - full - len(other), len(other)))
        if len(w) < 100 or other or (fl is None and full != len(w)) or full < 0.8 * len(w):
            bad += 1
sys.exit(bad)
EOF
"

test_expect_success 'groups-split.dat: a group split evenly weighs the same on both CPUs' "
	facts split &&
	test \$(grep -c '^worker' split.facts) -eq 4 &&
	for k in 3.18 4.9 4.19; do weights split \$k || exit 1; done &&
	python3 - <<'EOF'
import csv, sys
facts = [l.split() for l in open('split.facts')]
lo, hi = [int(x) for x in facts[0][1:3]]
shares = {f[1]: int(f[2]) for f in facts if f[0] == 'shares'}
big, small = sorted(shares, key=shares.get, reverse=True)
bad = 0
for k in ('3.18', '4.9', '4.19'):
    rows = [r for r in csv.DictReader(open('split-%s.csv' % k))
            if r['entity'] == 'gse' and lo <= int(r['ts_ns']) <= hi]
    mean = {}
    for g in shares:
        for cpu in ('0', '1'):
            # the rows of a queued group: above the MIN_SHARES floor
            w = [int(r['load_weight']) for r in rows if r['path'] == g and r['cpu'] == cpu
                 and int(r['load_weight']) > 4096]
            mean[g, cpu] = sum(w) / len(w) if w else 0
    for g in shares:
        r = mean[g, '0'] / mean[g, '1'] if mean[g, '1'] else 0
        print('# %s %s: mean weights %.0f and %.0f (of %d), ratio %.3f'
              % (k, g, mean[g, '0'], mean[g, '1'], shares[g], r))
        if not 0.9 < r < 1.1:
            bad += 1
    for cpu in ('0', '1'):
        r = mean[big, cpu] / mean[small, cpu] if mean[small, cpu] else 0
        print('# %s cpu %s: %s / %s = %.2f' % (k, cpu, big, small, r))
        if not 3.5 < r < 5:
            bad += 1
sys.exit(bad)
EOF
"

test_expect_success 'no older model says its groups are flattened' "
	for k in 3.18 4.9 4.19; do
		cfsreplay report --kernel \$k '$TRACES/groups-solo.dat' >rep-\$k &&
		cfsreplay validate --kernel \$k '$TRACES/groups-solo.dat' >val-\$k || exit 1
		! grep -q flattened rep-\$k solo-\$k.err val-\$k &&
		grep -q 'tasks, group entities and cfs_rqs' val-\$k || exit 1
	done
"
test_done
