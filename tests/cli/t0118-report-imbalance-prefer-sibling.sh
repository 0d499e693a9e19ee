#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Group types and SD_PREFER_SIBLING between groups of SMT threads, on the
# spinners of tests/cli/lib-four-cpus.sh given a machine of one LLC {0-3}
# whose cores {0,1} and {2,3} have two SMT threads each: domain levels SMT
# (groups of one CPU) and MC (its groups the cores; SD_SHARE_LLC, and
# SD_PREFER_SIBLING on its child SMT and on itself, sd_init()).  By hand:
#  - at the wakeups {0,1} holds the parent and four spinners, {2,3} two
#    spinners whose util_avg starts at 512 each (half an idle CPU's
#    capacity, post_init_entity_util_avg()) and rises as 1024 - 512 x y^n
#    (y^32 = 1/2, periods of 1024 us): {2,3} has spare capacity
#    (group_has_capacity(), imbalance_pct 117, capacity 2048) until its
#    util passes 2048 x 100 / 117 = 1750.4, n ~57.2 periods (~58.6 ms),
#    then is fully busy from the first report after (60 or 64 ms);
#  - v6.18: a busy local group with spare capacity gets nothing in an LLC
#    (no migrate_util under SD_SHARE_LLC; sibling_imbalance() is 0 for a
#    busy CPU), so no window until {2,3} is fully busy; then {0,1}
#    (overloaded, avg_load ~2048) against {2,3} (~(1024 + 335) / 2 =
#    679), the domain's average ~1363: migrate_load min((2048 - 1363) x
#    2, (1363 - 679) x 2) ~1368 >= a spinner's ~1024, to the end: ~136 to
#    142 ms, lasting (MC's busy interval 4 ms x 16 = 64 ms); the window
#    reports migrate_load and that imbalance;
#  - v6.2 (v5.7-v6.5 rule): SD_PREFER_SIBLING of the child forces the
#    balance while {2,3} has spare capacity, its task count 5 (then 4,
#    the parent asleep) against 2 differing by more than one: migrate_task
#    of (5 - 2) >> 1 = 1, any waiting spinner: one window from the
#    wakeups to the end (~200 ms), reported as migrate_task 1.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-four-cpus.sh"

# group_window JSON: the report's levels, group windows and its longest group window
group_window() {
	python3 -c "
import json, sys
m = json.load(open(sys.argv[1]))['lasting_imbalance']
g, w = m['groups'], m['groups']['top'][0]
print('# %s' % w)
print(' '.join(l['name'] for l in m['levels']), g['windows'], g['lasting_windows'], w['level'],
      w['busiest_group'], w['local_group'], w['busiest_nr'], w['ended_by'],
      (w['start_ns'] - 10000000000) // 1000000, w['duration_ns'] // 1000000,
      w['migration_type'], w['imbalance'])" "$1"
}

test_expect_success 'v6.18: no window before the local group is fully busy' '
	four_cpus 0 s.dat smt &&
	cfsreplay report --json s.dat >s.json &&
	group_window s.json >w.txt &&
	cat w.txt &&
	read -r l1 l2 n lasting lv b l nr end from dur mig imb <<-EOF &&
	$(tail -n 1 w.txt)
	EOF
	test "$l1 $l2 $n $lasting $lv $b $l $nr $end" = "SMT MC 1 1 MC 0-1 2-3 4 trace-end" &&
	test "$from" -ge 58 && test "$from" -le 65 &&
	test "$dur" -ge 134 && test "$dur" -le 143 &&
	test "$mig" = migrate_load && test "$imb" -ge 1300 && test "$imb" -le 1450
'

test_expect_success 'v6.2: SD_PREFER_SIBLING balances from the wakeups, v6.18 does not' '
	four_cpus 0 s.dat smt &&
	cfsreplay report --json s.dat >s.json &&
	cfsreplay report --json --kernel 6.2 s.dat >s2.json &&
	group_window s.json | tail -n 1 >w.txt &&
	group_window s2.json | tail -n 1 >w2.txt &&
	cat w.txt w2.txt &&
	read -r _ _ _ _ _ _ _ _ _ from _ <w.txt &&
	test "$from" -ge 58 &&
	read -r _ _ n lasting _ _ _ nr _ from dur mig imb <w2.txt &&
	test "$n $lasting $nr $from $mig $imb" = "1 1 5 0 migrate_task 1" &&
	test "$dur" -ge 195 && test "$dur" -le 201
'

test_done
