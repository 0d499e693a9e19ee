#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A CFS kernel's own scheduler features (GENTLE_FAIR_SLEEPERS, START_DEBIT,
# NEXT_BUDDY, LAST_BUDDY, WAKEUP_PREEMPTION) in the CFS pick rule.  No
# bundled trace was recorded on a CFS kernel: traces/periodic.dat is given
# the release 5.15.44 (the uname in its header, same length) and a
# sysctl_sched_features in its metadata (tests/helpers/meta-set).  In the
# v5.13-v5.19 features.h the first six bits are GENTLE_FAIR_SLEEPERS,
# START_DEBIT, NEXT_BUDDY, LAST_BUDDY, CACHE_HOT_BUDDY, WAKEUP_PREEMPTION:
#  - 0x3b (their defaults: all on but NEXT_BUDDY) judges every switch as a
#    what-if replay of the 6.18 trace under --kernel 5.15 does;
#  - 0x38 (NO_GENTLE_FAIR_SLEEPERS, NO_START_DEBIT): info names both, and
#    the verdicts are those of scripts/cfs-pick-ref.py with --no-gentle
#    and --no-start-debit (a sleeper placed a whole latency before
#    min_vruntime, a new task at it), checked by scripts/cfs-pick-check.py;
#    the defaults' verdicts are not;
#  - 0x1b (NO_WAKEUP_PREEMPTION): no wakeup marks a buddy, so fewer picks
#    are left to a buddy, and the script (no buddies) still agrees;
#  - under --kernel 6.1 (a what-if of this 5.15 trace) the bitmask is not
#    read: the verdicts are those of the 6.18 trace under --kernel 6.1.
. "$(dirname "$0")/lib.sh"

METASET=${HELPER_DIR:-$SRC_DIR/tests/helpers}/meta-set
REF=$SRC_DIR/scripts/cfs-pick-ref.py
CHECK=$SRC_DIR/scripts/cfs-pick-check.py

[ -x "$METASET" ] || { test_skip 'CFS features' "no $METASET (make builds it)"; test_done; }

# as_cfs MASK: p-MASK.dat, periodic.dat as recorded on 5.15.44 with sysctl_sched_features MASK
as_cfs() {
	local off
	off=$(grep -boa '6\.18\.44-fc-v1147' "$TRACES/periodic.dat" | head -1 | cut -d: -f1) &&
	[ -n "$off" ] && cp "$TRACES/periodic.dat" "p-$1.dat" &&
	printf '5.15' | dd of="p-$1.dat" bs=1 seek="$off" conv=notrunc 2>/dev/null &&
	printf '{"sysctl_sched": {"sysctl_sched_features": %d}}\n' "$1" >"m-$1.json" &&
	"$METASET" "p-$1.dat" "m-$1.json"
}

# pick_totals JSON: the pick check's totals and reasons, one line
pick_totals() {
	python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["pick_check"]
print(p["pick"], sorted(p["total"].items()), sorted(p["reasons"].items()))' "$1"
}

test_expect_success 'the rewritten traces say 5.15 and their features' '
	as_cfs 59 && as_cfs 56 && as_cfs 27 &&
	cfsreplay info p-56.dat >info.txt &&
	grep -q "^kernel: *5.15.44-fc-v1147" info.txt &&
	grep -q "features.h order of v5.13-v5.19" info.txt &&
	grep -q "^  engine: .* NO_GENTLE_FAIR_SLEEPERS NO_START_DEBIT$" info.txt &&
	cfsreplay info p-59.dat | grep "^  engine:" >eng.txt &&
	! grep -q "GENTLE\|START_DEBIT\|BUDDY\|WAKEUP_PREEMPTION" eng.txt
'

test_expect_success 'the default features judge as the what-if replay' '
	cfsreplay report --json --top 100000 p-59.dat >d.json &&
	cfsreplay report --json --top 100000 --kernel 5.15 "$TRACES/periodic.dat" >k.json &&
	pick_totals d.json >a && pick_totals k.json >b && diff -u a b
'

if ! command -v trace-cmd >/dev/null; then
	test_skip 'CFS features against the independent script' 'trace-cmd not installed'
else
	test_expect_success 'NO_GENTLE_FAIR_SLEEPERS NO_START_DEBIT: the script with the same rules' '
		trace-cmd report -t p-56.dat 2>/dev/null |
			python3 "$REF" --no-gentle --no-start-debit >ref.txt &&
		cfsreplay report --json --top 100000 p-56.dat >c.json &&
		python3 "$CHECK" c.json ref.txt 300 20 &&
		! python3 "$CHECK" d.json ref.txt 300 20 >/dev/null 2>&1
	'
	test_expect_success 'NO_WAKEUP_PREEMPTION: fewer picks left to a buddy' '
		trace-cmd report -t p-27.dat 2>/dev/null | python3 "$REF" >ref27.txt &&
		cfsreplay report --json --top 100000 p-27.dat >w.json &&
		python3 "$CHECK" w.json ref27.txt 300 20 &&
		python3 -c "import json, sys
bu = [json.load(open(f))[\"pick_check\"][\"reasons\"][\"buddy-unknown\"] for f in sys.argv[1:]]
assert bu[0] < bu[1], bu" w.json d.json
	'
fi

test_expect_success 'a what-if replay keeps the defaults' '
	cfsreplay report --json --top 100000 --kernel 6.1 p-56.dat >x.json &&
	cfsreplay report --json --top 100000 --kernel 6.1 "$TRACES/periodic.dat" >y.json &&
	pick_totals x.json >a && pick_totals y.json >b && diff -u a b
'

test_done
