#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pick check under a CFS model (--kernel 5.15: pick_next_entity() over
# the CFS vruntimes) on bundled traces, against scripts/cfs-pick-ref.py,
# which replays the CFS vruntime rules on `trace-cmd report -t` output
# independently of the C code and prints, for every switch with two
# runnable fair tasks or more of known vruntime, the task run and the
# leftmost.  The traces were recorded on 6.18 (EEVDF): the CFS verdicts
# are a what-if, but the rule and its vruntimes are the same either way.
#  - every divergence the report lists ("not-leftmost") is one of the
#    script's, with the same task run, the same leftmost and the same
#    vruntime difference (exact integer arithmetic, nice 5 included), and
#    the counts agree as scripts/cfs-pick-check.py says;
#  - compare --kernel 5.15 --kernel 6.18 shows per CPU the verdicts report
#    gives under each model.
. "$(dirname "$0")/lib.sh"

REF=$SRC_DIR/scripts/cfs-pick-ref.py

# against_ref TRACE MIN_AGREES MIN_DIVERGES
against_ref() {
	trace-cmd report -t "$1" 2>/dev/null | python3 "$REF" >ref.txt &&
	cfsreplay report --kernel 5.15 --json --top 100000 "$1" >c.json &&
	python3 "$SRC_DIR/scripts/cfs-pick-check.py" c.json ref.txt "$2" "$3"
}

if ! command -v trace-cmd >/dev/null; then
	test_skip 'CFS picks against the independent script' 'trace-cmd not installed'
else
	test_expect_success 'periodic.dat: CFS verdicts against the independent script' '
		against_ref "$TRACES/periodic.dat" 300 20
	'
	test_expect_success 'v6.dat: CFS verdicts against the independent script' '
		against_ref "$TRACES/v6.dat" 300 20
	'
	test_expect_success 'unpinned.dat: CFS verdicts against the independent script' '
		against_ref "$TRACES/unpinned.dat" 40 20
	'
fi

test_expect_success 'compare --kernel: each model'"'"'s verdicts per CPU are report'"'"'s' '
	cfsreplay compare --json --kernel 5.15 --kernel 6.18 "$TRACES/periodic.dat" >m.json &&
	cfsreplay report --json --kernel 5.15 "$TRACES/periodic.dat" >a.json &&
	cfsreplay report --json --kernel 6.18 "$TRACES/periodic.dat" >b.json &&
	python3 - <<-PY
	import json
	m = json.load(open("m.json"))["models"]
	for model, f, pick in ((m[0], "a.json", "cfs"), (m[1], "b.json", "eevdf")):
	    r = json.load(open(f))["pick_check"]
	    pc = model["pick_check"]
	    assert pc["pick"] == pick, pc["pick"]
	    assert pc["total"] == r["total"] and pc["reasons"] == r["reasons"], (pc, r)
	    assert pc["cpus"] == r["cpus"], (pc["cpus"], r["cpus"])
	# the two rules judge the same switches differently
	assert m[0]["pick_check"]["total"] != m[1]["pick_check"]["total"]
	PY
'

test_expect_success 'compare --kernel text: both models per CPU, within 100 columns' '
	cfsreplay compare --kernel 5.15 --kernel 6.18 "$TRACES/periodic.dat" >m.out &&
	grep -q "^pick check (each model" m.out &&
	grep -q "^  CPU 0    A  " m.out && grep -q "^  all      A  " m.out &&
	grep -q "^  A cannot judge: .*buddy-unknown" m.out &&
	test $(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" m.out) -le 100
'

test_done
