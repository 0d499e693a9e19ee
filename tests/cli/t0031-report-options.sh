#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report: the JSON keys of docs/cfsreplay-output.5.txt, 100 columns of
# text, --top, --cpu, --pid and --time, placement counts against the event
# counts of `trace-cmd report` (traces/*.counts), and bad input.
. "$(dirname "$0")/lib.sh"

test_expect_success 'JSON has every documented key' "
	cfsreplay report --json '$TRACES/periodic.dat' >r.json &&
	python3 -c '
import json
d = json.load(open(\"r.json\"))
assert list(d)[0] == \"format_version\" and d[\"format_version\"] == 8
assert set(d) == {\"format_version\", \"command\", \"trace\", \"filters\", \"load_kind\", \"groups\", \"cpus\",
                  \"idle_while_waiting\", \"lasting_imbalance\", \"kernel_loads\", \"placement\", \"pick_check\",
                  \"fidelity\"}, set(d)
p = d[\"pick_check\"]
assert set(p) == {\"rule\", \"pick\", \"task_groups\", \"total\", \"cpus\", \"reasons\", \"top\"}, set(p)
for c in [p[\"total\"]] + p[\"cpus\"]:
    assert set(c) - {\"cpu\"} == {\"switches\", \"trivial\", \"contested\", \"agrees\", \"diverges\",
                                \"cannot_judge\", \"agree_permille\", \"groups_contested\",
                                \"groups_agrees\"}, set(c)
for e in p[\"top\"]:
    assert set(e) == {\"ts_ns\", \"cpu\", \"reason\", \"prev_pid\", \"ran\", \"preferred\",
                      \"avg_vruntime\", \"nr_runnable\", \"size\"}, set(e)
    for k in (\"ran\", \"preferred\"):
        assert set(e[k]) == {\"pid\", \"comm\", \"vruntime\", \"deadline\", \"eligible\"}, e
# no kernel records beside periodic.dat: no fidelity
assert d[\"fidelity\"] is None
assert d[\"load_kind\"] == \"root-cfs_rq-load_avg\"
# periodic.dat names no task group: every task in the root group
assert d[\"groups\"] == {\"groups\": 0, \"snapshot_tasks\": 0, \"marker_moves\": 0,
                        \"shares_given\": 0, \"shares\": {}, \"bad_markers\": 0,
                        \"cgroup_attaches\": 0, \"perf_cgroup_membership\": None}, d[\"groups\"]
assert set(d[\"trace\"]) == {\"file\", \"reader\", \"kernel_release\", \"model\", \"what_if\", \"nr_cpus\", \"clock\",
                           \"first_ts_ns\", \"last_ts_ns\", \"events\", \"lost_notices\"}
assert [c[\"cpu\"] for c in d[\"cpus\"]] == [0, 1]
for c in d[\"cpus\"]:
    assert set(c) == {\"cpu\", \"busy_ns\", \"idle_ns\", \"overloaded_ns\", \"pending_ns\", \"unknown_ns\",
                      \"load_mean\"}
    span = d[\"trace\"][\"last_ts_ns\"] - d[\"trace\"][\"first_ts_ns\"]
    # busy includes overloaded: the states partition the span
    assert c[\"busy_ns\"] + c[\"idle_ns\"] + c[\"pending_ns\"] + c[\"unknown_ns\"] == span, c
w = d[\"idle_while_waiting\"]
for k in (\"wall_ns\", \"cpu_ns\", \"allowed_cpu_ns\", \"unknown_affinity_cpu_ns\", \"affinity_bound_cpu_ns\",
          \"balance_interval_ns\", \"hz_assumed\", \"episodes\", \"long_episodes\", \"long_ns\", \"long_cpu_ns\",
          \"transient_episodes\", \"transient_ns\", \"transient_cpu_ns\", \"longest_ns\", \"known_from_ns\",
          \"unseen_waiters\", \"unseen_switch_outs\", \"lost_notices\", \"affinity_changes\",
          \"affinity_markers\", \"bad_affinity_markers\", \"top\"):
    assert k in w, k
assert w[\"episodes\"] == w[\"long_episodes\"] + w[\"transient_episodes\"]
assert w[\"wall_ns\"] == w[\"long_ns\"] + w[\"transient_ns\"]
assert len(w[\"top\"]) == 10 and w[\"top\"][0][\"duration_ns\"] == w[\"longest_ns\"]
p = d[\"placement\"]
assert set(p[\"counts\"]) == {\"wakeup\", \"fork\", \"migration\", \"exec\"}
assert set(p[\"reasons\"]) == {\"wakeup\", \"fork\", \"migration\", \"exec\"}
assert set(p[\"reasons\"][\"fork\"]) == {\"idle-chosen\", \"no-idle-target\", \"fewest-tasks\", \"pull-from-busier\",
    \"idle-skipped\", \"not-fair\", \"state-unknown\", \"affinity-unknown\", \"other-target\", \"load-rule\",
    \"not-waiting\", \"load-balance\", \"outside-llc\", \"wake-affine\", \"idler-group\",
    \"no-balance-domain\", \"outside-domain\", \"balance-wake\"}
# periodic.dat has no caches: one LLC, one domain level
assert p[\"llc\"] == \"all-cpus-assumed\" and \"llc_spans\" not in p
assert [l[\"name\"] for l in d[\"lasting_imbalance\"][\"levels\"]] == [\"ALL\"]
for k in p[\"counts\"]:
    assert sum(p[\"reasons\"][k].values()) == sum(p[\"counts\"][k].values())
for x in p[\"top\"]:
    assert x[\"reason\"] == \"idle-skipped\" and x[\"preferred_cpu\"] != x[\"to_cpu\"]
    assert [c[\"state\"] for c in x[\"cpus\"] if c[\"cpu\"] == x[\"preferred_cpu\"]] == [\"idle\"]
'
"
test_expect_success 'every fork is judged: one decision per sched_wakeup_new' "
	for t in periodic cgroups v6; do
		cfsreplay report --json '$TRACES/'\$t.dat >r.json &&
		want=\$(awk '\$1 == \"sched_wakeup_new\" { print \$2 }' '$TRACES/'\$t.counts) &&
		got=\$(python3 -c 'import json; print(sum(json.load(open(\"r.json\"))[\"placement\"][\"counts\"][\"fork\"].values()))') &&
		test \"\$got\" = \"\$want\" || return 1
	done
"
test_expect_success 'wakeups judged never exceed the sched_wakeup events' "
	cfsreplay report --json '$TRACES/periodic.dat' >r.json &&
	want=\$(awk '\$1 == \"sched_wakeup\" { print \$2 }' '$TRACES/periodic.counts') &&
	got=\$(python3 -c 'import json; print(sum(json.load(open(\"r.json\"))[\"placement\"][\"counts\"][\"wakeup\"].values()))') &&
	test \$got -le \$want && test \$got -gt \$((want / 2))
"
test_expect_success 'text fits in 100 columns' "
	for t in periodic cgroups v6; do
		cfsreplay '$TRACES/'\$t.dat >out && test \$(wc -l <out) -gt 30 &&
		! awk 'length > 100' out | grep . || return 1
	done
"
test_expect_success '--top limits both lists; --top 0 lists none' "
	cfsreplay report --json --top 2 '$TRACES/periodic.dat' >r.json &&
	python3 -c '
import json
d = json.load(open(\"r.json\"))
assert len(d[\"idle_while_waiting\"][\"top\"]) == 2 and len(d[\"placement\"][\"top\"]) == 2
' &&
	cfsreplay report --top 0 '$TRACES/periodic.dat' >out && ! grep -q 'longest episodes' out
"
test_expect_success '--pid keeps that task; --cpu keeps that CPU' "
	cfsreplay report --json --pid 12287 '$TRACES/periodic.dat' >r.json &&
	python3 -c '
import json
d = json.load(open(\"r.json\"))
assert d[\"filters\"][\"pid\"] == 12287
assert d[\"idle_while_waiting\"][\"top\"]
for e in d[\"idle_while_waiting\"][\"top\"]:
    assert 12287 in [w[\"pid\"] for w in e[\"waiting\"]]
for x in d[\"placement\"][\"top\"]:
    assert x[\"pid\"] == 12287
' &&
	cfsreplay report --json --cpu 1 '$TRACES/periodic.dat' >r.json &&
	python3 -c '
import json
d = json.load(open(\"r.json\"))
assert [c[\"cpu\"] for c in d[\"cpus\"]] == [1]
for x in d[\"placement\"][\"top\"]:
    assert 1 in (x[\"from_cpu\"], x[\"to_cpu\"])
'
"
test_expect_success '--time counts only the window' "
	cfsreplay report --json --time 10804.5, '$TRACES/periodic.dat' >r.json &&
	python3 -c '
import json
d = json.load(open(\"r.json\"))
assert d[\"filters\"][\"start_ns\"] == 10804500000000 and d[\"filters\"][\"end_ns\"] is None
span = d[\"trace\"][\"last_ts_ns\"] - 10804500000000
for c in d[\"cpus\"]:
    assert c[\"busy_ns\"] + c[\"idle_ns\"] + c[\"pending_ns\"] + c[\"unknown_ns\"] == span
for e in d[\"idle_while_waiting\"][\"top\"]:
    assert e[\"start_ns\"] >= 10804500000000
'
"
test_expect_success 'bad options and a trace without scheduler events: exit 2' "
	for opt in '--time 5' '--time 3,2' '--time x,' '--top -1' '--cpu 2' '--pid 0' '--bogus'; do
		cfsreplay report \$opt '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
		test ! -s out && test -s err || return 1
	done &&
	cfsreplay report '$TRACES/nosched.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'no scheduler events' err && test ! -s out
"
test_expect_success 'fidelity: the lock-step of validate, when the kernel records lie beside' "
	cfsreplay report --json '$TRACES/recorded.dat' >rf.json &&
	cfsreplay validate '$TRACES/recorded.dat' >v.txt &&
	python3 -c '
import json, re
f = json.load(open(\"rf.json\"))[\"fidelity\"]
v = open(\"v.txt\").read()
assert f[\"pelt_file\"].endswith(\"recorded.pelt.jsonl.gz\"), f
for kind in (\"task\", \"group entity\", \"root cfs_rq\", \"group cfs_rq\"):
    m = re.search(r\"^%s updates compared: (\\d+), all fields exact: (\\d+)\" % kind, v, re.M)
    assert m, kind
    assert (f[\"kinds\"][kind][\"compared\"], f[\"kinds\"][kind][\"exact\"]) == (int(m.group(1)), int(m.group(2))), kind
' &&
	cfsreplay report '$TRACES/recorded.dat' >rf.txt &&
	grep -q '^model fidelity' rf.txt && grep -q '^  task  *[0-9.]* % of [0-9]* updates' rf.txt &&
	grep -q '^  - PELT clock: [0-9]* task updates' rf.txt &&
	grep -q 'the model took the clock readings and task groups of the snapshots' rf.txt &&
	cfsreplay report '$TRACES/periodic.dat' >rp.txt &&
	grep -q 'on the trace clock before any anchor' rp.txt && ! grep -q 'snapshots the' rp.txt
"
test_expect_success 'unusable kernel records beside: the report stands, the error is said' "
	cp '$TRACES/recorded.dat' x.dat &&
	head -c 5000 '$TRACES/recorded.pelt.jsonl.gz' >x.pelt.jsonl.gz &&
	cfsreplay report x.dat >x.out 2>x.err &&
	grep -q 'truncated' x.err && grep -q 'could not be' x.out && grep -q '^lasting imbalance' x.out &&
	cfsreplay report --json x.dat >x.json 2>/dev/null &&
	python3 -c 'import json; assert json.load(open(\"x.json\"))[\"fidelity\"] is None'
"
test_done
