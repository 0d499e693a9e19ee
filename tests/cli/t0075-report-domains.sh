#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The scheduling domains a recording carries (debugfs sched/domains: name,
# flags, imbalance_pct, min_interval, max_interval, busy_factor), used by
# the rules in place of sd_init()'s defaults; traces/recorded.dat's
# metadata rewritten with tests/helpers/meta-set (one L3 over both CPUs:
# one level, MC, of both CPUs):
#  - the values sd_init() gives a 2-CPU MC domain: every verdict as with
#    the defaults, and the report says the values are the recorded ones;
#  - no SD_BALANCE_FORK: select_task_rq_fair() finds no domain for a fork,
#    which stays on its parent's CPU: every fork whose sched_wakeup_new
#    names another CPU than the one that recorded it diverges, the others
#    agree (counted here from trace-cmd's text);
#  - min_interval 1 ms, busy_factor 1: the busy interval is one jiffy
#    (HZ 250 assumed: 4 ms) instead of 2 ms x 16 = 32 ms, and the lasting
#    windows are those of the report's windows longer than that.
. "$(dirname "$0")/lib.sh"

REC=$TRACES/recorded.dat

# with_domains OUT FLAGS PCT MIN MAX BUSY: recorded.dat, one L3 over both CPUs, an MC domain
with_domains() {
	local out=$1
	shift
	meta_rewrite "$REC" "$out" "
flags, pct, lo, hi, busy = sys.argv[1], *map(int, sys.argv[2:6])
for c in m['cpus']:
    c['caches'] = [{'index': 2, 'level': 3, 'type': 'Unified', 'size': '16384K',
                    'shared_cpu_list': '0-1'}]
    c['sched_domains'] = [{'domain': 0, 'name': 'MC', 'flags': flags, 'imbalance_pct': pct,
                           'min_interval': lo, 'max_interval': hi, 'busy_factor': busy}]" "$@"
}

DEFAULT='SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC SD_PREFER_SIBLING'
NOFORK='SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_WAKE_AFFINE SD_SHARE_LLC SD_PREFER_SIBLING'

# verdicts TRACE: placement counts and reasons, lasting windows
verdicts() {
	cfsreplay report --json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p, m = d["placement"], d["lasting_imbalance"]
print(json.dumps([p["counts"], p["reasons"], m["lasting_windows"], m["windows"]], sort_keys=True))
print("domains", p["domains"], m["domains"])'
}

test_expect_success "sd_init()'s values, recorded: the defaults' verdicts, said to be recorded" "
	verdicts '$REC' >plain.txt &&
	grep -q '^domains defaults defaults$' plain.txt &&
	with_domains dflt.dat '$DEFAULT' 117 2 4 16 &&
	verdicts dflt.dat >dflt.txt &&
	grep -q '^domains recorded recorded$' dflt.txt &&
	test \"\$(head -1 plain.txt)\" = \"\$(head -1 dflt.txt)\" &&
	cfsreplay report dflt.dat >dflt.out &&
	grep -q '^  domains: MC recorded: imbalance_pct 117, busy interval 32.000 ms, flags EXEC FORK WAKE_AFFINE$' dflt.out
"

if ! command -v trace-cmd >/dev/null; then
	test_skip 'no SD_BALANCE_FORK: forks stay on the parent CPU' 'trace-cmd not installed'
else
	test_expect_success 'no SD_BALANCE_FORK: forks stay on the parent CPU' "
		with_domains nofork.dat '$NOFORK' 117 2 4 16 &&
		cfsreplay report --json nofork.dat >nofork.json &&
		trace-cmd report -N -t '$REC' 2>/dev/null | python3 -c '
import json, re, sys
same = other = 0
for line in sys.stdin:
    m = re.search(r\"\\[(\\d+)\\] \\S+: sched_wakeup_new: .* prio=(\\d+)(?: success=(\\d+))? target_cpu=(\\d+)\", line)
    if not m or int(m.group(2)) < 100 or m.group(3) == \"0\":
        continue
    if int(m.group(1)) == int(m.group(4)):
        same += 1
    else:
        other += 1
p = json.load(open(\"nofork.json\"))[\"placement\"]
f = p[\"counts\"][\"fork\"]
print(\"# forks on the parent CPU %d, elsewhere %d; report %s\" % (same, other, f))
assert other > 0 and f == {\"agrees\": same, \"diverges\": other, \"cannot-judge\": 0}, f
assert p[\"reasons\"][\"fork\"][\"no-balance-domain\"] == same + other
'
	"
fi

test_expect_success 'min_interval 1 ms, busy_factor 1: lasting beyond one jiffy' "
	with_domains short.dat '$DEFAULT' 117 1 2 1 &&
	cfsreplay report --json --top 100000 short.dat >short.json &&
	cfsreplay report --json --top 100000 '$REC' >plain.json &&
	python3 -c '
import json
s = json.load(open(\"short.json\"))[\"lasting_imbalance\"]
p = json.load(open(\"plain.json\"))[\"lasting_imbalance\"]
assert s[\"levels\"][0][\"busy_balance_interval_ns\"] == 4000000, s[\"levels\"]
# the same windows, judged against 4 ms instead of 32 ms
assert s[\"windows\"] == p[\"windows\"]
longer = [w for w in s[\"top\"] if w[\"duration_ns\"] > 4000000]
print(\"# lasting windows: %d beyond 4 ms (%d beyond 32 ms before)\" % (len(longer), p[\"lasting_windows\"]))
assert s[\"lasting_windows\"] == len(longer) > p[\"lasting_windows\"], (s[\"lasting_windows\"], len(longer))
'
"

test_done
