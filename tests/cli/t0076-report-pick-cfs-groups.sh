#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The CFS pick through group entities (--kernel 5.15: pick_next_entity()
# level by level over the group entities' CFS vruntimes).
#  - On a synthetic trace of two groups on one CPU (scripts/cfs-group-trace.py:
#    /A with cpu.shares 2048, /B with 512, made in the trace), every pick
#    through the groups is the one scripts/cfs-group-ref.py works out from
#    the events alone (the group entities' vruntimes at their shares'
#    weights, the sleeper floor, the next buddy a sleep leaves): the same
#    divergences with the same vruntime differences, and the same counts
#    (by hand: seven contested picks, one of them the buddy's, two
#    divergences at the root).
#  - On the bundled traces with groups, no pick is left "task-groups" any
#    more: far fewer are left unjudged than the EEVDF check makes through
#    group entities on the same switches.
. "$(dirname "$0")/lib.sh"

GEN=$SRC_DIR/scripts/cfs-group-trace.py
REF=$SRC_DIR/scripts/cfs-group-ref.py

test_expect_success 'two groups on one CPU: CFS picks against the independent script' '
	python3 "$GEN" >g.txt &&
	python3 "$REF" <g.txt >ref.txt &&
	test $(wc -l <ref.txt) -eq 7 &&
	cfsreplay report --kernel 5.15 --json --top 100000 g.txt >g.json &&
	python3 "$SRC_DIR/scripts/cfs-pick-check.py" g.json ref.txt 5 2 &&
	python3 - <<-PY
	import json
	p = json.load(open("g.json"))["pick_check"]
	t = p["total"]
	assert t["groups_contested"] == t["contested"] == 7, t
	assert p["reasons"]["buddy"] == 1 and p["reasons"]["task-groups"] == 0, p["reasons"]
	for d in p["top"]:
	    assert d["level"] == 0 and d["cfs_rq"] == "/", d
	    assert d["ran"]["group"] == "/B" and d["preferred"]["group"] == "/A", d
	PY
'

test_expect_success 'the same trace, text: the level and groups of each divergence' '
	cfsreplay report --kernel 5.15 g.txt >g.out &&
	grep -q "level 0, cfs_rq /: ran /B, preferred /A" g.out &&
	grep -q "through group entities: 7 contested, 5 agree" g.out
'

# judged TRACE: under 5.15 no pick is "task-groups", some go through group entities,
# and fewer are left unjudged than the EEVDF check judges through group entities
judged() {
	cfsreplay report --json --kernel 5.15 "$1" >c.json &&
	cfsreplay report --json "$1" >e.json &&
	python3 - <<-PY
	import json
	c = json.load(open("c.json"))["pick_check"]
	e = json.load(open("e.json"))["pick_check"]
	assert c["pick"] == "cfs" and e["pick"] == "eevdf", (c["pick"], e["pick"])
	assert c["reasons"]["task-groups"] == 0, c["reasons"]
	assert c["total"]["groups_contested"] > 0, c["total"]
	assert c["total"]["cannot_judge"] < e["total"]["groups_contested"], (c["total"], e["total"])
	t = c["total"]
	assert t["switches"] == t["trivial"] + t["contested"] + t["cannot_judge"], t
	print("# %s: %d contested through groups, %d cannot judge (EEVDF through groups %d)"
	      % ("$1", t["groups_contested"], t["cannot_judge"], e["total"]["groups_contested"]))
	PY
}

test_expect_success 'cgroups.dat: CFS picks through group entities judged' '
	judged "$TRACES/cgroups.dat"
'

test_expect_success 'shares.dat: CFS picks through group entities judged' '
	judged "$TRACES/shares.dat"
'

test_done
