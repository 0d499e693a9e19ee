#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report on the controlled workloads of traces/README.md (pinned.dat,
# unpinned.dat, forkburst.dat, shares.dat, recorded with
# scripts/record-comparator.sh):
# each comparator must find what the workload built in, checked against
# scripts/idlewait-check.py and against counts from `trace-cmd report`.
. "$(dirname "$0")/lib.sh"

if ! command -v trace-cmd >/dev/null; then
	test_skip 'controlled workloads' 'trace-cmd is not installed'
	test_done
fi

# count_events TRACE NAME: records of event NAME, by trace-cmd
count_events() {
	trace-cmd report -N "$1" 2>/dev/null | grep -c " $2: " || true
}

for t in pinned unpinned forkburst shares; do
	test_expect_success "$t.dat: totals and placements match the independent script" "
		agrees_with_script '$TRACES/$t.dat'
	"
done

test_expect_success 'pinned.dat: the three workers are known pinned, by marker and syscall' "
	cfsreplay report --json '$TRACES/pinned.dat' >r.json &&
	calls=\$(count_events '$TRACES/pinned.dat' sys_enter_sched_setaffinity) &&
	marks=\$(trace-cmd report -N '$TRACES/pinned.dat' | grep -c 'cfsr-affinity pid=[0-9]* cpus=0') &&
	test \$marks -eq 3 && test \$calls -ge 3 &&
	python3 -c '
import json, sys
w = json.load(open(\"r.json\"))[\"idle_while_waiting\"]
assert w[\"affinity_markers\"] == int(sys.argv[1]), w[\"affinity_markers\"]
assert w[\"affinity_changes\"] == int(sys.argv[2]), w[\"affinity_changes\"]
assert w[\"bad_affinity_markers\"] == 0
' \$marks \$calls
"
# What pinned.dat was built for: CPU 0 overloaded by the workers while CPU 1
# idles, all of it affinity-bound.  It needs CPU 1 to have idled while the
# trace was recorded; on a machine saturated by other work it never does
# (traces/README.md), and then there is nothing to check.
idle1=$(cfsreplay report --json "$TRACES/pinned.dat" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["cpus"][1]["idle_ns"])')
if [ "${idle1:-0}" -gt 0 ]; then
	test_expect_success 'pinned.dat: CPU 1 idling beside the pinned workers is affinity-bound' "
		cfsreplay report --json --top 1000 '$TRACES/pinned.dat' >r.json &&
		python3 -c '
import json
w = json.load(open(\"r.json\"))[\"idle_while_waiting\"]
busy = [e for e in w[\"top\"] if all(t[\"comm\"].startswith(\"cfsr-busy\") for t in e[\"waiting\"])]
assert busy, \"no episode with only the workers waiting\"
for e in busy:
    assert e[\"class\"] == \"affinity-bound\" and e[\"idle_cpu\"] == 1 and e[\"overloaded_cpu\"] == 0, e
    assert {t[\"affinity\"] for t in e[\"waiting\"]} == {\"marker\"}, e
    assert e[\"allowed_cpu_ns\"] == 0, e
'
	"
else
	test_skip 'pinned.dat: CPU 1 idling beside the pinned workers is affinity-bound' \
		'CPU 1 never idled while pinned.dat was recorded (machine saturated)'
fi
test_expect_success 'unpinned.dat: no affinity, nothing affinity-bound' "
	cfsreplay report --json '$TRACES/unpinned.dat' >r.json &&
	test \$(count_events '$TRACES/unpinned.dat' sys_enter_sched_setaffinity) -eq 0 &&
	python3 -c '
import json
w = json.load(open(\"r.json\"))[\"idle_while_waiting\"]
assert w[\"affinity_changes\"] == 0 and w[\"affinity_markers\"] == 0
assert w[\"unknown_affinity_cpu_ns\"] == 0
# only per-CPU kernel threads can be bound here
assert w[\"affinity_bound_cpu_ns\"] <= 10**6, w
'
"
test_expect_success 'forkburst.dat: every fork is judged; a diverging fork left a CPU idle' "
	cfsreplay report --json --top 1000 '$TRACES/forkburst.dat' >r.json &&
	forks=\$(count_events '$TRACES/forkburst.dat' sched_wakeup_new) &&
	children=\$(trace-cmd report -N '$TRACES/forkburst.dat' | grep -c 'cfsr-task pid=[0-9]* comm=cfsr-child') &&
	test \$children -eq 24 && test \$forks -ge 24 &&
	python3 -c '
import json, sys
p = json.load(open(\"r.json\"))[\"placement\"]
assert sum(p[\"counts\"][\"fork\"].values()) == int(sys.argv[1]), p[\"counts\"][\"fork\"]
for x in p[\"top\"]:
    if x[\"kind\"] == \"fork\":
        # a diverging fork left an idle CPU: the rule prefers it
        assert [c[\"state\"] for c in x[\"cpus\"] if c[\"cpu\"] == x[\"preferred_cpu\"]] == [\"idle\"]
' \$forks
"
# What shares.dat was built for: groups of cpu.shares 2048 and 64, two busy
# workers each, on 2 CPUs.  The shares, not the task count, decide: each
# heavy worker runs far more than each light one (run time from the
# independent scripts/compare-ref.py over trace-cmd report), and both CPUs
# stay busy: no idle-while-waiting episode outlives the balance interval.
test_expect_success 'shares.dat: the heavy group runs, the light one waits; no long idle' "
	python3 '$SRC_DIR/scripts/compare-ref.py' '$TRACES/shares.dat' >ref.json &&
	marks=\$(trace-cmd report -N '$TRACES/shares.dat' | grep -c 'cfsr-mkdir path=/cfsr-\\(heavy\\|light\\)') &&
	test \$marks -eq 2 &&
	cfsreplay report --json '$TRACES/shares.dat' >r.json &&
	python3 -c '
import json
ref = json.load(open(\"ref.json\"))
run = {c: t[\"runtime_ns\"] for c, t in ref[\"tasks\"].items()}
heavy = [run[\"cfsr-heavy%d\" % i] for i in range(2)]
light = [run[\"cfsr-light%d\" % i] for i in range(2)]
assert min(heavy) > 10 * max(light), (heavy, light)
w = json.load(open(\"r.json\"))[\"idle_while_waiting\"]
assert w[\"long_episodes\"] == 0, w[\"long_episodes\"]
'
"
test_done
