#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Lasting imbalance between groups of CPUs, on a four-CPU trace.dat written
# here (tests/helpers/dat-write, with traces/recorded.dat's event formats)
# and given the metadata of a machine whose L3s span CPUs {0,1} and {2,3}
# (tests/helpers/meta-set): domain levels MC (the LLCs) and PKG (all four
# CPUs), whose groups are {0,1} and {2,3}.  A parent forks nice-0
# spinners, two woken on each of CPUs 0 and 1, one on CPU 2, and a nice-5
# one (weight 335) on CPU 3, then sleeps; CPUs 0 and 1 run theirs round
# robin, 4 ms each, for 200 ms.  By hand, each task's load staying at its
# weight (it always runs or waits):
#  - pairs of CPUs: B = CPU 0 or 1 (~2048), L = CPU 3 (~335, one task):
#    imbalance min(B - avg, avg - L) ~856 < a spinner's ~1024: no window
#    lasts;
#  - PKG's groups, by their types (group_classify(), imbalance_pct 117,
#    capacity 2048 each): {2,3}'s two new spinners start at util_avg 512
#    (post_init_entity_util_avg(): half an idle CPU's capacity) and rise
#    as 1024 - 512 x y^n each (y^32 = 1/2, periods of 1024 us): the group
#    has spare capacity until its util passes 2048 x 100 / 117 = 1750.4,
#    n ~57.2 periods (~58.6 ms), and is fully busy from the first report
#    after (60 or 64 ms).  Until then a busy local group with spare
#    capacity takes migrate_util from {0,1} once that is overloaded
#    (2048 - {2,3}'s util, which the round robin's waiting spinner fits
#    at some reports only: short windows) or nothing.  From then on:
#    {0,1} 4 tasks on 2 CPUs, overloaded, avg_load ~2048; {2,3} fully
#    busy, ~(1024 + 335) / 2 = 679; the domain's average ~1363;
#    migrate_load min((2048 - 1363) x 2, (1363 - 679) x 2) ~1368 >=
#    1024: one window, {0,1} -> {2,3}, class allowed, to the end (~136
#    to 142 ms): lasting (PKG's busy interval 4 ms x 16 = 64 ms) and
#    beyond any interval (4 ms doubled to max_interval 8 ms, x 16 = 128
#    ms).
#  - with a spinner of CPU 0 moved to CPU 3 at 160 ms: that window ends
#    there (~96 to 102 ms: lasting, not beyond), and 3 against 3 tasks
#    (~1536 against ~1191, both overloaded) leave ~344: no window after.
. "$(dirname "$0")/lib.sh"

. "$TEST_DIR/lib-four-cpus.sh"

test_expect_success 'the written trace reads back: four CPUs, two LLCs, its events' '
	four_cpus 0 g.dat llc &&
	trace-cmd report g.dat >g.txt 2>/dev/null &&
	test "$(grep -c sched_wakeup_new g.txt)" = 6 &&
	cfsreplay info --json g.dat >g-info.json &&
	python3 -c "
import json
d = json.load(open(\"g-info.json\"))
assert d[\"nr_cpus\"] == 4, d[\"nr_cpus\"]
" &&
	cfsreplay report g.dat >g.out &&
	grep -q "LLCs \[0-1\] \[2-3\]" g.out &&
	grep -q "^  between groups of CPUs" g.out
'

test_expect_success 'one lasting window between the groups once the local one is fully busy; no pair lasts' '
	four_cpus 0 g.dat llc &&
	cfsreplay report --json g.dat >g.json &&
	python3 - <<-PY
	import json
	m = json.load(open("g.json"))["lasting_imbalance"]
	assert [l["name"] for l in m["levels"]] == ["MC", "PKG"], m["levels"]
	assert m["lasting_windows"] == 0, m
	g = m["groups"]
	assert g is not None and g["windows"] >= 1 and g["lasting_windows"] == 1, g
	assert g["beyond_max_windows"] == 1, g
	pkg = [l for l in g["levels"] if l["name"] == "PKG"][0]
	assert pkg["lasting_windows"] == 1 and pkg["windows"] == g["windows"], pkg
	assert pkg["max_busy_balance_interval_ns"] == 128000000, pkg
	w = g["top"][0]
	print("# %s" % w)
	assert w["level"] == "PKG" and w["busiest_group"] == "0-1" and w["local_group"] == "2-3", w
	assert w["class"] == "allowed" and w["ended_by"] == "trace-end", w
	assert w["busiest_cpu"] in (0, 1) and w["beyond_max_interval"] is True, w
	assert 58000000 <= w["start_ns"] - 10000000000 <= 65000000, w
	assert 134000000 < w["duration_ns"] <= 143000000, w
	assert w["busiest_nr"] == 4 and w["local_nr"] == 2, w
	assert 1950 < w["busiest_load"] < 2150 and 640 < w["local_load"] < 720, w
	PY
'

test_expect_success 'a move from CPU 0 to CPU 3 at 160 ms ends it: lasting, not beyond' '
	four_cpus 160 m.dat llc &&
	cfsreplay report --json m.dat >m.json &&
	python3 - <<-PY
	import json
	m = json.load(open("m.json"))["lasting_imbalance"]
	g = m["groups"]
	assert g["lasting_windows"] == 1 and g["beyond_max_windows"] == 0, g
	w = g["top"][0]
	assert w["ended_by"] == "migration" and 91000000 < w["duration_ns"] < 103000000, w
	assert m["lasting_windows"] == 0, m
	PY
'

test_done
