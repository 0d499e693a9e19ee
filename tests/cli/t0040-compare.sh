#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compare: per-name run time, wake-ups, latency, migrations and switches of
# both traces agree with an independent computation over 'trace-cmd report
# -t' (scripts/compare-ref.py); a trace against itself differs nowhere;
# text fits 100 columns; bad input fails with exit status 2.
. "$(dirname "$0")/lib.sh"

REF=$SRC_DIR/scripts/compare-ref.py
CHECK=$SRC_DIR/scripts/compare-check.py

# agree A B: both sides of 'compare --json A B' match the reference
agree() {
	cfsreplay compare --json "$1" "$2" >cmp.json &&
	python3 "$REF" "$1" >ref-a.json && python3 "$REF" "$2" >ref-b.json &&
	python3 "$CHECK" cmp.json 0 ref-a.json && python3 "$CHECK" cmp.json 1 ref-b.json
}

# self_zero T: T against itself: both sides equal, every difference zero
self_zero() {
	cfsreplay compare --json "$1" "$1" >self.json &&
	python3 -c '
import json, sys
d = json.load(open("self.json"))
a, b = d["traces"]
a.pop("file"); b.pop("file")
assert a == b, "machine sides differ"
assert d["format_version"] == 6
assert d["tasks"], "no tasks"
for t in d["tasks"]:
    assert t["a"] == t["b"], t["comm"]
    assert t["share_diff"] == 0, t["comm"]
assert sum(t["a"]["runtime_ns"] for t in d["tasks"]) == a["busy_ns"]
'
}

test_expect_success 'periodic vs v6: both sides agree with trace-cmd report' "
	agree '$TRACES/periodic.dat' '$TRACES/v6.dat'
"
test_expect_success 'cgroups vs periodic: both sides agree with trace-cmd report' "
	agree '$TRACES/cgroups.dat' '$TRACES/periodic.dat'
"
test_expect_success 'a trace against itself: every difference is zero' "
	self_zero '$TRACES/periodic.dat' && self_zero '$TRACES/cgroups.dat'
"
test_expect_success 'one trace as trace.dat and as trace-cmd report text: same numbers' "
	trace-cmd report -t '$TRACES/v6.dat' >v6.txt 2>/dev/null &&
	cfsreplay compare --json '$TRACES/v6.dat' v6.txt >rt.json &&
	python3 -c '
import json
d = json.load(open(\"rt.json\"))
a, b = d[\"traces\"]
for k in (\"span_ns\", \"busy_ns\", \"cpus\", \"migrations\", \"inferred_switches\", \"latency\"):
    assert a[k] == b[k], k
for t in d[\"tasks\"]:
    assert t[\"a\"] == t[\"b\"], t[\"comm\"]
'
"
test_expect_success 'run time from switches agrees with sched_stat_runtime within 2 %' "
	for t in periodic v6 cgroups; do
		cfsreplay compare --json '$TRACES/'\$t.dat '$TRACES/'\$t.dat >x.json &&
		python3 -c '
import json
d = json.load(open(\"x.json\"))
r = sum(t[\"a\"][\"runtime_ns\"] for t in d[\"tasks\"])
s = sum(t[\"a\"][\"stat_runtime_ns\"] for t in d[\"tasks\"])
print(\"run time %d ns, sched_stat_runtime %d ns\" % (r, s))
assert r > 10**9 and abs(s - r) < 0.02 * r
' || exit 1
	done
"
test_expect_success 'perf.data input: the workload names are matched' "
	cfsreplay compare --json '$TRACES/periodic.perf.data' '$TRACES/periodic.perf.data' >p.json &&
	python3 -c '
import json
d = json.load(open(\"p.json\"))
names = {t[\"comm\"] for t in d[\"tasks\"]}
assert {\"cfsr-p20\", \"cfsr-p50\", \"cfsr-p80\", \"cfsr-p50n5\"} <= names, names
'
"
test_expect_success 'one workload, spin-b at nice 0 then nice 5: compare shows the change' "
	cfsreplay compare --json '$TRACES/spin-nice0.perf.data' '$TRACES/spin-nice5.perf.data' >n.json &&
	python3 -c '
import json
d = json.load(open(\"n.json\"))
t = {x[\"comm\"]: x for x in d[\"tasks\"]}
ratio = [t[\"spin-b\"][s][\"runtime_ns\"] / t[\"spin-a\"][s][\"runtime_ns\"] for s in \"ab\"]
print(\"spin-b / spin-a run time: nice 0 %.3f, nice 5 %.3f (weights: 1, %.3f)\" % (ratio[0], ratio[1], 335 / 1024))
# equal weights share CPU 0 about equally; 335 against 1024 cuts spin-b to about a third
assert 0.75 < ratio[0] < 1.33, ratio
assert 0.2 < ratio[1] < 0.6, ratio
assert ratio[1] < 0.6 * ratio[0], ratio
'
"
test_expect_success 'text: 100 columns, --top N names, the comparator rows' "
	cfsreplay compare --top 3 '$TRACES/periodic.dat' '$TRACES/v6.dat' >out.txt &&
	awk 'length(\$0) > 100 { print; bad = 1 } END { exit bad }' out.txt &&
	grep -q '^idle while waiting, cpu  *[0-9.]* ms  *[0-9.]* ms' out.txt &&
	grep -q '^lasting imbalance  *[0-9.]* ms  *[0-9.]* ms' out.txt &&
	grep -q '^  wakeup  *[0-9]*/[0-9]* ([0-9.]* %)  *[0-9]*/[0-9]* ([0-9.]* %)' out.txt &&
	grep -q '^fidelity, task updates  *- (no kernel records beside)' out.txt &&
	test \$(sed -n '/^CPU time per name/,/^\$/p' out.txt | wc -l) -eq 6
"
test_expect_success '--top orders names by the difference of CPU share' "
	cfsreplay compare --json '$TRACES/periodic.dat' '$TRACES/v6.dat' >cmp.json &&
	python3 -c '
import json
d = json.load(open(\"cmp.json\"))
a, b = d[\"traces\"]
cap = lambda s: s[\"span_ns\"] * s[\"nr_cpus\"]
prev = 1.0
for t in d[\"tasks\"]:
    x = t[\"a\"][\"runtime_ns\"] / cap(a) if t[\"a\"] else 0
    y = t[\"b\"][\"runtime_ns\"] / cap(b) if t[\"b\"] else 0
    assert abs(abs(x - y) - t[\"share_diff\"]) < 1e-12, t
    assert t[\"share_diff\"] <= prev
    prev = t[\"share_diff\"]
assert \"not_yet\" not in d
assert a[\"fidelity\"] is None and b[\"fidelity\"] is None
'
"
test_expect_success "each trace's comparators are the report's of that trace" "
	cfsreplay compare --json '$TRACES/pinned.dat' '$TRACES/unpinned.dat' >cmp.json &&
	cfsreplay report --json '$TRACES/pinned.dat' >ra.json &&
	cfsreplay report --json '$TRACES/unpinned.dat' >rb.json &&
	python3 -c '
import json
d = json.load(open(\"cmp.json\"))
for side, rep in zip(d[\"traces\"], (\"ra.json\", \"rb.json\")):
    r = json.load(open(rep))
    c = side[\"comparators\"]
    assert side[\"no_comparators\"] is None
    assert c[\"model\"] == r[\"trace\"][\"model\"]
    for k, v in c[\"idle_while_waiting\"].items():
        assert v == r[\"idle_while_waiting\"][k], k
    for k, v in c[\"lasting_imbalance\"].items():
        want = r[\"lasting_imbalance\"][\"lasting_windows\" if k == \"lasting_windows\" else k]
        assert v == want, k
    assert c[\"placement\"] == r[\"placement\"][\"counts\"], (c[\"placement\"], r[\"placement\"][\"counts\"])
    assert c[\"pick_check\"] == r[\"pick_check\"][\"total\"], (c[\"pick_check\"], r[\"pick_check\"])
a, b = (t[\"comparators\"] for t in d[\"traces\"])
# pinned workers: idle-while-waiting affinity-bound; unpinned: none of it
assert a[\"idle_while_waiting\"][\"affinity_bound_cpu_ns\"] > 400000000
assert b[\"idle_while_waiting\"][\"affinity_bound_cpu_ns\"] == 0
' &&
	python3 '$SRC_DIR/scripts/imbalance-trace.py' four-one >synth.txt 2>/dev/null &&
	cfsreplay compare --json synth.txt '$TRACES/pinned.dat' >nk.json &&
	python3 -c '
import json
a, b = json.load(open(\"nk.json\"))[\"traces\"]
assert a[\"comparators\"] is None and \"kernel\" in a[\"no_comparators\"], a
assert b[\"comparators\"] is not None
' &&
	cfsreplay compare --json '$TRACES/recorded.dat' '$TRACES/pinned.dat' >fd.json &&
	cfsreplay report --json '$TRACES/recorded.dat' >fr.json &&
	python3 -c '
import json
a, b = json.load(open(\"fd.json\"))[\"traces\"]
r = json.load(open(\"fr.json\"))
assert a[\"fidelity\"] == r[\"fidelity\"], a
assert b[\"fidelity\"] is None
# a recorded trace: both take its own clock readings and groups
for k, v in a[\"comparators\"][\"idle_while_waiting\"].items():
    assert v == r[\"idle_while_waiting\"][k], k
assert a[\"comparators\"][\"placement\"] == r[\"placement\"][\"counts\"]
assert a[\"comparators\"][\"lasting_imbalance\"][\"allowed_ns\"] == r[\"lasting_imbalance\"][\"allowed_ns\"]
'
"
test_expect_success 'one unreadable trace: one error line naming it, exit 2' "
	cfsreplay compare '$TRACES/periodic.dat' nosuch.dat >out 2>err; test \$? -eq 2 &&
	test ! -s out && test \$(grep -vc '^==' err) -eq 1 && grep -q \"'nosuch.dat'\" err &&
	cfsreplay compare '$TRACES/nosched.dat' '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	test ! -s out && grep -q 'nosched.dat' err
"
test_expect_success 'usage errors: one trace, bad --top' "
	cfsreplay compare '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	cfsreplay compare --top x '$TRACES/periodic.dat' '$TRACES/v6.dat' >out 2>err; test \$? -eq 2 &&
	grep -q -- '--top' err
"
if [ -f "$SHARED_TRACES/periodic/trace.dat" ] && [ -f "$SHARED_TRACES/nice/trace.dat" ]; then
	test_expect_success 'recorded periodic vs nice: both sides agree with trace-cmd report' "
		agree '$SHARED_TRACES/periodic/trace.dat' '$SHARED_TRACES/nice/trace.dat'
	"
	test_expect_success 'recorded nice run: weights set the fair shares' "
		cfsreplay compare --json '$SHARED_TRACES/periodic/trace.dat' '$SHARED_TRACES/nice/trace.dat' >cmp.json &&
		python3 -c '
import json
d = json.load(open(\"cmp.json\"))
t = {x[\"comm\"]: x for x in d[\"tasks\"]}
# wl1 runs 100 % at nice 10: in the nice run, far above its fair share
b = t[\"wl1\"][\"b\"]
assert b[\"runtime_ns\"] > b[\"fair_ns\"], b
# preempted far more often than in the periodic run (nice 0, 6.7 % duty)
assert b[\"switches_preempted\"] > 10 * t[\"wl1\"][\"a\"][\"switches_preempted\"]
'
	"
else
	test_skip 'recorded periodic vs nice' "no $SHARED_TRACES"
	test_skip 'recorded nice run: weights set the fair shares' "no $SHARED_TRACES"
fi
if [ -f "$SHARED_TRACES/cgroups/trace.dat" ]; then
	test_expect_success 'recorded cgroups run against itself and against trace-cmd report' "
		self_zero '$SHARED_TRACES/cgroups/trace.dat' &&
		agree '$SHARED_TRACES/cgroups/trace.dat' '$SHARED_TRACES/periodic-bpf/trace.dat'
	"
else
	test_skip 'recorded cgroups run' "no $SHARED_TRACES"
fi
test_done
